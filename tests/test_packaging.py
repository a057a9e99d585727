"""`brainpipe package`: a small generated experiment (PNG images, a stimulus CSV, responses in each layout) is
packaged, read back with the loaders the workflow uses, and — end to end — the printed benchmark_zoo entry is pasted
into a copy of tests/configs/tiny.yaml and scored by a real snakemake run. Plus the errors bad input gives."""

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
import yaml

from brainpipe.data import demo
from brainpipe.pipeline import packaging
from brainpipe.benchmarks.declared import declared_family
from brainpipe.data.archives import extract_zip_safely
from brainpipe.data.brainio import load_assembly
from brainpipe.pipeline.packaging import PackagingError, package
from workflow_runs import ROOT, SNAKEMAKE, TINY, with_config

BRAINPIPE = str(Path(sys.executable).parent / "brainpipe")
NAME = "MyExperiment2024"
# The command README "Packaging your data" shows, run from the folder that holds my_experiment/.
README_COMMAND = ("brainpipe package --name MyExperiment2024 --images my_experiment/images "
                  "--stimuli my_experiment/stimuli.csv --responses my_experiment/responses.nc "
                  "--coords region=brain_area,repetition=trial --visual-degrees 8 --stratification category_name "
                  "--out data/MyExperiment2024")


def sha1(path):
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


def write_experiment(folder: Path):
    """Images (PNG, in a sub-folder), a stimulus CSV and the simulated recordings (an xarray, Brain-Score's names)
    of a 40-image experiment: 4 categories × 2 objects × 5 images, V4 and IT, 3 repetitions, 70–250 ms bins."""
    table, images = demo.generate_stimuli(categories=4, objects_per_category=2, images_per_object=5, image_size=48)
    (folder / "images" / "shapes").mkdir(parents=True, exist_ok=True)
    table["filename"] = [f"shapes/im{i:03d}.png" for i in range(len(table))]
    for name, image in zip(table["filename"], images):
        image.save(folder / "images" / name)
    recordings = demo.simulate_assembly(table, images, neuroids={"V4": 4, "IT": 6}, repetitions=3, seed=2)
    table = table[["stimulus_id", "filename", "object_name", "category_name", "variation"]]
    table.to_csv(folder / "stimuli.csv", index=False)
    recordings = recordings.drop_vars(["object_name", "category_name", "variation", "split"])
    return table, recordings


def write_nc(folder, recordings):
    """The file's own names: brain_area for region, trial for repetition, dims in another order."""
    recordings.rename({"region": "brain_area", "repetition": "trial"}).to_netcdf(folder / "responses.nc")
    return folder / "responses.nc"


