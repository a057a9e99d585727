"""Finished models (src/brainpipe/pipeline/finished_models.py): what the record of a whole run covers, and the
wildcard constraints that leave a finished model's files to no rule (pipeline/plan/patterns.py)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from brainpipe.pipeline import finished_models as fm
from brainpipe.pipeline import grid_cells
from model_source_fixtures import BROKEN_MODEL
from plan_fixtures import plan_with
from test_plan_patterns import path_regex

CONFIG = {"models": ["pixels", "alexnet_untrained"], "benchmarks": ["SyntheticShapes.V4-pls", "SyntheticShapes.IT-pls"],
          "device": "auto", "batch_size": 64, "data": {"base_url": None, "cache_dir": "resources/cache"},
          "model_zoo": {"pixels": {"architecture": "pixels", "visual_degrees": 8},
                        "alexnet_untrained": {"architecture": "alexnet", "weights": None, "seed": 0}}}


def write(path: Path, text: str = "x", mtime_ns: int | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


@pytest.fixture
def grid_folder(tmp_path, monkeypatch):
    """A working folder with each model's result folders and the shared ones filled, the record not yet written."""
    monkeypatch.chdir(tmp_path)
    for model in CONFIG["models"]:
        write(Path(f"results/{model}/SyntheticShapes.V4-pls.json"), "{}")
        write(Path(f"results/{model}/SyntheticShapes.V4-pls/layers/l/fold0.json"), "{}")
        write(Path(f"results/activations/{model}/SyntheticShapes/l.nc"), "nc")
    write(Path("results/ceilings/SyntheticShapes.V4-pls.json"), "{}")
    write(Path("resources/assemblies/SyntheticShapes.nc"), "nc")
    return tmp_path


def test_a_command_asking_for_more_than_a_plain_run_plans_every_model():
    assert fm.asks_for_everything(["snakemake", "--cores", "2", "-n"]) is None
    assert fm.asks_for_everything(["snakemake", "--cores", "2", "all", "--config", "a=1"]) is None
    assert fm.asks_for_everything(["snakemake", "-nF"]) == "--forceall"
    assert fm.asks_for_everything(["snakemake", "--report=report.html"]) == "--report"
    assert fm.asks_for_everything(["snakemake", "-R", "score", "--cores", "1"]) == "--forcerun"
    assert fm.asks_for_everything(["snakemake", "--until", "summary"]) == "--until"
    assert fm.asks_for_everything(["snakemake", "--cores", "1", "results/pixels/X.json"]) == \
        "targets on the command line"
    assert fm.asks_for_everything(["--forceall"]) is None  # argv[0] is the program


def test_the_stamp_sees_size_and_time_of_every_file_and_a_directory_output_by_its_timestamp(tmp_path):
    a = write(tmp_path / "r" / "a.json", "1", mtime_ns=10**18)
    before = fm.stamp([tmp_path / "r"])
    assert fm.stamp([tmp_path / "r"]) == before
    os.utime(a, ns=(10**18 + 1, 10**18 + 1))
    assert fm.stamp([tmp_path / "r"]) != before
    after_touch = fm.stamp([tmp_path / "r"])
    write(tmp_path / "r" / "sub" / "b.json")
    assert fm.stamp([tmp_path / "r"]) != after_touch
    assert fm.stamp([tmp_path / "missing"]) == fm.stamp([])
    # a directory output (Snakemake's directory(): its .snakemake_timestamp stands for its contents, for Snakemake
    # as here)
    write(tmp_path / "d" / ".snakemake_timestamp", "", mtime_ns=10**18)
    image = write(tmp_path / "d" / "image0.png", "p", mtime_ns=10**18)
    folder = fm.stamp([tmp_path / "d"])
    os.utime(image, ns=(10**18 + 5, 10**18 + 5))
    assert fm.stamp([tmp_path / "d"]) == folder
    os.utime(tmp_path / "d" / ".snakemake_timestamp", ns=(10**18 + 5, 10**18 + 5))
    assert fm.stamp([tmp_path / "d"]) != folder


