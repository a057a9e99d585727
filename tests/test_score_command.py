"""`brainpipe score MODEL BENCHMARK` and `brainpipe workflow` in a checkout: an unknown model or benchmark stops
with one message before Snakemake starts; the workflow's folder is the checkout. (A real score through the command,
from an installed wheel: tests/test_wheel.py.)"""

import subprocess
import sys
from pathlib import Path

import pytest

from brainpipe import cli
from brainpipe.pipeline import workflow_files
from workflow_runs import ROOT

BRAINPIPE = str(Path(sys.executable).parent / "brainpipe")


@pytest.fixture
def empty_folder(tmp_path, monkeypatch):
    """A working directory without a config/: the checkout's config is the one (as for brainpipe.score)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_unknown_model_names_the_config_the_near_name_and_the_known_ones(empty_folder, capsys):
    assert cli.main(["score", "alexnet_untraind", "SyntheticShapes.IT-pls"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(
        f"brainpipe score: model 'alexnet_untraind' is not in model_zoo of {ROOT / 'config' / 'config.yaml'} "
        "(did you mean 'alexnet_untrained'?); known: alexnet, alexnet_untrained, ")
    assert not (empty_folder / "results").exists() and not (empty_folder / ".snakemake").exists()


@pytest.mark.parametrize("benchmark, message", [
    ("SyntheticShapes.IT-plz", "unknown metric 'plz' (did you mean 'pls'?)"),
    ("Nope.IT-pls", "unknown family 'Nope'"),
    ("SyntheticShapes.XX-pls", "SyntheticShapes has no region 'XX'; it has ['V4', 'IT']"),
])
def test_unknown_benchmark_is_one_message_and_exit_1(empty_folder, benchmark, message):
    run = subprocess.run([BRAINPIPE, "score", "pixels", benchmark], cwd=empty_folder, capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.startswith(f"brainpipe score: benchmark {benchmark!r}: ")
    assert message in run.stderr and len(run.stderr.splitlines()) == 1
    assert not (empty_folder / ".snakemake").exists()


def test_a_config_that_is_not_there_is_named(empty_folder, capsys):
    with pytest.raises(SystemExit, match="cannot read config missing.yaml"):
        cli.main(["score", "pixels", "SyntheticShapes.IT-pls", "--config", "missing.yaml"])


def test_workflow_command_prints_the_checkout(empty_folder, capsys):
    assert cli.main(["workflow"]) == 0
    assert capsys.readouterr().out == f"{ROOT}\n"
    assert workflow_files.checkout() == ROOT and workflow_files.snakefile() == ROOT / "Snakefile"
    assert workflow_files.default_config() == ROOT / "config" / "config.yaml"
    (empty_folder / "config").mkdir()
    (empty_folder / "config" / "config.yaml").write_text("models: []\n")
    assert workflow_files.default_config() == Path("config/config.yaml")  # the working directory's comes first


def test_numbers_print_null_and_time_resolved_values():
    assert cli._number(None) == "n/a" and cli._number(0.123456) == "0.1235"
    assert cli._number([0.5, 0.7, None]) == "0.6000 (mean of 2 time bins)" and cli._number([None]) == "n/a"


def test_a_config_named_to_the_api_that_is_not_there_is_an_error_not_another_config(empty_folder):
    import brainpipe

    with pytest.raises(FileNotFoundError, match="config file missing.yaml not found"):
        brainpipe.load_benchmark("SyntheticShapes.IT-pls", config="missing.yaml")
