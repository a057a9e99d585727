"""Figures of a finished grid: a model's per-layer sweep, the per-fold spread, Malania2007's thresholds and the
per-condition results where Brain-Score's papers show curves (Geirhos2021's error consistency, Scialom2024's
accuracy per degradation level, Baker2022's whole vs disrupted accuracy).

Functions of the score JSONs and the tables of brainpipe.pipeline.report (no Snakemake). matplotlib's Agg backend
(no display needed), imported only when a figure is drawn, so parsing the workflow stays fast.
"""

import math

import numpy as np
import pandas as pd

from brainpipe import benchmarks as bench
from .report import THRESHOLD_METRICS, identifier_parts, number_or_nan, readable_identifier


def plot_sweep(tables, model, path, title=None):
    """Score vs layer depth for one model, one line per benchmark (``tables``: benchmark -> sweep table), with
    error bars (SEM over folds), the committed layer starred and the best layer ringed. The workflow draws one
    figure per parent (report.figure_groups: at most a dozen lines); ``title`` names it."""
    plt = _pyplot()
    from matplotlib.lines import Line2D

    layers = (pd.concat([t[["layer", "depth"]] for t in tables.values()])
              .drop_duplicates("layer").sort_values("depth", kind="stable")["layer"].tolist())
    x_of = {layer: i for i, layer in enumerate(layers)}
    fig, ax = plt.subplots(figsize=(min(16.0, max(9.5, 0.55 * len(layers) + 6.5)), 4.8), layout="constrained")
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (benchmark, table) in enumerate(tables.items()):
        color = colors[i % len(colors)]
        dodge = (i - (len(tables) - 1) / 2) * min(0.08, 0.3 / len(tables))  # keep error bars apart
        x = table["layer"].map(x_of).to_numpy() + dodge
        ax.errorbar(x, table["score"], yerr=table["error"].fillna(0), color=color, marker="o", markersize=5,
                    capsize=3, linewidth=1.6, label=benchmark)
        committed = table[table["committed"]]
        ax.plot(committed["layer"].map(x_of) + dodge, committed["score"], linestyle="none", marker="*", markersize=17,
                markerfacecolor=color, markeredgecolor="black", markeredgewidth=1.0, zorder=4)
        best = table[table["best"]]
        ax.plot(best["layer"].map(x_of) + dodge, best["score"], linestyle="none", marker="o", markersize=15,
                markerfacecolor="none", markeredgecolor=color, markeredgewidth=2.0, zorder=3)
    ax.set_xticks(range(len(layers)))
    # `sweep: all` can list 100+ layers: label every step-th, and always the committed and best ones
    step = max(1, math.ceil(len(layers) / 25))
    marked = set().union(*(t.loc[t["committed"] | t["best"], "layer"] for t in tables.values()))
    ax.set_xticklabels([layer if i % step == 0 or layer in marked else "" for i, layer in enumerate(layers)],
                       rotation=45 if len(layers) > 4 or max(map(len, layers)) > 12 else 0, ha="right")
    ax.set_xlabel("layer (model's forward order: shallow → deep)"
                  + ("; not every layer labelled" if step > 1 else ""))
    ax.set_ylabel("ceiled score (1 = ceiling)")
    ax.set_title(f"{model}: score per layer" + (f" ({title})" if title else ""))
    ax.axhline(0, color="#999", linewidth=0.8)
    ax.grid(axis="y", alpha=0.35)
    handles, labels = ax.get_legend_handles_labels()
    handles += [Line2D([], [], linestyle="none", marker="*", markersize=13, markerfacecolor="white",
                       markeredgecolor="black"),
                Line2D([], [], linestyle="none", marker="o", markersize=12, markerfacecolor="none",
                       markeredgecolor="black", markeredgewidth=2.0)]
    labels += ["committed layer (headline score)", "best layer"]
    fig.legend(handles, labels, fontsize=9, loc="outside right upper", title="benchmark (± SEM over folds)",
               title_fontsize=9)
    _save(fig, path)


def fold_values(result):
    """One number per fold of a score dict: its ``per_fold`` values (temporal metrics: the mean over time bins)."""
    return [float(np.nanmean(v)) if isinstance(v, (list, tuple)) else number_or_nan(v) for v in result.get("per_fold", [])]


