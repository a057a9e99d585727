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
        from brainpipe.behaviour.stages import aggregate as behaviour_aggregate

        return behaviour_aggregate(benchmark, folds, ceiling)
    folds = sorted(folds, key=lambda f: f["fold"])
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
        "ceiling_error": float(np.mean(ceiling["error"])),
        "per_fold": per_fold,
        "n_folds": len(folds),
        "formula": formula,
        "above_ceiling": bool(np.any(ceiled > 1)),
    }
    capped = [f["pls_components_capped"] for f in folds if f.get("pls_components_capped")]
    if capped:  # the fewest components any fold fitted (folds differ only when their training sizes differ)
        result["pls_components_capped"] = min(capped, key=lambda c: c["used"])
    if raw.ndim:  # temporal: keep the per-bin values; the headline is their mean
        result.update(score_per_time_bin=ceiled.tolist(), raw_per_time_bin=raw.tolist(),
                      ceiling_per_time_bin=ceiling_value.tolist(),
                      error_per_time_bin=[_finite(value) for value in error],
                      time_bin_start=folds[0].get("time_bin_start"), time_bin_end=folds[0].get("time_bin_end"))
    return result


def _finite(value):
    """A float for the JSON, or None (null) where there is no number (an error of one fold)."""
    return float(value) if np.isfinite(value) else None
