"""The cells of a grid (model × benchmark) that a model cannot do, decided when the workflow is planned: such a
cell is an empty cell (its score JSON says ``score: null`` with a one-line ``reason``; no job computes anything for
it), and every other cell of the grid is computed. Only what a model *cannot* do is decided here: a model without
ImageNet logits on a label task, a temporal model on a behavioural task, a static model on object solution times, a
benchmark whose data need a file the user supplies and has not (ImageNet's validation images: every model's cell), a
model that commits no layer to a brain region another model of the grid commits (or to V1, V2, V4 or IT; a temporal
model often commits only IT). A config error (a typo, an unknown layer, a region no model commits) is still an error,
and a job that fails at run time still fails loudly.
"""

from __future__ import annotations

import re

from brainpipe.models.model_sources import PIXELS
from .workflow_config import ConfigError


def cannot_do(model_name: str, spec: dict, benchmark, temporal_model: bool = False) -> str | None:
    """Why ``model_name`` (its model_zoo entry ``spec``) cannot be scored on ``benchmark``, in one line; None
    where it can."""
    if benchmark.region is not None and benchmark.kind != "behaviour":
        region = benchmark.model_region
        if region not in (spec.get("layers") or {}):  # a region no model of the grid commits is an error instead
            return (f"{model_name} commits no layer to region {region} (model_zoo.{model_name}.layers); commit one "
                    f"(`brainpipe commit-layers {model_name} --region {region} --benchmark {benchmark.identifier}`) "
                    "to score it")
        if benchmark.kind == "ost" and not temporal_model:
            # a static model answers every time bin with its one response, so Brain-Score's check that the
            # recordings vary over time (brain-score/vision .../benchmarks/kar2019/benchmark.py,
            # temporally_varying) always fails and the score is NaN: known here, so nothing is extracted for it
            return (f"static model: {model_name} has no model_zoo.{model_name}.time_mapping, so its response is the "
                    f"same in every time bin and it has no object solution time; Brain-Score scores "
                    f"{benchmark.identifier} NaN for such a model")
        return None
    if benchmark.kind != "behaviour":
        return None
    if temporal_model:
        return (f"{model_name} is a temporal model (model_zoo.{model_name}.time_mapping); behavioural tasks on "
                "temporal models are not wired yet: give the network a static model_zoo entry for behaviour")
    if benchmark.behaviour.task == "label" and spec["architecture"] == PIXELS and not spec.get("logits_layer"):
        return (f"{model_name} is pixels, which has no ImageNet logits: it cannot do {benchmark.identifier}'s label "
                "task")
    return None


def supplied_files_missing(family, catalog, local_paths, exists=None) -> list[str]:
    """The files a built-in ``family`` reads that no server has, which the user supplies (a catalog entry with a
    path and no URL: ImageNet's validation images as a zip) and that are neither at that path nor under config
    ``data.local_files`` (``local_paths``: name -> path); empty where all are there. A declared (your own) family's
    missing file is not listed: it is an error in its entry, reported where the file is read."""
    import os

    exists = exists or os.path.exists
    if not str(family.origin).startswith("built-in"):
        return []
    remotes = []
    for name in sorted(family.stimulus_sets | {family.stimulus_set}):
        if name in catalog.stimulus_sets:
            entry = catalog.stimulus_set(name)
            remotes += [entry.csv, entry.zip]
    missing = []
    for remote in remotes:
        if remote.url is None and remote.path is not None and remote.name not in local_paths and not exists(remote.path):
            missing.append(remote.path)
    return missing


def unavailable_benchmarks(benchmarks, benchmark_of, catalog, local_paths) -> dict[str, str]:
    """identifier -> why, for each benchmark of the grid whose data need a file the user supplies and has not
    (:func:`supplied_files_missing`): its cells are empty for every model, and it has no ceiling job."""
    unavailable = {}
    for identifier in benchmarks:
        family = benchmark_of(identifier).family
        missing = supplied_files_missing(family, catalog, local_paths)
        if missing:
            unavailable[identifier] = (f"{identifier} needs {', '.join(missing)}, a file you supply (no server has it; "
                                       f"list it under data.local_files if it is elsewhere): {family.notes}"
                                       if family.notes else f"{identifier} needs {', '.join(missing)}, a file you "
                                       "supply (list it under data.local_files if it is elsewhere)")
    return unavailable


