"""The real-data path end to end: the workflow downloads Brain-Score-format files from a loopback HTTP server,
checks their sha1s, and scores alexnet with local weights (``weights_file``).

What is real here: the Snakefile and every rule and script (run by the ``snakemake`` command as a subprocess),
the object names, the HTTP downloads, the cache layout, torchvision's ``IMAGENET1K_V1`` loading path (it finds
``$TORCH_HOME/hub/checkpoints/alexnet-owt-7be5be79.pth`` and never touches the network). What is a stand-in:
the file contents (tests/brainio_fixtures.py, scale tiny, so their sha1s come in through
``data.checksums_override``) and the weights (seeded random numbers, given as alexnet's ``weights_file``: under
torchvision's file name they are refused, since their sha256 does not match the name's hash prefix). No score here
is comparable with Brain-Score's; README.md ("Real data") lists the published numbers.
"""

import hashlib
import json
import shutil

import numpy as np
import pytest
import xarray as xr
import yaml

from brainpipe.benchmarks import default_catalog
from brainpipe import benchmarks, cli
from brainpipe.data import catalog
from brainpipe.data.download import sha1_of
from real_data_runs import REPO, files_under, snakemake, stand_in, torch_home, weights_file_name, write_checksums, write_config

MAJAJ_FILES = ("assy_dicarlo_MajajHong2015_public.nc", "stimulus_hvm-public.csv", "stimulus_hvm-public.zip")


def test_stand_in_under_torchvision_name_is_refused(torch_home, monkeypatch):
    """A file under torchvision's name whose sha256 does not start with the name's hash prefix stops the load,
    naming the file and the fix (torch.hub checks the prefix only while downloading)."""
    from brainpipe.models.brain_model import load_torchvision

    home, _ = torch_home
    monkeypatch.setenv("TORCH_HOME", str(home))
    monkeypatch.setenv("https_proxy", "http://127.0.0.1:9")  # any download attempt fails at once
    with pytest.raises(ValueError) as error:
        load_torchvision("alexnet", "IMAGENET1K_V1")
    message = str(error.value)
    assert str(home / "hub" / "checkpoints" / weights_file_name()) in message
    assert "7be5be79" in message and "Delete it" in message


def test_offline_without_weights_names_the_expected_file(tmp_path, monkeypatch):
    """No cached weights and no network: one error naming the URL and where to put the file.

    The proxy points at a closed loopback port so this fails at once on any machine (and never downloads 233 MB
    on one that has internet access); on the development machines DNS fails just as fast without it.
    """
    from brainpipe.models.brain_model import load_torchvision

    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "empty"))
    monkeypatch.setenv("https_proxy", "http://127.0.0.1:9")
    monkeypatch.setenv("no_proxy", "")
    with pytest.raises(RuntimeError) as error:
        load_torchvision("alexnet", "IMAGENET1K_V1")
    message = str(error.value)
    assert str(tmp_path / "empty" / "hub" / "checkpoints" / "alexnet-owt-7be5be79.pth") in message
    assert "https://download.pytorch.org/models/alexnet-owt-7be5be79.pth" in message
    assert not list((tmp_path / "empty").rglob("*.pth"))


# --- the workflow ------------------------------------------------------------------------------------------------


def test_alexnet_on_majajhong_it_downloads_checks_and_scores(store, server, torch_home, tmp_path):
    root, sums = store
    work = tmp_path / "work"
    work.mkdir()
    config = write_config(tmp_path, ["MajajHong2015.IT-pls"],
                          dict(base_url=server.url, checksums_override=str(write_checksums(tmp_path, sums))),
                          splits=3, weights_file=stand_in(torch_home))
    run = snakemake(work, config, ["results/alexnet/MajajHong2015.IT-pls.json"], torch_home=torch_home[0])
    assert run.returncode == 0, run.stderr[-5000:]

    result = json.loads((work / "results/alexnet/MajajHong2015.IT-pls.json").read_text())
    assert result["layer"] == "features.12" and result["n_folds"] == 3
    for key in ("score", "raw", "ceiling"):
        assert isinstance(result[key], float) and np.isfinite(result[key]), (key, result[key])
    assert 0 < result["ceiling"] <= 1
    assert result["model_spec"]["weights_sha256"] == hashlib.sha256(stand_in(torch_home).read_bytes()).hexdigest()

    # Downloads: each file once, over HTTP, into <cache>/<sha1>/<name>, nothing else left in the cache.
    assert sorted(server.requests) == sorted("/" + name for name in MAJAJ_FILES)
    assert files_under(tmp_path / "cache") == sorted(
        [f"{sums[name]}/" for name in MAJAJ_FILES] + [f"{sums[name]}/{name}" for name in MAJAJ_FILES])
    assert all(sha1_of(tmp_path / "cache" / sums[name] / name) == sums[name] for name in MAJAJ_FILES)

    # The raw assembly carries the stimulus set's columns (merged) and stimulus_id; images are in place.
    assembly = xr.open_dataarray(work / "resources/assemblies/MajajHong2015.public.nc").load()
    assert {"stimulus_id", "object_name", "category_name", "repetition"} <= set(assembly.coords)
    assert assembly.attrs["stimulus_set_identifier"] == "hvm-public"
    table = (work / "resources/stimuli/hvm-public/stimuli.csv").read_text().splitlines()
    assert table[0].startswith("stimulus_id,filename,") and len(table) == 161

    # Same data from another place (a file:// mirror): nothing reruns, nothing is fetched.
    mirror = write_config(tmp_path, ["MajajHong2015.IT-pls"],
                          dict(base_url=root.as_uri(), checksums_override=str(tmp_path / "checksums.json")),
                          splits=3, weights_file=stand_in(torch_home))
    again = snakemake(work, mirror, ["results/alexnet/MajajHong2015.IT-pls.json"], torch_home=torch_home[0])
    assert again.returncode == 0, again.stderr[-3000:]
    assert "Nothing to be done" in again.stdout + again.stderr
    assert len(server.requests) == len(MAJAJ_FILES)


