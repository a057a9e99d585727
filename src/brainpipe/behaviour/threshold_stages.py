"""Threshold benchmarks (Malania2007) as workflow stages: the model's threshold from one readout (fitted on one
stimulus set's microsaccade trials, read out on another's), the ceiling from the human thresholds, and a layer's
score. Used by workflow/scripts/threshold_*.py; usable from Python alike.

A threshold benchmark is a behavioural :class:`brainpipe.benchmarks.Benchmark` whose metric is ``threshold`` or
``threshold_elevation``; its ``options`` name the (condition data, test stimuli, fitting stimuli) it is scored on
and the baseline (brainpipe.benchmarks.families.malania2007). Upstream: brain-score/vision
brainscore_vision/benchmarks/malania2007/benchmark.py, metrics/threshold/metric.py.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from . import threshold as th

THRESHOLD_METRICS = ("threshold", "threshold_elevation")


def is_threshold(benchmark) -> bool:
    return benchmark.behaviour is not None and benchmark.behaviour.metric in THRESHOLD_METRICS


def spec(benchmark) -> dict:
    """The benchmark's threshold settings (its Behaviour options) as a plain dict."""
    options = dict(benchmark.behaviour.options)
    return {"conditions": [list(c) for c in options["conditions"]], "baseline": list(options["baseline"]),
            "fitting_trials": int(options["fitting_trials"]), "test_trials": int(options["test_trials"]),
            "threshold_accuracy": options["threshold_accuracy"],
            "independent_variable": options["independent_variable"]}


def readouts(benchmark) -> list[tuple[str, str]]:
    """(fitting stimulus set, test stimulus set) of every readout the benchmark needs: an elevation reads the
    baseline's and the condition's stimuli out of one readout fitted on the condition's fitting stimuli; the
    vernier acuity reads the baseline's stimuli out of each condition's readout."""
    s = spec(benchmark)
    baseline_stimuli = s["baseline"][1]
    pairs = []
    for _, test, fitting in s["conditions"]:
        pairs.append((fitting, baseline_stimuli))
        if benchmark.behaviour.metric == "threshold_elevation":
            pairs.append((fitting, test))
    return pairs


def trial_features(features: np.ndarray, order, stimulus_ids, model: str, layer: str) -> xr.DataArray:
    """Rows of :func:`brainpipe.models.microsaccades.extract_trials` as Brain-Score labels them: row r carries the
    stimulus_id of image r // trials (``stimulus_id``), whatever image it holds (``content_stimulus_id``,
    ``trial``)."""
    stimulus_ids = np.asarray(stimulus_ids).astype(str)
    trials = len(order) // len(stimulus_ids)
    label = np.repeat(stimulus_ids, trials)
    return xr.DataArray(features, dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", label.astype(object)),
                                "content_stimulus_id": ("presentation", stimulus_ids[[i for i, _ in order]].astype(object)),
                                "trial": ("presentation", np.array([t for _, t in order], dtype=np.int64)),
                                "neuroid_id": ("neuroid", np.array([f"{model}.{layer}.{i}"
                                                                    for i in range(features.shape[1])], dtype=object))},
                        name=f"{model}.{layer}", attrs={"model": model, "layer": layer, "trials": trials})


def _column(features: xr.DataArray, table: pd.DataFrame, column: str, what: str) -> np.ndarray:
    if column not in table.columns:
        raise ValueError(f"{what}: no column {column!r} (has {sorted(table.columns)}); the threshold readout needs it")
    values = table.assign(stimulus_id=table["stimulus_id"].astype(str)).set_index("stimulus_id")[column]
    ids = features["stimulus_id"].values.astype(str)
    missing = sorted(set(ids) - set(values.index))
    if missing:
        raise ValueError(f"{what}: {len(missing)} stimuli with features are not in the stimulus set, e.g. {missing[:3]}")
    return values.reindex(ids).to_numpy()


def model_threshold(fitting: xr.DataArray, fitting_table: pd.DataFrame, test: xr.DataArray, test_table: pd.DataFrame,
                    settings: dict, alpha_values=th.ALPHA_VALUES) -> dict:
    """The model's threshold on ``test`` with a readout fitted on ``fitting`` (both trial features labelled as
    Brain-Score labels them): probabilities task (brainpipe.behaviour.tasks.probabilities) on the fitting set's
    ``image_label``, each test row correct when its most probable choice equals its ``image_label``, threshold of
    the proportion correct over the independent variable. JSON-ready: threshold (or 'fit_fail'), the proportion
    correct per x, the mean accuracy."""
    from .tasks import probabilities

    variable = settings["independent_variable"]
    labels = _column(fitting, fitting_table, "image_label", fitting_table.attrs.get("source", "fitting stimuli"))
    probs = probabilities(fitting, test, labels=labels)
    test_labels = _column(test, test_table, "image_label", test_table.attrs.get("source", "test stimuli"))
    x = _column(test, test_table, variable, test_table.attrs.get("source", "test stimuli"))
    correct = th.correct_choices(probs.values, list(probs["choice"].values), list(test_labels))
    if np.mean(correct) < th.REQUIRED_ACCURACY:  # upstream fails here before it looks at x
        return {"threshold": th.FIT_FAIL, "threshold_accuracy": settings["threshold_accuracy"],
                "mean_accuracy": float(np.mean(correct)), "psychometric": _psychometric(x, correct),
                "n_presentations": int(len(correct)), "choices": [str(c) for c in probs["choice"].values]}
    try:
        x = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"the independent variable {variable!r} must be numeric (upstream fits a psychometric "
                         f"function over it, and raises here), got e.g. {list(x[:3])}") from None
    threshold, accuracy = th.compute_threshold(x, correct, settings["threshold_accuracy"], alpha_values=alpha_values)
    levels, rates = th.aggregate(x, correct)
    return {"threshold": threshold, "threshold_accuracy": accuracy, "mean_accuracy": float(np.mean(correct)),
            "psychometric": {"x": [float(v) for v in levels], "proportion_correct": [float(r) for r in rates]},
            "n_presentations": int(len(correct)), "choices": [str(c) for c in probs["choice"].values]}


