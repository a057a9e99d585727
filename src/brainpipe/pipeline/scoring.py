"""Aggregate fold results and a ceiling into a benchmark score.

Regression metrics: median over neuroids per fold, mean over folds, error = SEM over folds (ddof 0)
(brain-score/vision metric_helpers/transformations.py); ceiled = raw² / ceiling with the raw score's error copied
unchanged (benchmark_helpers/neural_common.py::explained_variance, since Jan 2026). Representational metrics:
mean over folds, ceiled = raw / ceiling (benchmarks/__init__.py, RSABenchmark). No clipping: a ceiled score above 1
is reported as is and flagged ``above_ceiling``.
"""

import numpy as np

from brainpipe.benchmarks.base import Benchmark


def fold_summary(fold):
    """One number per fold (per time bin for temporal metrics)."""
    if "value" in fold:
        return fold["value"]
    values = np.asarray(fold["values"], dtype=np.float64)
    if values.ndim == 2:  # (time_bin, neuroid)
        return np.nanmedian(values, axis=1).tolist()
    return float(np.nanmedian(values))


def aggregate(benchmark: Benchmark, folds, ceiling):
    if benchmark.kind == "behaviour":  # Brain-Score's per-benchmark normalisation (brainpipe.behaviour.normalise)
        from brainpipe.behaviour.ceiled import aggregate as behaviour_aggregate

        return behaviour_aggregate(benchmark, folds, ceiling)
    folds = sorted(folds, key=lambda f: f["fold"])
    if "groups" in folds[0]:  # one fit scored per subject (Family.train_test.score_per)
        return aggregate_per_group(benchmark, folds, ceiling)
    per_fold = [fold_summary(f) for f in folds]
    values = np.asarray(per_fold, dtype=np.float64)  # (fold,) or (fold, time_bin)
    raw = values.mean(axis=0)
    # One fold (a single-shot metric: rdm, cka, *_split) has no spread to estimate an error from: NaN, written as
    # null in the JSON and shown as "n/a" (a standard error of 0 would claim a certainty the metric does not have;
    # Brain-Score's single-shot scores carry no error either).
    error = values.std(axis=0, ddof=0) / np.sqrt(len(values)) if len(values) > 1 else np.full_like(raw, np.nan)
    if len(folds) == 1 and folds[0].get("plugin_error") is not None:  # a custom benchmark's own error estimate
        error = np.asarray(folds[0]["plugin_error"], dtype=np.float64)
    ceiling_value = np.asarray(ceiling["ceiling"], dtype=np.float64)
    normalisation = benchmark.normalisation
    if normalisation == "raw_over_ceiling":
        ceiled = raw / ceiling_value
        formula = "raw / ceiling"
    elif normalisation == "raw2_over_ceiling":
        ceiled = raw ** 2 / ceiling_value
        formula = "raw**2 / ceiling"
    elif normalisation == "own":  # a custom benchmark that ceils each subject on its own and averages
        ceiled = np.asarray(folds[0]["plugin_score"], dtype=np.float64)
        formula = "the benchmark's own (per-subject ceiled, averaged)"
    elif normalisation == "squared_ratio_bounded":  # a custom benchmark's (Coggan2024 fMRI: ceiler, bound_score)
        ceiled = np.clip((raw / ceiling_value) ** 2, 0.0, 1.0)
        formula = "min((raw / ceiling)**2, 1)"
    else:  # declared without a ceiling
        ceiled = raw
        formula = "raw (no ceiling)"
    result = {
        "score": float(np.mean(ceiled)),
        "raw": float(np.mean(raw)),
        "ceiling": float(np.mean(ceiling_value)),
        "error": _finite(np.mean(error)),
        # null where the ceiling is NaN (Brain-Score's Cadena2017-mask ceiling: written as null, read back as None)
        "ceiling_error": float(np.mean(np.asarray(ceiling["error"], dtype=np.float64))),
        "per_fold": per_fold,
        "n_folds": len(folds),
        "formula": formula,
        "above_ceiling": bool(np.any(ceiled > 1)),
    }
    if len(folds) == 1 and folds[0].get("subjects"):
        # A mapping fitted and ceiled per subject (Brain-Score's TrainTestNeuralBenchmark with alpha_coord,
        # brainpipe.neural.train_test): the fit job has ceiled each subject (raw² / its ceiling); the score is
        # their mean and raw the mean of their raws, while the reported ceiling stays the one over all neuroids.
        subjects = folds[0]["subjects"]
        result.update(score=float(subjects["score"]), raw=float(subjects["raw"]),
                      per_subject=subjects["per_subject"], formula="mean over subjects of raw**2 / subject ceiling",
                      above_ceiling=bool(any(s["score"] > 1 for s in subjects["per_subject"].values())))
    capped = [f["pls_components_capped"] for f in folds if f.get("pls_components_capped")]
    if capped:  # the fewest components any fold fitted (folds differ only when their training sizes differ)
        result["pls_components_capped"] = min(capped, key=lambda c: c["used"])
    if not np.isfinite(result["score"]):  # written as null: never without a word on why
        result["reason"] = null_reason(folds, values, raw, ceiling_value, ceiling)
    if raw.ndim:  # temporal: keep the per-bin values; the headline is their mean
        result.update(score_per_time_bin=ceiled.tolist(), raw_per_time_bin=raw.tolist(),
                      ceiling_per_time_bin=ceiling_value.tolist(),
                      error_per_time_bin=[_finite(value) for value in error],
                      time_bin_start=folds[0].get("time_bin_start"), time_bin_end=folds[0].get("time_bin_end"))
    return result


