"""Model units → "neurons": receptive-field mapping, the in-RF filter, the affine map to firing rates, rectification.

Source: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py (``map_receptive_field_locations``,
``filter_receptive_fields``, ``get_stimulus_position``, ``firing_rates_affine``, ``get_firing_rates``). Before any
property, Brain-Score

1. maps each unit's receptive field: activations (negative values set to 0) to the receptive-field gratings
   minus the blank response, maximum over the stimuli at each position, negative values set to 0; the centre is
   the response-weighted mean of the positions above 5% of the unit's maximum (a unit with no positive response
   has none: NaN);
2. keeps the units whose centre lies within 0.15° of the position of the benchmark's stimuli;
3. fits one affine map from activations to firing rates on the orientation gratings: among the units in the
   RF whose maximal mean-over-phase response exceeds the blank by more than 5/243.1 of the largest such excess,
   the median blank response goes to 0.82 spikes/s and the median maximal response to 33.8 (V1);
4. turns the activations of any stimulus set into firing rates: rectify, slope × a + offset, rectify.

All functions take units × stimuli activations (already averaged over trials, as Brain-Score's ``look_at``
returns them) and the stimuli's parameters as columns.

Numerical notes: a blank response must be one value per unit (Brain-Score's blank set is one image; its RF step
reshapes it so). Where exactly one unit lies in the RF, Brain-Score's ``np.squeeze(np.argwhere(...))`` makes a
scalar and its next step fails; here it is an array of one index. A slope from equal medians is ±inf or NaN, as
Brain-Score's (not guarded). Float32 activations (a network's) give float32 firing rates, as Brain-Score's;
scalars are promoted or demoted where numpy 1, which Brain-Score 2.4.2 runs on, does it (``as_array_scalar``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .stimulus_grid import column, float_array, grating_grid, outer_grid

RF_THRESHOLD = 0.05
RF_DELTA = 0.15
MEDIAN_MAX_RESPONSE = {"V1": 33.8}
MEDIAN_SPONTANEOUS = {"V1": 0.82}
SINGLE_MAX_RESPONSE = {"V1": 243.1}
RESPONSE_THRESHOLD = {"V1": 5}


def rectified(values) -> np.ndarray:
    """A copy (float32 kept, anything else float64) with negative values set to 0."""
    values = float_array(values)
    values[values < 0] = 0
    return values


def as_array_scalar(value, array):
    """``value`` in ``array``'s precision: numpy 1 (Brain-Score's) compares or multiplies a float32 array with a
    float64 scalar in float32; numpy 2 would do it in float64."""
    return array.dtype.type(value)


def blank_column(blank, n_units: int) -> np.ndarray:
    blank = float_array(blank)
    if blank.ndim == 1:
        blank = blank[:, None]
    if blank.ndim != 2 or blank.shape[0] != n_units:
        raise ValueError(f"the blank response must be one value per unit ({n_units}), got shape {blank.shape}")
    return blank


@dataclass(frozen=True)
class ReceptiveFields:
    """``positions``: (n_units, 2) centre (y, x) in degrees, NaN where none; ``maps``: (n_units, n_y, n_x)."""

    positions: np.ndarray
    maps: np.ndarray
    position_y: np.ndarray
    position_x: np.ndarray


def map_receptive_fields(rf_activations, blank_activations, stimuli) -> ReceptiveFields:
    """Receptive-field centres from the responses to gratings at a grid of positions (position_y slowest, then
    position_x; any number of gratings per position) and to the blank."""
    rf = rectified(rf_activations)
    if rf.ndim != 2:
        raise ValueError(f"receptive-field activations must be units × stimuli, got shape {rf.shape}")
    n_units = rf.shape[0]
    blank = rectified(blank_column(blank_activations, n_units))
    if blank.shape[1] != 1:
        raise ValueError(f"the blank response must be one value per unit, got {blank.shape[1]} per unit")
    levels, _ = outer_grid(stimuli, ("position_y", "position_x"), rf.shape[1], what="receptive-field stimuli")
    position_y, position_x = levels["position_y"], levels["position_x"]
    rf = rf.reshape(n_units, len(position_y), len(position_x), -1) - blank.reshape(n_units, 1, 1, 1)
    maps = rf.max(axis=3)
    maps[maps < 0] = 0
    max_response = np.max(maps.reshape(n_units, -1), axis=1)
    positions = np.full((n_units, 2), np.nan)
    for unit in range(n_units):
        if max_response[unit] > 0:
            excited = maps[unit] > as_array_scalar(np.float64(max_response[unit]) * RF_THRESHOLD, maps)
            weights = np.repeat(np.expand_dims(maps[unit, excited], axis=1), 2, axis=1)
            centre = np.sum(np.argwhere(excited) * weights, axis=0) / np.sum(weights, axis=0)
            positions[unit, 0] = np.interp(centre[0], np.arange(len(position_y)), position_y)
            positions[unit, 1] = np.interp(centre[1], np.arange(len(position_x)), position_x)
    return ReceptiveFields(positions=positions, maps=maps, position_y=position_y, position_x=position_x)


def stimulus_position(stimuli, n_stimuli: int) -> np.ndarray:
    """The (y, x) position shared by all stimuli of a set; several positions are an error."""
    y = np.array(sorted(set(column(stimuli, "position_y", n_stimuli).tolist())))
    x = np.array(sorted(set(column(stimuli, "position_x", n_stimuli).tolist())))
    if len(y) != 1 or len(x) != 1:
        raise ValueError(f"the stimuli must share one position, they have {len(y)} position_y and {len(x)} "
                         f"position_x values")
    return np.array([y[0], x[0]])


def in_receptive_field(positions, position, delta: float = RF_DELTA) -> np.ndarray:
    """Indices of the units whose RF centre lies within ``delta`` degrees of ``position`` (y, x)."""
    distance = np.linalg.norm(np.asarray(positions) - np.asarray(position), axis=1)
    return np.flatnonzero(distance <= delta)


def firing_rate_affine(orientation_activations, blank_activations, stimuli, in_rf, region: str = "V1"):
    """(slope, offset) mapping activations to firing rates, fitted on the orientation gratings (spatial frequency
    ▸ orientation ▸ phase, possibly repeated) and the blank, over the units ``in_rf``."""
    if region not in MEDIAN_MAX_RESPONSE:
        raise ValueError(f"no firing-rate targets for region {region!r}; known: {', '.join(MEDIAN_MAX_RESPONSE)}")
    activations = rectified(orientation_activations)
    n_units = activations.shape[0]
    blank = rectified(blank_column(blank_activations, n_units))
    grid = grating_grid(stimuli, ("spatial_frequency", "orientation", "phase"), activations.shape[1], cycles=True,
                        what="orientation stimuli")
    in_rf = np.asarray(in_rf, dtype=int).reshape(-1)
    if len(in_rf) == 0:
        raise ValueError("no model unit has its receptive field at the stimulus position: nothing to fit firing "
                         "rates on")
    blank = blank[in_rf]
    maxima = activations[in_rf].reshape((len(in_rf),) + grid.shape).mean(axis=4).reshape((len(in_rf), -1)).max(axis=1)
    excess = maxima - blank[:, 0]
    limit = (RESPONSE_THRESHOLD[region] / SINGLE_MAX_RESPONSE[region]) * np.float64(np.max(excess))
    responsive = excess > as_array_scalar(limit, excess)
    median_baseline = np.median(blank[responsive])
    median_activation = np.median(maxima[responsive])
    with np.errstate(invalid="ignore", divide="ignore"):
        slope = ((MEDIAN_MAX_RESPONSE[region] - MEDIAN_SPONTANEOUS[region])
                 / np.float64(median_activation - median_baseline))
    offset = MEDIAN_SPONTANEOUS[region] - slope * np.float64(median_baseline)
    return float(slope), float(offset)


def firing_rates(activations, in_rf, affine) -> np.ndarray:
    """The units ``in_rf`` as firing rates: rectify, slope × a + offset, rectify. (n_in_rf, n_stimuli)."""
    activations = float_array(activations)
    if activations.ndim == 1:
        activations = activations[:, None]
    rates = rectified(activations[np.asarray(in_rf, dtype=int).reshape(-1)])
    slope, offset = affine
    rates = as_array_scalar(slope, rates) * rates + as_array_scalar(offset, rates)
    rates[rates < 0] = 0
    return rates
