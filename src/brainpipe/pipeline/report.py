"""Tables of a finished grid: per-layer sweep tables, the summary, the leaderboard (CSV + HTML) and its
aggregation as Brain-Score builds it; which report files a grid needs. Its figures: brainpipe.pipeline.figures.

Pure functions of the score JSONs (no Snakemake), so they can be tested alone; ``targets`` and
``swept_benchmarks`` read a plain config dict.
"""

import functools
import math

import numpy as np
import pandas as pd

from brainpipe import benchmarks as bench
from brainpipe.benchmarks.base import METRICS as NEURAL_METRICS, access_of
from .headline import best_layer
from .model_layers import layers_for_sweep

SWEEP_COLUMNS = ["layer", "depth", "score", "raw", "error", "committed", "best"]
CEILING_ROW = "ceiling"
AVERAGE_COLUMN = "average"
PARENT_SUFFIX = " (mean)"  # per-parent aggregate columns, e.g. "IT (mean)"


BEHAVIOUR_PARENT = "behavior"  # Brain-Score's behavioural root ('behavior_vision' in newer benchmarks: the same)
BEHAVIOUR_ROOTS = (BEHAVIOUR_PARENT, "behavior_vision")
#: metrics that compare a model with the ground truth, not with humans: Brain-Score's engineering benchmarks
#: (e.g. top-1 accuracy), shown but not part of the behaviour aggregate or the average
#: Hermann2020's shape bias / shape match read no human data either (brain-score/vision
#: benchmarks/hermann2020/test.py files them under ``TestEngineering``)
ENGINEERING_METRICS = ("accuracy", "shape_bias", "shape_match")
#: parents whose benchmarks read no brain or human data whatever their metric: Islam2021's factor dimensionality of
#: the model's own layers (brain-score/vision benchmarks/islam2021), shown beside the engineering benchmarks
#: ('engineering': Brain-Score's own engineering parent, e.g. Igustibagus2024.IT_readout-accuracy, a decoder's accuracy)
ENGINEERING_PARENTS = ("Islam2021", "engineering")
#: the metric of the properties benchmarks' score JSONs (brainpipe.properties.stages.property_score)
PROPERTIES_METRICS = ("ks_similarity",)
#: behavioural metrics whose score JSON carries a ``per_condition`` table (brainpipe.behaviour.stages.per_condition)
PER_CONDITION_METRICS = ("error_consistency", "accuracy")
#: metrics whose score JSON carries per-condition model and human thresholds (brainpipe.behaviour.threshold_stages)
THRESHOLD_METRICS = ("threshold", "threshold_elevation")
#: behavioural metrics whose figure reads model and human accuracy per condition from the model's task output and the
#: human data (brainpipe.behaviour.condition_tables.TABLE_METRICS, computed by the figure's rule: their score JSONs
#: carry no such table, and adding one would change the scoring stages' code fingerprints): one figure per parent
TABLE_METRICS = ("accuracy_distance", "accuracy_delta")


def parents_of(headlines, benchmarks, facts=None):
    """parent -> its benchmarks, in first-appearance order: the definition's parent (``facts``, see
    :func:`facts_of`; Brain-Score's leaderboard parent: V1, V2, V4, IT, behavior, ...), else the score JSON's
    ``parent``, else the identifier's region."""
    parent = {h["benchmark"]: h.get("parent") for h in headlines if h.get("parent")}
    parent.update({b: f["parent"] for b, f in (facts or {}).items() if f and f.get("parent")})
    groups = {}
    for b in benchmarks:
        groups.setdefault(parent.get(b) or (identifier_parts(b)[1] if readable_identifier(b) else b), []).append(b)
    return groups


def recording(headline):
    """What a score was measured on, for counting each recording once: the data set without its split suffix
    (MajajHong2015.public and MajajHong2015.private are one experiment) and the region (behaviour: the metric).
    None for a score dict that does not name its data set."""
    dataset = (headline.get("data") or {}).get("dataset")
    if dataset is None or not readable_identifier(headline["benchmark"]):
        return None
    stem = dataset.rsplit(".", 1)[0] if access_of(dataset) != "all" else dataset
    _, region, metric = identifier_parts(headline["benchmark"])
    return stem, region or metric