def skipped_benchmarks(config, registry) -> dict[str, set]:
    """Config ``skip_benchmarks`` (model → identifiers or selectors) as model → the identifiers it names; ConfigError
    naming the key for a model that is not in model_zoo or an entry that names no benchmark."""
    from .benchmark_selectors import SelectorError, expand

    known = set(registry.identifiers())
    skipped = {}
    for model, entries in (config.get("skip_benchmarks") or {}).items():
        where = f"config skip_benchmarks.{model}"
        if model not in (config.get("model_zoo") or {}):
            raise ConfigError(f"{where}: no model {model!r} in model_zoo")
        try:
            identifiers = expand(entries, registry)
        except SelectorError as error:
            raise ConfigError(f"{where}: {str(error).replace('config benchmarks', 'entry')}") from None
        unknown = sorted(set(identifiers) - known)
        if unknown:
            raise ConfigError(f"{where}: unknown benchmark {unknown[0]!r} (`brainpipe list` prints them)")
        skipped[model] = set(identifiers)
    return skipped


def empty_cells(models, benchmarks, model_spec, benchmark_of, is_temporal, skipped=None,
                unavailable=None) -> dict[str, str]:
    """``"<model>/<benchmark>"`` → reason, for every cell of ``models`` × ``benchmarks`` that cannot be done, whose
    benchmark's data are not there (``unavailable``: :func:`unavailable_benchmarks`) or that config
    ``skip_benchmarks`` leaves out (``skipped``: :func:`skipped_benchmarks`; ``model_spec(name)``,
    ``benchmark_of(identifier)`` and ``is_temporal(name)`` look the two up)."""
    cells = {}
    skipped, unavailable = skipped or {}, unavailable or {}
    for identifier in benchmarks:
        benchmark = benchmark_of(identifier)
        for name in models:
            if identifier in unavailable:
                cells[f"{name}/{identifier}"] = unavailable[identifier]
                continue
            if identifier in skipped.get(name, ()):
                cells[f"{name}/{identifier}"] = f"left out by config skip_benchmarks.{name}"
                continue
            reason = cannot_do(name, model_spec(name), benchmark, is_temporal(name))
            if reason is not None:
                cells[f"{name}/{identifier}"] = reason
    return cells


def cell_pattern(cells) -> str:
    """A regular expression matching exactly the given ``<model>/<benchmark>`` cells (one that matches nothing
    for none): the wildcard constraint that makes the empty-cell rule the only one for those files."""
    if not cells:
        return "(?!)"
    return "(?:" + "|".join(re.escape(cell) for cell in sorted(cells, key=len, reverse=True)) + ")"


def fixed_ceiling(benchmark) -> float | None:
    """A ceiling the benchmark's family declares as a number (Kar2019-ost's .79), which an empty cell reports as
    Brain-Score's NaN score carries it; None where the ceiling is computed from the data or there is none."""
    ceiling = benchmark.family.ceiling
    return float(ceiling) if isinstance(ceiling, (int, float)) and not isinstance(ceiling, bool) else None


def empty_score(model: str, benchmark: str, reason: str, benchmark_info: dict, versions: dict,
                ceiling: float | None = None) -> dict:
    """The score JSON of an empty cell: the fields a score file has, null where nothing was computed (the ceiling:
    ``ceiling``, a fixed one, :func:`fixed_ceiling`), the reason, and the benchmark's metadata (version, parent,
    bibtex_key, origin, definition), as any score file has."""
    return {"model": model, "benchmark": benchmark, "score": None, "raw": None, "ceiling": ceiling, "error": None,
            "layer": None, "reason": reason, "empty_cell": True, **benchmark_info, "versions": versions}
