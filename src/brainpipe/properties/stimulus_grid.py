"""Stimulus metadata → the nested grid of parameters the property functions index, checked, and responses on it.

Brain-Score's property functions reshape a units × stimuli array assuming the stimuli are ordered as a nested grid
(brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py, ``_assert_grating_activations`` and
``_assert_texture_activations``): for gratings phase varies fastest, then orientation, spatial frequency, radius,
contrast, position x, position y; the levels of each parameter are its sorted unique values. Whatever varies more
slowly than the parameters a property needs is, in Brain-Score's orientation experiments, a "cycle" (the
responses are maximised over it); its size-tuning and spatial-frequency experiments need an exact grid. Texture
stimuli are first sorted by (type, family, sample) (stable, as xarray's ``sortby``).

Here the check says which column is missing or out of order instead of an AssertionError. Only the parameters
a property uses are required (Brain-Score asks for all seven grating columns even where it uses three).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

GRATING_ORDER = ("position_y", "position_x", "contrast", "radius", "spatial_frequency", "orientation", "phase")
TEXTURE_ORDER = ("type", "family", "sample")


def column(stimuli, name: str, n_stimuli: int, what: str = "stimuli") -> np.ndarray:
    """One parameter column of ``stimuli`` (a DataFrame or a mapping of arrays), checked for presence and length."""
    try:
        values = stimuli[name]
    except (KeyError, IndexError):
        available = list(getattr(stimuli, "columns", None) if hasattr(stimuli, "columns") else stimuli)
        raise ValueError(f"the {what} lack the parameter {name!r} that this property needs; "
                         f"they have {', '.join(map(str, available))}") from None
    values = np.asarray(values)
    if values.shape != (n_stimuli,):
        raise ValueError(f"the {what}' column {name!r} has shape {values.shape}, expected ({n_stimuli},): "
                         f"one value per stimulus (the responses' second axis)")
    return values


@dataclass(frozen=True)
class Grid:
    """``levels``: parameter → sorted unique values, slowest first; ``n_cycles``: repeats of the whole grid."""

    levels: dict
    n_cycles: int

    @property
    def shape(self) -> tuple:
        return (self.n_cycles,) + tuple(len(v) for v in self.levels.values())


def grating_grid(stimuli, parameters, n_stimuli: int, *, cycles: bool, what: str = "stimuli") -> Grid:
    """Check that ``parameters`` (slowest first, e.g. radius, spatial_frequency, orientation, phase) nest as a grid.

    With ``cycles`` the grid may repeat a whole number of times (whatever varies more slowly); without, the
    stimuli must be exactly the grid.
    """
    values = {name: column(stimuli, name, n_stimuli, what) for name in parameters}
    levels = {name: np.array(sorted(set(v.tolist()))) for name, v in values.items()}
    size = int(np.prod([len(v) for v in levels.values()]))
    if size == 0 or n_stimuli % size or (not cycles and n_stimuli != size):
        counts = " × ".join(f"{len(v)} {n}" for n, v in levels.items())
        raise ValueError(f"the {what} are not a grid of {counts} = {size}: there are {n_stimuli} stimuli")
    n_cycles = n_stimuli // size
    inner = 1
    for name in reversed(parameters):
        expected = np.tile(np.repeat(levels[name], inner), n_stimuli // (inner * len(levels[name])))
        if not np.array_equal(expected, values[name]):
            raise ValueError(f"the {what} are not ordered as a grid: {name!r} must vary "
                             + ("fastest" if inner == 1 else "more slowly than " + ", ".join(
                                 p for p in parameters[parameters.index(name) + 1:]))
                             + f" (the order {', '.join(GRATING_ORDER)} from slowest to fastest)")
        inner *= len(levels[name])
    return Grid(levels=levels, n_cycles=n_cycles)


def outer_grid(stimuli, parameters, n_stimuli: int, what: str = "stimuli"):
    """Check that ``parameters`` (slowest first) are the slowest-varying of the stimuli, each cell holding the same
    number of stimuli; returns (levels, stimuli per cell). Receptive-field mapping reads positions this way."""
    values = {name: column(stimuli, name, n_stimuli, what) for name in parameters}
    levels = {name: np.array(sorted(set(v.tolist()))) for name, v in values.items()}
    size = int(np.prod([len(v) for v in levels.values()]))
    if size == 0 or n_stimuli % size:
        raise ValueError(f"the {what} are not a grid of {size} cells of " + " × ".join(parameters)
                         + f": there are {n_stimuli} stimuli")
    inner = n_stimuli // size
    for name in reversed(parameters):
        expected = np.tile(np.repeat(levels[name], inner), n_stimuli // (inner * len(levels[name])))
        if not np.array_equal(expected, values[name]):
            raise ValueError(f"the {what} are not ordered as a grid: {name!r} must vary more slowly than the "
                             f"parameters after it (the order {', '.join(GRATING_ORDER)} from slowest to fastest)")
        inner *= len(levels[name])
    return levels, n_stimuli // size


def texture_order(stimuli, n_stimuli: int, what: str = "stimuli"):
    """The permutation sorting the stimuli by (type, family, sample), and the levels; checks the full grid."""
    values = {name: column(stimuli, name, n_stimuli, what) for name in TEXTURE_ORDER}
    order = np.lexsort(tuple(values[name] for name in reversed(TEXTURE_ORDER)))
    grid = grating_grid({name: v[order] for name, v in values.items()}, TEXTURE_ORDER, n_stimuli, cycles=False,
                        what=what)
    return order, grid


def float_array(values) -> np.ndarray:
    """A copy, float32 kept as float32 (Brain-Score computes float32 firing rates in float32), else float64."""
    values = np.asarray(values)
    return np.array(values, dtype=values.dtype if values.dtype in (np.float32, np.float64) else np.float64)


def check_responses(responses, baseline):
    """Responses (n_units × n_stimuli) and the blank response as (n_units, 1), checked; copies in their float
    precision (float32 stays float32, as in Brain-Score, whose firing rates of float32 activations are float32 and
    whose property arithmetic then runs in float32; anything else becomes float64)."""
    responses = float_array(responses)
    if responses.ndim != 2:
        raise ValueError(f"responses must be units × stimuli, got shape {responses.shape}")
    baseline = float_array(baseline)
    if baseline.ndim == 2 and baseline.shape[1] == 1:
        baseline = baseline[:, 0]
    if baseline.shape != (responses.shape[0],):
        raise ValueError(f"the blank response must be one value per unit ({responses.shape[0]}), "
                         f"got shape {baseline.shape}")
    return responses, baseline.reshape(-1, 1)
