"""brainpipe.data.assembly.prepare / average_repetitions against Brain-Score's load_assembly + average_repetition
(brain-score/vision brainscore_vision/benchmarks/majajhong2015/benchmark.py, benchmark_helpers/neural_common.py): region selection, time-window mean, skipna mean over repetitions, sorted by
stimulus_id, per-stimulus coordinates kept, repetition dropped."""

import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainpipe.data.assembly import average_repetitions, check_assembly, prepare, select_time_window

IDS = np.array(["f3", "0a", "c1", "9b", "5e"])  # unsorted on purpose
OBJECTS = {"f3": "car", "0a": "dog", "c1": "car", "9b": "cat", "5e": "dog"}


def recording(n_reps=4, n_v4=3, n_it=5, n_bins=1, seed=0, bins=None):
    """(neuroid, presentation, time_bin) assembly, presentations shuffled, like a BrainIO file."""
    rng = np.random.default_rng(seed)
    stim = np.tile(IDS, n_reps)
    reps = np.repeat(np.arange(n_reps), len(IDS))
    order = rng.permutation(len(stim))
    stim, reps = stim[order], reps[order]
    n = n_v4 + n_it
    starts, ends = bins if bins is not None else ([70], [170])
    data = rng.normal(size=(n, len(stim), len(starts))).astype(np.float32)
    return xr.DataArray(
        data, dims=("neuroid", "presentation", "time_bin"),
        coords={"stimulus_id": ("presentation", stim), "repetition": ("presentation", reps),
                "object_name": ("presentation", [OBJECTS[s] for s in stim]),
                "neuroid_id": ("neuroid", [f"n{k}" for k in range(n)]),
                "region": ("neuroid", ["V4"] * n_v4 + ["IT"] * n_it),
                "time_bin_start": ("time_bin", starts), "time_bin_end": ("time_bin", ends)})


def manual_mean(assembly, region):
    """pandas groupby mean (skipna) per (stimulus, neuroid) of the region's neuroids, sorted by stimulus_id."""
    sel = assembly.isel(time_bin=0).values[assembly["region"].values == region]  # neuroid × presentation
    frame = pd.DataFrame(sel.T.astype(np.float64))
    frame["stimulus_id"] = assembly["stimulus_id"].values
    return frame.groupby("stimulus_id").mean().sort_index()


def test_prepare_target_sorted_and_averaged():
    assembly = recording()
    target, repetitions = prepare(assembly, "IT")
    expected = manual_mean(assembly, "IT")
    assert target.dims == ("presentation", "neuroid")
    assert target["stimulus_id"].values.tolist() == sorted(IDS)
    np.testing.assert_allclose(target.values, expected.values, rtol=1e-6)
    assert target.dtype == np.float32 and repetitions.dtype == np.float32
    # per-stimulus coordinates kept, repetition dropped
    assert target["object_name"].values.tolist() == [OBJECTS[s] for s in sorted(IDS)]
    assert "repetition" not in target.coords
    assert target["neuroid_id"].values.tolist() == [f"n{k}" for k in range(3, 8)]
    # time bin squeezed into scalar coordinates
    assert float(target["time_bin_start"]) == 70 and float(target["time_bin_end"]) == 170


def test_prepare_repetitions_keep_every_trial():
    assembly = recording()
    _, repetitions = prepare(assembly, "V4")
    assert repetitions.dims == ("presentation", "neuroid")
    assert repetitions.sizes == {"presentation": 20, "neuroid": 3}
    assert set(repetitions["region"].values) == {"V4"}
    np.testing.assert_array_equal(repetitions["repetition"].values, assembly["repetition"].values)
    np.testing.assert_array_equal(repetitions.values, assembly.isel(time_bin=0).values[:3].T)


def test_unknown_region():
    with pytest.raises(ValueError, match="'V1'.*V4"):
        prepare(recording(), "V1")


@pytest.mark.parametrize("coord", ["stimulus_id", "repetition", "neuroid_id", "region"])
def test_missing_coordinate_named(coord):
    assembly = recording().drop_vars(coord)
    with pytest.raises(ValueError, match=f"coordinate '{coord}'"):
        prepare(assembly, "IT", source="myfile.nc")
    with pytest.raises(ValueError, match="myfile.nc"):
        check_assembly(assembly, "myfile.nc")


def test_missing_time_bin_coordinate_named():
    assembly = recording().drop_vars("time_bin_end")
    with pytest.raises(ValueError, match="time_bin_end"):
        prepare(assembly, "IT")