def repeated_recordings(headlines, benchmarks):
    """benchmark -> the earlier benchmark (in ``benchmarks`` order) scored on the same recording, for each
    benchmark that repeats one (e.g. MajajHong2015.IT-pls on the public recordings and MajajHong2015public.IT-pls, or
    two metrics of one data set and region). Brain-Score's leaderboard holds one benchmark per data set and
    region; the repeats are shown but left out of every mean, so no recording counts twice."""
    of = {}
    for h in headlines:
        if h["benchmark"] not in of and recording(h) is not None:
            of[h["benchmark"]] = recording(h)
    first, repeats = {}, {}
    for b in benchmarks:
        if b in of:
            if of[b] in first:
                repeats[b] = first[of[b]]
            else:
                first[of[b]] = b
    return repeats


def left_out_of_means(headlines, benchmarks, simulated=()):
    """benchmark -> why it is shown on the leaderboard but left out of every mean:

    * a repeated recording (:func:`repeated_recordings`: one data set and region counts once, as on Brain-Score's
      leaderboard, however many metrics score it);
    * simulated data (``simulated``: benchmarks whose family generates its data, e.g. the SyntheticShapes demo) in a
      grid that also scores real data: a demo score in a real average would change the model ranking with numbers
      that say nothing about a brain. A grid of simulated benchmarks only (``make demo``) averages them as usual.
    """
    reasons = {b: f"same recording as {first}" for b, first in repeated_recordings(headlines, benchmarks).items()}
    simulated = [b for b in benchmarks if b in set(simulated)]
    if simulated and len(simulated) < len(benchmarks):
        for b in simulated:
            reasons.setdefault(b, "simulated demo data in a grid with real data")
    return reasons


def _nest_region_subparents(neural):
    """Brain-Score's V1 sub-parents ('V1-orientation', 'V1-texture_modulation', ... of the properties benchmarks):
    each a column of its own, counted in its region's column ('V1 (mean)': the mean over the region's benchmarks
    and sub-parents) instead of in the average. Sub-parent columns come first (a column's children are computed
    before it)."""
    nested, regions = {}, {}
    for column, (children, counted) in neural.items():
        parent = column[:-len(PARENT_SUFFIX)]
        region, dash, rest = parent.partition("-")
        if dash and region and rest:
            nested[column] = (children, False)
            regions.setdefault(f"{region}{PARENT_SUFFIX}", []).append(column)
    for column, (children, counted) in neural.items():
        if column not in nested:
            regions.setdefault(column, [])
            nested[column] = (children + regions.pop(column), counted)
    for column, subparents in regions.items():  # a region with sub-parents only
        nested[column] = (subparents, True)
    return nested


def benchmark_facts(benchmark):
    """What the report needs to know of a benchmark's definition (a Benchmark object of the grid's registry: the
    workflow passes these, since a declared or plugin family is known only to the config's registry): ``kind``
    (Benchmark.kind: 'behaviour' is behavioural, every other kind neural), its metric (a behaviour's own metric,
    e.g. 'accuracy'), parent, region, data set and stimulus set. Plain values (a rule parameter)."""
    behaviour = benchmark.behaviour
    family = benchmark.family
    return {"kind": benchmark.kind, "metric": behaviour.metric if behaviour is not None else benchmark.metric,
            "parent": benchmark.parent, "region": benchmark.region, "family": benchmark.family_name,
            "dataset": family.dataset, "stimulus_set": family.stimulus_set, "source": family.source,
            "access": benchmark.access, "version": benchmark.version}


def facts_of(benchmarks, facts=None):
    """benchmark -> :func:`benchmark_facts`: from ``facts`` (the workflow's, for the config's registry), else from
    the built-in definitions; None for an identifier neither knows (its kind is then read from its text)."""
    facts = dict(facts or {})
    known = {}
    for b in benchmarks:
        if b in facts:
            known[b] = facts[b]
            continue
        try:
            known[b] = benchmark_facts(bench.parse(b))
        except (ValueError, KeyError):
            known[b] = None
    return known


