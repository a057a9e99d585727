"""Recordings in overlapping or coarser time bins, resampled onto contiguous bins of a fixed width, as Brain-Score's
temporal benchmarks resample theirs.

Source: brain-score/vision brainscore_vision/model_helpers/brain_transformation/temporal.py (``time_align`` with
``mode="portion"``, ``assembly_time_align``) and brainscore_vision/benchmarks/majajhong2015/benchmark.py
(``load_assembly`` with ``time_interval``: target bins ``(t, t + interval)`` for t in ``range(0, max(time_bin_end) -
interval, interval)``). Each target bin is the weighted mean of the source bins overlapping it, a source bin
weighing (its overlap with the target bin) / (its own width); a target bin the source bins do not cover from start
to end is an error (Brain-Score asserts). MajajHong2015's temporal files hold 20-ms windows sliding by 10 ms, so
each 10-ms target bin is the mean of the two windows that contain it.
"""

from __future__ import annotations

import numpy as np
import xarray as xr


def target_bins(time_bin_end, width: int, start: int = 0) -> list[tuple[int, int]]:
    """``(t, t + width)`` for t in ``range(start, max(time_bin_end) - width, width)`` (Brain-Score's bins, which
    stop one bin short of the file's last end)."""
    end = int(np.max(np.asarray(time_bin_end)))
    bins = [(t, t + int(width)) for t in range(int(start), end - int(width), int(width))]
    if not bins:
        raise ValueError(f"no {width}-ms bin from {start} ms fits before the recordings' last bin end ({end} ms)")
    return bins


def portion_weights(source_bins, target_bins) -> np.ndarray:
    """(target bin × source bin) weights: overlap / source width, zero for a target bin not fully covered."""
    source = np.asarray(source_bins, dtype=np.float64).reshape(-1, 2)
    target = np.asarray(target_bins, dtype=np.float64).reshape(-1, 2)
    if (source[:, 0] > source[:, 1]).any() or (target[:, 0] > target[:, 1]).any():
        raise ValueError("a time bin ends before it starts")
    starts = np.maximum(target[:, :1], source[None, :, 0])
    ends = np.minimum(target[:, 1:], source[None, :, 1])
    overlap = np.maximum(ends - starts, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        weights = overlap / (source[:, 1] - source[:, 0])[None, :]
    # Brain-Score's coverage test: the latest overlap end and the earliest overlap start over *all* source bins
    # (overlapping or not) must reach the target bin's ends
    covered = (ends.max(axis=1) >= target[:, 1]) & (starts.min(axis=1) <= target[:, 0])
    weights[~covered] = 0
    return weights


def align(assembly: xr.DataArray, bins) -> xr.DataArray:
    """``assembly`` (with a ``time_bin`` dimension and ``time_bin_start`` / ``time_bin_end``) on ``bins``: each the
    weighted mean of the source bins (:func:`portion_weights`), computed in float64 and stored in the source dtype,
    as ``assembly_time_align``."""
    if "time_bin" not in assembly.dims:
        raise ValueError("recordings without a time_bin dimension cannot be aligned to time bins")
    source_bins = np.stack([assembly["time_bin_start"].values, assembly["time_bin_end"].values], axis=1)
    weights = portion_weights(source_bins, bins)
    uncovered = np.flatnonzero(weights.sum(axis=1) == 0)
    if len(uncovered):
        spans = ", ".join(f"{s}–{e}" for s, e in np.asarray(bins)[uncovered])
        raise ValueError(f"time bin(s) {spans} ms are not covered by the recordings' bins "
                         f"({source_bins[:, 0].min()}–{source_bins[:, 1].max()} ms)")
    ordered = assembly.transpose(..., "time_bin")
    values = ordered.values
    pieces = []
    for row in weights:
        used = row > 0
        pieces.append(((values[..., used] * row[used]).sum(-1) / row[used].sum()).astype(values.dtype))
    along_bins = [name for name, coord in ordered.coords.items() if "time_bin" in coord.dims]
    bins = np.asarray(bins, dtype=np.int64)
    return xr.DataArray(np.stack(pieces, axis=-1), dims=ordered.dims,
                        coords={**{name: coord for name, coord in ordered.coords.items() if name not in along_bins},
                                "time_bin_start": ("time_bin", bins[:, 0]), "time_bin_end": ("time_bin", bins[:, 1])},
                        name=assembly.name, attrs=assembly.attrs)


#: The alignments a family may declare (Family.temporal.alignment); Brain-Score's 'center' mode has no user
ALIGNMENTS = ("portion",)


def prepare_aligned(assembly: xr.DataArray, region, width: int, start: int = 0, mode: str = "portion",
                    **prepare_options):
    """(target, repetitions) of one region on Brain-Score's ``width``-ms bins from ``start`` to the file's end
    (:func:`target_bins`), then prepared as every temporal benchmark is (brainpipe.data.assembly.prepare)."""
    from brainpipe.data.assembly import prepare

    if mode not in ALIGNMENTS:
        raise ValueError(f"unknown time alignment {mode!r}; known: {list(ALIGNMENTS)}")
    bins = target_bins(assembly["time_bin_end"].values, width, start)
    aligned = align(assembly, bins)
    return prepare(aligned, region, time_window=(bins[0][0], bins[-1][1]), bin_size=int(width), **prepare_options)
