"""Behavioural metrics by name: what a behavioural benchmark's stages compute for its ``Behaviour.metric``.

As Brain-Score's ``metric_registry['i2n'] = ...`` (brain-score/vision brainscore_vision/__init__.py, filled by each
metric plugin's ``__init__.py``): the stages (:mod:`brainpipe.behaviour.stages`) look the metric up here and never
branch on its name. The metrics any family may use register in ``stages.py``; a family's own metric registers in
the family's module when it is imported (``brainpipe.benchmarks.families.maniquet2024``), so adding such a family edits no
shared module.

Light on purpose (no numpy, no xarray): family modules import it while the workflow parses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Metric:
    """One behavioural metric as the stages use it.

    * ``compare(benchmark, model, human) -> Result``: the raw score of the model's task output against the
      prepared human data (the benchmark's ``options`` are read here);
    * ``ceiling(benchmark, human) -> Result``: the metric's ceiling on the human data; None where the benchmarks
      using it declare their ceiling (``Behaviour.ceiling``);
    * ``per_condition``: keyword arguments of :func:`brainpipe.behaviour.error_consistency.per_condition` where the
      score also carries a per-condition table, else None;
    * ``values``: (what the values are, their allowed values) where the human data's values are not choices (the
      label-set check reads them so, brainpipe.behaviour.stages.check_human_choices);
    * ``check_human(benchmark, human)``: further checks of the human data, raising ValueError naming the file;
    * ``origin``: the module that registered it.
    """

    name: str
    compare: Callable
    ceiling: Callable | None = None
    per_condition: dict | None = None
    values: tuple | None = None
    check_human: Callable | None = None
    origin: str = ""


#: metric name -> :class:`Metric`
METRICS: dict[str, Metric] = {}


def register_metric(name: str, compare: Callable, ceiling: Callable | None = None, *, per_condition=None,
                    values=None, check_human=None) -> Metric:
    """Register ``name`` (see :class:`Metric` for the arguments). Registering it again from the same module
    replaces it (a module imported again, e.g. a plugin file); from another module is an error naming both."""
    origin = compare.__module__
    known = METRICS.get(name)
    if known is not None and known.origin != origin:
        raise ValueError(f"behavioural metric {name!r} is registered twice: by {known.origin} and by {origin}; "
                         f"rename one")
    METRICS[name] = Metric(name, compare, ceiling, None if per_condition is None else dict(per_condition), values,
                           check_human, origin)
    return METRICS[name]


def lookup(name: str) -> Metric:
    """The registered metric ``name``; ValueError listing the registered names otherwise."""
    try:
        return METRICS[name]
    except KeyError:
        raise ValueError(f"behavioural metric {name!r} is not registered; registered: {', '.join(sorted(METRICS))} "
                         f"(a family registers its own metric in its module with "
                         f"brainpipe.behaviour.metric_registry.register_metric)") from None
