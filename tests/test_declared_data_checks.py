"""Data files checked where they are read (issue 37, items 2, 3, 4 and 10), on real NetCDF files: a property that is
NaN for every neuron, time bins that are not time windows, a bin end called either name, and a region name that
the local recordings do not hold."""

import numpy as np
import pytest
import xarray as xr

import neural_family_fixtures as family_fixtures
from brainpipe import benchmarks
from brainpipe.data import assembly as assembly_prep
from brainpipe.data.brainio import load_assembly
from brainpipe.io import read_netcdf
from brainpipe.properties.stages import checked_property_data
from own_benchmark_fixtures import declaration, write_config, write_experiment
from workflow_runs import ROOT, snakemake, with_config


# ---- 2: a property NaN for every neuron --------------------------------------------------------------------------

def test_property_nan_for_every_neuron_is_refused_at_fetch_naming_it(tmp_path):
    """Before: only neuron rows NaN in every property were caught; a property with no value at all scored rc 0 with
    raw 0.0, ceiling 0.0 and score null. The fetch stage's check now names the property."""
    table = xr.DataArray(np.array([[0.2, np.nan], [0.4, np.nan], [0.9, np.nan]]), dims=("neuroid", "neuronal_property"),
                         coords={"neuronal_property": ["circular_variance", "bandwidth"],
                                 "neuroid_id": ("neuroid", [1, 2, 3])},
                         attrs={"circular_variance_bins": [0, 0.5, 1], "bandwidth_bins": [0, 45, 90]})
    table.to_netcdf(tmp_path / "properties.nc")
    read = read_netcdf(tmp_path / "properties.nc")
    with pytest.raises(ValueError, match=r"properties\.nc: property 'bandwidth' is NaN for every one of the 3 "
                                         r"neurons; a benchmark reads it"):
        checked_property_data(read, str(tmp_path / "properties.nc"), ("circular_variance", "bandwidth"))
    # a property no benchmark reads may be empty (it is never compared)
    checked = checked_property_data(read, "properties.nc", ("circular_variance",))
    assert checked.sizes == {"neuroid": 3, "neuronal_property": 2}


# ---- 3: time bins that are no time windows -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return write_experiment(tmp_path_factory.mktemp("experiment"))


def with_bins(experiment, folder, bins):
    """The experiment's assembly (one 70–170 ms bin) with ``bins`` instead: each a copy of its responses."""
    with xr.open_dataarray(experiment / "assembly.nc") as opened:
        original = opened.load()
    copies = [original.isel(time_bin=[0]).assign_coords(time_bin_start=("time_bin", [start]),
                                                         time_bin_end=("time_bin", [end])) for start, end in bins]
    changed = xr.concat(copies, dim="time_bin")
    changed.to_netcdf(folder / "assembly.nc")
    return folder / "assembly.nc"


@pytest.mark.parametrize("bins, message", [
    ([(170, 70)], r"time bin 0 \(170–70 ms\) starts after it ends \(time_bin_start > time_bin_end\)"),
    ([(70, 170), (170, 70)], r"time bin 1 \(170–70 ms\) starts after it ends"),
    ([(np.nan, 170)], r"time bin 0 \(nan–170 ms\) has a NaN time_bin_start or time_bin_end"),
    ([(70, 170), (70, 170)], r"time bin 1 \(70–170 ms\) repeats an earlier bin's window"),
], ids=["reversed", "one_reversed", "nan", "duplicate"])
def test_time_bins_that_are_not_windows_are_refused_naming_the_bin(experiment, tmp_path, bins, message):
    """Before: a reversed bin passed without a word (70–170 "contains" 170–70), a duplicate was averaged in or
    refused as "expected exactly one time bin ... found 2", a NaN one as "no time bin lies within"."""
    path = with_bins(experiment, tmp_path, bins)
    coords = declaration(experiment)["assembly"]["coords"]
    with pytest.raises(ValueError, match=rf"{path.name}: {message}"):  # the fetch stage
        load_assembly(path, experiment / "stimuli.csv", coords=coords)
    recordings = xr.open_dataarray(path).load().rename({"brain_area": "region", "trial": "repetition",
                                                        "image_id": "stimulus_id"})
    for options in ({}, {"exact_time_bin": True}, {"bin_size": 50}):  # the prepare stage, for a file fetched before
        with pytest.raises(ValueError, match=message):
            assembly_prep.prepare(recordings, "IT", (70, 170), source=str(path), **options)


def test_distinct_bins_still_load(experiment, tmp_path):
    path = with_bins(experiment, tmp_path, [(70, 120), (120, 170)])
    loaded = load_assembly(path, experiment / "stimuli.csv", coords=declaration(experiment)["assembly"]["coords"])
    target, _ = assembly_prep.prepare(loaded, "IT", (70, 170), bin_size=50)
    assert target.sizes["time_bin"] == 2