def aggregation(headlines, benchmarks, simulated=(), facts=None):
    """The leaderboard's aggregate columns, in order: column -> (children, counted in the average).

    Brain-Score's hierarchy: neural benchmarks -> their region (V1 ... IT); behavioural benchmarks -> their parent
    (e.g. the 17 error-consistency data sets -> one parent), and benchmarks or parents under the behavioural root ->
    ``behavior``, one top-level entry like a region; the ``average`` is the mean over the top-level entries.
    Benchmarks scored against the ground truth (``ENGINEERING_METRICS``: top-1 accuracy) get their parent's column
    but stay out of ``behavior`` and the average, as Brain-Score's engineering benchmarks. A child is a benchmark
    id or another aggregate column. Benchmarks of :func:`left_out_of_means` are in no column.

    Neural or behavioural is the benchmark's definition (``facts``, see :func:`facts_of`), not a key of its score
    JSON: neural score JSONs carry no ``metric``, and a neural benchmark Brain-Score names without a region
    (Kar2019-ost, Cadena2017-pls) would otherwise land under behaviour."""
    left_out = left_out_of_means(headlines, benchmarks, simulated)
    known = facts_of(benchmarks, facts)
    groups = parents_of(headlines, [b for b in benchmarks if b not in left_out], known)
    metric = {h["benchmark"]: h.get("metric") for h in headlines}
    metric.update({b: f["metric"] for b, f in known.items() if f})
    # an identifier no definition knows: its text (no region: behaviour) and its JSON's metric decide, as before
    behavioural = {b for b in benchmarks if (known[b]["kind"] == "behaviour" if known[b] else (
        readable_identifier(b) and identifier_parts(b)[1] is None
        and metric.get(b) not in PROPERTIES_METRICS + NEURAL_METRICS))}
    parent_of = {h["benchmark"]: h.get("parent") for h in headlines}
    parent_of.update({b: f["parent"] for b, f in known.items() if f})
    # engineering whatever the kind where the parent says so (Islam2021's custom benchmarks read no brain data)
    engineering = {b for b in benchmarks if (b in behavioural and metric.get(b) in ENGINEERING_METRICS)
                   or parent_of.get(b) in ENGINEERING_PARENTS}
    behavioural |= engineering
    neural, sub, roots, engineered = {}, {}, [], {}
    for parent, members in groups.items():
        column = f"{parent}{PARENT_SUFFIX}"
        if parent in BEHAVIOUR_ROOTS:
            roots += [b for b in members if b not in engineering]
        elif members and set(members) <= engineering:
            engineered[column] = (members, False)
        elif set(members) & behavioural:  # a parent with an engineering child too (Lonnqvist2024's accuracy):
            sub[column] = ([b for b in members if b not in engineering], False)  # that child stays out
        else:
            neural[column] = (members, True)
    neural = _nest_region_subparents(neural)
    columns = {**neural, **sub}
    if roots or sub:
        columns[f"{BEHAVIOUR_PARENT}{PARENT_SUFFIX}"] = (roots + list(sub), True)
    return {**columns, **engineered}


# --- which files the report needs (from a config dict) ---------------------------------------------------------

def swept_benchmarks(config, model):
    """Benchmarks of the grid for which ``model`` scores more than its committed layer (config ``sweep``)."""
    spec = config["model_zoo"][model]
    swept = []
    for identifier in config["benchmarks"]:
        region = identifier_parts(identifier)[1]
        layers = set(layers_for_sweep(spec, region))
        if spec["layers"].get(region) is not None:
            layers.add(spec["layers"][region])
        if len(layers) > 1:
            swept.append(identifier)
    return swept


def swept_models(config):
    return [model for model in config["models"] if swept_benchmarks(config, model)]