def write_long_csv(folder, recordings):
    """Long format, two 50-ms bins (each the mean of five 10-ms bins)."""
    bins = xr.concat([recordings.isel(time_bin=slice(k, k + 5)).mean("time_bin").assign_coords(
        time_bin_start=70 + 50 * (k // 5), time_bin_end=120 + 50 * (k // 5)) for k in (0, 5)], dim="time_bin")
    frame = bins.to_dataframe("value", dim_order=["presentation", "neuroid", "time_bin"]).reset_index()
    frame = frame[["stimulus_id", "neuroid_id", "region", "repetition", "value", "time_bin_start", "time_bin_end"]]
    frame = frame.sample(frac=1, random_state=0)  # any row order
    frame.to_csv(folder / "responses.csv", index=False)
    return folder / "responses.csv", frame


def write_npy(folder, recordings, n_stimuli):
    """repetition × stimulus × neuroid (the 70–170 ms mean), stimuli in the CSV's order (simulate_assembly's
    presentations are repetition-major in that order), plus the neuroid table."""
    static = recordings.isel(time_bin=slice(0, 10)).mean("time_bin").transpose("presentation", "neuroid")
    array = static.values.reshape(3, n_stimuli, -1)
    np.save(folder / "responses.npy", array)
    pd.DataFrame({"neuroid_id": static["neuroid_id"].values, "region": static["region"].values,
                  "animal": ["m1"] * 4 + [None] * 6}).to_csv(folder / "neuroids.csv", index=False)
    return folder / "responses.npy", folder / "neuroids.csv", array


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    folder = tmp_path_factory.mktemp("my_experiment")
    table, recordings = write_experiment(folder)
    return folder, table, recordings


def values_by_key(assembly: xr.DataArray) -> pd.Series:
    """Values indexed by (stimulus_id, repetition, neuroid_id[, time_bin_start]), whatever the dim order."""
    frame = assembly.to_dataframe("value").reset_index()
    key = ["stimulus_id", "repetition", "neuroid_id"] + (["time_bin_start"] if "time_bin" in assembly.dims else [])
    return frame.set_index(key)["value"].sort_index()


def check_outputs(result, table, folder, tmp_path):
    """The three files exist with the printed sha1s, the zip unpacks (safely) to the CSV's images byte for byte,
    the assembly loads as the workflow loads it, and the entry is one the config accepts."""
    assert {key: sha1(path) for key, path in result.files.items()} == result.sha1s
    assert [path.name for path in result.files.values()] == [f"stimulus_{NAME}.csv", f"stimulus_{NAME}.zip",
                                                             f"assy_{NAME}.nc"]
    written = pd.read_csv(result.files["stimuli_csv"], dtype=str)
    assert list(written.columns) == list(table.columns) and list(written["stimulus_id"]) == list(table["stimulus_id"])
    names = extract_zip_safely(result.files["stimuli_zip"], tmp_path / "unzipped")
    assert names == sorted(table["filename"])
    for name in names:
        assert (tmp_path / "unzipped" / name).read_bytes() == (folder / "images" / name).read_bytes()
    loaded = load_assembly(result.files["assembly"], result.files["stimuli_csv"])
    assert loaded.name == NAME and loaded.dims[:2] == ("presentation", "neuroid")
    assert set(loaded["object_name"].values) == set(table["object_name"])  # metadata merged from the CSV
    family, assemblies, stimulus_sets = declared_family(NAME, result.entry)
    assert sorted(family.regions) == ["IT", "V4"] and family.visual_degrees == 8
    assert yaml.safe_load(result.config_text()) == {"benchmark_zoo": {NAME: result.entry}}
    return loaded


def test_netcdf_with_other_names(experiment, tmp_path):
    folder, table, recordings = experiment
    responses = write_nc(tmp_path, recordings)
    result = package(NAME, folder / "images", folder / "stimuli.csv", responses, tmp_path / "out", 8,
                     coords={"region": "brain_area", "repetition": "trial"}, stratification="object_name")
    loaded = check_outputs(result, table, folder, tmp_path)
    assert loaded.dims == ("presentation", "neuroid", "time_bin") and loaded.dtype == np.float32
    pd.testing.assert_series_equal(values_by_key(loaded), values_by_key(recordings))
    assert result.entry["ceiling"] == "internal_consistency" and result.entry["time_window"] == [70, 170]
    assert result.entry["stratification"] == "object_name"
    # the same inputs give the same bytes (fixed zip dates), so the printed sha1s are reproducible
    again = package(NAME, folder / "images", folder / "stimuli.csv", responses, tmp_path / "again", 8,
                    coords={"region": "brain_area", "repetition": "trial"}, stratification="object_name")
    assert again.sha1s == result.sha1s
    # dims named otherwise, in another order, and image_id (brainio's legacy name) for stimulus_id
    renamed = recordings.rename({"presentation": "trials", "neuroid": "units", "stimulus_id": "image_id"})
    renamed.transpose("time_bin", "trials", "units").to_netcdf(tmp_path / "renamed.nc")
    mapped = package(NAME, folder / "images", folder / "stimuli.csv", tmp_path / "renamed.nc", tmp_path / "mapped",
                     8, coords={"presentation": "trials", "neuroid": "units"})
    loaded = load_assembly(mapped.files["assembly"])
    assert loaded.dims == ("presentation", "neuroid", "time_bin")
    pd.testing.assert_series_equal(values_by_key(loaded), values_by_key(recordings))


def test_long_csv_with_time_bins(experiment, tmp_path):
    folder, table, recordings = experiment
    responses, frame = write_long_csv(tmp_path, recordings)
    result = package(NAME, folder / "images", folder / "stimuli.csv", responses, tmp_path / "out", 8)
    loaded = check_outputs(result, table, folder, tmp_path)
    assert loaded.sizes == {"presentation": 120, "neuroid": 10, "time_bin": 2}
    assert list(loaded["time_bin_start"].values) == [70, 120] and list(loaded["time_bin_end"].values) == [120, 170]
    frame = pd.read_csv(responses, dtype={"stimulus_id": str, "neuroid_id": str})  # the values as the file has them
    expected = frame.set_index(["stimulus_id", "repetition", "neuroid_id", "time_bin_start"])["value"].sort_index()
    np.testing.assert_array_equal(values_by_key(loaded).to_numpy(), expected.to_numpy())
    # presentations follow the stimulus CSV's order, repetitions ascending within a stimulus
    assert list(loaded["stimulus_id"].values[:3]) == [table["stimulus_id"][0]] * 3
    assert list(loaded["repetition"].values[:3]) == [0, 1, 2]


def test_numpy_array_with_neuroid_table(experiment, tmp_path):
    folder, table, recordings = experiment
    responses, neuroids, array = write_npy(tmp_path, recordings, len(table))
    result = package(NAME, folder / "images", folder / "stimuli.csv", responses, tmp_path / "out", 8.0,
                     neuroids=neuroids)
    loaded = check_outputs(result, table, folder, tmp_path)
    assert loaded.dims == ("presentation", "neuroid") and "time_window" not in result.entry
    stimulus = list(table["stimulus_id"]).index(loaded["stimulus_id"].values[45])
    assert loaded.values[45, 7] == array[loaded["repetition"].values[45], stimulus, 7]
    assert list(loaded["animal"].values) == ["m1"] * 4 + [""] * 6


def test_single_repetition_has_no_ceiling(experiment, tmp_path):
    folder, table, recordings = experiment
    responses, neuroids, array = write_npy(tmp_path, recordings, len(table))
    np.save(responses, array[:1])
    result = package(NAME, folder / "images", folder / "stimuli.csv", responses, tmp_path / "out", 8,
                     neuroids=neuroids)
    assert result.entry["ceiling"] == "none" and any("no internal-consistency ceiling" in n for n in result.notes)


# ---- end to end: the README command, its printed entry pasted into a config, a real snakemake run (~20 s) ----

@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_printed_entry_scores_in_a_real_workflow_run(experiment, tmp_path):
    folder, table, recordings = experiment
    from docs_text import text  # README.md and docs/ (docs/tutorials/packaging.md)

    assert README_COMMAND in re.sub(r"\s+", " ", text().replace("\\\n", " "))
    workdir = with_config(tmp_path)
    (workdir / "my_experiment").symlink_to(folder)
    write_nc(folder, recordings)
    command = README_COMMAND.split()
    run = subprocess.run([BRAINPIPE, *command[1:]], cwd=workdir, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stderr
    assert f"data/MyExperiment2024/assy_{NAME}.nc" in run.stdout
    printed = run.stdout[run.stdout.index("benchmark_zoo:"):]
    entry = yaml.safe_load(printed)["benchmark_zoo"][NAME]
    assert entry["assembly"]["sha1"] == sha1(workdir / f"data/MyExperiment2024/assy_{NAME}.nc")
    assert entry["stimuli"]["zip_sha1"] == sha1(workdir / f"data/MyExperiment2024/stimulus_{NAME}.zip")

    config = workdir / "tiny_with_my_experiment.yaml"
    config.write_text(TINY.read_text() + "\n" + printed + f"benchmark_settings:\n  {NAME}.IT-pls: {{splits: 3}}\n")
    target = f"results/pixels/{NAME}.IT-pls.json"
    run = subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--cores", "2", target, "--configfile",
                          str(config)], cwd=workdir, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    score = json.loads((workdir / target).read_text())
    assert np.isfinite(score["score"]) and np.isfinite(score["raw"]) and 0 < score["ceiling"] <= 1
    assert score["data"]["files"][f"assy_{NAME}.nc"] == entry["assembly"]["sha1"]


# ---- bad input: one error naming the file and the value; nothing written ----

def broken(tmp_path, folder, table, *, rows=None, extra_image=False, missing_image=False):
    """A copy of the experiment's images and CSV with one thing wrong."""
    images = tmp_path / "images"
    images.mkdir()
    for name in table["filename"]:
        (images / name).parent.mkdir(parents=True, exist_ok=True)
        (images / name).write_bytes((folder / "images" / name).read_bytes())
    if extra_image:
        (images / "shapes" / "stray.png").write_bytes((folder / "images" / table["filename"][0]).read_bytes())
    if missing_image:
        (images / table["filename"][3]).unlink()
    (rows if rows is not None else table).to_csv(tmp_path / "stimuli.csv", index=False)
    return images, tmp_path / "stimuli.csv"


def test_bad_stimuli(experiment, tmp_path):
    folder, table, recordings = experiment
    responses = write_nc(tmp_path, recordings)
    cases = {
        "missing": (dict(missing_image=True), rf"stimuli.csv: 1 stimulus id\(s\) have no image in .*images: "
                                              rf"'{table['stimulus_id'][3]}' -> shapes/im003.png"),
        "stray": (dict(extra_image=True), r"images: 1 image\(s\) have no row in .*stimuli.csv: shapes/stray.png"),
        "duplicate": (dict(rows=table.assign(stimulus_id=[table["stimulus_id"][0]] * 2
                                             + list(table["stimulus_id"][2:]))),
                      rf"stimuli.csv: duplicate stimulus_id '{table['stimulus_id'][0]}' on lines 2, 3"),
        "escape": (dict(rows=table.assign(filename=["../x.png"] + list(table["filename"][1:]))),
                   r"stimuli.csv, line 2: filename '../x.png' must be a path inside"),
        "no-filename": (dict(rows=table.drop(columns="filename")), r"stimuli.csv: missing column\(s\) filename"),
    }
    for case, (how, message) in cases.items():
        where = tmp_path / case
        where.mkdir()
        images, csv = broken(where, folder, table, **how)
        with pytest.raises(PackagingError, match=message):
            package(NAME, images, csv, responses, where / "out", 8, coords={"region": "brain_area"})
        assert not (where / "out").exists(), case


def test_bad_responses(experiment, tmp_path):
    folder, table, recordings = experiment
    images, csv = folder / "images", folder / "stimuli.csv"
    nan = recordings.copy()
    nan.values[2, 5, 0] = np.nan
    (tmp_path / "nan").mkdir()
    write_nc(tmp_path / "nan", nan)
    long, frame = write_long_csv(tmp_path, recordings)
    frame.assign(stimulus_id=frame["stimulus_id"].where(frame.index != frame.index[0], "ghost")).to_csv(
        tmp_path / "unknown.csv", index=False)
    frame.iloc[1:].to_csv(tmp_path / "hole.csv", index=False)
    frame.assign(value=frame["value"].astype(object).where(frame.index != frame.index[4], "n/a")).to_csv(
        tmp_path / "text.csv", index=False)
    npy, neuroids, array = write_npy(tmp_path, recordings, len(table))
    np.save(tmp_path / "wrong.npy", array[:, :-1])
    stimulus, neuroid = recordings["stimulus_id"].values[5], recordings["neuroid_id"].values[2]
    fractional = recordings.copy().assign_coords(trial=("presentation", recordings["repetition"].values + 0.5))
    (tmp_path / "frac").mkdir()
    fractional.drop_vars("repetition").to_netcdf(tmp_path / "frac" / "responses.nc")
    cases = [
        (tmp_path / "nan" / "responses.nc", {"coords": {"region": "brain_area"}},
         rf"responses.nc: 1 value\(s\) are NaN or infinite, first at stimulus_id '{stimulus}', repetition 0, "
         rf"neuroid_id '{neuroid}', time bin 70–80 ms"),
        (tmp_path / "nan" / "responses.nc", {}, r"responses.nc: no coordinate 'region' along neuroid; .*--coords"),
        (tmp_path / "nan" / "responses.nc", {"coords": {"region": "area"}},
         r"responses.nc: no coordinate or dimension 'area' \(named by --coords region=area\)"),
        (tmp_path / "frac" / "responses.nc", {"coords": {"repetition": "trial"}},
         r"responses.nc: repetition must be whole numbers \(0, 1, 2, ...\), got 0.5"),
        (tmp_path / "unknown.csv", {}, r"unknown.csv: 1 stimulus id\(s\) are not in the stimulus CSV: 'ghost'"),
        (tmp_path / "hole.csv", {}, r"hole.csv: no row for stimulus_id .* \(1 of 2400 values missing\)"),
        (tmp_path / "text.csv", {}, r"text.csv, line \d+: value = 'n/a' is not a finite number"),
        (tmp_path / "wrong.npy", {"neuroids": neuroids},
         r"wrong.npy: array of shape \(3, 39, 10\); expected 3 dimensions .* i.e. \(n_repetitions, 40, 10\)"),
        (npy, {}, r"responses.npy: a .npy array needs --neuroids"),
    ]
    for responses, options, message in cases:
        with pytest.raises(PackagingError, match=message):
            package(NAME, images, csv, responses, tmp_path / "out", 8, **options)
    assert not (tmp_path / "out").exists()
    with pytest.raises(PackagingError, match=r"--name 'My-Experiment': letters and digits only"):
        package("My-Experiment", images, csv, long, tmp_path / "out", 8)
    with pytest.raises(PackagingError, match=r"--name MajajHong2015: a built-in benchmark family"):
        package("MajajHong2015", images, csv, long, tmp_path / "out", 8)
    with pytest.raises(PackagingError, match=r"--stratification objectname: not a column of .*stimuli.csv"):
        package(NAME, images, csv, long, tmp_path / "out", 8, stratification="objectname")


def test_failure_while_writing_leaves_the_output_folder_as_it_was(experiment, tmp_path, monkeypatch):
    folder, table, recordings = experiment
    responses, frame = write_long_csv(tmp_path, recordings)
    out = tmp_path / "out"
    first = package(NAME, folder / "images", folder / "stimuli.csv", responses, out, 8)
    before = {path.name: path.read_bytes() for path in out.iterdir()}

    def disk_full(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(packaging, "write_zip", disk_full)  # a failure after the checks, while writing
    with pytest.raises(OSError, match="No space left"):
        package(NAME, folder / "images", folder / "stimuli.csv", responses, out, 9)
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before  # no staging folder left either
    assert set(before) == {path.name for path in first.files.values()}


def test_cli_error_exit_code(experiment, tmp_path):
    folder, table, recordings = experiment
    responses = write_nc(tmp_path, recordings)
    run = subprocess.run([BRAINPIPE, "package", "--name", NAME, "--images", str(folder / "images"), "--stimuli",
                          str(folder / "stimuli.csv"), "--responses", str(responses), "--visual-degrees", "8",
                          "--coords", "region=brain_area", "--region", "IT", "--out", str(tmp_path / "out")],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.strip().endswith("responses.nc has a region coordinate; --region is for responses without one")
    assert not (tmp_path / "out").exists()