# ---- 4: time_bin_end or time_bin_stop ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("sanghavi_store")
    family_fixtures.write_store(root, datasets=("Sanghavi2020", "Rajalingham2020"))
    return root


FILES = {"Sanghavi2020": ("assy_dicarlo_Sanghavi2020.nc", "stimulus_hvm.csv", "hvm", "V4", True),
         "Rajalingham2020": ("assy_dicarlo_Rajalingham2020.nc", "stimulus_Rajalingham2020.csv", "Rajalingham2020",
                             "IT", False)}


@pytest.mark.parametrize("family_name", list(FILES))
@pytest.mark.parametrize("names", ["end", "both"])
def test_bin_end_under_either_name(store, tmp_path, family_name, names):
    """A copy of the file whose bin end is ``time_bin_end`` (Brain-Score scores it: it selects the bin by
    ``time_bin_id`` and never reads the name) loads and prepares to the same target as the original
    ``time_bin_stop`` file; with both names, the standard ``time_bin_end`` is read. Before: "no coordinate
    'time_bin_stop' (declared as the file's name for 'time_bin_end' ...)", and a rename clash with both."""
    nc, csv, stimulus_set, region, exact = FILES[family_name]
    family = benchmarks.builtin().families[family_name]
    coords = dict(family.coords)
    assert coords == {"time_bin_end": "time_bin_stop"}
    original = load_assembly(store / nc, store / csv, stimulus_set, coords=coords)
    expected, _ = assembly_prep.prepare(original, region, family.time_window, exact_time_bin=exact)
    with xr.open_dataarray(store / nc) as opened:
        raw = opened.load()
    if names == "end":
        changed = raw.rename({"time_bin_stop": "time_bin_end"})
    else:  # the standard name right, the other one wrong: the standard one must be read
        changed = raw.assign_coords(time_bin_end=raw["time_bin_stop"],
                                    time_bin_stop=raw["time_bin_stop"] + 1000)
    changed.to_netcdf(tmp_path / nc)
    loaded = load_assembly(tmp_path / nc, store / csv, stimulus_set, coords=coords)
    np.testing.assert_array_equal(loaded["time_bin_end"].values, raw["time_bin_stop"].values)
    target, _ = assembly_prep.prepare(loaded, region, family.time_window, exact_time_bin=exact)
    np.testing.assert_array_equal(target.values, expected.values)
    np.testing.assert_array_equal(target["stimulus_id"].values, expected["stimulus_id"].values)


def test_neither_name_is_still_refused_naming_both(store, tmp_path):
    nc, csv, stimulus_set, _, _ = FILES["Sanghavi2020"]
    with xr.open_dataarray(store / nc) as opened:
        opened.load().drop_vars("time_bin_stop").to_netcdf(tmp_path / nc)
    with pytest.raises(ValueError, match=r"no coordinate 'time_bin_stop' \(declared as the file's name for "
                                         r"'time_bin_end' under assembly.coords\), nor 'time_bin_end'"):
        load_assembly(tmp_path / nc, store / csv, stimulus_set, coords={"time_bin_end": "time_bin_stop"})


# ---- 10: a region the local recordings do not hold ---------------------------------------------------------------

def test_region_typo_declared_everywhere_stops_the_workflow_at_parse_time(tmp_path, experiment):
    """``Ti`` for IT in the entry's regions, the benchmark identifier and the model's layers: every config check
    passes, and before this check the run failed only in the prepare job ("no neuroids in region 'Ti'"), after
    advice to commit a layer for 'Ti'. Now the workflow stops before any job, naming the entry's key and the file's
    regions."""
    workdir = with_config(tmp_path)
    entry = declaration(experiment, regions=["Ti"], parent="Ti")
    config = write_config(workdir, ["MyExperiment2024.Ti-pls"], benchmark_zoo={"MyExperiment2024": entry},
                          model_zoo={"pixels": {"architecture": "pixels", "visual_degrees": 8,
                                                "layers": {"Ti": "pixels"}}})
    run = snakemake(workdir, "-n", configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    output = run.stdout + run.stderr
    assert run.returncode != 0
    assert (f"config benchmark_zoo.MyExperiment2024.regions: region 'Ti' is not in {experiment / 'assembly.nc'} "
            f"(its 'brain_area' coordinate holds ['IT', 'V4']); did you mean 'IT'?") in output
    assert "commit-layers" not in output
    assert not (workdir / "resources").exists()
    # the same entry with the right name plans its jobs
    entry = declaration(experiment, regions=["IT"])
    config = write_config(workdir, ["MyExperiment2024.IT-pls"], benchmark_zoo={"MyExperiment2024": entry})
    assert snakemake(workdir, "-n", configfiles=(ROOT / "tests/configs/tiny.yaml", config)).returncode == 0
