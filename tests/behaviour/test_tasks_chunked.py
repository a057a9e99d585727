"""brainpipe.behaviour.tasks.label a block of presentations at a time, on a layer file opened lazily by
stages.task_inputs: the same output as on the whole file read at once, and only a block in memory."""

import tracemalloc

import numpy as np
import pytest
import xarray as xr

from brainpipe.behaviour import stages, tasks
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.io.netcdf import NetcdfRowWriter
from brainpipe.models.activations import DIMS, _attrs, _coords

GEIRHOS16 = ["airplane", "bear", "bicycle", "bird", "boat", "bottle", "car", "cat", "chair", "clock", "dog",
             "elephant", "keyboard", "knife", "oven", "truck"]


def _logits_file(path, n, seed=0, rows_at_once=97):
    """A logits layer written as the activations stage writes it (NetcdfRowWriter, its coordinates and attrs,
    rows in blocks), with ties (rows of equal logits) among random ones."""
    rng = np.random.default_rng(seed)
    values = rng.standard_normal((n, 1000)).astype(np.float32) * 4
    values[::17] = values[-1] = 0.0  # all tied (the last row too: a lone last block's): argmax takes the first class
    values[5::31, 404] = values[5::31, 954] = 50.0  # two tied maxima in a row
    ids = np.array([f"img{i:06d}" for i in range(n)], dtype=object)
    with NetcdfRowWriter(path, "alexnet.classifier.6", DIMS, values.shape,
                         _coords("alexnet", "classifier.6", (1000,), ids), _attrs("alexnet", "classifier.6")) as out:
        for start in range(0, n, rows_at_once):
            out.write(start, values[start: start + rows_at_once])
    return path


@pytest.mark.parametrize("labels, aggregation", [("imagenet", "mean"), (GEIRHOS16, "mean"), (GEIRHOS16, "max")])
@pytest.mark.parametrize("block", [2, 3, 50, 128, 256, 257, 10_000])  # 128, 256: a lone last row (257 rows)
def test_label_in_blocks_of_a_lazy_file_equals_the_whole_file(tmp_path, labels, aggregation, block):
    path = _logits_file(tmp_path / "logits.nc", 257)
    whole = tasks.label(read_netcdf(path, required_coords=("stimulus_id",)), labels, aggregation, block=10 ** 9)
    lazy = stages.task_inputs({"features": str(path)})["features"]
    chunked = tasks.label(lazy, labels, aggregation, block=block)
    xr.testing.assert_identical(chunked, whole)
    # what the stage writes is the same file too
    write_netcdf(whole, tmp_path / "whole.nc")
    write_netcdf(chunked, tmp_path / "chunked.nc")
    xr.testing.assert_identical(read_netcdf(tmp_path / "chunked.nc"), read_netcdf(tmp_path / "whole.nc"))


def test_the_task_stage_reads_one_block_at_a_time(tmp_path):
    """run_task on task_inputs' lazily opened logits: the largest allocation is a block's, not the file's (8 MB of
    float32 logits, 16 MB as float64)."""
    path = _logits_file(tmp_path / "logits.nc", 2000, seed=1)
    whole = stages.run_task({"task": "label", "choice_labels": "imagenet"},
                            read_netcdf(path, required_coords=("stimulus_id",)))
    inputs = stages.task_inputs({"features": str(path)})
    tracemalloc.start()
    try:
        chunked = tasks.label(inputs["features"], "imagenet", block=100)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    xr.testing.assert_identical(chunked, whole)
    assert peak < 4e6, f"peak {peak / 1e6:.1f} MB: the label task read more than a block at a time"
    assert not inputs["features"].variable._in_memory  # the opened file's values were never loaded whole
    # the other tasks get the features whole, as before
    assert stages.run_task({"task": "label", "choice_labels": "imagenet"}, inputs["features"]).equals(whole)


def test_a_lazily_opened_file_keeps_read_netcdf_errors(tmp_path):
    no_ids = xr.DataArray(np.zeros((2, 1000), np.float32), dims=DIMS)
    write_netcdf(no_ids, tmp_path / "no_ids.nc")
    with pytest.raises(ValueError, match="missing coordinate 'stimulus_id'"):
        stages.task_inputs({"features": str(tmp_path / "no_ids.nc")})
    (tmp_path / "broken.nc").write_bytes(b"not a netcdf file")
    with pytest.raises(ValueError, match="cannot read as a NetCDF DataArray"):
        stages.task_inputs({"features": str(tmp_path / "broken.nc")})


def test_blocks_never_leave_a_lone_row():
    assert tasks._blocks(257, 128) == [(0, 128), (128, 257)]
    assert tasks._blocks(257, 256) == [(0, 257)]
    assert tasks._blocks(6, 2) == [(0, 2), (2, 4), (4, 6)]
    assert tasks._blocks(1, 50) == [(0, 1)] and tasks._blocks(0, 50) == [(0, 0)]
    with pytest.raises(ValueError, match="at least 2"):
        tasks._blocks(10, 1)
