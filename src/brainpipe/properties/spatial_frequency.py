"""Spatial-frequency tuning: peak spatial frequency and bandwidth, and the property sets of DeValois1982b and
Schiller1976.

Sources: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py
(``calc_spatial_frequency_tuning``) and benchmarks/marques2020/benchmarks/devalois1982b_benchmark.py,
schiller1976_benchmark.py.

Stimuli: gratings ordered radius ▸ spatial frequency ▸ orientation ▸ phase (phase fastest), exactly that grid.

Numerical notes, matched on purpose: the tuning curve is smoothed (window padded with its end values), then an
interpolating cubic spline over log2(frequency) (scipy's ``UnivariateSpline``, s=0, as Brain-Score; it needs at
least 4 frequencies) is sampled at 100 points; a side that never falls to the threshold gives NaN (the unit is
"not spatial-frequency selective"). The fit's r² is returned as Brain-Score's is, and is NaN for a flat curve.
The "peak" of a flat curve is where the spline's rounding noise peaks; that noise depends on np.log2 of the
frequencies, whose last bit differs between numpy versions (and CPUs: numpy 1's SIMD log2), so for flat curves
Brain-Score's own peak is not reproducible across machines; brainpipe makes the same calls.
"""

from __future__ import annotations

import numpy as np
from scipy.interpolate import UnivariateSpline

from .orientation import window
from .stimulus_grid import check_responses, grating_grid
from .table import RESPONSE_THRESHOLD, PropertyTable, table

GRID_PARAMETERS = ("radius", "spatial_frequency", "orientation", "phase")
DEVALOIS1982B_PROPERTIES = ("peak_spatial_frequency",)
SCHILLER1976_PROPERTIES = ("spatial_frequency_selective", "spatial_frequency_bandwidth")


def spatial_frequency_tuning(curve, spatial_frequency, filter_type="triangle", threshold=0.707, mode="ratio"):
    """(bandwidth, peak frequency, r², the 100 sampled frequencies, the spline there) of a tuning curve.

    Bandwidth: with ``mode == 'oct'`` high/low − 1 of the threshold crossings, otherwise low/high × 100 (percent).
    """
    curve = np.asarray(curve)
    log_frequency = np.log2(spatial_frequency)
    values = curve
    log_full = np.linspace(log_frequency[0], log_frequency[-1], num=100, endpoint=True)
    if filter_type is not None:
        w = window(filter_type)
        padded = np.concatenate((np.array([values[0], values[0]]), values, np.array([values[-1], values[-1]])))
        values = np.convolve(w / w.sum(), np.squeeze(padded), mode="valid")
    spline = UnivariateSpline(log_frequency, values, s=0.)
    fitted = spline(log_full)
    preferred = np.argmax(fitted)
    peak_log = log_full[preferred]
    below = np.where(fitted <= fitted[preferred] * threshold)[0]
    before = below[below < preferred]
    after = below[below > preferred]
    low = log_full[before[-1]] if len(before) else np.nan
    high = log_full[after[0]] if len(after) else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        if mode == "oct":
            bandwidth = (2 ** high) / (2 ** low) - 1
        else:
            bandwidth = (2 ** low) / (2 ** high) * 100
        residual = np.sum((curve - spline(log_frequency)) ** 2)
        total = np.sum((curve - np.mean(curve)) ** 2)
        r2 = 1 - (residual / total)
    return bandwidth, np.power(2, peak_log), r2, np.power(2, log_full), fitted


def _grid(responses, baseline, stimuli):
    responses, baseline = check_responses(responses, baseline)
    grid = grating_grid(stimuli, GRID_PARAMETERS, responses.shape[1], cycles=False)
    return responses.reshape((responses.shape[0],) + grid.shape[1:]), baseline, grid


def dc_ac_components(grid_responses, baseline):
    """(n_units, radius, sf, orientation, 2): DC − baseline and AC = 2 |FFT_1| / n_phase, as the size and
    spatial-frequency experiments stack them (the preferred component is the larger of the two)."""
    n_phase = grid_responses.shape[-1]
    if n_phase < 2:
        raise ValueError(f"the grating stimuli need at least 2 phases (the response's first harmonic is taken "
                         f"over phase); they have {n_phase}")
    dc = grid_responses.mean(axis=4) - baseline.reshape((-1, 1, 1, 1))
    ac = (np.absolute(np.fft.fft(grid_responses.astype(np.float64))) / n_phase)[..., 1] * 2
    return np.stack((dc, ac), axis=-1)


def devalois1982b_properties(responses, baseline, stimuli) -> PropertyTable:
    """DeValois1982b's peak spatial frequency per unit (cycles/degree).

    At the preferred radius, orientation and component (DC − baseline or AC), the peak of the spline fit
    (window 'smooth') of the spatial-frequency curve. Threshold: the maximal response (DC − baseline or AC) > 5.
    """
    grid_responses, baseline, grid = _grid(responses, baseline, stimuli)
    frequency = grid.levels["spatial_frequency"]
    components = dc_ac_components(grid_responses, baseline)
    n_units = components.shape[0]
    max_response = components.reshape((n_units, -1)).max(axis=1)
    peak = np.zeros(n_units)
    for unit in range(n_units):
        radius, _, orientation, component = np.unravel_index(np.argmax(components[unit]), components.shape[1:])
        curve = components[unit, radius, :, orientation, component]
        peak[unit] = spatial_frequency_tuning(curve, frequency, threshold=0.707, filter_type="smooth",
                                              mode="ratio")[1]
    return table({"peak_spatial_frequency": peak}, max_response > RESPONSE_THRESHOLD,
                 f"max response (DC − baseline or AC) > {RESPONSE_THRESHOLD}")


def schiller1976_properties(responses, baseline, stimuli) -> PropertyTable:
    """Schiller1976's spatial-frequency selectivity (1/0) and bandwidth (low/high × 100 at 0.707 of the peak).

    On the DC responses (no baseline subtracted), at the preferred radius and orientation. Threshold: the maximal
    DC response > baseline + 5.
    """
    grid_responses, baseline, grid = _grid(responses, baseline, stimuli)
    frequency = grid.levels["spatial_frequency"]
    dc = grid_responses.mean(axis=4)
    n_units = dc.shape[0]
    max_response = dc.reshape((n_units, -1)).max(axis=1)
    bandwidth = np.zeros(n_units)
    for unit in range(n_units):
        radius, _, orientation = np.unravel_index(np.argmax(dc[unit]), dc.shape[1:])
        curve = dc[unit, radius, :, orientation]
        bandwidth[unit] = spatial_frequency_tuning(curve, frequency, threshold=0.707, filter_type="smooth",
                                                   mode="ratio")[0]
    selective = np.where(np.isnan(bandwidth), 0.0, 1.0)
    return table({"spatial_frequency_selective": selective, "spatial_frequency_bandwidth": bandwidth},
                 max_response > baseline[:, 0] + RESPONSE_THRESHOLD,
                 f"max DC response > baseline + {RESPONSE_THRESHOLD}")