def null_reason(folds, values, raw, ceiling_value, ceiling) -> str:
    """One line on why a layer's score is NaN (null in the JSON): the folds without a value (a fold's own
    ``reason``, or every neuroid's Pearson r undefined), else the ceiling's."""
    names = [int(f["fold"]) for f, v in zip(folds, values.reshape(len(folds), -1)) if not np.isfinite(v).any()]
    if not np.all(np.isfinite(raw)):
        own = next((f["reason"] for f in folds if f.get("reason")), None)
        if own:
            return own
        where = f"fold {names[0]}" if len(names) == 1 else f"folds {', '.join(map(str, names))}"
        if names and all("values" in f for f in folds if int(f["fold"]) in names):
            return (f"raw is NaN: in {where} of {len(folds)} every neuroid's Pearson r is undefined (the predictions "
                    f"or the recordings are constant over the test stimuli)")
        return f"raw is NaN: {where} of {len(folds)} gave no value" if names else "raw is NaN"
    if not np.all(np.isfinite(ceiling_value)):
        return ceiling.get("reason") or "the ceiling is NaN (see the benchmark's ceiling file)"
    return f"raw {float(np.mean(raw)):.4g} over ceiling {float(np.mean(ceiling_value)):.4g} gives no number"


def _finite(value):
    """A float for the JSON, or None (null) where there is no number (an error of one fold)."""
    return float(value) if np.isfinite(value) else None


def aggregate_per_group(benchmark: Benchmark, folds, ceiling):
    """A regression fitted once and scored per value of a neuroid coordinate (brain-score/vision
    benchmark_helpers/neural_common.py TrainTestNeuralBenchmark with ``alpha_coord``): per value the median r over
    its neuroids, squared, over the value's own ceiling (``ceiling['per_group']``); the score is the mean over the
    values, the raw score the mean of their medians, the ceiling the one over all neuroids. No error: one fit."""
    if len(folds) != 1 or benchmark.normalisation != "raw2_over_ceiling":
        raise ValueError(f"{benchmark.identifier}: per-group scores need one fold of a regression, "
                         f"got {len(folds)} fold(s), normalisation {benchmark.normalisation}")
    fold = folds[0]
    if "per_group" not in ceiling:
        raise ValueError(f"{benchmark.identifier}: the ceiling has no per-group values; rerun its ceiling job")
    values = np.asarray(fold["values"], dtype=np.float64)
    groups = np.asarray(fold["groups"])
    raw, ceiled = {}, {}
    for label in np.unique(groups):
        raw[str(label)] = float(np.nanmedian(values[groups == label]))  # xarray's median skips NaN
        ceiled[str(label)] = raw[str(label)] ** 2 / float(ceiling["per_group"][str(label)])
    score = float(np.mean(list(ceiled.values())))
    undefined = [label for label in raw if not np.isfinite(ceiled[label])]
    reason = {"reason": "no score for " + ", ".join(
        f"{label} (raw {raw[label]:.4g}, ceiling {float(ceiling['per_group'][label]):.4g})" for label in undefined)
    } if undefined else {}
    return {
        "score": score,
        "raw": float(np.mean(list(raw.values()))),
        "ceiling": float(ceiling["ceiling"]),
        "error": None,
        "ceiling_error": float(ceiling["error"]),
        "per_fold": [float(np.mean(list(raw.values())))],
        "n_folds": 1,
        "formula": "mean over groups of raw_g**2 / ceiling_g",
        "per_group": {label: {"raw": raw[label], "ceiling": float(ceiling["per_group"][label]), "score": ceiled[label]}
                      for label in raw},
        "above_ceiling": bool(any(v > 1 for v in ceiled.values())),
        **reason,
    }