def test_freemanziemba_time_window():
    # 300 one-ms bins (start 0..299, end 1..300); window 50–200 = mean of bins 50..199
    bins = (np.arange(300), np.arange(1, 301))
    assembly = recording(bins=bins, n_reps=2)
    target, repetitions = prepare(assembly, "V4", time_window=(50, 200))
    manual = assembly.values[:3, :, 50:200].mean(axis=2).T  # presentation × neuroid
    np.testing.assert_allclose(repetitions.values, manual, rtol=1e-5, atol=1e-6)
    assert float(target["time_bin_start"]) == 50 and float(target["time_bin_end"]) == 200
    assert "time_bin" not in target.dims


def test_time_window_binned():
    bins = (np.arange(300), np.arange(1, 301))
    assembly = recording(bins=bins, n_reps=2)
    windowed = select_time_window(assembly, 70, 170, bin_size=50)
    assert windowed["time_bin_start"].values.tolist() == [70, 120]
    assert windowed["time_bin_end"].values.tolist() == [120, 170]
    np.testing.assert_allclose(windowed.isel(time_bin=1).values, assembly.values[:, :, 120:170].mean(axis=2),
                               rtol=1e-5, atol=1e-6)


def test_time_window_outside_bins():
    with pytest.raises(ValueError, match="no time bin"):
        select_time_window(recording(), 200, 300)


def test_nan_skipped_in_mean():
    assembly = recording()
    data = assembly.values.copy()
    it = np.flatnonzero(assembly["region"].values == "IT")[0]
    data[it, 0, 0] = np.nan  # one trial of one stimulus
    assembly = assembly.copy(data=data)
    with pytest.warns(UserWarning, match="NaN in 1 trial"):
        target, _ = prepare(assembly, "IT")
    expected = manual_mean(assembly, "IT")  # pandas mean skips NaN
    assert np.isfinite(target.values).all()
    np.testing.assert_allclose(target.values, expected.values, rtol=1e-6)


def test_all_nan_stimulus_rejected():
    assembly = recording()
    data = assembly.values.copy()
    data[:, assembly["stimulus_id"].values == "9b"] = np.nan
    with pytest.raises(ValueError, match="no finite response"):
        prepare(assembly.copy(data=data), "IT")


def test_nan_neuroids_named_with_file(tmp_path):
    """A neuroid without a finite trial for some stimulus stops preparation: how many, which ids, which file.
    Both the fit (which rejects a NaN target) and the ceiling (which would skip the NaN r) read what prepare
    writes, so neither sees these neuroids."""
    from brainpipe.io import read_netcdf, write_netcdf
    from brainpipe.neural.regression import make_regression

    assembly = recording(n_it=6)
    data = assembly.values.copy()
    ids = assembly["neuroid_id"].values
    it = np.flatnonzero(assembly["region"].values == "IT")
    data[it[1]] = np.nan  # a dead channel
    data[it[4], assembly["stimulus_id"].values == "c1"] = np.nan  # every trial of one stimulus
    data[it[5], np.flatnonzero(assembly["stimulus_id"].values == "f3")[0]] = np.nan  # one trial only: fine
    data[0] = np.nan  # a dead V4 channel does not concern IT
    path = tmp_path / "recordings.nc"
    write_netcdf(assembly.copy(data=data), path)
    recordings = read_netcdf(path)
    with pytest.raises(ValueError) as caught:
        prepare(recordings, "IT", source=str(path))
    message = str(caught.value)
    for expected in (str(path), "2 of 6 neuroids in region IT", f"{ids[it[1]]}, {ids[it[4]]}",
                     f"{ids[it[4]]}: 1 stimuli, e.g. c1", f"{ids[it[1]]}: 5 stimuli", "data.local_files"):
        assert expected in message, (expected, message)
    assert str(ids[it[5]]) not in message.split("(")[0]
    # without the check the two consumers would disagree: the fit refuses the averaged target outright
    target = average_repetitions(recordings.isel(neuroid=it).isel(time_bin=0).transpose("presentation", "neuroid"))
    with pytest.raises(ValueError, match="non-finite"):
        make_regression("ridge").fit(np.arange(10.0).reshape(5, 2), target.values)
    # the cleaned copy the message asks for prepares (NaN trials with finite means only warn)
    bad = [ids[it[1]], ids[it[4]]]
    cleaned = recordings.isel(neuroid=~recordings["neuroid_id"].isin(bad))
    with pytest.warns(UserWarning, match=rf"1 of 4 neuroids in region IT have NaN in 1 trial\(s\): {ids[it[5]]}"):
        target, repetitions = prepare(cleaned, "IT", source=str(path))
    assert np.isfinite(target.values).all() and target.sizes["neuroid"] == 4
    assert np.isnan(repetitions.values).sum() == 1