def plot_folds(headlines, path, models=None, benchmarks=None):
    """Per-fold spread of the raw (unceiled) score of each model's committed layer: one panel per benchmark,
    a box and the individual folds per model, the mean marked. The workflow draws one figure per parent
    (report.figure_groups), so each stays a few thousand pixels at most."""
    plt = _pyplot()
    models = list(models) if models is not None else list(dict.fromkeys(h["model"] for h in headlines))
    benchmarks = (list(benchmarks) if benchmarks is not None
                  else list(dict.fromkeys(h["benchmark"] for h in headlines)))
    by_cell = {(h["model"], h["benchmark"]): h for h in headlines}
    columns = min(3, len(benchmarks))
    rows = math.ceil(len(benchmarks) / columns)
    # a panel's width grows with the models up to 6 inches (50 models: narrower ticks, smaller labels), so that a
    # figure of report.FIGURE_BENCHMARKS panels stays within about 2,200 × 2,100 pixels
    width = min(6.0, max(3.2, 0.9 * len(models) + 1.6))
    fig, axes = plt.subplots(rows, columns, figsize=(columns * width, rows * 4.2 + 0.4), squeeze=False,
                             layout="constrained")
    tick_size = 10 if len(models) <= 6 else max(5, int(60 / len(models) * 6) // 6)
    rng = np.random.default_rng(0)
    for ax, benchmark in zip(axes.flat, benchmarks):
        values = [fold_values(by_cell.get((m, benchmark), {})) for m in models]
        positions = np.arange(len(models))
        present = [i for i, v in enumerate(values) if v]
        if present:  # a benchmark every model's cell of which is empty or null has no folds to draw
            ax.boxplot([values[i] for i in present], positions=positions[present], widths=0.5, whis=(0, 100),
                       medianprops={"color": "#444"}, boxprops={"color": "#888"}, whiskerprops={"color": "#888"},
                       capprops={"color": "#888"})
        else:
            ax.text(0.5, 0.5, "no folds: every cell is empty or has no score", ha="center", va="center",
                    transform=ax.transAxes, fontsize=9, color="#666")
        for i in present:
            jitter = rng.uniform(-0.12, 0.12, len(values[i]))
            ax.scatter(positions[i] + jitter, values[i], s=22, alpha=0.8, color=f"C{i % 10}", zorder=3)
            ax.scatter([positions[i]], [np.mean(values[i])], marker="D", s=45, color="black", zorder=4)
        n = max((len(v) for v in values), default=0)
        metric = identifier_parts(benchmark)[2] if readable_identifier(benchmark) else ""
        ax.set_title(f"{benchmark}\n({n} fold{'s' if n != 1 else ''})", fontsize=10)
        ax.set_xticks(positions)
        ax.set_xticklabels(models, rotation=30 if len(models) <= 6 and max(map(len, models)) <= 8 else 90,
                           ha="right", fontsize=tick_size)
        ax.set_ylabel("raw score per fold" + (f"\n({_raw_unit(metric)})" if metric else ""))
        ax.grid(axis="y", alpha=0.35)
    for ax in list(axes.flat)[len(benchmarks):]:
        ax.set_visible(False)
    from matplotlib.lines import Line2D
    fig.legend([Line2D([], [], linestyle="none", marker="o", color="#555"),
                Line2D([], [], linestyle="none", marker="D", color="black")],
               ["one cross-validation fold", "mean over folds (= raw score)"], loc="outside lower center", ncols=2,
               fontsize=9)
    fig.suptitle("Per-fold spread of the committed layer's raw (unceiled) score")
    _save(fig, path)


def plot_thresholds(headlines, path, title, models=None):
    """Thresholds per condition (the threshold benchmarks' ``per_condition`` tables, Malania2007): left, each flanker
    condition's threshold elevation (model: its condition / vernier-only threshold; humans: mean ± std of theirs);
    right, the vernier-only threshold (arcsec) of the readout fitted on each condition's stimuli against the humans'.
    A model whose fit failed (its score 0) has no point there; the panel says how many failed."""
    plt = _pyplot()
    models = list(models) if models is not None else list(dict.fromkeys(h["model"] for h in headlines))
    fig, axes = plt.subplots(1, 2, figsize=(13.0, 4.6), layout="constrained")
    panels = (("threshold_elevation", "threshold elevation (condition / vernier only)", "model_elevation",
               "human_elevations"),
              ("threshold", "vernier-only threshold (arcsec), readout fitted per condition", "model_threshold",
               "human_thresholds"))
    for ax, (metric, label, model_key, human_key) in zip(axes, panels):
        rows = {}  # condition -> (model -> value, human values)
        failed = 0
        for h in headlines:
            if h.get("metric") != metric:
                continue
            for condition, entry in (h.get("per_condition") or {}).items():
                slot = rows.setdefault(condition, ({}, entry.get(human_key) or []))
                slot[0][h["model"]] = entry.get(model_key)
                failed += entry.get(model_key) is None
        conditions = list(rows)
        x_of = {c: i for i, c in enumerate(conditions)}
        if conditions:
            human = [np.asarray(rows[c][1], dtype=float) for c in conditions]
            ax.errorbar(range(len(conditions)), [np.nanmean(v) if len(v) else np.nan for v in human],
                        yerr=[np.nanstd(v) if len(v) else 0 for v in human], color="#444", linestyle="--",
                        marker="s", markersize=5, capsize=3, label="humans (mean ± std)")
        for i, model in enumerate(models):
            points = [(x_of[c], rows[c][0][model]) for c in conditions if rows[c][0].get(model) is not None]
            if points:
                ax.plot(*zip(*points), marker="o", markersize=6, linewidth=1.4, color=f"C{i % 10}", label=model)
        if not conditions:
            ax.text(0.5, 0.5, "no threshold results", ha="center", va="center", transform=ax.transAxes, color="#777")
        elif failed:
            ax.text(0.01, 0.98, f"{failed} model threshold(s) not fitted (score 0)", ha="left", va="top",
                    transform=ax.transAxes, fontsize=8, color="#a00")
        ax.set_xticks(range(len(conditions)))
        ax.set_xticklabels([c.removeprefix("Malania2007_") for c in conditions], rotation=30)
        ax.set_xlabel("flanker condition")
        ax.set_ylabel(label.split(",")[0])
        ax.grid(axis="y", alpha=0.35)
        ax.set_title(label, fontsize=10)
    _save_two_panels(fig, axes, f"{title}: thresholds per condition, model vs human", path)


def plot_conditions(headlines, path, dataset, models=None):
    """Per-condition results of one data set (the score JSONs' ``per_condition`` tables, e.g. the
    error-consistency and top-1 benchmarks of one Geirhos et al. 2021 data set): error consistency (κ, model vs
    each subject, mean ± std over subjects; humans: mean over subject pairs) and accuracy (humans: mean ± std over
    subjects) against condition, one line per model. Accuracy comes from the accuracy benchmark where the data set
    has one (its visual degrees), else from the error-consistency benchmark's table."""
    plt = _pyplot()
    models = list(models) if models is not None else list(dict.fromkeys(h["model"] for h in headlines))
    tables = {}  # (model, metric) -> per_condition rows
    for h in headlines:
        if h.get("per_condition"):
            tables[(h["model"], h.get("metric"))] = h["per_condition"]
    conditions = list(dict.fromkeys(row["condition"] for rows in tables.values() for row in rows))
    x_of = {condition: i for i, condition in enumerate(conditions)}
    fig, axes = plt.subplots(1, 2, figsize=(max(9.0, 1.1 * len(conditions) + 6.5), 4.4), layout="constrained")
    panels = (("error_consistency", "error consistency (Cohen's κ)", ("error_consistency",)),
              ("model_accuracy", "accuracy", ("accuracy", "error_consistency")))
    for ax, (key, label, sources) in zip(axes, panels):
        human_rows = None
        for i, model in enumerate(models):
            rows = next((tables[(model, m)] for m in sources if (model, m) in tables), None)
            rows = [r for r in rows or [] if r.get(key) is not None]
            if not rows:
                continue
            human_rows = human_rows or rows
            spread = [r.get("error_consistency_std") or 0 for r in rows] if key == "error_consistency" else None
            ax.errorbar([x_of[r["condition"]] for r in rows], [r[key] for r in rows], yerr=spread, marker="o",
                        markersize=5, capsize=3, linewidth=1.6, color=f"C{i % 10}", label=model)
        human_key = "human_error_consistency" if key == "error_consistency" else "human_accuracy"
        humans = [r for r in human_rows or [] if r.get(human_key) is not None]
        if humans:
            x, y = [x_of[r["condition"]] for r in humans], np.array([r[human_key] for r in humans])
            ax.plot(x, y, color="#444", linestyle="--", marker="s", markersize=5,
                    label="humans (subject pairs)" if key == "error_consistency" else "humans")
            if key != "error_consistency":
                std = np.array([r.get("human_accuracy_std") or 0 for r in humans])
                ax.fill_between(x, y - std, y + std, color="#999", alpha=0.25, linewidth=0)
        if not ax.lines and not ax.collections:
            ax.text(0.5, 0.5, "no per-condition results", ha="center", va="center", transform=ax.transAxes,
                    color="#777")
        ax.set_xticks(range(len(conditions)))
        ax.set_xticklabels(conditions, rotation=30 if sum(map(len, conditions)) > 40 else 0)
        ax.set_xlabel("condition")
        ax.set_ylabel(label)
        ax.axhline(0, color="#999", linewidth=0.8)
        if key == "model_accuracy":
            ax.set_ylim(0, 1.02)
        ax.grid(axis="y", alpha=0.35)
        ax.set_title(label + (" (± std over subjects)" if key == "error_consistency" else ""), fontsize=10)
    _save_two_panels(fig, axes, f"{dataset}: per condition", path)


def read_condition_tables(headlines, model_paths, human_paths, config=None):
    """The per-condition tables of a figure's :func:`table_benchmark` benchmarks (brainpipe.behaviour.condition_tables),
    each with its ``model``: ``headlines`` are the score JSONs in :func:`condition_table_pairs` order, each paired
    with its model's task output and its human data (the files its fold job compared)."""
    from brainpipe.behaviour.condition_tables import condition_table
    from brainpipe.io import read_netcdf

    if not len(headlines) == len(model_paths) == len(human_paths):
        raise ValueError(f"{len(headlines)} scores, {len(model_paths)} task outputs and {len(human_paths)} human data "
                         "files: expected one of each per (model, benchmark)")
    tables = []
    for headline, model_path, human_path in zip(headlines, model_paths, human_paths):
        benchmark = bench.load(headline["benchmark"], config or {})
        model = read_netcdf(model_path, required_coords=("stimulus_id",))
        human = read_netcdf(human_path, required_coords=("stimulus_id",))
        human.attrs["source"] = str(human_path)
        tables.append({**condition_table(benchmark, model, human), "model": headline["model"],
                       "score": headline.get("score")})
    return tables


def level_series(table, row):
    """(series, level) of one row of an accuracy-distance table: a data set named ``<series>-<level>`` whose
    condition is that level (Scialom2024_phosphenes-12: condition '12') is a point of the graded series
    'phosphenes'; any other data set is a reference point of its own (level None: Scialom2024_rgb, a composite,
    BMD2024's experiments). Series are named without the parent's prefix."""
    dataset, condition, parent = str(table["dataset"]), str(row["condition"]), str(table.get("parent") or "")
    graded = dataset.endswith(f"-{condition}")
    series = dataset[:-len(condition) - 1] if graded else dataset
    for prefix in (f"{parent}_", f"{parent}."):
        if parent and series.startswith(prefix):
            series = series[len(prefix):]
    return series, (condition if graded else None)


def _level_order(levels):
    try:
        return sorted(levels, key=lambda level: (float(level), level))
    except ValueError:
        return sorted(levels)


def plot_accuracy_levels(tables, path, title, models=None):
    """Accuracy per degradation level (the accuracy-distance benchmarks' tables, e.g. Scialom2024): one panel per
    graded series (:func:`level_series`: phosphenes, segments), its levels along x (12 … 100 % of the elements) and
    the reference data sets (rgb, contours, composites) at the right; one line per model (its share of correct
    labels), the subjects' mean accuracy dashed with its spread over subjects (± std) as a band / error bar."""
    plt = _pyplot()
    models = list(models) if models is not None else list(dict.fromkeys(t["model"] for t in tables))
    points = {}  # (model, series, level) -> row
    graded, references = {}, []
    for table in tables:
        for row in table.get("rows") or []:
            series, level = level_series(table, row)
            if level is None:
                if series not in references:
                    references.append(series)
            else:
                graded.setdefault(series, set()).add(level)
            points[(table["model"], series, level)] = row
    panels = list(graded) or [None]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels) + 3.5, 4.4), layout="constrained",
                             squeeze=False)
    for ax, series in zip(axes[0], panels):
        levels = _level_order(graded.get(series, ()))
        x_of = {level: i for i, level in enumerate(levels)}
        x_ref = {name: len(levels) + 0.5 + i for i, name in enumerate(references)}
        for i, model in enumerate(models):
            color = f"C{i % 10}"
            rows = [(x_of[level], points[(model, series, level)]) for level in levels
                    if (model, series, level) in points]
            if rows:
                ax.plot([x for x, _ in rows], [r["model_accuracy"] for _, r in rows], marker="o", markersize=5,
                        linewidth=1.6, color=color, label=model)
            refs = [(x_ref[name], points[(model, name, None)]) for name in references if (model, name, None) in points]
            if refs:
                ax.plot([x for x, _ in refs], [r["model_accuracy"] for _, r in refs], marker="D", markersize=6,
                        linestyle="none", color=color, label=None if rows else model)
        # the subjects' accuracy does not depend on the model: the first model's table that has the point
        def human_row(series_, level):
            row = next((points[(m, series_, level)] for m in models if (m, series_, level) in points), None)
            return row if row is not None and row.get("human_accuracy") is not None else None
        humans = [(x_of[level], human_row(series, level)) for level in levels if human_row(series, level)]
        if humans:
            x = [x for x, _ in humans]
            y = np.array([r["human_accuracy"] for _, r in humans])
            std = np.array([r.get("human_accuracy_std") or 0 for _, r in humans])
            ax.errorbar(x, y, yerr=std, color="#444", linestyle="--", marker="s", markersize=5, capsize=3,
                        label="humans (mean over subjects)")
        refs = [(x_ref[name], human_row(name, None)) for name in references if human_row(name, None)]
        if refs:
            ax.errorbar([x for x, _ in refs], [r["human_accuracy"] for _, r in refs],
                        yerr=[r.get("human_accuracy_std") or 0 for _, r in refs], color="#444", marker="s",
                        markersize=5, linestyle="none", capsize=3,
                        label=None if humans else "humans (mean over subjects)")
        if not ax.lines and not ax.collections:
            ax.text(0.5, 0.5, "no per-condition results", ha="center", va="center", transform=ax.transAxes,
                    color="#777")
        if references and levels:
            ax.axvline(len(levels) - 0.25, color="#bbb", linewidth=0.8)
        ax.set_xticks(list(range(len(levels))) + list(x_ref.values()))
        ax.set_xticklabels(list(levels) + list(references), rotation=30 if references else 0)
        ax.set_xlabel("level (e.g. % of elements shown)" if levels else "data set")
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1.02)
        ax.grid(axis="y", alpha=0.35)
        ax.set_title(series if series is not None else "per data set", fontsize=10)
    handles, labels = axes[0][0].get_legend_handles_labels()
    for ax in axes[0][1:]:
        handles += [h for h, l in zip(*ax.get_legend_handles_labels()) if l not in labels]
        labels += [l for l in ax.get_legend_handles_labels()[1] if l not in labels]
    if handles:
        fig.legend(handles, labels, fontsize=9, loc="outside right upper", title="model", title_fontsize=9)
    fig.suptitle(f"{title}: accuracy per level, model vs human", x=0.01, ha="left")
    _save(fig, path)


