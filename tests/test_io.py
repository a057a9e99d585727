"""brainpipe.io: atomic writes, NetCDF round trips and checks, JSON with NaN."""

import json
import os
import stat
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainpipe.io import (STALE_AFTER_S, DiskFullError, atomic_directory, atomic_path, read_json, read_netcdf, write_json,
                          write_netcdf)


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_atomic_path_success(tmp_path):
    destination = tmp_path / "sub" / "out.txt"
    with atomic_path(destination) as temporary:
        assert temporary.parent == destination.parent and temporary != destination
        temporary.write_text("done")
        assert not destination.exists()
    assert destination.read_text() == "done"
    assert leftovers(destination.parent) == []


def test_atomic_path_exception_leaves_nothing(tmp_path):
    destination = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with atomic_path(destination) as temporary:
            temporary.write_text("half")
            raise RuntimeError("boom")
    assert not destination.exists()
    assert list(tmp_path.iterdir()) == []


def test_atomic_path_exception_keeps_old_file(tmp_path):
    destination = tmp_path / "out.txt"
    destination.write_text("old")
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(destination) as temporary:
            temporary.write_text("new")
            raise KeyboardInterrupt
    assert destination.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_atomic_directory(tmp_path):
    destination = tmp_path / "folder"
    destination.mkdir()
    (destination / "stale").write_text("x")
    with pytest.raises(ValueError):
        with atomic_directory(destination) as temporary:
            (temporary / "a").write_text("a")
            raise ValueError
    assert sorted(p.name for p in destination.iterdir()) == ["stale"]
    assert leftovers(tmp_path) == []
    with atomic_directory(destination) as temporary:
        (temporary / "a").write_text("a")
    assert sorted(p.name for p in destination.iterdir()) == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_write_json_nan_null_and_numpy(tmp_path):
    path = tmp_path / "s.json"
    write_json({"a": float("nan"), "b": [1.0, float("inf")], "c": np.float32(0.5), "d": np.arange(3),
                "e": np.float64("nan"), "f": np.int64(4), "g": (1, 2), "h": tmp_path}, path)
    text = path.read_text()
    assert "NaN" not in text and "Infinity" not in text
    data = json.loads(text)
    assert data == {"a": None, "b": [1.0, None], "c": 0.5, "d": [0, 1, 2], "e": None, "f": 4, "g": [1, 2],
                    "h": str(tmp_path)}
    assert read_json(path) == data


def test_write_json_unserialisable_leaves_nothing(tmp_path):
    with pytest.raises(TypeError):
        write_json({"x": object()}, tmp_path / "s.json")
    assert list(tmp_path.iterdir()) == []


def test_read_json_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.json"):
        read_json(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="bad.json"):
        read_json(tmp_path / "bad.json")


def test_netcdf_multiindex_reset_and_roundtrip(tmp_path):
    array = xr.DataArray(np.arange(6, dtype=np.float32).reshape(3, 2), dims=("presentation", "neuroid"),
                         coords={"presentation": pd.MultiIndex.from_arrays([["a", "b", "c"], [0, 1, 0]],
                                                                           names=("stimulus_id", "repetition")),
                                 "neuroid_id": ("neuroid", ["x", "y"])}, name="demo")
    path = tmp_path / "a.nc"
    write_netcdf(array, path)
    back = read_netcdf(path, required_coords=("stimulus_id", "repetition", "neuroid_id"),
                       required_dims=("presentation", "neuroid"))
    assert back["stimulus_id"].values.tolist() == ["a", "b", "c"]
    assert back["repetition"].values.tolist() == [0, 1, 0]
    np.testing.assert_array_equal(back.values, array.values)
    assert back.dtype == np.float32
    assert leftovers(tmp_path) == []


def test_read_netcdf_names_missing_coordinate_and_file(tmp_path):
    path = tmp_path / "b.nc"
    write_netcdf(xr.DataArray(np.zeros((2, 2)), dims=("presentation", "neuroid"),
                              coords={"stimulus_id": ("presentation", ["a", "b"])}), path)
    with pytest.raises(ValueError) as error:
        read_netcdf(path, required_coords=("stimulus_id", "neuroid_id"), required_dims=("time_bin",))
    message = str(error.value)
    assert str(path) in message and "neuroid_id" in message and "time_bin" in message
    assert "coordinate 'stimulus_id'" not in message


