"""Tables of a finished grid: per-layer sweep tables, the summary, the leaderboard (CSV + HTML) and its
aggregation as Brain-Score builds it; which report files a grid needs. Its figures: brainpipe.pipeline.figures.

Pure functions of the score JSONs (no Snakemake), so they can be tested alone; ``targets`` and
``swept_benchmarks`` read a plain config dict.
"""

import functools
import html
import math

import numpy as np
import pandas as pd

from brainpipe import benchmarks as bench
from brainpipe.benchmarks.base import METRICS as NEURAL_METRICS, split_of
from .headline import best_layer
from .workflow_config import layers_for_sweep

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
ENGINEERING_PARENTS = ("Islam2021",)
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


def parents_of(headlines, benchmarks):
    """parent -> its benchmarks, in first-appearance order: the score JSON's ``parent`` (Brain-Score's
    leaderboard parent: V1, V2, V4, IT, behavior, ...), else the identifier's region."""
    parent = {h["benchmark"]: h.get("parent") for h in headlines if h.get("parent")}
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
    stem = dataset.rsplit(".", 1)[0] if split_of(dataset) != "all" else dataset
    _, region, metric = identifier_parts(headline["benchmark"])
    return stem, region or metric


def repeated_recordings(headlines, benchmarks):
    """benchmark -> the earlier benchmark (in ``benchmarks`` order) scored on the same recording, for each
    benchmark that repeats one (e.g. MajajHong2015.IT-pls on the public split and MajajHong2015public.IT-pls, or
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


def aggregation(headlines, benchmarks, simulated=()):
    """The leaderboard's aggregate columns, in order: column -> (children, counted in the average).

    Brain-Score's hierarchy: neural benchmarks -> their region (V1 ... IT); behavioural benchmarks -> their parent
    (e.g. the 17 error-consistency data sets -> one parent), and benchmarks or parents under the behavioural root ->
    ``behavior``, one top-level entry like a region; the ``average`` is the mean over the top-level entries.
    Benchmarks scored against the ground truth (``ENGINEERING_METRICS``: top-1 accuracy) get their parent's column
    but stay out of ``behavior`` and the average, as Brain-Score's engineering benchmarks. A child is a benchmark
    id or another aggregate column. Benchmarks of :func:`left_out_of_means` are in no column."""
    left_out = left_out_of_means(headlines, benchmarks, simulated)
    groups = parents_of(headlines, [b for b in benchmarks if b not in left_out])
    metric = {h["benchmark"]: h.get("metric") for h in headlines}
    # properties benchmarks (Marques2020_*: '<family>-<measure>', no region) are neural: metric ks_similarity; so are
    # neural benchmarks Brain-Score names without a region (Cadena2017-pls: a neural metric)
    behavioural = {b for b in benchmarks if readable_identifier(b) and identifier_parts(b)[1] is None
                   and metric.get(b) not in PROPERTIES_METRICS + NEURAL_METRICS}
    parent_of = {h["benchmark"]: h.get("parent") for h in headlines}
    engineering = {b for b in behavioural if metric.get(b) in ENGINEERING_METRICS
                   or parent_of.get(b) in ENGINEERING_PARENTS}
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


def condition_datasets(loaded):
    """data set -> its benchmarks scored per condition (``PER_CONDITION_METRICS``), from loaded Benchmark objects
    (the workflow's ``get_benchmark``): one per-condition figure per data set. Threshold benchmarks
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


def condition_table_pairs(datasets, tables, models, dataset):
    """(model, benchmark) of each per-condition table a figure computes, in the order of
    :func:`condition_inputs` (``tables``: :func:`condition_tables_of`); empty for a figure of score JSONs only."""
    return [(model, benchmark) for model in models for benchmark in datasets.get(dataset, ()) if benchmark in tables]


def condition_plot(dataset):
    return f"results/plots/conditions_{dataset}.png"


def condition_inputs(datasets, models, dataset):
    """The score JSONs a data set's per-condition plot reads (``datasets``: :func:`condition_datasets`)."""
    if dataset not in datasets:
        raise ValueError(f"{condition_plot(dataset)}: no benchmark of the grid is scored per condition on data set "
                         f"{dataset!r} (those that are: {sorted(datasets) or 'none'})")
    return [f"results/{model}/{benchmark}.json" for model in models for benchmark in datasets[dataset]]


def targets(config, loaded=()):
    """Every file of the report: leaderboard, sweep tables and plots, per-fold plot, and with ``loaded`` (the
    grid's Benchmark objects) one per-condition plot per data set scored per condition."""
    files = ["results/leaderboard.csv", "results/leaderboard.html", "results/plots/folds.png"]
    for model in swept_models(config):
        files += [f"results/{model}/{b}/sweep.tsv" for b in swept_benchmarks(config, model)]
        files.append(f"results/plots/sweep_{model}.png")
    files += [condition_plot(dataset) for dataset in condition_datasets(loaded)]
    return files


# --- tables ----------------------------------------------------------------------------------------------------

SUMMARY_COLUMNS = ["model", "benchmark", "layer", "score", "raw", "ceiling", "error", "parent", "split", "status"]
MISSING = "missing"  # status of a grid cell without a score file (its job failed or did not run)


def summary_table(headlines, missing=()):
    """The grid in one table (results/summary.tsv): one row per score (``split``: which part of the recordings it
    was scored on, public / private / all), ``status`` 'scored'; then one row per
    (model, benchmark) of ``missing`` with status 'missing' and no numbers. ``parent``: the leaderboard group
    (region, or 'behavior' / a behavioural parent), so behavioural rows read apart."""
    rows = [{**{k: h.get(k) for k in ("model", "benchmark", "layer", "score", "raw", "ceiling", "error", "parent")},
             "split": (h.get("data") or {}).get("split"), "status": "scored"} for h in headlines]
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


def write_grid_tables(score_paths, ceiling_paths, models, benchmarks, summary_path, csv_path, html_path,
                      simulated=()):
    """results/summary.tsv and the leaderboard (CSV + HTML) from the score files that exist, naming the missing
    ones (the workflow's ``onerror``: a run that partly failed, e.g. with --keep-going, must not leave the
    previous run's tables behind). Returns the missing (model, benchmark) pairs."""
    from pathlib import Path

    from brainpipe.io import atomic_path, read_json

    headlines, missing = existing_scores(score_paths)
    if not headlines:  # nothing scored yet: no table to rebuild (and no stale one can exist)
        return missing
    ceilings = {}
    for path in map(Path, ceiling_paths):
        if path.is_file():
            ceiling = read_json(path)
            ceilings[ceiling.get("benchmark", path.stem)] = ceiling
    with atomic_path(summary_path) as temporary:
        summary_table(headlines, missing).to_csv(temporary, sep="\t", index=False, float_format="%.4f")
    table = leaderboard(headlines, ceilings, models=models, benchmarks=benchmarks, simulated=simulated)
    with atomic_path(csv_path) as temporary:
        write_leaderboard_csv(table, temporary)
    with atomic_path(html_path) as temporary:
        temporary.write_text(leaderboard_html(table, headlines, ceilings, missing=missing, simulated=simulated))
    return missing


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


def leaderboard(headlines, ceilings, models=None, benchmarks=None, simulated=()):
    """Scores as a table: one row per model, one column per benchmark, one ``<parent> (mean)`` column per parent
    (mean over its children, see :func:`aggregation`) and an ``average`` column (mean over the top-level parents,
    as Brain-Score aggregates: benchmarks → parent (→ behavior) → average), rows ranked by it; a last row
    ``ceiling`` holds each benchmark's ceiling.

    ``headlines``: headline score dicts (``model``, ``benchmark``, ``score``). ``ceilings``: benchmark -> ceiling
    dict (``ceiling``) or number. ``models``/``benchmarks`` fix which and (for benchmarks) in which order;
    default: as they appear in ``headlines``. ``simulated``: benchmarks on simulated data (see
    :func:`left_out_of_means`).
    """
    models = list(models) if models is not None else list(dict.fromkeys(h["model"] for h in headlines))
    benchmarks = (list(benchmarks) if benchmarks is not None
                  else list(dict.fromkeys(h["benchmark"] for h in headlines)))
    scores = pd.DataFrame(np.nan, index=pd.Index(models, name="model"), columns=benchmarks)
    for h in headlines:
        if h["model"] in scores.index and h["benchmark"] in scores.columns:
            scores.loc[h["model"], h["benchmark"]] = number_or_nan(h.get("score"))
    columns_of = aggregation(headlines, benchmarks, simulated)
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


def leaderboard_html(table, headlines, ceilings, title="brainpipe leaderboard", missing=(), simulated=()):
    """A self-contained HTML page of ``leaderboard(...)``: score ± error per cell (shaded by score), the layer
    used and, for swept models, the best layer; the benchmark's best model in bold; ceilings with their error.
    ``missing``: (model, benchmark) pairs without a score, named at the top of the page."""
    by_cell = {(h["model"], h["benchmark"]): h for h in headlines}
    benchmarks = [c for c in table.columns if c != AVERAGE_COLUMN and not c.endswith(PARENT_SUFFIX)]
    parent_columns = [c for c in table.columns if c.endswith(PARENT_SUFFIX)]
    columns_of = aggregation(headlines, benchmarks, simulated)
    models = [m for m in table.index if m != CEILING_ROW]
    best = {b: table.loc[models, b].idxmax() if table.loc[models, b].notna().any() else None for b in benchmarks}
    e = html.escape
    split = {h["benchmark"]: (h.get("data") or {}).get("split") for h in headlines}
    left_out = left_out_of_means(headlines, benchmarks, simulated)

    def header(b):
        note = _metric_note(b) + (f", {split[b]} split" if split.get(b) not in (None, "all") else "")
        if b in left_out:
            note += f"; {left_out[b]}: not in the means"
        return f"<th>{e(b)}<br><span class='metric'>{e(note)}</span></th>"

    head = "".join(header(b) for b in benchmarks)
    rows = []
    for rank, model in enumerate(models, start=1):
        cells = []
        for b in benchmarks:
            h = by_cell.get((model, b), {})
            score = table.loc[model, b]
            # a score JSON with "error": null (a single-shot metric) says "n/a", not nothing or "± 0"
            text = _fmt(score) + _error_span(h.get("error"), missing="n/a" if h and h.get("error") is None else "")
            detail = f"layer {e(str(h.get('layer', '?')))}"
            top_layer = h.get("best_layer") or (best_layer(h["sweep"]) if h.get("sweep") else None)
            if top_layer is not None:  # (no layer of a sweep has a score: nothing to name)
                detail += f"<br>best of {len(h['sweep'])}: {e(top_layer)} ({_fmt(h['sweep'][top_layer])})"
            tooltip = f"raw {_fmt(h.get('raw'))}, ceiling {_fmt(h.get('ceiling'))}" + (
                f"; score = {h['formula']}" if h.get("formula") else "")
            weight = " class='top'" if best[b] == model else ""
            cells.append(f"<td style='background:{_shade(score)}' title='{e(tooltip)}'><span{weight}>{text}</span>"
                         f"<div class='layer'>{detail}</div></td>")
        average = table.loc[model, AVERAGE_COLUMN]
        parent_cells = "".join(f"<td class='avg' style='background:{_shade(table.loc[model, c])}'>"
                               f"{_fmt(table.loc[model, c])}</td>" for c in parent_columns)
        rows.append(f"<tr><td class='rank'>{rank}</td><th class='model'>{e(str(model))}</th>"
                    f"<td class='avg' style='background:{_shade(average)}'>{_fmt(average)}</td>{parent_cells}"
                    f"{''.join(cells)}</tr>")
    ceiling_cells = []
    for b in benchmarks:
        c = ceilings.get(b)
        error = c.get("error") if isinstance(c, dict) else None
        ceiling_cells.append(f"<td>{_fmt(table.loc[CEILING_ROW, b])}{_error_span(error)}</td>")
    rows.append(f"<tr class='ceiling'><td></td><th class='model'>ceiling</th><td></td>"
                f"{'<td></td>' * len(parent_columns)}{''.join(ceiling_cells)}</tr>")
    def note(column):
        children, counted = columns_of.get(column, ((), True))
        nested = sum(child in columns_of for child in children)
        text = f"{len(children) - nested} benchmark(s)" + (f" + {nested} parent(s)" if nested else "")
        return text + ("" if counted else "; not in the average")

    parent_head = "".join(f"<th>{e(c)}<br><span class='metric'>{e(note(c))}</span></th>" for c in parent_columns)
    members = "; ".join(f"{e(c.removesuffix(PARENT_SUFFIX))}: {', '.join(map(e, children))}"
                        + ("" if counted else " (not in the average)") for c, (children, counted) in columns_of.items())
    cited = {}
    for h in headlines:  # each benchmark's reference, once (score JSONs carry the family's bibtex)
        if h.get("bibtex") and h["benchmark"] in benchmarks:
            cited.setdefault(h["bibtex"], []).append(h["benchmark"])
    references = "".join(f"<li><b>{e(', '.join(sorted(set(bs))))}</b><pre>{e(bib)}</pre></li>"
                         for bib, bs in cited.items())
    incomplete = ""
    if missing:
        cells = ", ".join(f"{e(model)} &times; {e(benchmark)}" for model, benchmark in missing)
        incomplete = (f"<p class='missing'><b>Incomplete grid: {len(missing)} score(s) missing</b> (their jobs failed "
                      f"or did not run; the Snakemake log names the failed jobs): {cells}. Their cells, and the means "
                      f"that need them, are empty.</p>")
    return _PAGE.format(title=e(title), head=parent_head + head, rows="\n".join(rows), n_models=len(models),
                        incomplete=incomplete,
                        n_benchmarks=len(benchmarks), members=members,
                        references=f"<h2>References</h2><ul>{references}</ul>" if references else "")


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }}
table {{ border-collapse: collapse; font-size: 14px; }}
th, td {{ border: 1px solid #ccc; padding: 6px 10px; text-align: center; vertical-align: top; }}
thead th {{ background: #f3f3f3; }}
th.model {{ text-align: left; font-weight: 600; }}
td.rank {{ color: #777; }}
.metric {{ font-weight: normal; color: #666; font-size: 12px; }}
.err {{ color: #555; font-size: 12px; }}
.layer {{ color: #555; font-size: 11px; margin-top: 2px; }}
.top {{ font-weight: 700; }}
tr.ceiling td, tr.ceiling th {{ background: #fafafa; font-style: italic; border-top: 2px solid #888; }}
p.note {{ max-width: 60em; font-size: 13px; color: #444; }}
p.missing {{ max-width: 60em; padding: 8px 12px; background: #fff3cd; border: 1px solid #e0c060; }}
</style></head>
<body>
<h1>{title}</h1>
{incomplete}
<p>{n_models} model(s) &times; {n_benchmarks} benchmark(s), ranked by the average over parents of each parent's mean
score (as Brain-Score aggregates). Parents: {members}.</p>
<table>
<thead><tr><th>#</th><th>model</th><th>average</th>{head}</tr></thead>
<tbody>
{rows}
</tbody></table>
<p class="note">Each cell: the ceiled score of the model's committed layer (regression metrics: raw&sup2; / ceiling;
representational: raw / ceiling; behavioural: the benchmark's normalisation of the model-vs-human metric; 1 = as
good as the data's own reliability) &plusmn; the standard error of the raw score over cross-validation folds (a
behavioural benchmark: the metric's own error, e.g. the spread over subjects or splits; n/a: a single-shot metric
such as rdm or cka, which has no error estimate); bold = best model on that
benchmark; cell shade = score. Below: the layer used (behaviour: the layer read out) and, for models with a
per-layer sweep, the best-scoring layer. Hover a cell for the raw score, ceiling and formula. Behavioural
benchmarks and their parents are averaged into <i>behavior</i>, one entry of the average like a brain region;
benchmarks against the ground truth (top-1 accuracy) are shown but not averaged. The last row is each benchmark's
ceiling (split-half internal consistency of the neural data, or the human data's agreement with itself)
&plusmn; its error.</p>
{references}
</body></html>
"""


# --- helpers ---------------------------------------------------------------------------------------------------

def number_or_nan(value):
    return float("nan") if value is None else float(value)


def _sort_key(value):
    return -math.inf if value is None or not np.isfinite(value) else value


def _ceiling_value(ceiling):
    if ceiling is None:
        return float("nan")
    return number_or_nan(ceiling["ceiling"] if isinstance(ceiling, dict) else ceiling)


def _fmt(value, digits=3):
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "–"
    return f"{float(value):.{digits}f}"


def _error_span(value, missing=""):
    """' ± error' with two significant digits (a ceiling's error is often below 0.001); ``missing`` after '±' (or
    nothing, when ``missing`` is empty) where there is none."""
    if value is None or not np.isfinite(value):
        return f" <span class='err'>± {missing}</span>" if missing else ""
    return f" <span class='err'>± {float(value):.2g}</span>"


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


def _metric_note(identifier):
    if not readable_identifier(identifier):
        return ""
    _, region, metric = identifier_parts(identifier)
    return f"{region or 'behaviour'}, {metric}"


