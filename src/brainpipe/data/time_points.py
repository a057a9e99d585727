"""EEG time points as neuroids: Brain-Score's way of scoring a time-resolved recording with a static regression
(brain-score/vision brainscore_vision/benchmarks/gifford2022/benchmark.py ``load_assembly``:
``sel(time_bin=slice(0, 0.59))`` then ``flatten_timebins_into_neuroids`` of benchmark_helpers/neural_common.py)."""

from __future__ import annotations

import numpy as np
import xarray as xr


def time_points_as_neuroids(assembly: xr.DataArray, start: float, stop: float, expected: int) -> xr.DataArray:
    """Each (neuroid, time bin) whose ``time_bin_start`` lies in [start, stop] (the file's unit: Gifford2022's
    seconds) becomes a neuroid, electrode-major (each electrode's time points together) as Brain-Score flattens
    them; ``recording_time`` holds the bin's start, the other neuroid coordinates repeat, and ``neuroid_id`` becomes
    ``<subject>_<neuroid_id>_t<start × 1000>`` (unique: the file's ids repeat over subjects and, flattened, over
    time points). The one remaining bin spans the first kept start to the last kept end, × 1000 (ms, brainpipe's
    unit for windows). ValueError unless exactly ``expected`` bins are kept (Brain-Score asserts 60)."""
    ordered = assembly.transpose("presentation", "neuroid", "time_bin")
    starts = ordered["time_bin_start"].values.astype(float)
    keep = np.flatnonzero((starts >= start) & (starts <= stop))
    if len(keep) != expected:
        raise ValueError(f"{len(keep)} time bins start within {start}–{stop}, expected {expected}")
    selected = ordered.isel(time_bin=keep)
    n_presentations, n_neuroids, n_bins = selected.shape
    values = selected.values.reshape(n_presentations, n_neuroids * n_bins, 1)
    coords = {name: ("presentation", coord.values) for name, coord in selected.coords.items()
              if coord.dims == ("presentation",)}
    coords.update({name: ("neuroid", np.repeat(coord.values, n_bins)) for name, coord in selected.coords.items()
                   if coord.dims == ("neuroid",)})
    times = np.tile(selected["time_bin_start"].values.astype(float), n_neuroids)
    subjects = coords["subject"][1] if "subject" in coords else np.full(len(times), "")
    coords["recording_time"] = ("neuroid", times)
    coords["neuroid_id"] = ("neuroid", np.array([f"{s}_{n}_t{round(t * 1000)}" for s, n, t in zip(
        subjects, coords["neuroid_id"][1], times)], dtype=object))
    coords["time_bin_start"] = ("time_bin", [round(float(starts[keep][0]) * 1000)])
    coords["time_bin_end"] = ("time_bin", [round(float(selected["time_bin_end"].values[-1]) * 1000)])
    return xr.DataArray(values, dims=("presentation", "neuroid", "time_bin"), coords=coords, name=assembly.name,
                        attrs=assembly.attrs)
