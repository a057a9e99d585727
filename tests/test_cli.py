"""The ``brainpipe`` command line: its help is plain text, and ``--config`` merges like snakemake's --configfile."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from brainpipe import cli

ROOT = Path(__file__).resolve().parents[1]
BRAINPIPE = str(Path(sys.executable).parent / "brainpipe")
# reStructuredText inline markup that a terminal shows raw: ``literal``, :role:`target`, **strong**, `x`_
MARKUP = re.compile(r"``|:[a-z]+:`|\*\*|`_")


def subcommands():
    parser = cli._parser()
    actions = [a for a in parser._actions if hasattr(a, "choices") and isinstance(a.choices, dict)]
    return list(actions[0].choices)


@pytest.mark.parametrize("command", [[]] + [[name] for name in subcommands()], ids=lambda c: " ".join(c) or "-")
def test_help_is_plain_text(command):
    shown = subprocess.run([BRAINPIPE, *command, "--help"], capture_output=True, text=True, check=True).stdout
    assert not MARKUP.search(shown), f"brainpipe {' '.join(command)} --help shows markup:\n{shown}"
    assert "usage: brainpipe" in shown


def test_list_config_is_merged_over_the_checkout_config(tmp_path, monkeypatch, capsys):
    """An overlay naming only the grid keeps the checkout's model_zoo and benchmark_zoo (it replaced them)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("models: [pixels]\nbenchmarks: [SyntheticShapes.IT-pls]\n")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["list"]) == 0
    plain = capsys.readouterr().out
    assert cli.main(["list", "--config", str(overlay)]) == 0
    merged = capsys.readouterr().out
    zoo = re.search(r"Models in the config \((\d+);", plain).group(1)
    assert int(zoo) > 1 and f"Models in the config ({zoo};" in merged, merged
    assert "* pixels:" in merged and "* alexnet_untrained:" not in merged  # the overlay's grid wins
    assert merged.rstrip().endswith("Benchmarks in the grid: SyntheticShapes.IT-pls")


def test_update_merges_mappings_and_replaces_lists():
    base = {"models": ["a", "b"], "model_zoo": {"a": {"layers": {"IT": "x", "V4": "y"}}}, "batch_size": 8}
    overlay = {"models": ["c"], "model_zoo": {"a": {"layers": {"IT": "z"}}, "c": {}}}
    assert cli._update(base, overlay) == {"models": ["c"], "batch_size": 8,
                                          "model_zoo": {"a": {"layers": {"IT": "z", "V4": "y"}}, "c": {}}}
    assert base["model_zoo"]["a"]["layers"]["IT"] == "x"  # the base is not changed


def test_list_names_line_and_column_of_a_yaml_error_in_config(tmp_path):
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("models:\n  - pixels\n\tdevice: cpu\n")
    result = subprocess.run([BRAINPIPE, "list", "--config", str(overlay)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode != 0
    assert f"brainpipe: {overlay}, line 3, column 1: YAML syntax error" in result.stderr, result.stderr
