"""Orientation tuning: circular variance, orientation bandwidth, orthogonal/preferred ratio, preferred orientation,
and the property sets of Ringach2002 and DeValois1982a.

Sources: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py (``calc_circular_variance``,
``calc_bandwidth``, ``calc_orthogonal_preferred_ratio``) and benchmarks/marques2020/benchmarks/ringach2002_benchmark.py,
devalois1982a_benchmark.py (``ringach2002_properties``, ``devalois1982a_properties``).

Stimuli: gratings ordered spatial frequency ▸ orientation ▸ phase (phase fastest), possibly repeated ("cycles",
e.g. several positions or radii, over which the preferred response is taken). Orientations in degrees, in
[0, 180); spatial frequencies in cycles/degree.

Numerical notes, matched on purpose:

* the bandwidth is read off an interpolating cubic spline (scipy's ``UnivariateSpline``, s=0, FITPACK, as
  Brain-Score) of the smoothed curve repeated over three periods, sampled at whole degrees; for a flat curve the
  spline's rounding noise decides the "preferred" degree, so the same FITPACK call on the same numbers is used
  here, not an equivalent spline: that is what makes even those units equal to Brain-Score's;
* where the curve never falls to the threshold on one side, or the width exceeds 180°, the bandwidth is NaN (the
  unit is "not orientation selective"); an all-zero curve falls to 0 ≤ 0 everywhere, so its bandwidth is 2°
  (1° half width), as Brain-Score's;
* ratios divide without guard: 0/0 gives NaN and x/0 ±inf, as Brain-Score (numpy warnings silenced);
* float32 responses are computed in float32 where Brain-Score's are (means over phase, minima, the
  orthogonal/preferred ratio), and the first harmonic in float64 (numpy 1's FFT, which Brain-Score 2.4.2 runs on,
  always computes in double; numpy 2's would keep float32).
"""

from __future__ import annotations

import numpy as np
from scipy.interpolate import UnivariateSpline

from .stimulus_grid import check_responses, grating_grid
from .table import RESPONSE_THRESHOLD, PropertyTable, table

#: smoothing windows of the tuning-curve fits (before normalisation), as properties_common names them
WINDOWS = {
    "hanning": np.array([0, 2 / 5, 1, 2 / 5, 0]),
    "flat": np.array([1, 1, 1, 1, 1]),
    "smooth": np.array([0, 1 / 5, 1, 1 / 5, 0]),
    "triangle": np.array([0.5, 0.75, 1, 0.75, 0.5]),
}
#: DeValois1982a's preferred orientations at or above this many degrees are reported as negative (− 180)
ORIENTATION_BIN_LIM = 157.5
RINGACH2002_PROPERTIES = (
    "baseline", "max_dc", "min_dc", "max_ac", "modulation_ratio", "circular_variance", "bandwidth",
    "orthogonal_preferred_ratio", "orientation_selective", "circular_variance_bandwidth_ratio",
    "orthogonal_preferred_ratio_circular_variance_difference", "orthogonal_preferred_ratio_bandwidth_ratio")
DEVALOIS1982A_PROPERTIES = ("preferred_orientation",)
ORIENTATION_PARAMETERS = ("spatial_frequency", "orientation", "phase")


def window(filter_type):
    if filter_type not in WINDOWS:
        raise ValueError(f"unknown smoothing window {filter_type!r}; one of {', '.join(WINDOWS)}")
    return WINDOWS[filter_type]


def circular_variance(curve, orientation) -> float:
    """1 − |Σ r·exp(2iθ)| / Σ|r| of an orientation tuning curve (θ in degrees)."""
    vector_sum = np.asarray(curve).dot(np.exp(1j * 2 * np.asarray(orientation) / 180 * np.pi))
    return 1 - np.absolute(vector_sum) / np.sum(np.absolute(curve))


def orientation_bandwidth(curve, orientation, filter_type="hanning", threshold=0.5, mode="full"):
    """Width of the tuning curve at ``threshold`` × its peak, and the preferred orientation in whole degrees.

    The curve is repeated over three periods (θ − 180, θ, θ + 180), smoothed with the normalised window
    (``filter_type``, None for none; numpy's convolve, mode 'same'), interpolated by a cubic spline and sampled at
    −180, −179, …, 359°. The peak is searched in [0°, 180°); the crossings are the nearest samples at or below
    threshold × peak on each side. Returns (bandwidth, preferred index = degrees, the 180 sampled degrees, the
    spline there); the bandwidth is NaN where a side has no crossing or the width exceeds 180°, halved when
    ``mode == 'half'`` (Brain-Score tests ``mode is 'half'``, true for the literal it passes).
    """
    orientation = np.asarray(orientation)
    extended_orientation = np.hstack((orientation - 180, orientation, orientation + 180))
    extended_curve = np.tile(curve, (1, 3))
    if filter_type is not None:
        w = window(filter_type)
        extended_curve = np.convolve(w / w.sum(), np.squeeze(extended_curve), mode="same")
    spline = UnivariateSpline(extended_orientation, extended_curve, s=0.)
    degrees = np.linspace(-180, 359, 540)
    fitted = spline(degrees)
    preferred = np.argmax(fitted[180:360])
    peak = fitted[preferred + 180]

    below = np.where(fitted <= peak * threshold)[0]
    before = below[below < preferred + 180]
    after = below[below > preferred + 180]
    if len(before) and len(after):
        bandwidth = degrees[after[0]] - degrees[before[-1]]
        if bandwidth > 180:
            bandwidth = np.nan
    else:
        bandwidth = np.nan
    if mode == "half":
        bandwidth = bandwidth / 2
    return bandwidth, preferred, degrees[180:360], fitted[180:360]