#: at most this many benchmarks per per-fold or sweep figure (a 3 × 4 grid of panels, or 12 lines): a figure stays
#: within about 2,200 × 2,100 pixels however large the grid (one figure of 291 panels was 2,520 × 48,936)
FIGURE_BENCHMARKS = 12


def benchmark_parents(benchmarks, loaded=()):
    """benchmark -> its leaderboard parent: from ``loaded`` (the grid's Benchmark objects), else the built-in
    definitions, else the identifier's region (or the identifier itself)."""
    parents = {b.identifier: b.parent for b in loaded}
    known = facts_of([b for b in benchmarks if b not in parents])
    for b in benchmarks:
        if b not in parents:
            parents[b] = (known[b]["parent"] if known.get(b) else
                          (identifier_parts(b)[1] if readable_identifier(b) else None) or b)
    return {b: parents[b] for b in benchmarks}


def figure_groups(benchmarks, parents, size=FIGURE_BENCHMARKS):
    """figure name -> its benchmarks: one figure per parent (``parents``: :func:`benchmark_parents`), a parent with
    more than ``size`` benchmarks split into '<parent>-1', '<parent>-2', ... of ``size`` each. Names are safe in
    file names (characters other than letters, digits, '.', '_', '-' become '_')."""
    import re

    by_parent = {}
    for b in benchmarks:
        by_parent.setdefault(re.sub(r"[^A-Za-z0-9._-]", "_", str(parents[b])), []).append(b)
    groups = {}
    for parent, members in by_parent.items():
        chunks = [members[i:i + size] for i in range(0, len(members), size)]
        for k, chunk in enumerate(chunks, start=1):
            groups[parent if len(chunks) == 1 else f"{parent}-{k}"] = chunk
    return groups


def folds_plot(group):
    return f"results/plots/folds/{group}.png"


def sweep_plot(model, group):
    return f"results/plots/sweep/{model}/{group}.png"


def condition_datasets(loaded):
    """data set -> its benchmarks scored per condition (``PER_CONDITION_METRICS``), from loaded Benchmark objects
    (the workflow plan's ``WorkflowPlan.benchmark``): one per-condition figure per data set. Threshold benchmarks
    (``THRESHOLD_METRICS``: Malania2007) go into one figure per parent (figures.plot_thresholds), and so do the
    benchmarks of :func:`table_benchmark` (Scialom2024's accuracy per degradation level, Baker2022's whole vs
    disrupted accuracy: figures.plot_accuracy_levels, figures.plot_accuracy_delta)."""
    datasets = {}
    for benchmark in loaded:
        if benchmark.kind == "behaviour" and benchmark.behaviour.metric in PER_CONDITION_METRICS:
            # a top-1 benchmark without human data (its target the stimulus set: ImageNet, Hendrycks2019,
            # Scialom2024's engineering accuracies) has no per-condition table, so no figure (it was an empty one)
            if benchmark.family.source != "stimuli":
                datasets.setdefault(benchmark.family.dataset, []).append(benchmark.identifier)
        elif benchmark.kind == "behaviour" and benchmark.behaviour.metric in THRESHOLD_METRICS:
            datasets.setdefault(benchmark.parent, []).append(benchmark.identifier)
        elif table_benchmark(benchmark):
            datasets.setdefault(benchmark.parent, []).append(benchmark.identifier)
    return datasets


def table_benchmark(benchmark) -> bool:
    """Whether a benchmark's figure computes a per-condition table (brainpipe.behaviour.condition_tables) from its
    task output and human data: a labelling benchmark of ``TABLE_METRICS`` whose human trials all carry an answer
    (not Kato2026's, with ``invalid_responses``; not a probabilities task, Lonnqvist2024)."""
    if benchmark.kind != "behaviour" or benchmark.behaviour.metric not in TABLE_METRICS:
        return False
    options = dict(benchmark.behaviour.options or ())
    return benchmark.behaviour.task == "label" and not options.get("invalid_responses")


def condition_tables_of(loaded):
    """The identifiers of :func:`table_benchmark` among loaded Benchmark objects."""
    return {benchmark.identifier for benchmark in loaded if table_benchmark(benchmark)}


