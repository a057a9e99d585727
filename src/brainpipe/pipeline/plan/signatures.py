"""The rules' input, params, resources and group functions, each inspected once per parse instead of at every call.

Snakemake passes such a function only the arguments its signature names (wildcards, input, threads, ...), and reads
that signature with ``inspect.signature`` at every call, twice for an input function, and once more for every
resource of every job, through the resource's own ``evaluate`` method (snakemake/snakemake
``src/snakemake/common/__init__.py``: ``get_function_params``, ``get_input_function_aux_params``; ``rules.py``:
``apply_input_function``, ``expand_resources``; ``resources.py``: ``Resource.evaluate``). ``get_function_params``
first looks for the function's attribute ``_overwrite_params`` (``FUNC_OVERWRITE_PARAMS_ATTR``, which Snakemake's own
wrappers such as ``subpath`` set): ``remember_signatures`` sets it to the very mapping ``inspect.signature`` returns,
so Snakemake passes the same arguments as before, read once. An older or newer Snakemake without that attribute
inspects each call, as before: the plan is the same either way (tests/pipeline/test_signatures.py; perf/dump_jobs.py
finds the 4,198 jobs of a 3-model grid identical with and without it).

Measured (perf/bench_planning.py, 2026-11-29, load 1.0): ``snakemake -n`` of 50 models × the suite, 55,522 jobs,
161.1 s before, 139.3 s after; 10 models 31.9 s before, 28.1 s after.

No Snakemake import: the rule objects are read by the attributes they have (``input``, ``params``, ``resources``,
``_group``; Snakemake wraps an input function in an object whose ``callable``, or whose file's ``callable``, is the
function, and a resources function in a ``Resource`` whose ``_evaluator`` is).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator, Mapping

SNAKEMAKE_PARAMS_ATTRIBUTE = "_overwrite_params"  # snakemake.common.FUNC_OVERWRITE_PARAMS_ATTR


def unwrapped(item) -> Callable | None:
    """The function behind a rule's input, params or resources item; None for a plain value (a path, a number)."""
    for candidate in (getattr(getattr(item, "_file", None), "callable", None), getattr(item, "callable", None),
                      getattr(item, "_evaluator", None)):
        if callable(candidate):
            return candidate
    if callable(item) and not isinstance(item, (str, bytes, type)):
        return item
    return None


def rule_functions(rules: Iterable) -> Iterator[Callable]:
    """Every function the given rules call while planning: their input, params, resources and group functions."""
    for rule in rules:
        resources = getattr(rule, "resources", None) or {}
        items = [*getattr(rule, "input", ()), *getattr(rule, "params", ()),
                 *(resources.values() if isinstance(resources, Mapping) else ()),
                 # the group as set; Snakemake's ``group`` property answers None until it knows the executor
                 getattr(rule, "_group", None)]
        for item in items:
            function = unwrapped(item)
            if function is not None:
                yield function
        # Snakemake evaluates every resource (a number too) through the resource's own method ``evaluate``, by the
        # same signature reading: a quarter of a plan's readings. One class function for all resources: remembered once.
        for resource in resources.values() if isinstance(resources, Mapping) else ():
            evaluate = getattr(resource, "evaluate", None)
            if callable(evaluate):
                yield evaluate


def remember_signatures(functions: Iterable[Callable]) -> int:
    """Stores each function's parameters where Snakemake looks before it inspects; returns how many were stored.

    A bound method stores them on its function (``__func__``), where attribute reads on the method land: its
    parameters without ``self``, the same for every instance. Functions that take no attribute (builtins) are left
    to Snakemake's inspection."""
    stored = 0
    for function in functions:
        holder = getattr(function, "__func__", function)
        if SNAKEMAKE_PARAMS_ATTRIBUTE in getattr(holder, "__dict__", {}):
            continue
        try:
            parameters = inspect.signature(function).parameters
            setattr(holder, SNAKEMAKE_PARAMS_ATTRIBUTE, parameters)
        except (TypeError, ValueError, AttributeError):
            continue
        stored += 1
    return stored
