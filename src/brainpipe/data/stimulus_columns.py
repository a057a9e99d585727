"""A stimulus set's own columns as a (presentation × neuroid) target, for neural benchmarks without recordings.

Brain-Score's Islam2021 benchmarks (brain-score/vision brainscore_vision/benchmarks/islam2021/benchmark.py) compare
a model's activations with nothing but the labels of its stimuli (texture, shape, original image). The workflow
hands a benchmark its target and its ceiling's trials as (presentation × neuroid) DataArrays: this is that file,
one presentation per stimulus in the CSV's order, every column (but ``filename``/``path``) a presentation
coordinate, ``repetition`` 0, and one placeholder neuroid (``neuroid_id`` 'stimulus') of zeros.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

PLACEHOLDER_NEUROID = "stimulus"


def without_unwritable_coords(array: xr.DataArray) -> xr.DataArray:
    """``array`` without the coordinates a NetCDF file cannot keep as coordinates: names holding whitespace (the
    file lists coordinates in one space-separated attribute, so on reading such a name comes back as a second data
    variable and the file no longer reads as one DataArray). pandas names a CSV's unnamed index column
    'Unnamed: 0', as in Brain-Score's benchmarks/imagenet/imagenet2012.csv."""
    return array.drop_vars([name for name in array.coords if any(c.isspace() for c in str(name))])


def read_stimulus_table(stimuli_csv: str | os.PathLike,
                        leave_out=("filename", "path")) -> tuple[pd.DataFrame, dict]:
    """A stimulus set's table (``stimulus_id`` read as text) and its columns as ``presentation`` coordinates: one
    presentation per row in the CSV's order, every column but ``leave_out`` NetCDF-writable
    (:func:`brainpipe.data.brainio.column_values`), ``stimulus_id`` as text. Both targets made of a stimulus set's
    own columns start from it (:func:`stimulus_columns`, :func:`brainpipe.behaviour.data.stimulus_target`).

    Raises ValueError naming the file when it has no ``stimulus_id``, repeats one, or has no rows.
    """
    from brainpipe.data.brainio import column_values

    stimuli_csv = Path(stimuli_csv)
    table = pd.read_csv(stimuli_csv, dtype={"stimulus_id": str})
    if "stimulus_id" not in table.columns:
        raise ValueError(f"{stimuli_csv}: no column 'stimulus_id' (has {sorted(table.columns)})")
    repeated = table["stimulus_id"][table["stimulus_id"].duplicated()]
    if len(repeated):
        raise ValueError(f"{stimuli_csv}: column 'stimulus_id' repeats {list(repeated[:3])}; one row per stimulus")
    if table.empty:
        raise ValueError(f"{stimuli_csv}: no stimuli")
    coords = {c: ("presentation", column_values(table[c])) for c in table.columns if c not in leave_out}
    coords["stimulus_id"] = ("presentation", table["stimulus_id"].astype(str).to_numpy(object))
    return table, coords


def stimulus_columns(stimuli_csv: str | os.PathLike) -> xr.DataArray:
    """The target described in the module docstring. Raises ValueError naming the file when it has no
    ``stimulus_id``, repeats one, or has no rows."""
    stimuli_csv = Path(stimuli_csv)
    table, coords = read_stimulus_table(stimuli_csv, leave_out=("filename", "path", "repetition"))
    coords["repetition"] = ("presentation", np.zeros(len(table), dtype=np.int64))
    coords["neuroid_id"] = ("neuroid", np.array([PLACEHOLDER_NEUROID], dtype=object))
    target = xr.DataArray(np.zeros((len(table), 1)), dims=("presentation", "neuroid"), coords=coords)
    target.attrs["source"] = str(stimuli_csv)
    return without_unwritable_coords(target)