def condition_table_pairs(datasets, tables, models, dataset, empty=()):
    """(model, benchmark) of each per-condition table a figure computes, in the order of
    :func:`condition_inputs` (``tables``: :func:`condition_tables_of`); empty for a figure of score JSONs only.
    ``empty``: the grid's empty cells (``"<model>/<benchmark>"``, pipeline/grid_cells.py), which have no task output."""
    return [(model, benchmark) for model in models for benchmark in datasets.get(dataset, ())
            if benchmark in tables and f"{model}/{benchmark}" not in empty]


def condition_plot(dataset):
    return f"results/plots/conditions_{dataset}.png"


def condition_inputs(datasets, models, dataset, empty=()):
    """The score JSONs a data set's per-condition plot reads (``datasets``: :func:`condition_datasets`), less the
    grid's empty cells (``empty``: ``"<model>/<benchmark>"``), which have no conditions to draw."""
    if dataset not in datasets:
        raise ValueError(f"{condition_plot(dataset)}: no benchmark of the grid is scored per condition on data set "
                         f"{dataset!r} (those that are: {sorted(datasets) or 'none'})")
    return [f"results/{model}/{benchmark}.json" for model in models for benchmark in datasets[dataset]
            if f"{model}/{benchmark}" not in empty]


def targets(config, loaded=(), empty=()):
    """Every file of the report: leaderboard, sweep tables, sweep and per-fold plots (one per parent,
    :func:`figure_groups`), and with ``loaded`` (the grid's Benchmark objects, whose parents then decide the
    figures) one per-condition plot per data set scored per condition by some model (``empty``: the grid's empty
    cells, ``"<model>/<benchmark>"``)."""
    loaded = list(loaded)
    parents = benchmark_parents(config["benchmarks"], loaded)
    files = ["results/leaderboard.csv", "results/leaderboard.html"]
    files += [folds_plot(group) for group in figure_groups(config["benchmarks"], parents)]
    for model in swept_models(config):
        swept = swept_benchmarks(config, model)
        files += [f"results/{model}/{b}/sweep.tsv" for b in swept]
        files += [sweep_plot(model, group) for group in figure_groups(swept, parents)]
    datasets = condition_datasets(loaded)
    files += [condition_plot(dataset) for dataset in datasets
              if condition_inputs(datasets, config["models"], dataset, empty)]
    return files


# --- tables ----------------------------------------------------------------------------------------------------

SUMMARY_COLUMNS = ["model", "benchmark", "layer", "score", "raw", "ceiling", "error", "parent", "access", "status"]
MISSING = "missing"  # status of a grid cell without a score file (its job failed or did not run)


STALE = "stale"  # status of a score file computed with other settings or definitions than the current config's


def summary_table(headlines, missing=(), stale=None):
    """The grid in one table (results/summary.tsv): one row per score (``split``: which part of the recordings it
    was scored on, public / private / all), ``status`` 'scored', or 'stale' for the (model, benchmark) keys of
    ``stale`` (a file that no longer matches the config: its numbers are the old run's); then one row per
    (model, benchmark) of ``missing`` with status 'missing' and no numbers. ``parent``: the leaderboard group
    (region, or 'behavior' / a behavioural parent), so behavioural rows read apart. A time-resolved value (a list
    per time bin) is its mean over bins."""
    stale = stale or {}
    rows = [{**{k: h.get(k) for k in ("model", "benchmark", "layer", "score", "parent")},
             **{k: scalar_or_nan(h.get(k)) for k in ("raw", "ceiling", "error")},
             "access": data_access(h),
             "status": STALE if (h["model"], h["benchmark"]) in stale else "scored"} for h in headlines]
    rows += [{"model": model, "benchmark": benchmark, "status": MISSING} for model, benchmark in missing]
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)


def existing_scores(paths):
    """(score dicts of the files among ``paths`` that exist, (model, benchmark) of those that do not), for
    ``results/<model>/<benchmark>.json`` paths."""
    from pathlib import Path

    from brainpipe.io import read_json

    found, missing = [], []
    for path in map(Path, paths):
        if path.is_file():
            found.append(read_json(path))
        else:
            missing.append((path.parent.name, path.stem))
    return found, missing