def test_wrong_sha1_fails_naming_the_url_and_leaves_no_partial_file(store, server, tmp_path):
    root, sums = store
    nc = MAJAJ_FILES[0]
    wrong = dict(sums, **{nc: "0123456789abcdef0123456789abcdef01234567"})
    work = tmp_path / "work"
    work.mkdir()
    config = write_config(tmp_path, ["MajajHong2015.IT-pls"],
                          dict(base_url=server.url, checksums_override=str(write_checksums(tmp_path, wrong))))
    run = snakemake(work, config, ["resources/assemblies/MajajHong2015.public.nc"])
    assert run.returncode != 0
    output = run.stdout + run.stderr
    assert f"brainpipe fetch_assembly failed: Download of {server.url}{nc} has the wrong sha1" in output
    assert f"expected {wrong[nc]}, got {sums[nc]}" in output

    # Nothing half-done: the assembly is absent everywhere, no temporary files, no empty <sha1>/ folder.
    assert not (tmp_path / "cache" / wrong[nc]).exists()
    cache = files_under(tmp_path / "cache")
    assert not [path for path in cache if nc in path or path.endswith((".part", ".tmp"))]
    assert files_under(work / "resources/assemblies") == []
    assert sorted(path for path in files_under(work / "resources/stimuli") if "/" not in path.rstrip("/")) == \
        ["hvm-public/"]  # the stimulus set (right sha1s) was fetched; no staging folder beside it


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_fetch_target_uses_env_url_and_the_cache(store, server, tmp_path):
    """``snakemake fetch`` pre-fetches the grid's data (and only that), from $BRAINPIPE_DATA_URL; deleted merged
    assemblies are rebuilt from the cache without any download. Covers FreemanZiemba2013 (time bins, int ids)."""
    root, sums = store
    work = tmp_path / "work"
    work.mkdir()
    grid = ["MajajHong2015public.V4-pls", "MajajHong2015.IT-pls", "FreemanZiemba2013public.V1-pls"]
    config = write_config(tmp_path, grid, dict(checksums_override=str(write_checksums(tmp_path, sums))))
    env = {catalog.BASE_URL_ENV: server.url}
    run = snakemake(work, config, ["fetch"], extra_env=env, args=("--resources", "downloads=1"))
    assert run.returncode == 0, run.stderr[-5000:]
    expected = ["resources/assemblies/FreemanZiemba2013.public.nc", "resources/assemblies/MajajHong2015.public.nc",
                "resources/stimuli/FreemanZiemba2013.aperture-public/stimuli.csv",
                "resources/stimuli/hvm-public/stimuli.csv"]
    assert all((work / path).is_file() for path in expected)
    assert len(server.requests) == 6 == len(set(server.requests))
    # fetch only fetches: under results/ nothing but the fetch jobs' own time/memory records
    assert {p.relative_to(work / "results").parts[:2] for p in (work / "results").rglob("*") if p.is_file()} <= \
        {("benchmarks", "fetch_stimuli"), ("benchmarks", "fetch_assembly")}
    fz = xr.open_dataarray(work / "resources/assemblies/FreemanZiemba2013.public.nc").load()
    assert fz.dims == ("neuroid", "time_bin", "presentation") and "texture_type" in fz.coords
    assert fz.attrs["stimulus_set_identifier"] == "FreemanZiemba2013.aperture-public"

    shutil.rmtree(work / "resources" / "assemblies")
    rebuilt = snakemake(work, config, ["fetch"], extra_env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr[-5000:]
    assert all((work / path).is_file() for path in expected)
    assert len(server.requests) == 6  # every file came from <cache>/<sha1>/


# --- catalog and benchmark definitions agree; the brainpipe command ---------------------------------------------


def test_every_downloaded_family_is_in_the_catalog():
    for name, family in benchmarks.FAMILIES.items():
        if family.source != "brainio":
            continue
        # train and test files joined by the workflow (Allen2022): each part is in the catalog
        if family.train_test and family.train_test.files:
            for _, dataset in family.train_test.files:
                default_catalog().stimulus_set(default_catalog().assembly(dataset).stimulus_set)
            continue
        entry = default_catalog().assembly(family.dataset)
        assert entry.stimulus_set == family.stimulus_set, name
        default_catalog().stimulus_set(family.stimulus_set)


def test_cli_list_and_data(capsys, tmp_path):
    assert cli.main(["list", "--config", str(REPO / "config" / "config.yaml")]) == 0
    listed = capsys.readouterr().out
    for identifier in ("MajajHong2015.IT-pls", "MajajHong2015public.V4-pls", "FreemanZiemba2013.V1-pls",
                       "FreemanZiemba2013public.V2-rdm", "SyntheticShapes.IT-cka"):
        assert identifier in listed
    assert "alexnet" in listed and "resnet50" in listed and "8°" in listed and "4°" in listed

    config = tmp_path / "config.yaml"
    config.write_text(yaml.safe_dump({"data": {"cache_dir": "/data/brainio"}}))
    assert cli.main(["data", "--config", str(config)]) == 0
    listed = capsys.readouterr().out
    entry = default_catalog().assembly("MajajHong2015.public").file
    assert f"/data/brainio/{entry.sha1}/{entry.name}" in listed
    assert "resources/assemblies/MajajHong2015.public.nc" in listed
    assert "stimulus_FreemanZiemba2013_aperture-public.zip" in listed

    with pytest.raises(SystemExit):
        cli.main(["list", "--config", str(tmp_path / "absent.yaml")])
