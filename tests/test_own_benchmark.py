"""Your own experiment as a benchmark, as README "Your own benchmark" describes it, without touching src/:
a declared family (config benchmark_zoo) on packaged files, and a custom plugin file (examples/plugins), scored by
the real workflow; plus the errors a user sees for malformed declarations and plugins."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from brainpipe import benchmarks as bench
from brainpipe.benchmarks import PluginError
from workflow_runs import ROOT, planned_outputs, snakemake, with_config
from own_benchmark_fixtures import declaration, sha1, write_config, write_experiment

EXAMPLE_PLUGINS = ROOT / "examples" / "plugins"


@pytest.fixture(scope="module")
def experiment(tmp_path_factory):
    return write_experiment(tmp_path_factory.mktemp("experiment"))


@pytest.fixture(scope="module")
def declared_run(tmp_path_factory, experiment):
    workdir = with_config(tmp_path_factory.mktemp("declared"))
    config = write_config(workdir, ["MyExperiment2024.IT-pls", "MyExperiment2024.IT-rdm"],
                          benchmark_zoo={"MyExperiment2024": declaration(experiment)})
    snakemake(workdir, configfiles=(ROOT / "tests/configs/tiny.yaml", config))
    return workdir, config


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_declared_benchmark_scores(declared_run, experiment):
    workdir, _ = declared_run
    for metric in ("pls", "rdm"):
        score = json.loads((workdir / f"results/pixels/MyExperiment2024.IT-{metric}.json").read_text())
        assert np.isfinite(score["score"]) and 0 < score["ceiling"] <= 1
        assert (score["version"], score["parent"], score["bibtex_key"]) == (2, "IT", "me2024own")
        assert score["origin"] == "config benchmark_zoo.MyExperiment2024"
        assert score["data"]["files"]["assy_MyExperiment2024.nc"] == sha1(experiment / "assembly.nc")
    assert len(json.loads((workdir / "results/pixels/MyExperiment2024.IT-pls.json").read_text())["per_fold"]) == 3


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_declaration_change_reruns_only_its_benchmark(declared_run, experiment, tmp_path):
    workdir, config = declared_run
    text = yaml.safe_load(config.read_text())
    text["benchmark_zoo"]["MyExperiment2024"]["version"] = 3
    changed = tmp_path / "changed.yaml"
    changed.write_text(yaml.safe_dump(text))
    planned = planned_outputs(snakemake(workdir, "-n", configfiles=(ROOT / "tests/configs/tiny.yaml", changed)))
    assert planned and all("MyExperiment2024" in path or path.startswith("results/summary") or "plots" in path
                           or "leaderboard" in path for path in planned), planned
    assert not any("activations" in path for path in planned)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_custom_plugin_scores_and_reruns_on_edit(tmp_path):
    (tmp_path / "custom").mkdir()
    workdir = with_config(tmp_path / "custom")
    plugins = workdir / "plugins"
    shutil.copytree(EXAMPLE_PLUGINS, plugins)
    identifier = "ShapesObjectRSA.IT-objectrdm"
    config = write_config(workdir, [identifier, "SyntheticShapes.IT-pls"], benchmark_plugins=["plugins"])
    configs = (ROOT / "tests/configs/tiny.yaml", config)
    snakemake(workdir, configfiles=configs)
    score = json.loads((workdir / f"results/pixels/{identifier}.json").read_text())
    ceiling = json.loads((workdir / f"results/ceilings/{identifier}.json").read_text())
    assert 0 < ceiling["ceiling"] <= 1 and np.isfinite(score["raw"])
    assert score["score"] == pytest.approx(score["raw"] / score["ceiling"])
    assert score["origin"].startswith("plugin ") and score["origin"].endswith(":ShapesObjectRSA")
    # editing the plugin file reruns its ceiling and comparison, and not the other benchmark's jobs
    source = plugins / "shapes_object_rsa.py"
    source.write_text(source.read_text().replace("version = 1", "version = 2"))
    planned = planned_outputs(snakemake(workdir, "-n", configfiles=configs))
    assert f"results/ceilings/{identifier}.json" in planned
    assert not any("SyntheticShapes.IT-pls" in path or "activations" in path for path in planned), planned


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_brainpipe_check_runs_the_two_targets(tmp_path, experiment):
    workdir = with_config(tmp_path)
    config = write_config(workdir, ["MyExperiment2024.IT-pls"],
                          benchmark_zoo={"MyExperiment2024": declaration(experiment)},
                          synthetic_shapes=yaml.safe_load((ROOT / "tests/configs/tiny.yaml").read_text())[
                              "synthetic_shapes"])
    run = subprocess.run([str(Path(sys.executable).parent / "brainpipe"), "check", "MyExperiment2024.IT-pls",
                          "--config", str(config)], cwd=workdir, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok    ceiling" in run.stdout and "ok    pixels score" in run.stdout


# ---- bad input: one clear error naming the file or key ----

def test_identifier_clash_with_builtin_names_both(experiment):
    with pytest.raises(ValueError, match="'MajajHong2015' is defined twice: by built-in .* and by config"):
        bench.from_config({"benchmark_zoo": {"MajajHong2015": declaration(experiment)}})


@pytest.mark.parametrize("change, message", [
    ({"regions": "IT"}, r"benchmark_zoo.MyExperiment2024.regions: expected a list"),
    ({"ceiling": 1.5}, r"benchmark_zoo.MyExperiment2024.ceiling: expected internal_consistency, none or a number"),
    ({"metrics": ["pls", "rmd"]}, r"unknown metric 'rmd' \(did you mean 'rdm'\?\)"),
    ({"stimulus": {}}, r"unknown key 'stimulus' \(did you mean 'stimuli'\?\)"),
    ({"assembly": {"file": "https://example.org/a.nc"}}, r"assembly.file: a URL .* needs its sha1"),
])
def test_malformed_declarations(experiment, change, message):
    with pytest.raises(ValueError, match=message):
        bench.from_config({"benchmark_zoo": {"MyExperiment2024": declaration(experiment, **change)}})


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_missing_coordinate_named_at_fetch(tmp_path, experiment):
    workdir = with_config(tmp_path)
    entry = declaration(experiment)
    entry["assembly"]["coords"]["region"] = "area"
    config = write_config(workdir, ["MyExperiment2024.IT-pls"], benchmark_zoo={"MyExperiment2024": entry})
    run = snakemake(workdir, configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0
    assert "no coordinate 'area' (declared as the file's name for 'region'" in run.stdout + run.stderr
    assert not (workdir / "resources/assemblies/MyExperiment2024.nc").exists()


def test_wrong_sha1_stops(tmp_path, experiment):
    workdir = with_config(tmp_path)
    entry = declaration(experiment)
    entry["assembly"]["sha1"] = "0" * 40
    config = write_config(workdir, ["MyExperiment2024.IT-pls"], benchmark_zoo={"MyExperiment2024": entry})
    run = snakemake(workdir, configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0 and "has sha1" in run.stdout + run.stderr and "0" * 40 in run.stdout + run.stderr
    assert "config benchmark_zoo.MyExperiment2024.assembly.sha1" in run.stdout + run.stderr


def plugin_file(folder, body):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mine.py").write_text("from brainpipe.benchmarks import CustomBenchmark\n" + body)
    return folder


def test_plugin_that_raises_on_import(tmp_path):
    folder = plugin_file(tmp_path / "p", "raise RuntimeError('oops')\n")
    with pytest.raises(PluginError, match=r"mine.py: importing it raised RuntimeError: oops"):
        bench.from_config({"benchmark_plugins": [str(folder)]})


def test_plugin_missing_method_and_unknown_data(tmp_path):
    folder = plugin_file(tmp_path / "a", "class A(CustomBenchmark):\n family='Aa'\n data='SyntheticShapes'\n"
                                         " regions=('IT',)\n metric='m'\n def ceiling(self, t): return {}\n")
    with pytest.raises(PluginError, match=r"mine.py:A: implement compare\(\)"):
        bench.from_config({"benchmark_plugins": [str(folder)]})
    folder = plugin_file(tmp_path / "b", "class B(CustomBenchmark):\n family='Bb'\n data='Nope'\n regions=('IT',)\n"
                                         " metric='m'\n def ceiling(self, t): return {}\n"
                                         " def compare(self, a, t): return {}\n")
    with pytest.raises(PluginError, match=r"mine.py:B: data = 'Nope' is not a known family"):
        bench.from_config({"benchmark_plugins": [str(folder)]})


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_plugin_malformed_score_fails_the_job(tmp_path):
    workdir = with_config(tmp_path)
    plugin_file(workdir / "plugins", "class Bad(CustomBenchmark):\n family='BadRSA'\n data='SyntheticShapes'\n"
                                     " regions=('IT',)\n metric='nan'\n"
                                     " def ceiling(self, t): return {'ceiling': 0.5}\n"
                                     " def compare(self, a, t): return {'raw': float('nan')}\n")
    config = write_config(workdir, ["BadRSA.IT-nan"], benchmark_plugins=["plugins"])
    run = snakemake(workdir, configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0
    assert "mine.py:Bad: compare() returned raw=nan, not a finite number" in run.stdout + run.stderr
    assert not list((workdir / "results/pixels").rglob("fold0.json"))