def test_a_model_key_covers_the_settings_and_its_entry_but_not_the_grid_lists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    key = fm.model_key(CONFIG, "pixels", "code1")
    reordered = {k: CONFIG[k] for k in reversed(list(CONFIG))}
    assert fm.model_key(reordered, "pixels", "code1") == key
    assert fm.model_key(CONFIG, "pixels", "code2") != key
    assert fm.model_key({**CONFIG, "batch_size": 32}, "pixels", "code1") != key
    other_entry = {**CONFIG, "model_zoo": {**CONFIG["model_zoo"], "alexnet_untrained": {"architecture": "vgg11"}}}
    assert fm.model_key(other_entry, "pixels", "code1") == key
    assert fm.model_key({**CONFIG, "models": ["pixels"], "benchmarks": ["x"]}, "pixels", "code1") == key
    own_entry = {**CONFIG, "model_zoo": {**CONFIG["model_zoo"], "pixels": {"architecture": "pixels",
                                                                            "visual_degrees": 4}}}
    assert fm.model_key(own_entry, "pixels", "code1") != key
    # a file the config names (a weights_file): by size and modification time
    weights = write(tmp_path / "weights.pt", "w", mtime_ns=10**18)
    with_weights = {**CONFIG, "model_zoo": {**CONFIG["model_zoo"], "pixels": {"architecture": "pixels",
                                                                               "weights_file": str(weights)}}}
    named = fm.model_key(with_weights, "pixels", "code1")
    os.utime(weights, ns=(10**18 + 1, 10**18 + 1))
    assert fm.model_key(with_weights, "pixels", "code1") != named
    # a model's source file, named with its callable
    source = write(tmp_path / "models" / "net.py", "def build(): ...\n", mtime_ns=10**18)
    own = {**CONFIG, "model_zoo": {**CONFIG["model_zoo"], "pixels": {"architecture": "models/net.py:build"}}}
    before = fm.model_key(own, "pixels", "code1")
    os.utime(source, ns=(10**18 + 1, 10**18 + 1))
    assert fm.model_key(own, "pixels", "code1") != before
    # a folder the config names (your images): every file in it; not the working folder or results/
    image = write(tmp_path / "my_images" / "a.png", "p", mtime_ns=10**18)
    with_images = {**CONFIG, "benchmark_zoo": {"Mine": {"images": "my_images", "here": ".", "out": "results"}}}
    images = fm.model_key(with_images, "pixels", "code1")
    write(tmp_path / "results" / "pixels" / "x.json")
    assert fm.model_key(with_images, "pixels", "code1") == images
    os.utime(image, ns=(10**18 + 1, 10**18 + 1))
    assert fm.model_key(with_images, "pixels", "code1") != images


def test_a_plugin_module_imported_by_name_counts_by_its_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plugin = write(tmp_path / "lab_plugins" / "my_benchmarks.py", "X = 1\n", mtime_ns=10**18)
    write(tmp_path / "lab_plugins" / "__init__.py", "")
    monkeypatch.syspath_prepend(str(tmp_path))
    config = {**CONFIG, "benchmark_plugins": ["lab_plugins.my_benchmarks:MyBenchmark"]}
    key = fm.settings_key(config, "code")
    own = {**CONFIG, "model_zoo": {**CONFIG["model_zoo"], "pixels": {"architecture": "lab_plugins.my_benchmarks:X"}}}
    model = fm.model_key(own, "pixels", "code")
    os.utime(plugin, ns=(10**18 + 1, 10**18 + 1))
    assert fm.settings_key(config, "code") != key
    assert fm.model_key(own, "pixels", "code") != model
    assert "lab_plugins" not in sys.modules  # found without importing anything
    assert fm.settings_key({**config, "benchmark_plugins": ["no_such_module_here:X"]}, "code")  # not an error


def test_the_code_digest_reads_every_file_of_the_folders(tmp_path):
    write(tmp_path / "pkg" / "a.py", "x = 1\n")
    write(tmp_path / "pkg" / "__pycache__" / "a.cpython-311.pyc", "compiled")
    digest = fm.code_digest([tmp_path / "pkg"])
    write(tmp_path / "pkg" / "__pycache__" / "a.cpython-311.pyc", "recompiled")
    assert fm.code_digest([tmp_path / "pkg"]) == digest
    write(tmp_path / "pkg" / "a.py", "x = 2\n")
    assert fm.code_digest([tmp_path / "pkg"]) != digest


def test_the_code_folders_are_the_package_that_runs_and_the_workflow():
    folders = fm.code_folders(Path(__file__).resolve().parents[2])
    assert [f.name for f in folders] == ["brainpipe", "workflow", "Snakefile"]
    assert all(f.exists() for f in folders)


