"""The headline of a sweep: which layer scored best. Plain Python (no numpy): the score jobs that use it are
bookkeeping, and start in a fraction of a second."""

from __future__ import annotations

import math


def best_layer(scores: dict) -> str | None:
    """The layer with the highest score (the first of equal ones, in the sweep's order). A layer without a score
    (null: its ceiling is NaN, e.g. a metric ceiled on every trial where every neuron missed a stimulus) is passed
    over; None where no layer has one."""
    scored = {layer: float(score) for layer, score in scores.items()
              if score is not None and math.isfinite(float(score))}
    return max(scored, key=scored.get) if scored else None


def headline(per_layer: dict, committed: str, model_spec: dict, benchmark_info: dict, data: dict,
             versions: dict) -> dict:
    """The headline JSON of a model on a benchmark (``results/<model>/<benchmark>.json``): the committed layer's
    score (``per_layer``: layer → its score JSON) with the model's entry and provenance, the benchmark's metadata
    (version, parent, bibtex_key, origin, definition), which data it read, and the sweep where several layers were
    scored."""
    result = dict(per_layer[committed])
    result["layer"] = committed
    if not _is_number(result.get("score")) and not result.get("reason"):  # a null score always says why
        result["reason"] = missing_score_reason(result)
    result["model_spec"] = model_spec
    result.update(benchmark_info)
    result["data"] = data  # which recordings (access: public, private or all) and the benchmark's settings
    if len(per_layer) > 1:
        result["sweep"] = {layer: r["score"] for layer, r in per_layer.items()}
        result["best_layer"] = best_layer(result["sweep"])  # null where no layer has a score
    result["versions"] = versions
    return result


def _is_number(value) -> bool:
    return value is not None and math.isfinite(float(value))


def missing_score_reason(result: dict) -> str:
    """One line on why a score JSON has no score, from its raw score and ceiling, where the stage that computed it
    gave none (the neural aggregate names its folds: pipeline/scoring.py)."""
    raw, ceiling = result.get("raw"), result.get("ceiling")
    if not _is_number(raw):
        return "raw is NaN: the model's comparison with the data gave no number"
    if not _is_number(ceiling):
        return "the ceiling is NaN"
    return f"raw {float(raw):.4g} over ceiling {float(ceiling):.4g} gives no number"
