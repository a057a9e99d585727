"""Size tuning and surround suppression: the property set of Cavanaugh2002.

Sources: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py (``calc_size_tuning``) and
benchmarks/marques2020/benchmarks/cavanaugh2002a_benchmark.py (``cavanaugh2002_properties``).

Stimuli: gratings ordered radius ▸ spatial frequency ▸ orientation ▸ phase (phase fastest), exactly that grid.

Numerical notes, matched on purpose: the suppression index (peak − response at the largest size) / peak divides
without guard (a peak of 0 gives NaN, a negative peak a meaningless number); a unit whose index is NaN is not
"strongly suppressed". The summation field and surround diameter are NaN unless the peak is positive and the
index exceeds 0.1.
"""

from __future__ import annotations

import numpy as np

from .spatial_frequency import _grid, dc_ac_components
from .table import RESPONSE_THRESHOLD, PropertyTable, table

CAVANAUGH2002_PROPERTIES = ("surround_suppression_index", "strongly_suppressed", "grating_summation_field",
                            "surround_diameter", "surround_grating_summation_field_ratio")
#: an index at or above this makes a unit "strongly suppressed"
STRONG_SUPPRESSION = 0.1


def size_tuning(curve, radius):
    """(grating summation field, surround diameter, their ratio, surround suppression index) of a size curve.

    curve : responses at increasing ``radius`` (degrees). The summation field is the diameter of the first size
    reaching 95% of the peak; the surround diameter that of the first size beyond the peak's falling to within 5%
    of the plateau (the response at the largest size).
    """
    curve = np.asarray(curve)
    radius = np.asarray(radius)
    preferred = np.argmax(curve)
    peak = np.max(curve)
    plateau = curve[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        index = (peak - plateau) / peak
    if peak > 0 and index > 0.1:
        summation_field = radius[np.where(curve >= (peak * 0.95))[0][0]] * 2
        limit = plateau + 0.05 * np.absolute(plateau)
        surround = radius[np.where(np.logical_and(curve <= limit, radius > radius[preferred]))[0][0]] * 2
        ratio = surround / summation_field
    else:
        summation_field, surround, ratio = np.nan, np.nan, np.nan
    return summation_field, surround, ratio, index


def cavanaugh2002_properties(responses, baseline, stimuli) -> PropertyTable:
    """Cavanaugh2002's 5 properties per unit: the size curve at the preferred spatial frequency, orientation and
    component (DC − baseline or AC). Threshold: the maximal response (DC − baseline or AC) > 5."""
    grid_responses, baseline, grid = _grid(responses, baseline, stimuli)
    radius = grid.levels["radius"]
    components = dc_ac_components(grid_responses, baseline)
    n_units = components.shape[0]
    max_response = components.reshape((n_units, -1)).max(axis=1)
    values = np.zeros((n_units, 4))
    for unit in range(n_units):
        _, frequency, orientation, component = np.unravel_index(np.argmax(components[unit]), components.shape[1:])
        values[unit] = size_tuning(components[unit, :, frequency, orientation, component], radius)
    summation_field, surround, ratio, index = values.T
    strongly = np.where(index >= STRONG_SUPPRESSION, 1.0, 0.0)
    return table({"surround_suppression_index": index, "strongly_suppressed": strongly,
                  "grating_summation_field": summation_field, "surround_diameter": surround,
                  "surround_grating_summation_field_ratio": ratio},
                 max_response > RESPONSE_THRESHOLD, f"max response (DC − baseline or AC) > {RESPONSE_THRESHOLD}")