def test_a_recorded_model_is_finished_until_a_file_of_its_own_or_a_shared_one_changes(grid_folder):
    assert fm.finished(CONFIG, "code") == []  # no record yet
    fm.record(CONFIG, "code")
    assert fm.finished(CONFIG, "code") == ["pixels", "alexnet_untrained"]
    assert fm.finished(CONFIG, "other code") == []
    assert fm.finished({**CONFIG, "benchmarks": ["SyntheticShapes.V4-pls"]}, "code") == CONFIG["models"]
    assert fm.finished({**CONFIG, "benchmarks": CONFIG["benchmarks"] + ["SyntheticShapes.V1-pls"]}, "code") == []
    # one of the model's files removed: that model only
    Path("results/activations/pixels/SyntheticShapes/l.nc").unlink()
    assert fm.finished(CONFIG, "code") == ["alexnet_untrained"]
    fm.record(CONFIG, "code")
    assert fm.finished(CONFIG, "code") == ["pixels", "alexnet_untrained"]
    # a file every model reads (a ceiling): no model
    write(Path("results/ceilings/SyntheticShapes.V4-pls.json"), '{"ceiling": 0.5}')
    assert fm.finished(CONFIG, "code") == []
    fm.record(CONFIG, "code")
    write(Path("resources/assemblies/SyntheticShapes.nc"), "changed")
    assert fm.finished(CONFIG, "code") == []


def test_a_record_of_another_version_or_unreadable_finishes_nothing(grid_folder):
    fm.record(CONFIG, "code")
    record = json.loads(fm.RECORD.read_text())
    fm.RECORD.write_text(json.dumps({**record, "version": fm.VERSION + 1}))
    assert fm.finished(CONFIG, "code") == []
    fm.RECORD.write_text("{not json")
    assert fm.finished(CONFIG, "code") == []


def test_the_nothing_to_do_filter_acts_on_that_message_only_and_lets_every_record_through():
    import logging

    calls = []
    log = logging.getLogger("test_finished_models.on_message")
    log.setLevel(logging.INFO)
    log.addFilter(fm.OnMessage("Nothing to be done.", lambda: calls.append(1)))
    unwritable = fm.OnMessage("Nothing to be done.", lambda: (_ for _ in ()).throw(PermissionError("read-only")))
    log.addFilter(unwritable)
    log.info("Building DAG of jobs...")
    assert calls == []
    log.info("Nothing to be done.")  # the second filter's OSError is swallowed: the record is only a cache
    assert calls == [1]
    assert unwritable.filter(logging.makeLogRecord({"msg": "other"})) is True
    # one such filter per process: the last workflow's
    fm.record_when_nothing_to_do(log, "Nothing to be done.", lambda: calls.append(2))
    log.info("Nothing to be done.")
    assert calls == [1, 2] and sum(isinstance(f, fm.OnMessage) for f in log.filters) == 1


def test_a_finished_models_files_match_no_rule_and_every_other_models_still_do():
    plan = plan_with({"models": ["pixels", "alexnet_untrained", "recurrent_demo"],
                      "benchmarks": ["family:SyntheticShapes", "SyntheticShapesOST-ost"]})
    plan.finished_models = frozenset({"alexnet_untrained", "recurrent_demo"})
    patterns = plan.patterns
    score = path_regex("results/{model}/{benchmark}.json", model=patterns.scored_model,
                       benchmark=patterns.generic_headline_benchmark)
    fold = path_regex("results/{model}/{benchmark}/layers/{layer}/fold{fold}.json", model=patterns.model)
    static = path_regex("results/activations/{model}/{stimuli}/{layer}.nc", model=patterns.static_model)
    temporal = path_regex("results/activations/{model}/{stimuli}/{layer}.nc", model=patterns.temporal_model)
    empty = path_regex("results/{cell}.json", cell=grid_cells.cell_pattern(
        [c for c in plan.grid.empty_cells if c.split("/", 1)[0] not in plan.finished_models]))
    assert score.match("results/pixels/SyntheticShapes.IT-pls.json")
    assert not score.match("results/alexnet_untrained/SyntheticShapes.IT-pls.json")
    assert fold.match("results/pixels/SyntheticShapes.IT-pls/layers/pixels/fold0.json")
    assert not fold.match("results/alexnet_untrained/SyntheticShapes.IT-pls/layers/features.12/fold0.json")
    assert static.match("results/activations/pixels/SyntheticShapes/pixels.nc")
    assert static.match("results/activations/alexnet_untrained2/SyntheticShapes/features.2.nc")  # a longer name
    assert not static.match("results/activations/alexnet_untrained/SyntheticShapes/features.2.nc")
    assert not temporal.match("results/activations/recurrent_demo/SyntheticShapes/IT.output.nc")
    assert plan.grid.empty_cells  # recurrent_demo commits no V4 layer: its empty cells go with it
    finished_cells = [c for c in plan.grid.empty_cells if c.split("/", 1)[0] in plan.finished_models]
    assert finished_cells and not any(empty.match(f"results/{cell}.json") for cell in finished_cells)
    assert empty.match("results/pixels/SyntheticShapesOST-ost.json")  # a static model's OST cell: pixels' is planned
    assert re.fullmatch(patterns.model, "pixels")