def orthogonal_preferred_ratio(curve, orientation) -> float:
    """Response at the orientation half the levels away from the peak, over the peak response."""
    curve = np.asarray(curve)
    preferred = int(np.argmax(curve))
    orthogonal = (preferred + int(len(orientation) / 2)) % len(orientation)
    return curve[orthogonal] / curve[preferred]


def _on_grid(responses, baseline, stimuli):
    responses, baseline = check_responses(responses, baseline)
    grid = grating_grid(stimuli, ORIENTATION_PARAMETERS, responses.shape[1], cycles=True)
    if len(grid.levels["phase"]) < 2:
        raise ValueError("the orientation stimuli need at least 2 phases (the response's first harmonic is "
                         f"taken over phase); they have {len(grid.levels['phase'])}")
    return responses.reshape((responses.shape[0],) + grid.shape), baseline, grid


def ringach2002_properties(responses, baseline, stimuli) -> PropertyTable:
    """Ringach2002's 12 properties per unit (orientation tuning at the preferred spatial frequency and cycle).

    responses : (n_units, n_stimuli) firing rates; baseline : (n_units,) the blank response; stimuli : columns
    spatial_frequency, orientation, phase (one row per stimulus). DC = mean over phase, AC = 2 |FFT_1| / n_phase.
    Threshold: a unit is kept when its maximal DC response exceeds baseline + 5.
    """
    grid_responses, baseline, grid = _on_grid(responses, baseline, stimuli)
    orientation = grid.levels["orientation"]
    n_phase = len(grid.levels["phase"])
    dc = grid_responses.mean(axis=4)
    ac = (np.absolute(np.fft.fft(grid_responses.astype(np.float64))) / n_phase)[..., 1] * 2
    n_units = dc.shape[0]
    max_dc, max_ac, min_dc = np.zeros(n_units), np.zeros(n_units), np.zeros(n_units)
    cv, bandwidth, opr = np.zeros(n_units), np.zeros(n_units), np.zeros(n_units)
    for unit in range(n_units):
        peak = np.unravel_index(np.argmax(dc[unit]), dc.shape[1:])
        max_dc[unit] = dc[(unit,) + peak]
        max_ac[unit] = ac[(unit,) + peak]
        curve = dc[unit, peak[0], peak[1], :]
        min_dc[unit] = curve.min()
        with np.errstate(invalid="ignore", divide="ignore"):
            cv[unit] = circular_variance(curve, orientation)
            bandwidth[unit] = orientation_bandwidth(curve, orientation, filter_type="hanning", threshold=0.707,
                                                    mode="half")[0]
            opr[unit] = orthogonal_preferred_ratio(curve, orientation)
    selective = np.where(np.isnan(bandwidth), 0.0, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        columns = {
            "baseline": baseline[:, 0], "max_dc": max_dc, "min_dc": min_dc, "max_ac": max_ac,
            "modulation_ratio": max_ac / max_dc, "circular_variance": cv, "bandwidth": bandwidth,
            "orthogonal_preferred_ratio": opr, "orientation_selective": selective,
            "circular_variance_bandwidth_ratio": cv / bandwidth,
            "orthogonal_preferred_ratio_circular_variance_difference": opr - cv,
            "orthogonal_preferred_ratio_bandwidth_ratio": opr / bandwidth,
        }
    return table(columns, max_dc > baseline[:, 0] + RESPONSE_THRESHOLD,
                 f"max DC response > baseline + {RESPONSE_THRESHOLD}")


def devalois1982a_properties(responses, baseline, stimuli) -> PropertyTable:
    """DeValois1982a's preferred orientation (degrees, in [−22.5, 157.5)) per unit.

    The peak of the spline fit (window 'smooth', see :func:`orientation_bandwidth`) of the DC orientation curve at
    the preferred spatial frequency and cycle. Threshold: maximal DC response > baseline + 5.
    """
    grid_responses, baseline, grid = _on_grid(responses, baseline, stimuli)
    orientation = grid.levels["orientation"]
    dc = grid_responses.mean(axis=4)
    n_units = dc.shape[0]
    max_response = dc.reshape((n_units, -1)).max(axis=1)
    preferred = np.zeros(n_units)
    for unit in range(n_units):
        peak = np.unravel_index(np.argmax(dc[unit]), dc.shape[1:])
        curve = dc[unit, peak[0], peak[1], :]
        preferred[unit] = orientation_bandwidth(curve, orientation, filter_type="smooth", threshold=0.5,
                                                mode="full")[1]
    preferred[preferred >= ORIENTATION_BIN_LIM] -= 180
    return table({"preferred_orientation": preferred}, max_response > baseline[:, 0] + RESPONSE_THRESHOLD,
                 f"max DC response > baseline + {RESPONSE_THRESHOLD}")