# --- stale scores: a file that does not match what the score rule would write now ------------------------------

def expected_headline(committed, model_spec, benchmark_info, data):
    """The fields of a headline score JSON that the config and the benchmark's definition decide, as
    brainpipe.pipeline.headline.headline writes them from the score rule's parameters (``committed``,
    ``model_spec``, ``benchmark_info``, ``data``), in their JSON form (tuples as lists)."""
    import json

    return json.loads(json.dumps({"layer": committed, "model_spec": model_spec, **benchmark_info, "data": data}))


def stale_fields(score, expected, limit=4):
    """Why a score JSON is stale: '<key path>: <in the file> in the file, <now> now' for each field of ``expected``
    (:func:`expected_headline`) that differs (at most ``limit``, then '+N more'); empty when it matches. A file
    written with pls_components 10 while the config now says 25 names ``data.settings.pls_components``."""
    differences = []

    def compare(path, have, want):
        if isinstance(have, dict) and isinstance(want, dict):
            for key in dict.fromkeys([*want, *have]):
                compare(f"{path}.{key}" if path else key, have.get(key, _ABSENT), want.get(key, _ABSENT))
        elif have != want:
            differences.append(f"{path}: {_short(have)} in the file, {_short(want)} now")

    # the data's settings first: the edit a user most often makes (pls_components, splits, ...)
    order = sorted(expected, key=lambda key: key != "data")
    compare("", {k: score.get(k, _ABSENT) for k in order}, {k: expected[k] for k in order})
    if len(differences) > limit:
        differences = differences[:limit] + [f"+{len(differences) - limit} more"]
    return "; ".join(differences)


class _Absent:
    def __repr__(self):
        return "(none)"


_ABSENT = _Absent()


def _short(value, width=60):
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= width else text[:width - 1] + "…"


def stale_scores(headlines, expected):
    """(model, benchmark) -> why, for the score dicts whose fields differ from ``expected`` ((model, benchmark) ->
    :func:`expected_headline`; a pair without an entry is not checked)."""
    stale = {}
    for h in headlines:
        key = (h["model"], h["benchmark"])
        if key in expected:
            why = stale_fields(h, expected[key])
            if why:
                stale[key] = why
    return stale


def expected_scores(rules, models, benchmarks):
    """(model, benchmark) -> :func:`expected_headline` of what the workflow would write now into
    results/<model>/<benchmark>.json: the parameters of the rule that writes it (``rules``: the workflow's; score,
    score_behaviour or score_ost, whose wildcard constraints are disjoint) for those wildcards. A cell whose
    parameters cannot be computed (its model or benchmark entry may be what failed) is left out: not checked."""
    from types import SimpleNamespace

    rules = list(rules)
    scoring = [rule for rule in rules if rule.name.startswith("score")]
    empty = [rule for rule in rules if rule.name == "empty_cell"]  # pipeline/grid_cells.py: nothing to compare
    expected = {}
    for model in models:
        for benchmark in benchmarks:
            path = f"results/{model}/{benchmark}.json"
            if any(rule.is_producer(path) for rule in empty):
                continue
            producers = [rule for rule in scoring if rule.is_producer(path)]
            if not producers:
                continue
            wildcards = SimpleNamespace(model=model, benchmark=benchmark)
            try:
                values = {name: (lambda v: v(wildcards) if callable(v) else v)(getattr(producers[0].params, name))
                          for name in ("committed", "model_spec", "benchmark_info", "data")}
            except Exception:  # noqa: BLE001 (whatever stopped the run may stop this too: the cell is not checked)
                continue
            expected[(model, benchmark)] = expected_headline(**values)
    return expected


def sweep_group(config, parents, model, group):
    """The swept benchmarks of ``model``'s sweep figure ``group`` (:func:`figure_groups`)."""
    return figure_group(figure_groups(swept_benchmarks(config, model), parents), group, f"sweep/{model}")