# --- a real workflow: a finished model is not planned again, and every change plans it again -------------------------

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


def snakemake(folder: Path, *args):
    result = subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(folder), "--cores", "2",
                             *args], cwd=folder, capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return result.stdout + result.stderr


def job_counts(output: str) -> dict:
    """Snakemake's 'Job stats' table of a dry run: {rule: jobs}."""
    table = output.split("Job stats:", 1)[1].split("\n\n", 1)[0] if "Job stats:" in output else ""
    return {rule: int(count) for rule, count in re.findall(r"^(\w+)\s+(\d+)$", table, flags=re.M)}


@pytest.mark.slow  # five Snakemake starts and two small runs (~1 min)
def test_a_finished_model_is_not_planned_again_until_something_of_it_changes(tmp_path):
    import yaml

    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["synthetic_shapes"].update(image_size=32)  # a small demo, drawn fast
    config.update(models=["pixels"], benchmarks=["SyntheticShapes.V4-pls"])
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    assert "models finished" not in snakemake(tmp_path, "-n")
    assert not (tmp_path / fm.RECORD).exists()  # a dry run records nothing
    snakemake(tmp_path)
    assert json.loads((tmp_path / fm.RECORD).read_text())["models"].keys() == {"pixels"}

    again = snakemake(tmp_path, "-n")
    assert "1 of 1 models finished in an earlier run of the whole grid" in again, again[-2000:]
    assert "Nothing to be done" in again

    # a second model: only its jobs, the same as with every model planned
    config["models"].append("pixels_4deg")
    config["model_zoo"]["pixels_4deg"] = {**config["model_zoo"]["pixels"], "visual_degrees": 4}
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    skipping = snakemake(tmp_path, "-n")
    assert "1 of 2 models finished" in skipping and ": pixels." in skipping
    planned = job_counts(skipping)
    assert planned["score"] == 1 and planned["fit_fold"] == 10, planned
    assert job_counts(snakemake(tmp_path, "-n", "--config", "skip_finished_models=False")) == planned

    # a file of the finished model removed: the model is planned again, as Snakemake plans it with every model
    # planned (a missing fold file under a score that is there reruns nothing, for Snakemake)
    (tmp_path / "results/pixels/SyntheticShapes.V4-pls/layers/pixels/fold3.json").unlink()
    removed = snakemake(tmp_path, "-n")
    assert "models finished" not in removed, removed[-2000:]
    assert job_counts(removed) == job_counts(snakemake(tmp_path, "-n", "--config", "skip_finished_models=False"))
    headline = tmp_path / "results/pixels/SyntheticShapes.V4-pls.json"
    headline.unlink()
    assert job_counts(snakemake(tmp_path, "-n"))["score"] == 2
    snakemake(tmp_path)
    assert headline.exists()
    assert "2 of 2 models finished" in snakemake(tmp_path, "-n")
    # a start that finds nothing to do (the record lost, or code changed that changes no result) records them too:
    # Snakemake returns without its onsuccess handler then
    (tmp_path / fm.RECORD).unlink()
    assert "Nothing to be done" in snakemake(tmp_path, "-n")
    assert sorted(json.loads((tmp_path / fm.RECORD).read_text())["models"]) == ["pixels", "pixels_4deg"]

    # a run that fails (--keep-going) for one model records the others: a model whose network fails on every image
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "broken.py").write_text(BROKEN_MODEL)
    config["models"].append("broken")
    config["model_zoo"]["broken"] = {"architecture": "models/broken.py:build", "visual_degrees": 8,
                                     "layers": {"V1": "1", "V2": "1", "V4": "1", "IT": "1"}}
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    failed = subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "--cores", "2",
                             "--keep-going"], cwd=tmp_path, capture_output=True, text=True)
    assert failed.returncode != 0 and "fails on every image" in failed.stdout + failed.stderr
    assert sorted(json.loads((tmp_path / fm.RECORD).read_text())["models"]) == ["pixels", "pixels_4deg"]
    assert "2 of 3 models finished" in snakemake(tmp_path, "-n")
    config["models"].remove("broken")
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))

    # --forceall plans every job; a setting that changes results (the benchmark's folds) plans both models again
    assert job_counts(snakemake(tmp_path, "-n", "--forceall"))["fit_fold"] == 20
    config["benchmark_settings"] = {"SyntheticShapes.V4-pls": {"splits": 5}}
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    changed = snakemake(tmp_path, "-n")
    assert "models finished" not in changed and job_counts(changed)["fit_fold"] == 10, job_counts(changed)