def plot_accuracy_delta(tables, path, title, models=None):
    """Accuracy on whole vs configurally disrupted silhouettes (the accuracy-delta benchmarks' tables, Baker &
    Elder 2022): one panel per benchmark (frankenstein, fragmented, inverted), the image types along x, one line per
    model (its accuracy as the metric defines it: mean over categories) and the subjects' mean (dashed, ± std over
    subjects); the legend of each panel gives each drop (whole minus disrupted) and each model's score."""
    plt = _pyplot()
    models = list(models) if models is not None else list(dict.fromkeys(t["model"] for t in tables))
    benchmarks = list(dict.fromkeys(t["benchmark"] for t in tables))
    of = {(t["model"], t["benchmark"]): t for t in tables}
    fig, axes = plt.subplots(1, max(len(benchmarks), 1), figsize=(4.2 * max(len(benchmarks), 1) + 3.5, 4.4),
                             layout="constrained", squeeze=False)
    for ax, benchmark in zip(axes[0], benchmarks or [None]):
        human, notes = None, []
        for i, model in enumerate(models):
            table = of.get((model, benchmark))
            rows = (table or {}).get("rows") or []
            if not rows:
                continue
            accuracy = [r["model_accuracy"] for r in rows]
            ax.plot(range(len(rows)), accuracy, marker="o", markersize=6, linewidth=1.6, color=f"C{i % 10}",
                    label=model)
            score = table.get("score")
            notes.append(f"{model}: drop {accuracy[0] - accuracy[-1]:.2f}"
                         + (f", score {score:.2f}" if score is not None else ""))
            human = human or rows
        if human and all(r.get("human_accuracy") is not None for r in human):
            y = [r["human_accuracy"] for r in human]
            ax.errorbar(range(len(human)), y, yerr=[r.get("human_accuracy_std") or 0 for r in human], color="#444",
                        linestyle="--", marker="s", markersize=5, capsize=3, label="humans (mean over subjects)")
            notes.insert(0, f"humans: drop {y[0] - y[-1]:.2f}")
        if not human:
            ax.text(0.5, 0.5, "no per-condition results", ha="center", va="center", transform=ax.transAxes,
                    color="#777")
        else:
            ax.set_xticks(range(len(human)))
            ax.set_xticklabels([r["condition"] for r in human])
            ax.text(0.02, 0.02, "\n".join(notes), ha="left", va="bottom", transform=ax.transAxes, fontsize=8)
        orientation = next((t.get("orientation") for t in tables if t["benchmark"] == benchmark), None)
        ax.set_xlim(-0.4, max(len(human or ()), 2) - 0.6)
        ax.set_xlabel("image type" + (f" ({orientation})" if orientation else ""))
        ax.set_ylabel("accuracy")
        ax.set_ylim(0, 1.02)
        ax.grid(axis="y", alpha=0.35)
        ax.set_title(benchmark or "no benchmark", fontsize=10)
    handles, labels = [], []
    for ax in axes[0]:
        for h, l in zip(*ax.get_legend_handles_labels()):
            if l not in labels:
                handles.append(h)
                labels.append(l)
    if handles:
        fig.legend(handles, labels, fontsize=9, loc="outside right upper", title="model", title_fontsize=9)
    fig.suptitle(f"{title}: accuracy on whole vs disrupted images, model vs human", x=0.01, ha="left")
    _save(fig, path)