def figure_group(groups, group, folder):
    if group not in groups:
        raise ValueError(f"results/plots/{folder}/{group}.png: no such figure; the grid's are "
                         f"{sorted(groups) or 'none'}")
    return groups[group]


def sweep_table(layer_results, committed, order=()):
    """One row per scored layer, shallow to deep: layer, depth, score, raw, error, committed, best.

    ``layer_results``: per-layer score dicts (``layer``, ``score``, ``raw``, ``error``). ``order``: the model's
    layers in forward order (torchvision ``named_modules``); ``depth`` is a layer's index there. A layer missing
    from ``order`` (e.g. the pixels model) gets ``len(order)`` + its index in ``layer_results``. ``best`` marks
    the highest score (the shallowest on a tie); ``committed`` the layer the headline score uses.
    """
    position = {layer: index for index, layer in enumerate(order)}
    rows = []
    for index, result in enumerate(layer_results):
        layer = result["layer"]
        rows.append({"layer": layer, "depth": position.get(layer, len(position) + index),
                     "score": number_or_nan(result.get("score")), "raw": number_or_nan(result.get("raw")),
                     "error": number_or_nan(result.get("error")), "committed": layer == committed, "best": False})
    if not rows:
        raise ValueError("sweep table: no layer results")
    table = pd.DataFrame(rows, columns=SWEEP_COLUMNS).sort_values("depth", kind="stable").reset_index(drop=True)
    if table["layer"].duplicated().any():
        raise ValueError(f"sweep table: layer scored twice: {sorted(table.loc[table['layer'].duplicated(), 'layer'])}")
    if not table["committed"].any():
        raise ValueError(f"sweep table: committed layer {committed!r} is not among the scored layers "
                         f"{list(table['layer'])}")
    if table["score"].notna().any():
        table.loc[table["score"].idxmax(), "best"] = True  # idxmax: first maximum = shallowest on a tie
    return table


def write_sweep_table(table, path):
    table.to_csv(path, sep="\t", index=False, float_format="%.6g")


def read_sweep_table(path):
    table = pd.read_csv(path, sep="\t")
    for column in ("committed", "best"):
        table[column] = table[column].astype(str).str.lower().eq("true")
    return table


def leaderboard(headlines, ceilings, models=None, benchmarks=None, simulated=(), facts=None):
    """Scores as a table: one row per model, one column per benchmark, one ``<parent> (mean)`` column per parent
    (mean over its children, see :func:`aggregation`) and an ``average`` column (mean over the top-level parents,
    as Brain-Score aggregates: benchmarks → parent (→ behavior) → average), rows ranked by it; a last row
    ``ceiling`` holds each benchmark's ceiling.

    ``headlines``: headline score dicts (``model``, ``benchmark``, ``score``). ``ceilings``: benchmark -> ceiling
    dict (``ceiling``) or number. ``models``/``benchmarks`` fix which and (for benchmarks) in which order;
    default: as they appear in ``headlines``. ``simulated``: benchmarks on simulated data (see
    :func:`left_out_of_means`). ``facts``: benchmark -> :func:`benchmark_facts` (see :func:`aggregation`).
    """
    models = list(models) if models is not None else list(dict.fromkeys(h["model"] for h in headlines))
    benchmarks = (list(benchmarks) if benchmarks is not None
                  else list(dict.fromkeys(h["benchmark"] for h in headlines)))
    cells = {(h["model"], h["benchmark"]): number_or_nan(h.get("score")) for h in headlines}
    scores = pd.DataFrame([[cells.get((m, b), np.nan) for b in benchmarks] for m in models],
                          index=pd.Index(models, name="model"), columns=benchmarks, dtype=float)
    columns_of = aggregation(headlines, benchmarks, simulated, facts)
    parent_columns = list(columns_of)
    for column, (children, _) in columns_of.items():  # children come first: sub-parents before 'behavior'
        scores[column] = scores[children].mean(axis=1, skipna=False)
    counted = [column for column, (_, in_average) in columns_of.items() if in_average]
    scores[AVERAGE_COLUMN] = scores[counted].mean(axis=1, skipna=False)
    order = sorted(models, key=lambda m: (-_sort_key(scores.loc[m, AVERAGE_COLUMN]), models.index(m)))
    scores = scores.loc[order]
    columns = benchmarks + parent_columns + [AVERAGE_COLUMN]
    ceiling_row = pd.DataFrame([[_ceiling_value(ceilings.get(b)) for b in benchmarks]
                                + [np.nan] * (len(parent_columns) + 1)],
                               index=pd.Index([CEILING_ROW], name="model"), columns=columns)
    return pd.concat([scores, ceiling_row])


