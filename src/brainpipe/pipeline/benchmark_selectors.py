"""Benchmark selectors: the entries of config ``benchmarks`` (and of ``brainpipe list --select``) that name many
benchmarks at once, expanded into plain identifiers before anything else reads the grid.

An entry is one of
* a benchmark identifier (``MajajHong2015public.IT-pls``): itself, also when it is unknown (the config check then
  names it with the nearest known one);
* ``suite:brainscore``: every benchmark identifier Brain-Score vision 2.4.2 registers (its ``benchmark_registry``
  keys, kept in ``benchmarks/brainscore_identifiers_2.4.2.txt``), in that file's order;
* ``family:<name>``: every identifier of one benchmark family (``family:MajajHong2015public``);
* ``parent:<name>``: every identifier whose leaderboard parent is ``<name>`` or a sub-parent of it (``parent:V1``
  also takes ``V1-orientation``'s benchmarks), among the built-in and declared families;
* a glob pattern with ``*``, ``?`` or ``[...]`` (``MajajHong2015*.IT-*``), matched case-sensitively against every
  known identifier;
* any of these after ``!``: removes what it names from the entries before it (``!*-temporal-pls``).

The result keeps the order of first appearance and names each benchmark once. A selector that names nothing is an
error (a typo in a family or parent name would otherwise shrink the grid without a word).
"""

from __future__ import annotations

import fnmatch
from pathlib import Path

from brainpipe import benchmarks as bench
from .workflow_config import ConfigError

SUITE_FILES = {"brainscore": Path(__file__).parents[1] / "benchmarks" / "brainscore_identifiers_2.4.2.txt"}
KINDS = ("suite", "family", "parent")
GLOB_CHARACTERS = "*?["


class SelectorError(ConfigError):
    """A selector that names no benchmark, or an unknown selector kind."""


def suite_identifiers(name: str) -> list[str]:
    """The identifiers of a named suite (``brainscore``: Brain-Score vision 2.4.2's 291), in the file's order."""
    if name not in SUITE_FILES:
        raise SelectorError(f"unknown suite {name!r}; known: {', '.join(sorted(SUITE_FILES))}")
    lines = SUITE_FILES[name].read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def is_selector(entry: str) -> bool:
    """Whether a config entry names several benchmarks (a kind prefix, a glob or an exclusion)."""
    entry = entry[1:] if entry.startswith("!") else entry
    return entry.partition(":")[0] in KINDS and ":" in entry or any(c in entry for c in GLOB_CHARACTERS)


def _parents(registry, identifiers):
    """identifier -> its leaderboard parent, built once per identifier (a benchmark's parent needs its definition)."""
    parents = {}
    for identifier in identifiers:
        try:
            parents[identifier] = registry.benchmark(identifier).parent
        except ValueError:
            continue  # a family whose settings need the config (reported where the grid's benchmarks are built)
    return parents


def _select(entry: str, registry, known: list[str], parents: dict) -> list[str]:
    kind, colon, value = entry.partition(":")
    if colon and kind in KINDS:
        if kind == "suite":
            return suite_identifiers(value)
        if kind == "family":
            if value not in registry.families:
                near = fnmatch.filter(registry.families, f"*{value[:4]}*")[:5]
                raise SelectorError(f"no benchmark family {value!r}" + (f" (similar: {', '.join(near)})" if near else
                                    "; `brainpipe list` prints the families"))
            return bench.registry.family_identifiers(registry.families[value])
        if not parents:
            parents.update(_parents(registry, known))
        chosen = [i for i, parent in parents.items() if parent == value or str(parent).startswith(value + "-")]
        if not chosen:
            raise SelectorError(f"no benchmark has parent {value!r}; parents: "
                                f"{', '.join(sorted({str(p) for p in parents.values()}))}")
        return chosen
    if any(c in entry for c in GLOB_CHARACTERS):
        chosen = [i for i in known if fnmatch.fnmatchcase(i, entry)]
        if not chosen:
            raise SelectorError(f"pattern {entry!r} matches no benchmark identifier (case-sensitive; `brainpipe list` "
                                "prints them)")
        return chosen
    return [entry]


def expand(entries, registry) -> list[str]:
    """The plain identifiers that ``entries`` (config ``benchmarks``) select, in order, each once. A list without
    selectors comes back unchanged. SelectorError names the entry (by index) that selects nothing."""
    entries = list(entries or [])
    if not any(isinstance(e, str) and is_selector(e) for e in entries):
        return entries
    known = registry.identifiers()
    parents: dict = {}
    selected: dict[str, None] = {}
    for index, entry in enumerate(entries):
        if not isinstance(entry, str):
            selected[entry] = None  # the schema check names a non-string entry
            continue
        excluded = entry.startswith("!")
        try:
            chosen = _select(entry[1:] if excluded else entry, registry, known, parents)
        except SelectorError as error:
            raise SelectorError(f"config benchmarks[{index}] {entry!r}: {error}") from None
        for identifier in chosen:
            if excluded:
                selected.pop(identifier, None)
            else:
                selected[identifier] = None
    if not selected:
        raise SelectorError(f"config benchmarks {entries}: the exclusions leave no benchmark")
    return list(selected)


def config_benchmarks(config, base_dir=".") -> list[str]:
    """Config ``benchmarks`` with its selectors expanded against the config's registry (built-ins, benchmark_zoo,
    benchmark_plugins). Raises ConfigError (a malformed declaration) or SelectorError (a selector naming nothing)."""
    entries = config.get("benchmarks") or []
    if not any(isinstance(e, str) and is_selector(e) for e in entries):
        return list(entries)
    try:
        registry = bench.from_config(config, base_dir)
    except ValueError as error:
        raise ConfigError(str(error)) from None
    return expand(entries, registry)