def test_nan_neuroid_in_a_time_bin_rejected():
    assembly = recording(bins=([70, 80, 90], [80, 90, 100]))
    data = assembly.values.copy()
    data[-1, :, 2] = np.nan  # last IT neuroid: no data in the last bin
    with pytest.raises(ValueError, match=r"1 of 5 neuroids in region IT .*: n7 "):
        prepare(assembly.copy(data=data), "IT", time_window=(70, 100), bin_size=10)


def test_infinite_rejected():
    assembly = recording()
    data = assembly.values.copy()
    data[-1, 0, 0] = np.inf
    with pytest.raises(ValueError, match="infinite"):
        prepare(assembly.copy(data=data), "IT")


def test_average_repetitions_direct():
    values = np.array([[1.0, 10.0], [3.0, 30.0], [5.0, np.nan], [7.0, 70.0]])
    assembly = xr.DataArray(values, dims=("presentation", "neuroid"),
                            coords={"stimulus_id": ("presentation", ["b", "a", "b", "a"]),
                                    "repetition": ("presentation", [0, 0, 1, 1]),
                                    "neuroid_id": ("neuroid", ["x", "y"])})
    averaged = average_repetitions(assembly)
    assert averaged["stimulus_id"].values.tolist() == ["a", "b"]
    np.testing.assert_allclose(averaged.values, [[5.0, 50.0], [3.0, 10.0]])
    assert "repetition" not in averaged.coords


@pytest.mark.parametrize("dtype, nan_fraction, shape", [(np.float32, 0.0, (2000, 6)), (np.float32, 0.3, (900, 4, 3)),
                                                         (np.float64, 0.95, (300, 5)), (np.int64, 0.0, (400, 3))])
def test_average_repetitions_equals_a_plain_per_stimulus_nanmean(dtype, nan_fraction, shape):
    """The sorted group sums give exactly what np.add.at over the presentations gives (the previous code), and the
    same as a per-stimulus nanmean loop, with NaN trials, stimuli whose every trial is NaN, integer counts, 3-D."""
    rng = np.random.default_rng(1)
    values = rng.normal(size=shape) * rng.lognormal(0, 4, size=shape)
    if np.issubdtype(dtype, np.integer):
        values = rng.poisson(5, size=shape)
    values = values.astype(dtype)
    if nan_fraction:
        values[rng.random(shape) < nan_fraction] = np.nan
    ids = rng.integers(0, shape[0] // 7, shape[0]).astype(str)
    dims = ("presentation", "neuroid", "time_bin")[:len(shape)]
    averaged = average_repetitions(xr.DataArray(values, dims=dims, coords={"stimulus_id": ("presentation", ids)}))
    unique, inverse = np.unique(ids, return_inverse=True)
    sums, counts = np.zeros((len(unique),) + shape[1:]), np.zeros((len(unique),) + shape[1:])
    np.add.at(sums, inverse, np.nan_to_num(values.astype(np.float64)))
    np.add.at(counts, inverse, ~np.isnan(values.astype(np.float64)))
    with np.errstate(invalid="ignore"):
        expected = (sums / counts).astype(np.float32)
    np.testing.assert_array_equal(averaged.values, expected)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN stimuli
        loop = np.stack([np.nanmean(values[inverse == k].astype(np.float64), axis=0) for k in range(len(unique))])
    np.testing.assert_allclose(averaged.values, loop.astype(np.float32), rtol=1e-6, equal_nan=True)


@pytest.mark.parametrize("n_bins", [1, 3])
def test_a_window_holding_one_bin_is_that_bin(n_bins):
    """One bin inside the window is taken as it is (no skipna mean over a copy): the same array, coordinates and
    attrs as the mean over that bin, NaN included, and other bins left out."""
    bins = ([70, 170, 270][:n_bins], [170, 270, 370][:n_bins])
    assembly = recording(n_bins=n_bins, seed=3, bins=bins)
    assembly.values[1, 2, 0] = np.nan
    assembly = assembly.assign_coords(time_bin_label=("time_bin", [f"bin{k}" for k in range(n_bins)]))
    assembly.attrs["stimulus_set_identifier"] = "test"
    start, end = int(assembly["time_bin_start"][0]), int(assembly["time_bin_end"][0])
    taken = select_time_window(assembly, start, end)
    mean = assembly.isel(time_bin=[0]).mean("time_bin", keep_attrs=True)
    xr.testing.assert_identical(taken, mean.assign_coords(time_bin_start=start, time_bin_end=end))
    assert np.isnan(taken.values[1, 2]) and "time_bin" not in taken.dims
