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
