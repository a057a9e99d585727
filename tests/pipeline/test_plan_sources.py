"""Where a grid's data come from (src/brainpipe/pipeline/plan/sources.py): the catalog with the config's checksums,
what the partial target `fetch` downloads, the files read in place and their sha1s, and the files a score records."""

import hashlib
import json

import pytest

from brainpipe.pipeline.plan import PlanError
from brainpipe.pipeline.plan.sources import LOCAL_SHA1_CACHE
from plan_fixtures import plan_with, wildcards

MAJAJ = "assy_dicarlo_MajajHong2015_public.nc"
HVM = ("stimulus_hvm-public.csv", "stimulus_hvm-public.zip")


def test_the_catalog_takes_the_configs_checksums(tmp_path):
    overrides = tmp_path / "overrides.json"
    overrides.write_text(json.dumps({MAJAJ: "0" * 40}))
    sources = plan_with({"data": {"checksums_override": str(overrides),
                                  "local_files": {HVM[0]: {"path": "my.csv", "sha1": "1" * 40}}}}).sources
    assert sources.catalog.assembly("MajajHong2015.public").file.sha1 == "0" * 40
    assert sources.catalog.stimulus_set("hvm-public").csv.sha1 == "1" * 40
    assert sources.local_paths() == {HVM[0]: "my.csv"}


def test_a_bad_checksum_names_its_config_key(tmp_path):
    overrides = tmp_path / "overrides.json"
    overrides.write_text(json.dumps({MAJAJ: "not a sha1"}))
    with pytest.raises(PlanError, match=r"^config data\.checksums_override: checksum override for "):
        plan_with({"data": {"checksums_override": str(overrides)}}).sources.catalog
    with pytest.raises(PlanError, match=r"^config data\.local_files: checksum override for unknown file\(s\) "
                                        r"\['nope\.nc'\]"):
        plan_with({"data": {"local_files": {"nope.nc": {"path": "x", "sha1": "1" * 40}}}}).sources.catalog


def test_the_grid_fetches_each_data_set_it_reads():
    sources = plan_with({"benchmarks": ["MajajHong2015public.IT-pls", "Cowley2026.V4-pls", "Allen2022_fmri.V1-ridge",
                                        "SyntheticShapes.IT-pls"]}).sources
    grid_data = sources.grid_data()
    assert {"resources/assemblies/MajajHong2015.public.nc", "resources/stimuli/hvm-public"} <= grid_data
    # a benchmark averaged over sessions reads each session's data; joined train/test files are fetched as parts
    assert {f"resources/assemblies/Cowley2026.{s}.nc" for s in ("190923", "201025", "210225", "211022")} <= grid_data
    assert {"resources/assemblies/Allen2022_fmri_train.nc", "resources/assemblies/Allen2022_fmri_test.nc"} <= grid_data
    assert not any("SyntheticShapes" in path for path in grid_data)  # generated: nothing to download
    assert len(grid_data) == 14


def test_files_read_in_place_and_their_sha1_on_disk(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.csv").write_text("filename,stimulus_id\n")
    sources = plan_with({"data": {"local_files": {HVM[0]: "mine.csv"}}}).sources
    remotes = sources.stimulus_files(wildcards(stimulus_set="hvm-public"))
    assert [remote.name for remote in remotes] == list(HVM)
    assert sources.on_disk(remotes) == {HVM[0]: "mine.csv"}  # the zip is downloaded: not read in place
    assert sources.on_disk_sha1(remotes) == {HVM[0]: hashlib.sha1(b"filename,stimulus_id\n").hexdigest()}
    assert (tmp_path / LOCAL_SHA1_CACHE).is_file()  # kept for the next start


def test_a_score_records_the_files_its_data_come_from():
    plan = plan_with()
    files = plan.sources.data_files(plan.benchmark("MajajHong2015public.IT-pls"))
    assert list(files) == [MAJAJ, *HVM]
    assert files[MAJAJ] == plan.sources.catalog.assembly("MajajHong2015.public").file.sha1
    assert plan.sources.data_files(plan.benchmark("SyntheticShapes.IT-pls")) == {}  # generated data
    sessions = plan.sources.data_files(plan.benchmark("Cowley2026.V4-pls"))
    assert len(sessions) == 12 and "assy_Cowley2026_211022.nc" in sessions  # each session's three files
