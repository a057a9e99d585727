"""The target of a benchmark without human data, as its stage stores it (rule stimulus_target) and as a score job
builds it without that stage's job (rule score_behaviour): :func:`brainpipe.behaviour.data.stimulus_target`, the
stimulus set's own columns, without the coordinates a NetCDF file cannot keep."""

from __future__ import annotations

import os
from pathlib import Path

import xarray as xr

from .data import stimulus_target


def storable_stimulus_target(stimuli_csv: str | os.PathLike, truth_column: str = "truth") -> xr.DataArray:
    """The stimulus set's target without the coordinates a NetCDF file cannot keep: the stimulus_target stage's
    file (a table saved with its index has an unnamed column, which pandas names 'Unnamed: 0': not a coordinate
    name)."""
    from brainpipe.data.stimulus_columns import without_unwritable_coords

    return without_unwritable_coords(stimulus_target(stimuli_csv, truth_column))


def stored_stimulus_target(stimuli_csv: str | os.PathLike, truth_column: str, scratch: str | os.PathLike):
    """The stimulus_target stage's file, as a later stage reads it back, without keeping the file: the target goes
    through a NetCDF file in ``scratch`` (a folder; the file is removed), so its dtypes and missing values are
    exactly those of the stored file, and a job that scores from the stimulus set computes what one reading the
    stage's file computes."""
    import tempfile

    from brainpipe.io import read_netcdf, write_netcdf

    with tempfile.TemporaryDirectory(dir=scratch) as folder:
        stored = Path(folder) / "target.nc"
        write_netcdf(storable_stimulus_target(stimuli_csv, truth_column), stored)
        return read_netcdf(stored, required_coords=("stimulus_id",))


__all__ = ["storable_stimulus_target", "stored_stimulus_target"]