def write_leaderboard_csv(table, path):
    table.to_csv(path, index=True, float_format="%.4f")


# --- helpers ---------------------------------------------------------------------------------------------------

def number_or_nan(value):
    return float("nan") if value is None else float(value)


def _sort_key(value):
    return -math.inf if value is None or not np.isfinite(value) else value


def _ceiling_value(ceiling):
    """A ceiling JSON's number: a time-resolved benchmark's (a list per time bin) is the mean over its bins, as its
    score JSON's ``ceiling`` (brainpipe.pipeline.scoring)."""
    if ceiling is None:
        return float("nan")
    return scalar_or_nan(ceiling["ceiling"] if isinstance(ceiling, dict) else ceiling)


def scalar_or_nan(value):
    """One number of a JSON value: a list per time bin gives the mean of its finite bins; None gives NaN."""
    if isinstance(value, (list, tuple)):
        finite = [float(v) for v in value if v is not None and math.isfinite(float(v))]
        return float(np.mean(finite)) if finite else float("nan")
    return number_or_nan(value)


def _shade(value):
    """Cell background: white (score 0 or less) to green (score 1 or more)."""
    if value is None or not np.isfinite(value):
        return "#ffffff"
    t = min(max(float(value), 0.0), 1.0)
    red, green, blue = (int(round(255 + (a - 255) * t)) for a in (99, 190, 123))
    return f"#{red:02x}{green:02x}{blue:02x}"


@functools.lru_cache(maxsize=1)
def _verbatim():
    """Built-in behavioural identifiers kept as Brain-Score spells them (brainpipe.benchmarks.base.Behaviour.identifier:
    e.g. ``Lonnqvist2024_EngineeringAccuracy``): their text does not say family and metric, the definitions do."""
    from brainpipe.benchmarks.base import verbatim_identifiers
    return verbatim_identifiers(bench.builtin().families)


@functools.lru_cache(maxsize=1)
def _neural_verbatim():
    """Built-in neural identifiers kept as Brain-Score spells them (Family.identifiers) -> (family, region, metric)."""
    from brainpipe.benchmarks.base import neural_verbatim_identifiers
    return neural_verbatim_identifiers(bench.builtin().families)


def identifier_parts(identifier):
    """(family, region, metric) of an identifier, read from its text: the report needs no family definitions
    (a declared or plugin family is known only to the config's registry). Region is None for behaviour
    (``<Family>-i2n``); a built-in behavioural identifier kept verbatim is looked up (:func:`_verbatim`)."""
    if identifier in _neural_verbatim():  # a neural identifier named as Brain-Score names it (Family.identifiers)
        return _neural_verbatim()[identifier]
    if identifier in _verbatim():
        family, metric = _verbatim()[identifier]
        return family, None, metric
    match = bench.IDENTIFIER.match(identifier)
    if not match:
        raise ValueError(f"benchmark {identifier!r}: expected '<Family>.<region>-<metric>' or '<Family>-<metric>'")
    return match.group("family", "region", "metric")


def readable_identifier(identifier):
    return identifier in _verbatim() or bench.IDENTIFIER.match(identifier) is not None


def data_access(headline) -> str | None:
    """Which part of the recordings a score file's ``data`` names: ``access`` ('public', 'private' or 'all'); score
    files written before brainpipe 0.3 name it ``split``."""
    data = headline.get("data") or {}
    return data.get("access", data.get("split"))
