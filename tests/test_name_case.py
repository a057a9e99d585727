"""Models and benchmarks whose names differ only in letter case are refused when the config is parsed: on a
case-insensitive file system (macOS's and Windows' default) their results would be the same files
(brainpipe.pipeline.name_case)."""

import copy
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from brainpipe.pipeline.name_case import case_twin
from brainpipe.pipeline.workflow_config import ConfigError, check_config_structure

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
DEFAULT_CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


def declared(regions=("IT",)):
    """A benchmark_zoo entry (its files are read only when a job needs them, never at parse time)."""
    return {"stimuli": {"csv": "data/my/stimuli.csv", "zip": "data/my/stimuli.zip"},
            "assembly": {"file": "data/my/assembly.nc"}, "regions": list(regions), "visual_degrees": 8}


def structure_error(**changes):
    config = copy.deepcopy(DEFAULT_CONFIG)
    for key, value in changes.items():
        config[key] = {**(config.get(key) or {}), **value} if key == "model_zoo" else value
    with pytest.raises(ConfigError) as raised:
        check_config_structure(config, SCHEMA)
    return str(raised.value)


def test_case_twin():
    assert case_twin(["pixels", "alexnet", "Pixels"]) == ("pixels", "Pixels")
    assert case_twin(["MyExp2024", "other", "myexp2024"]) == ("MyExp2024", "myexp2024")
    assert case_twin(["Caf\u00e9", "cafe\u0301"]) == ("Caf\u00e9", "cafe\u0301")  # one name on APFS, too
    assert case_twin(["pixels", "pixels2", "alexnet"]) is None


def test_two_models_differing_only_in_case_are_refused_naming_both():
    message = structure_error(model_zoo={"Pixels": DEFAULT_CONFIG["model_zoo"]["pixels"]})
    assert message.startswith("config model_zoo.Pixels: model 'Pixels' differs from model 'pixels' "
                              "(model_zoo.pixels) only in letter case"), message
    assert "results/Pixels/ and results/pixels/ are one folder" in message and "Rename one" in message


def test_a_model_named_like_a_result_folder_but_for_case_is_refused():
    message = structure_error(model_zoo={"Plots": DEFAULT_CONFIG["model_zoo"]["pixels"]})
    assert message.startswith("config model_zoo.Plots: a model cannot be called 'Plots': results/plots holds "
                              "workflow results"), message
    assert "case-insensitive" in message


def test_two_declared_families_differing_only_in_case_are_refused_naming_both():
    message = structure_error(benchmark_zoo={"MyExp2024": declared(), "myexp2024": declared()})
    assert message.startswith("config benchmark_zoo.myexp2024: benchmark family 'myexp2024' differs from "
                              "'MyExp2024' (defined by config benchmark_zoo.MyExp2024) only in letter case"), message


def test_a_declared_family_named_like_a_built_in_but_for_case_is_refused():
    message = structure_error(benchmark_zoo={"majajhong2015": declared()})
    assert message.startswith("config benchmark_zoo.majajhong2015: benchmark family 'majajhong2015' differs from "
                              "'MajajHong2015' (defined by built-in (brainpipe.benchmarks.families.majajhong2015))"), message
    assert message.endswith("Rename 'majajhong2015'")


def test_regions_differing_only_in_case_are_refused_naming_both_benchmarks():
    message = structure_error(benchmark_zoo={"MyExp2024": declared(["IT", "it"])})
    assert message.startswith("config benchmark_zoo.MyExp2024: benchmark 'MyExp2024.it-pls' differs from "
                              "'MyExp2024.IT-pls'"), message


def test_names_that_differ_in_more_than_case_pass():
    config = copy.deepcopy(DEFAULT_CONFIG)
    config["model_zoo"]["pixels2"] = config["model_zoo"]["pixels"]
    config["benchmark_zoo"] = {"MyExp2024": declared(), "MyExp2025": declared(["IT", "V4"])}
    check_config_structure(config, SCHEMA)


def test_the_workflow_refuses_them_before_any_job(tmp_path):
    """The real parse: a dry run of the workflow with an overlay naming both spellings stops with the message."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    overlay = tmp_path / "mine.yaml"
    overlay.write_text(yaml.safe_dump({"models": ["pixels", "Pixels"], "benchmarks": ["SyntheticShapes.IT-pls"],
                                       "model_zoo": {"Pixels": DEFAULT_CONFIG["model_zoo"]["pixels"]}}))
    run = subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(tmp_path), "-n",
                          "--configfile", str(overlay)], capture_output=True, text=True, cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, timeout=300)
    output = run.stdout + run.stderr
    assert run.returncode != 0
    # which spelling comes first depends on how Snakemake merged the overlay's model_zoo into the config's
    assert any(f"config model_zoo.{b}: model {b!r} differs from model {a!r} (model_zoo.{a}) only in letter case"
               in output for a, b in (("pixels", "Pixels"), ("Pixels", "pixels"))), output[-3000:]
    assert not (tmp_path / "results").exists()