def _psychometric(x, correct) -> dict:
    levels, rates = th.aggregate(np.asarray(x).astype(str) if np.asarray(x).dtype == object else x, correct)
    return {"x": [v.item() if hasattr(v, "item") else v for v in levels], "proportion_correct": [float(r) for r in rates]}


def human_thresholds(assembly: xr.DataArray, what: str) -> tuple[list, np.ndarray]:
    """(subjects, thresholds) of a PropertyAssembly of one threshold per subject."""
    if "subject" not in assembly.dims or assembly.ndim != 1:
        raise ValueError(f"{what}: expected one threshold per subject (dimension 'subject'), got dims "
                         f"{dict(assembly.sizes)}")
    return [str(s) for s in assembly["subject"].values], np.asarray(assembly.values, dtype=float)


def paired(condition, baseline) -> tuple[np.ndarray, np.ndarray]:
    """Upstream filter_baseline_subjects on (subjects, values) pairs: (condition values, baseline values)."""
    c, b, _ = th.filter_baseline_subjects(condition[0], condition[1], baseline[0], baseline[1])
    return c, b


def ceiling(metric: str, humans: dict, settings: dict) -> dict:
    """The benchmark's ceiling from ``humans`` ({data set: (subjects, thresholds)})."""
    baseline = humans[settings["baseline"][0]]
    if metric == "threshold_elevation":
        (condition, _, _), = settings["conditions"]
        c, b = paired(humans[condition], baseline)
        result = th.leave_one_out_ceiling(th.threshold_elevations(c, b))
        return {"ceiling": result["ceiling"], "error": result["error"], "per_draw": result["per_draw"],
                "method": "leave-one-out over the humans' threshold elevations"}
    per_condition = {}
    for condition, _, _ in settings["conditions"]:
        _, b = paired(humans[condition], baseline)
        per_condition[condition] = th.leave_one_out_ceiling(b)
    return {"ceiling": float(np.mean([r["ceiling"] for r in per_condition.values()])),
            "error": float(np.mean([r["error"] for r in per_condition.values()])),
            "per_condition": {c: r["ceiling"] for c, r in per_condition.items()},
            "method": "mean over conditions of the leave-one-out ceiling of the vernier-only thresholds"}


def _threshold_value(entry):
    value = entry["threshold"]
    return th.FIT_FAIL if value == th.FIT_FAIL else float(value)


def layer_score(metric: str, thresholds: dict, humans: dict, ceiling_json: dict, settings: dict) -> dict:
    """A layer's score JSON. ``thresholds``: {(fitting set, test set): model_threshold JSON}."""
    baseline_data, baseline_stimuli = settings["baseline"]
    baseline = humans[baseline_data]
    ceiling_value = float(ceiling_json["ceiling"])
    per_condition = {}
    if metric == "threshold_elevation":
        (condition, test, fitting), = settings["conditions"]
        c, b = paired(humans[condition], baseline)
        model_baseline = _threshold_value(thresholds[(fitting, baseline_stimuli)])
        model_condition = _threshold_value(thresholds[(fitting, test)])
        result = th.elevation_score(model_baseline, model_condition, th.threshold_elevations(c, b))
        raw = result["score"]
        score = raw / ceiling_value  # upstream does not cap the elevation scores
        per_condition[condition] = {
            "model_threshold": None if isinstance(model_condition, str) else model_condition,
            "model_baseline_threshold": None if isinstance(model_baseline, str) else model_baseline,
            "model_elevation": result.get("elevation"), "human_elevations": list(th.threshold_elevations(c, b)),
            "human_thresholds": [float(v) for v in c], "human_baseline_thresholds": [float(v) for v in b]}
        formula = "raw / ceiling"
        error = result["error"]
    else:
        raws, scores, errors = [], [], []
        for condition, _, fitting in settings["conditions"]:
            _, b = paired(humans[condition], baseline)
            model = _threshold_value(thresholds[(fitting, baseline_stimuli)])
            result = th.threshold_score(model, b)
            raws.append(result["score"])
            errors.append(result["error"])
            scores.append(min(result["score"] / ceiling_value, 1.0))  # upstream: a score above 1 becomes 1
            per_condition[condition] = {"model_threshold": None if isinstance(model, str) else model,
                                        "human_thresholds": [float(v) for v in b], "raw": result["score"]}
        raw, score, error = float(np.mean(raws)), float(np.mean(scores)), float(np.mean(errors))
        formula = "mean over conditions of min(raw / ceiling, 1)"
    return {"score": float(score), "raw": float(raw), "ceiling": ceiling_value, "error": float(error),
            "ceiling_error": ceiling_json.get("error"), "per_fold": [float(raw)], "n_folds": 1, "formula": formula,
            "above_ceiling": bool(score > 1), "metric": metric, "task": "probabilities",
            "per_condition": per_condition}