def plot_condition_tables(tables, path, title, models=None):
    """The figure of a group of :func:`table_benchmark` benchmarks: :func:`plot_accuracy_delta` for accuracy-delta
    tables, else :func:`plot_accuracy_levels`."""
    if tables and all(t.get("metric") == "accuracy_delta" for t in tables):
        return plot_accuracy_delta(tables, path, title, models)
    return plot_accuracy_levels(tables, path, title, models)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _save_two_panels(fig, axes, title, path):
    """One legend of the models in both panels (each once), the title, and the PNG."""
    handles, labels = axes[0].get_legend_handles_labels()
    more = [(h, l) for h, l in zip(*axes[1].get_legend_handles_labels()) if l not in labels]
    if handles or more:
        fig.legend(handles + [h for h, _ in more], labels + [l for _, l in more], fontsize=9,
                   loc="outside right upper", title="model", title_fontsize=9)
    fig.suptitle(title)
    _save(fig, path)


def _save(fig, path):
    import matplotlib.pyplot as plt

    fig.savefig(path, dpi=120, format="png", metadata={"Software": None})
    plt.close(fig)


def _raw_unit(metric):
    if metric in bench.REPRESENTATIONAL_METRICS:
        return "similarity of representations"
    if metric not in bench.METRICS:  # behavioural (i2n, error_consistency, top1, match, value_delta)
        return f"{metric} of model vs human behaviour"
    return "Pearson r, median over neuroids"


def plot_data_set_conditions(headlines, task_files, human_files, config, path, dataset, models=None):
    """One data set's per-condition figure (rule conditions_plot): with task outputs, accuracy per condition of
    the models and the humans (Scialom2024, Baker2022: :func:`read_condition_tables`); else, for threshold
    benchmarks (Malania2007), model vs human thresholds per condition; else the scores' per-condition values."""
    if task_files:
        plot_condition_tables(read_condition_tables(headlines, task_files, human_files, config), path, dataset,
                              models=models)
    elif all(h.get("metric") in THRESHOLD_METRICS for h in headlines):
        plot_thresholds(headlines, path, dataset, models=models)
    else:
        plot_conditions(headlines, path, dataset, models=models)