def test_read_netcdf_missing_and_corrupt(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.nc"):
        read_netcdf(tmp_path / "nope.nc")
    (tmp_path / "bad.nc").write_bytes(b"not netcdf")
    with pytest.raises(ValueError, match="bad.nc"):
        read_netcdf(tmp_path / "bad.nc")


def test_atomic_outputs_get_ordinary_permissions(tmp_path):
    # mkstemp/mkdtemp create 0600/0700; results must be readable like any file written under the umask
    old = os.umask(0o022)
    try:
        write_json({"a": 1}, tmp_path / "s.json")
        write_netcdf(xr.DataArray(np.zeros(2), dims="x"), tmp_path / "a.nc")
        with atomic_directory(tmp_path / "d") as temporary:
            (temporary / "f").write_text("x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "s.json").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "a.nc").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "d").stat().st_mode) == 0o755


def test_corrupt_file_advice_names_the_output_to_force(tmp_path):
    """A layer file inside an activations folder (a directory() output, marked by Snakemake's timestamp file) is
    redone by forcing the folder, an ordinary output by forcing itself (tests/test_recovery.py follows both)."""
    folder = tmp_path / "results" / "activations" / "m" / "s"
    folder.mkdir(parents=True)
    (folder / ".snakemake_timestamp").touch()
    (folder / "features.12.nc").write_bytes(b"\x89HDF\r\n\x1a\n broken")
    with pytest.raises(ValueError) as error:
        read_netcdf(folder / "features.12.nc")
    message = str(error.value)
    assert f"rerun the same snakemake command with --forcerun '{folder}' added" in message
    (tmp_path / "plain.nc").write_bytes(b"broken")  # an ordinary file output
    with pytest.raises(ValueError) as error:
        read_netcdf(tmp_path / "plain.nc")
    assert f"Rerun the same snakemake command with --forcerun '{tmp_path / 'plain.nc'}' added" in str(error.value)


WRITER = """
import sys, time
from brainpipe.io import atomic_directory, atomic_path
kind, destination = sys.argv[1], sys.argv[2]
with (atomic_directory if kind == "dir" else atomic_path)(destination) as staging:
    (staging / "half" if kind == "dir" else staging).write_text("half")
    print("writing", flush=True)
    time.sleep(60)
"""


def start_writer(kind, destination):
    """A real process caught in the middle of an atomic write (it has written its staging and waits)."""
    child = subprocess.Popen([sys.executable, "-c", WRITER, kind, str(destination)], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "writing"
    return child


def staging_of(folder, name):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}~"))


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_next_write_removes_staging_of_killed_writers_only(tmp_path, kind):
    destination = tmp_path / ("out.json" if kind == "file" else "folder")
    killed, alive = start_writer(kind, destination), start_writer(kind, destination)
    try:
        killed.kill()  # SIGKILL: no finally block runs, the staging stays behind
        killed.wait()
        assert len(staging_of(tmp_path, destination.name)) == 2
        other_host_recent = tmp_path / f".{destination.name}~elsewhere~1~abcdefgh.tmp"
        other_host_old = tmp_path / f".{destination.name}~elsewhere~2~abcdefgh.tmp"
        for path in (other_host_recent, other_host_old):
            path.write_text("x")
        old = time.time() - STALE_AFTER_S - 60
        os.utime(other_host_old, (old, old))
        unrelated = tmp_path / ".out.json.bak.tmp"  # not a staging name of ours
        unrelated.write_text("keep")
        before = set(staging_of(tmp_path, destination.name))

        if kind == "file":
            write_json({"a": 1}, destination)
        else:
            with atomic_directory(destination) as folder:
                (folder / "a").write_text("a")

        after = set(staging_of(tmp_path, destination.name))
        removed = before - after
        assert removed == {killed_name for killed_name in before if f"~{killed.pid}~" in killed_name} | {
            other_host_old.name}
        assert any(f"~{alive.pid}~" in name for name in after) and other_host_recent.name in after
        assert unrelated.exists()
    finally:
        alive.kill()
        alive.wait()


def test_full_disk_is_named_with_the_output(small_disk):
    big = xr.DataArray(np.zeros((300, 300)), dims=("presentation", "neuroid"))  # 720 kB
    with pytest.raises(DiskFullError) as error:  # NetCDF itself only says "NetCDF: HDF error"
        write_netcdf(big, small_disk / "layer.nc")
    assert f"cannot write {small_disk / 'layer.nc'}: the disk is full" in str(error.value)
    with pytest.raises(DiskFullError, match="s.json: the disk is full"):
        write_json({"a": "x" * 400_000}, small_disk / "s.json")
    with pytest.raises(DiskFullError, match="folder: the disk is full"):
        with atomic_directory(small_disk / "folder") as folder:
            write_netcdf(big, folder / "layer.nc")
    assert list(small_disk.iterdir()) == []


def test_write_netcdf_does_not_inherit_the_source_files_compression(tmp_path):
    """A BrainIO assembly is zlib-compressed and chunked; a copy read from it and written again is written plain
    (re-compressing was most of an intermediate write's time) with identical values and coordinates."""
    rng = np.random.default_rng(0)
    array = xr.DataArray(rng.normal(size=(40, 300)).astype(np.float32), dims=("neuroid", "presentation"),
                         coords={"neuroid_id": ("neuroid", [f"n{i}" for i in range(40)]),
                                 "stimulus_id": ("presentation", [f"s{i % 30}" for i in range(300)])}, name="x")
    array.to_netcdf(tmp_path / "source.nc", encoding={"x": {"zlib": True, "complevel": 9, "chunksizes": (8, 50)}})
    read = read_netcdf(tmp_path / "source.nc")
    assert read.encoding["zlib"]
    write_netcdf(read, tmp_path / "copy.nc")
    copy = read_netcdf(tmp_path / "copy.nc")
    xr.testing.assert_identical(copy, read)
    assert not copy.encoding.get("zlib") and copy.encoding.get("contiguous")
    assert read.encoding["zlib"]  # the caller's array is left as it was
