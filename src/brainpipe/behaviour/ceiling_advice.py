"""Whether a behavioural ceiling computed from the human data is high enough to score against, and what the metric
needs per stimulus (``brainpipe check`` prints it)."""

from __future__ import annotations

import pandas as pd
import xarray as xr

from ._common import as_text, coord

#: A computed behavioural ceiling below this makes scores mostly noise: the ceiled score is raw / ceiling, which
#: multiplies the raw score's noise by 1 / ceiling (5× at 0.2), and every Brain-Score behavioural ceiling lies above it
#: (the lowest, Geirhos2021edge error consistency, is 0.318: brain-score/vision benchmarks/geirhos2021/test.py).
LOW_CEILING = 0.2

#: what a computed ceiling compares, hence what each stimulus needs: (unit, fewest per stimulus, why)
_CEILING_NEEDS = {
    "error_consistency": ("subject", 2, "it compares every pair of subjects on the same stimuli"),
    "accuracy_distance": ("subject", 2, "it compares every pair of subjects on the same stimuli"),
    "i1": ("trial", 2, "it correlates two random halves of the trials, image by image"),
    "i2n": ("trial", 2, "it correlates two random halves of the trials, image by image"),
    "value_delta": ("trial", 2, "it compares two random halves of the trials"),
}


def ceiling_advice(benchmark, ceiling: float, human: xr.DataArray) -> list[str]:
    """Why a computed behavioural ceiling is too low to score against, and what the metric needs per stimulus;
    [] when the ceiling is at least :data:`LOW_CEILING` or not computed from the data."""
    behaviour = benchmark.behaviour
    if behaviour is None or behaviour.ceiling != "computed" or not ceiling < LOW_CEILING:
        return []
    lines = [f"ceiling {ceiling:.4f} is below {LOW_CEILING}: the score is raw / ceiling, so the raw score's noise is "
             f"multiplied by {1 / max(ceiling, 1e-9):.0f}, and scores on this benchmark are mostly noise (every "
             f"Brain-Score behavioural ceiling is above {LOW_CEILING}; the lowest, Geirhos2021edge error "
             "consistency, is 0.318)"]
    need = _CEILING_NEEDS.get(behaviour.metric)
    if need is not None and "stimulus_id" in human.coords:
        unit, fewest, why = need
        ids = as_text(coord(human, "stimulus_id"))
        if unit == "subject" and "subject" in human.coords:
            frame = pd.DataFrame({"stimulus_id": ids, "subject": as_text(coord(human, "subject"))})
            counts = frame.groupby("stimulus_id")["subject"].nunique()
        else:
            counts = pd.Series(ids).value_counts()
        lines.append(f"{behaviour.metric} needs at least {fewest} {unit}s per stimulus ({why}), and more make its "
                     f"ceiling steadier; the human data have {int(counts.min())}–{int(counts.max())} (median "
                     f"{float(counts.median()):g}) {unit}s per stimulus over {len(counts)} stimuli: collect more "
                     f"{unit}s per stimulus, or fewer stimuli with more {unit}s each")
    return lines
