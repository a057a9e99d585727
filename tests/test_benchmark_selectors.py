"""Config `benchmarks` selectors (src/brainpipe/pipeline/benchmark_selectors.py): suite:, family:, parent:, globs and
!exclusions expand to plain identifiers, in the library, in `brainpipe list --select` and in a real Snakemake plan."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from brainpipe import benchmarks
from brainpipe.pipeline.benchmark_selectors import SelectorError, config_benchmarks, expand, suite_identifiers
from brainpipe.pipeline.workflow_config import ConfigError

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
REGISTRY = benchmarks.builtin()


def test_a_plain_list_comes_back_unchanged_even_with_unknown_names():
    entries = ["SyntheticShapes.IT-pls", "NoSuchFamily.IT-pls", "SyntheticShapes.IT-pls"]
    assert expand(entries, REGISTRY) == entries  # the config check names unknown ones, with the nearest known


def test_suite_brainscore_is_every_brain_score_2_4_2_identifier_in_order():
    expanded = expand(["suite:brainscore"], REGISTRY)
    assert len(expanded) == len(set(expanded)) == 291
    assert expanded == suite_identifiers("brainscore")
    assert expanded[0] == "Allen2022_fmri.V1-ridge" and "Kar2019-ost" in expanded
    assert set(expanded) <= set(REGISTRY.identifiers())  # each one a benchmark brainpipe can build
    assert not any(i.startswith("Synthetic") for i in expanded)  # the demo's generated data are not Brain-Score's


def test_family_parent_glob_and_exclusion():
    assert expand(["family:SyntheticShapes"], REGISTRY) == benchmarks.registry.family_identifiers(
        REGISTRY.families["SyntheticShapes"])
    v1 = expand(["parent:V1"], REGISTRY)
    parents = {i: REGISTRY.benchmark(i).parent for i in v1}
    assert set(parents.values()) >= {"V1", "V1-orientation"}  # sub-parents belong to V1
    assert all(p == "V1" or p.startswith("V1-") for p in parents.values())
    everything = REGISTRY.identifiers()
    assert set(v1) == {i for i in everything if REGISTRY.benchmark(i).parent in set(parents.values())}
    it = expand(["MajajHong2015*.IT-*", "!*-temporal-pls", "!MajajHong2015.IT-rdm"], REGISTRY)
    assert "MajajHong2015.IT-pls" in it and "MajajHong2015public.IT-pls" in it
    assert "MajajHong2015public.IT-temporal-pls" not in it and "MajajHong2015.IT-rdm" not in it
    assert all(i.startswith("MajajHong2015") and ".IT-" in i for i in it)


def test_order_of_first_appearance_each_once():
    entries = ["SyntheticShapes.IT-pls", "family:SyntheticShapes", "SyntheticShapes.V4-pls"]
    expanded = expand(entries, REGISTRY)
    assert expanded[0] == "SyntheticShapes.IT-pls" and len(expanded) == len(set(expanded))
    assert set(expanded) == set(benchmarks.registry.family_identifiers(REGISTRY.families["SyntheticShapes"]))


@pytest.mark.parametrize("entries, message", [
    (["family:MajajHong2O15"], "config benchmarks[0] 'family:MajajHong2O15': no benchmark family 'MajajHong2O15'"),
    (["SyntheticShapes.IT-pls", "parent:V9"], "config benchmarks[1] 'parent:V9': no benchmark has parent 'V9'"),
    (["majajhong2015*"], "pattern 'majajhong2015*' matches no benchmark identifier (case-sensitive"),
    (["suite:brain-score"], "unknown suite 'brain-score'; known: brainscore"),
    (["family:SyntheticShapes", "!SyntheticShapes*"], "the exclusions leave no benchmark"),
])
def test_a_selector_that_names_nothing_is_an_error_naming_the_entry(entries, message):
    with pytest.raises(SelectorError, match=None) as raised:
        expand(entries, REGISTRY)
    assert message in str(raised.value)
    assert isinstance(raised.value, ConfigError)  # the workflow reports it as any config error


def test_declared_families_are_selected_too():
    config = {"benchmark_zoo": {}, "benchmarks": ["family:SyntheticGratings"]}
    assert config_benchmarks(config) == benchmarks.registry.family_identifiers(
        REGISTRY.families["SyntheticGratings"])


def _cli(*args, cwd=ROOT):
    return subprocess.run([str(BIN / "brainpipe"), "list", *args], cwd=cwd, capture_output=True, text=True)


def test_brainpipe_list_select_prints_the_expanded_list_and_json():
    lines = _cli("--select", "suite:brainscore")
    assert lines.returncode == 0, lines.stderr
    assert lines.stdout.split() == suite_identifiers("brainscore")
    as_json = _cli("--select", "parent:V1", "!family:FreemanZiemba2013public", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout) == expand(["parent:V1", "!family:FreemanZiemba2013public"], REGISTRY)
    failed = _cli("--select", "family:Nope")
    assert failed.returncode == 1 and failed.stdout == ""
    assert "brainpipe list: config benchmarks[0] 'family:Nope': no benchmark family 'Nope'" in failed.stderr


def test_brainpipe_list_select_grid_expands_the_config(tmp_path):
    overlay = tmp_path / "grid.yaml"
    overlay.write_text('benchmarks: ["family:SyntheticShapes", "!*-i2n"]\n')
    result = _cli("--select", "grid", "--config", str(overlay))
    assert result.returncode == 0, result.stderr
    expected = [i for i in benchmarks.registry.family_identifiers(REGISTRY.families["SyntheticShapes"])
                if not i.endswith("-i2n")]
    assert result.stdout.split() == expected


def test_snakemake_plans_the_selected_grid(tmp_path):
    """A real dry run: the selector in an overlay plans exactly the scores of the identifiers it names."""
    overlay = tmp_path / "grid.yaml"
    overlay.write_text("models: [pixels]\nbenchmarks: ['SyntheticShapes.*-pls']\n")
    summary = subprocess.run([str(BIN / "snakemake"), "-s", str(ROOT / "Snakefile"), "--summary",
                              "--directory", str(tmp_path), "--configfile", str(ROOT / "config" / "config.yaml"),
                              str(overlay), "--", "scores"],
                             cwd=tmp_path, capture_output=True, text=True,
                             env={k: v for k, v in os.environ.items() if k != "SNAKEMAKE_PROFILE"})
    assert summary.returncode == 0, (summary.stdout + summary.stderr)[-3000:]
    headlines = sorted(line.split("\t")[0] for line in summary.stdout.splitlines()
                       if line.startswith("results/pixels/") and line.split("\t")[0].count("/") == 2)
    assert headlines == ["results/pixels/SyntheticShapes.IT-pls.json", "results/pixels/SyntheticShapes.V4-pls.json"]
