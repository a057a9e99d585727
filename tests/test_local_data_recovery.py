"""Files on disk that the workflow reads in place (config ``data.local_files``, a declared ``benchmark_zoo`` file):
changing one is noticed, and a recording with NaN sites is recovered from by following the message, for built-in
and declared data, with real Snakemake runs (only the fetch and prepare stages: no model is run)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
import yaml

from brainpipe.data.download import sha1_of
from own_benchmark_fixtures import declaration, write_experiment

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = Path(sys.executable).parent / "snakemake"
ASSEMBLY = "assy_dicarlo_MajajHong2015_public.nc"
STIMULI = ("stimulus_hvm-public.csv", "stimulus_hvm-public.zip")
RAW = "resources/assemblies/MajajHong2015.public.nc"
TARGET = "results/assemblies/MajajHong2015.public/IT-static/target.nc"


def write_config(folder: Path, local_files: dict, sums: dict, **sections) -> Path:
    config = {"models": ["pixels"], "benchmarks": ["MajajHong2015.IT-pls"],
              "data": {"base_url": "http://127.0.0.1:9/", "cache_dir": str(folder / "cache"),
                       "local_files": local_files,
                       "checksums_override": str(write_sums(folder, sums))}, **sections}
    path = folder / "local.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def write_sums(folder: Path, sums: dict) -> Path:
    import json

    path = folder / "checksums.json"
    path.write_text(json.dumps(sums))
    return path


def snakemake(workdir: Path, config: Path, *args):
    command = [str(SNAKEMAKE), *args, "--cores", "1", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
               "--configfile", str(REPO / "config" / "config.yaml"), str(config)]
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    return subprocess.run(command, cwd=workdir, capture_output=True, text=True, env=env, timeout=600)


def planned_rules(dry_run) -> set:
    """Rules a dry run would run (its job table)."""
    text = dry_run.stdout + dry_run.stderr
    assert dry_run.returncode == 0, text[-3000:]
    return set(re.findall(r"^\s*rule (\w+):", text, flags=re.M))


@pytest.fixture(scope="module")
def local_store(store, tmp_path_factory):
    """The fixture MajajHong2015 public files as the user's own files (data.local_files), fetched once (the tests
    below dry-run against it; the last one changes the file)."""
    root, sums = store
    tmp_path = tmp_path_factory.mktemp("local_store")
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in (ASSEMBLY, *STIMULI):
        shutil.copy2(root / name, mine / name)
    work = tmp_path / "work"
    work.mkdir()
    local = {name: str(mine / name) for name in (ASSEMBLY, *STIMULI)}
    config = write_config(tmp_path, local, sums)
    done = snakemake(work, config, RAW)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Nothing to be done" in (again := snakemake(work, config, RAW, "-n")).stdout + again.stderr
    return work, mine, local, sums, tmp_path


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_moving_a_local_file_reruns_its_fetch(local_store):
    work, mine, local, sums, folder = local_store
    moved = folder / "moved.nc"
    shutil.copy2(mine / ASSEMBLY, moved)  # same bytes, same (old) mtime: only the path changed
    config = write_config(folder, {**local, ASSEMBLY: str(moved)}, sums)
    assert planned_rules(snakemake(work, config, RAW, "-n")) == {"fetch_assembly"}


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_changed_bytes_of_a_local_file_are_noticed_even_with_its_old_mtime(local_store):
    work, mine, local, sums, folder = local_store
    config = write_config(folder, local, sums)
    path = mine / ASSEMBLY
    stat = path.stat()
    with open(path, "r+b") as handle:  # one byte of the file changed in place, its mtime put back
        handle.seek(stat.st_size - 1)
        last = handle.read(1)
        handle.seek(stat.st_size - 1)
        handle.write(bytes([last[0] ^ 1]))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert planned_rules(snakemake(work, config, RAW, "-n")) == {"fetch_assembly"}
    refused = snakemake(work, config, RAW)
    assert refused.returncode != 0
    assert f"Local file {path} (configured for {ASSEMBLY}) has sha1 {sha1_of(path)}" in refused.stdout + refused.stderr


def follow_nan_advice(output: str, recordings: Path, cleaned: Path) -> None:
    """Do what the message says: drop the named neuroids with its xarray line, save the copy."""
    ids = re.search(r"in region IT have no finite response \(every trial NaN\) to some stimuli: ([^(]+) \(",
                    output).group(1).split(", ")
    a = xr.open_dataarray(recordings).load()
    a = a.isel(neuroid=~a['neuroid_id'].isin(ids))  # the message's own line
    a.to_netcdf(cleaned)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_nan_sites_in_builtin_data_recover_as_the_message_says(store, tmp_path):
    root, sums = store
    work = tmp_path / "work"
    work.mkdir()
    recordings = tmp_path / "with_nan.nc"
    a = xr.open_dataarray(root / ASSEMBLY).load()
    it = np.flatnonzero(a["region"].values.astype(str) == "IT")
    a[dict(neuroid=int(it[2]))] = np.nan  # a dead channel
    dead = str(a["neuroid_id"].values[it[2]])
    a.to_netcdf(recordings)
    local = {ASSEMBLY: {"path": str(recordings), "sha1": sha1_of(recordings)},
             **{name: str(root / name) for name in STIMULI}}
    failed = snakemake(work, write_config(tmp_path, local, sums), TARGET)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0
    assert f"neuroids in region IT have no finite response (every trial NaN) to some stimuli: {dead}" in output
    assert f"the recordings are {recordings}" in output
    assert f"data: {{local_files: {{{ASSEMBLY}: {{path: cleaned.nc, sha1: <sha1sum cleaned.nc>}}}}}}" in output

    cleaned = tmp_path / "cleaned.nc"
    follow_nan_advice(output, recordings, cleaned)
    local[ASSEMBLY] = {"path": str(cleaned), "sha1": sha1_of(cleaned)}
    config = write_config(tmp_path, local, sums)
    done = snakemake(work, config, TARGET)  # the same command
    assert done.returncode == 0, done.stderr[-3000:]
    target = xr.open_dataarray(work / TARGET).load()
    assert dead not in target["neuroid_id"].values.astype(str) and len(target["neuroid"]) == len(it) - 1
    assert "Nothing to be done" in (again := snakemake(work, config, TARGET, "-n")).stdout + again.stderr


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_nan_sites_in_declared_data_recover_as_the_message_says(tmp_path):
    experiment = write_experiment(tmp_path / "experiment")
    a = xr.open_dataarray(experiment / "assembly.nc").load()
    it = np.flatnonzero(a["brain_area"].values.astype(str) == "IT")
    a[dict(neuroid=int(it[0]))] = np.nan
    recordings = experiment / "with_nan.nc"
    a.to_netcdf(recordings)
    entry = declaration(experiment)
    entry["assembly"].update(file=str(recordings), sha1=sha1_of(recordings))
    work = tmp_path / "work"
    work.mkdir()
    target = "results/assemblies/MyExperiment2024/IT-static/target.nc"
    config = write_config(tmp_path, {}, {}, benchmarks=["MyExperiment2024.IT-pls"],
                          benchmark_zoo={"MyExperiment2024": entry})
    failed = snakemake(work, config, target)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0
    assert "set config benchmark_zoo.MyExperiment2024.assembly.file to it and its assembly.sha1" in output

    cleaned = experiment / "cleaned.nc"
    follow_nan_advice(output, recordings, cleaned)
    entry["assembly"].update(file=str(cleaned), sha1=sha1_of(cleaned))
    config = write_config(tmp_path, {}, {}, benchmarks=["MyExperiment2024.IT-pls"],
                          benchmark_zoo={"MyExperiment2024": entry})
    done = snakemake(work, config, target)
    assert done.returncode == 0, done.stderr[-3000:]
    assert len(xr.open_dataarray(work / target)["neuroid"]) == len(it) - 1
