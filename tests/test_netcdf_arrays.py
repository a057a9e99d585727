"""brainpipe.io.netcdf_arrays reads what xarray reads (values, dtypes, coordinates, attrs), and leaves to xarray every
file whose encoding it does not decode itself."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.io.netcdf_arrays import Arrays, read_arrays


def assembly(n=12, m=4, name="dicarlo.Test"):
    rng = np.random.default_rng(1)
    values = rng.standard_normal((n, m)).astype(np.float32)
    values[2, 1] = np.nan  # a missing response stays NaN
    return xr.DataArray(values, dims=("presentation", "neuroid"), name=name, coords={
        "stimulus_id": ("presentation", [f"image_{k:03d}" for k in range(n)]),
        "object_name": ("presentation", ["car", "dog", "chair"] * (n // 3)),
        "repetition": ("presentation", np.arange(n) % 2),
        "ty": ("presentation", np.linspace(-1, 1, n)),
        "neuroid_id": ("neuroid", [f"Chabo_L_M_{k}" for k in range(m)]),
        "x": ("neuroid", [0.5, np.nan, 1.5, 2.0]),
        "time_bin_start": 70, "time_bin_end": 170},
        attrs={"stimulus_set_identifier": "test-set", "n_features": np.int64(9216)})


def assert_same(ours, theirs):
    assert isinstance(ours, Arrays)
    assert ours.name == theirs.name and ours.dims == theirs.dims and ours.sizes == dict(theirs.sizes)
    assert ours.attrs == theirs.attrs and ours.shape == theirs.shape
    assert ours.values.dtype == theirs.values.dtype
    np.testing.assert_array_equal(ours.values, theirs.values)  # NaN where NaN
    assert set(ours.coords) == set(theirs.coords)
    for name in theirs.coords:
        assert ours[name].dims == theirs[name].dims, name
        assert ours[name].values.dtype == theirs[name].values.dtype, name
        np.testing.assert_array_equal(ours[name].values, theirs[name].values)


def test_reads_an_assembly_as_xarray_does(tmp_path):
    path = tmp_path / "target.nc"
    write_netcdf(assembly(), path)
    ours = read_arrays(path, required_coords=("stimulus_id", "neuroid_id"))
    assert_same(ours, read_netcdf(path))
    assert ours.encoding["source"] == str(path)
    assert ours["object_name"].values.tolist()[:3] == ["car", "dog", "chair"]


def test_reads_an_unnamed_gram_matrix(tmp_path):
    path = tmp_path / "gram.nc"
    rng = np.random.default_rng(2)
    X = rng.standard_normal((6, 3))
    gram = xr.DataArray(X @ X.T, dims=("presentation", "presentation_other"),
                        coords={"stimulus_id": ("presentation", list("abcdef"))}, attrs={"n_features": 3})
    write_netcdf(gram, path)
    ours = read_arrays(path)
    assert ours.name is None
    assert_same(ours, read_netcdf(path))


@pytest.mark.filterwarnings("ignore:saving variable:xarray.SerializationWarning")
@pytest.mark.parametrize("change", ["missing text", "bool", "datetime", "scale_factor", "int fill"])
def test_encodings_it_does_not_decode_are_read_by_xarray(tmp_path, change):
    array = assembly()
    path = tmp_path / "target.nc"
    if change == "missing text":
        array = array.assign_coords(object_name=("presentation", ["car", None, "dog"] * 4))
    elif change == "bool":
        array = array.assign_coords(is_train=("presentation", np.arange(12) < 6))
    elif change == "datetime":
        array = array.assign_coords(when=("presentation", pd.date_range("2020-01-01", periods=12)))
    if change in ("scale_factor", "int fill"):
        array = array.fillna(0)
        encoding = ({"scale_factor": 0.5, "dtype": "int16"} if change == "scale_factor"
                    else {"dtype": "int32", "_FillValue": -999})
        array.to_netcdf(path, encoding={array.name: encoding})
    else:
        write_netcdf(array, path)
    read = read_arrays(path)
    assert isinstance(read, xr.DataArray)
    xr.testing.assert_identical(read, read_netcdf(path))


def test_errors_are_read_netcdfs(tmp_path):
    path = tmp_path / "target.nc"
    write_netcdf(assembly(), path)
    with pytest.raises(ValueError, match=r"target\.nc: missing coordinate 'split'"):
        read_arrays(path, required_coords=("stimulus_id", "split"))
    broken = tmp_path / "broken.nc"
    broken.write_bytes(path.read_bytes()[:500])
    with pytest.raises(ValueError, match=r"broken\.nc: cannot read as a NetCDF DataArray"):
        read_arrays(broken)
    with pytest.raises(FileNotFoundError, match=r"absent\.nc: file not found"):
        read_arrays(tmp_path / "absent.nc")
