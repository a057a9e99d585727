"""Behavioural assemblies on disk: read a Brain-Score BehavioralAssembly file, merge its stimulus metadata, and
prepare it for scoring (drop excluded conditions, check for missing values).

``brainpipe.data.brainio.load_assembly`` reads neural assemblies (it requires a ``neuroid`` dimension); behavioural
ones have only ``presentation`` (one trial or one triplet per entry), so they are read here. The merge is brainio's
``StimulusMergeAssemblyLoader``: each stimulus column that is not already a coordinate is added along
``presentation`` by ``stimulus_id`` (a left join).
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from ._common import check_no_missing, isnull


def load_behaviour(nc_path: str | os.PathLike, stimuli_csv: str | os.PathLike | None = None,
                   stimulus_set_identifier: str | None = None) -> xr.DataArray:
    """A behavioural assembly (dims ``('presentation',)``) with ``stimulus_id`` and the stimulus columns.

    Raises ValueError naming the file when it cannot be read, has other dimensions, or lacks both
    ``stimulus_id`` and ``image_id`` (the legacy name, as brainio core's assemblies.py).
    """
    from brainpipe.data.brainio import column_values, read_brainio_csv  # the neural loader's CSV reading and typing

    nc_path = Path(nc_path)
    try:
        with xr.open_dataarray(nc_path) as opened:  # a named DataArray or a Dataset with one variable ('data')
            assembly = opened.load()
    except (OSError, ValueError, RuntimeError, KeyError, TypeError) as error:
        raise ValueError(f"{nc_path} cannot be read as a NetCDF behavioural assembly ({type(error).__name__}: "
                         f"{error}); the file is probably corrupt or incomplete") from None
    if assembly.dims != ("presentation",):
        raise ValueError(f"{nc_path}: a behavioural assembly has the one dimension 'presentation' (a trial or a "
                         f"triplet per entry); this file has dims {assembly.dims}")
    if "stimulus_id" not in assembly.coords:
        if "image_id" not in assembly.coords:
            raise ValueError(f"{nc_path}: missing coordinate 'stimulus_id' (or 'image_id') along presentation")
        assembly = assembly.assign_coords(stimulus_id=("presentation", assembly["image_id"].values.astype(str)))
    if stimuli_csv is not None:
        stimuli = read_brainio_csv(Path(stimuli_csv), require_filename=False)
        new = [c for c in stimuli.columns if c not in assembly.coords and c != "path"]
        if new:
            left = pd.DataFrame({"stimulus_id": assembly["stimulus_id"].values.astype(str)})
            merged = left.merge(stimuli[["stimulus_id"] + new], on="stimulus_id", how="left", sort=False)
            assembly = assembly.assign_coords({c: ("presentation", column_values(merged[c])) for c in new})
    if stimulus_set_identifier is not None:
        assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
    assembly.attrs["source"] = str(nc_path)
    return assembly


def _excluded(values: np.ndarray, exclude) -> np.ndarray:
    """Which entries of a ``condition`` coordinate are in ``exclude`` (numbers equal as numbers, text as text:
    one data set may mix both, e.g. high-pass ``inf, 0.55`` and colour ``'cr'``)."""
    numbers = [x for x in exclude if isinstance(x, (int, float)) and not isinstance(x, bool)]
    texts = {str(x) for x in exclude}
    if values.dtype.kind in "iuf":
        return np.isin(values.astype(float), np.asarray(numbers, dtype=float))
    return np.array([str(v) in texts for v in values], dtype=bool)


def prepare_behaviour(assembly: xr.DataArray, exclude_conditions=(), name: str | None = None) -> xr.DataArray:
    """Human data ready for the metrics: conditions in ``exclude_conditions`` dropped and ``condition`` cast to
    str (brain-score/vision benchmarks/geirhos2021/benchmark.py ``load_assembly``), no missing choices.

    Raises ValueError naming ``name`` (the file) when choices or key coordinates hold NaN, or when nothing is left.
    """
    name = name or assembly.attrs.get("source")
    if exclude_conditions:
        if "condition" not in assembly.coords:
            raise ValueError(f"{name}: the benchmark drops conditions {list(exclude_conditions)} but the human data "
                             f"has no coordinate 'condition'")
        conditions = np.asarray(assembly["condition"].values)
        # upstream asserts every excluded condition occurs: one that does not (e.g. 'inf' as text vs the number
        # inf) would silently drop nothing
        absent = [c for c in exclude_conditions if not _excluded(conditions, [c]).any()]
        if absent:
            raise ValueError(f"{name}: the benchmark drops conditions {absent}, which coordinate 'condition' does "
                             f"not hold (it has {sorted({str(v) for v in conditions})}); the data does not match "
                             f"the benchmark")
        keep = ~_excluded(conditions, exclude_conditions)
        assembly = assembly.isel(presentation=np.flatnonzero(keep))
    if "condition" in assembly.coords:
        assembly = assembly.assign_coords(condition=("presentation",
                                                     np.array([str(v) for v in assembly["condition"].values],
                                                              dtype=object)))
    if assembly.sizes["presentation"] == 0:
        raise ValueError(f"{name}: no trials left after dropping conditions {list(exclude_conditions)}")
    check_no_missing(assembly, [c for c in ("stimulus_id", "truth", "subject", "condition") if c in assembly.coords],
                     "human data", name)
    assembly.attrs["source"] = str(name) if name else assembly.attrs.get("source", "")
    return assembly


def stimulus_target(stimuli_csv: str | os.PathLike, truth_column: str = "truth") -> xr.DataArray:
    """A target for a benchmark without human data (brain-score/vision benchmarks/hermann2020/benchmark.py scores
    against the stimulus set's own columns): one presentation per stimulus in the CSV's order, every column
    (but ``filename``/``path``) a coordinate. ``truth_column`` (e.g. ObjectNet's ``synset``) becomes the ``truth``
    coordinate and the values; without one the values are the ``stimulus_id``.

    Raises ValueError naming the file when it has no ``stimulus_id``, repeats one, or lacks ``truth_column``.
    """
    from brainpipe.data.stimulus_columns import read_stimulus_table

    stimuli_csv = Path(stimuli_csv)
    table, coords = read_stimulus_table(stimuli_csv)
    if truth_column not in table.columns:
        if truth_column != "truth":
            raise ValueError(f"{stimuli_csv}: no column {truth_column!r} (the ground truth; has {sorted(table.columns)})")
        truth_column = "stimulus_id"
    values = table[truth_column].astype(str).to_numpy(object)
    if truth_column != "stimulus_id":
        coords["truth"] = ("presentation", values)
    target = xr.DataArray(values, dims=("presentation",), coords=coords)
    target.attrs["source"] = str(stimuli_csv)
    return target


__all__ = ["load_behaviour", "prepare_behaviour", "stimulus_target", "isnull"]
