"""The leaderboard on files the real workflow writes (issue 40 §1, issue 37 item 11): a real Snakemake run of a tiny
grid with a neural benchmark named without a region (the demo's OST), a time-resolved benchmark (spantime_ridge,
whose ceiling is a list per time bin) and a regression benchmark, for a temporal model and a static one (whose OST
score is null, with its reason); then a run that had to recompute scores and could not (stale files), and a targeted
run that fails before any score exists. Slow: real runs of a few minutes in all."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from leaderboard_fixtures import grid_cell
from model_source_fixtures import BROKEN_MODEL

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"
IT, OST, SPANTIME = "SyntheticShapes.IT-pls", "SyntheticShapesOST-ost", "SyntheticShapes.IT-spantime_ridge"
GRID = f"""models: [recurrent_demo, alexnet_untrained]
benchmarks: [{IT}, {OST}, {SPANTIME}]
benchmark_settings:
  {IT}: {{splits: 3}}
  {SPANTIME}: {{splits: 2}}
synthetic_shapes: {{objects_per_category: 4}}  # (OST needs every label among the test images of its splits)
"""
pytestmark = pytest.mark.slow


def snakemake(workdir, *args, configfiles=(), check=True):
    command = [SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "2", *args,
               "--configfile", str(TINY), str(workdir / "grid.yaml"), *map(str, configfiles)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return result


def new_workdir(path):
    (path / "config").mkdir(parents=True)
    shutil.copy(ROOT / "config" / "config.yaml", path / "config" / "config.yaml")
    (path / "grid.yaml").write_text(GRID)
    return path


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    workdir = new_workdir(tmp_path_factory.mktemp("leaderboard"))
    snakemake(workdir)
    return workdir


def score(workdir, model, benchmark):
    return json.loads((workdir / "results" / model / f"{benchmark}.json").read_text())


def test_a_neural_benchmark_without_region_and_a_time_resolved_one_on_the_leaderboard(grid):
    """(A) the OST score file carries no `metric` (nor does any neural one): its definition files it under IT, so
    the grid has no behaviour column and IT counts in the average; (B) the spantime benchmark's ceiling file holds
    one ceiling per time bin: the leaderboard is built (it crashed) and shows their mean."""
    ost = score(grid, "recurrent_demo", OST)
    assert "metric" not in ost and ost["parent"] == "IT"
    ceiling = json.loads((grid / "results" / "ceilings" / f"{SPANTIME}.json").read_text())
    assert isinstance(ceiling["ceiling"], list) and len(ceiling["ceiling"]) > 1
    table = pd.read_csv(grid / "results" / "leaderboard.csv", index_col="model")
    assert list(table.columns) == [IT, OST, SPANTIME, "IT (mean)", "average"], list(table.columns)
    scores = [score(grid, "recurrent_demo", b)["score"] for b in (IT, OST, SPANTIME)]
    assert all(s is not None for s in scores), scores
    # IT-pls and OST counted; spantime scores IT-pls's recording again: shown, in no mean (one recording counts once)
    assert table.loc["recurrent_demo", "IT (mean)"] == pytest.approx((scores[0] + scores[1]) / 2, abs=1e-4)
    assert table.loc["recurrent_demo", "average"] == pytest.approx((scores[0] + scores[1]) / 2, abs=1e-4)
    assert table.loc["recurrent_demo", SPANTIME] == pytest.approx(scores[2], abs=1e-4)
    assert table.loc["ceiling", SPANTIME] == pytest.approx(sum(ceiling["ceiling"]) / len(ceiling["ceiling"]),
                                                           abs=1e-4)
    summary = pd.read_csv(grid / "results" / "summary.tsv", sep="\t")
    static_ost = (summary["model"] == "alexnet_untrained") & (summary["benchmark"] == OST)
    assert set(summary["status"]) == {"scored"} and summary.loc[~static_ost, "ceiling"].notna().all()
    # the static model's OST cell is empty (decided at plan time): no number, not even a ceiling (the demo's OST
    # declares none)
    assert summary.loc[static_ost, ["score", "ceiling"]].isna().all(axis=None)
    # the static model's OST score is null with a one-line reason, shown on the page
    null = score(grid, "alexnet_untrained", OST)
    assert null["score"] is None and null["reason"]
    page = (grid / "results" / "leaderboard.html").read_text()
    assert grid_cell(page, "alexnet_untrained", OST)["reason"] == null["reason"]  # shown on hover and its pages
    assert "behavior" not in page.split("<tbody>")[0]  # no behaviour column in the header


def test_a_failed_rerun_names_stale_scores_and_says_what_it_rebuilt(grid, tmp_path):
    """A config edit (pls_components 10; alexnet_untrained's architecture now a model that fails) whose run fails
    with --keep-going: recurrent_demo's IT score is recomputed with 10 components (scored); alexnet_untrained's
    two scored files are the old run's: 'stale', naming what differs, out of the leaderboard's cells and means (its
    OST cell is empty, which no edit of its architecture changes); the rebuild (with the time-resolved ceiling)
    succeeds and says which files it wrote."""
    copy = tmp_path / "grid"
    shutil.copytree(grid, copy, symlinks=True)  # copytree keeps the mtimes: the cached stages stay cached
    (copy / "models").mkdir()
    (copy / "models" / "broken.py").write_text(BROKEN_MODEL)
    overlay = tmp_path / "edit.yaml"
    overlay.write_text(f"benchmark_settings:\n  {IT}: {{splits: 3, pls_components: 10}}\n"
                       "model_zoo:\n  alexnet_untrained:\n    architecture: models/broken.py:build\n"
                       "    visual_degrees: 8\n    layers: {V1: '1', V2: '1', V4: '1', IT: '1'}\n")
    result = snakemake(copy, "--keep-going", configfiles=(overlay,), check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert score(copy, "recurrent_demo", IT)["data"]["settings"]["pls_components"] == 10
    assert score(copy, "alexnet_untrained", IT)["data"]["settings"]["pls_components"] == 25  # the old file
    summary = pd.read_csv(copy / "results" / "summary.tsv", sep="\t")
    status = dict(zip(zip(summary["model"], summary["benchmark"]), summary["status"]))
    # alexnet_untrained's OST cell is empty whatever its architecture (a static model): current, not stale
    assert status == {("recurrent_demo", IT): "scored", ("recurrent_demo", OST): "scored",
                      ("recurrent_demo", SPANTIME): "scored", ("alexnet_untrained", IT): "stale",
                      ("alexnet_untrained", OST): "scored", ("alexnet_untrained", SPANTIME): "stale"}, status
    assert "2 score file(s) stale" in output, output[-3000:]
    assert "data.settings.pls_components: 25 in the file, 10 now" in output
    assert "model_spec.architecture: alexnet in the file, models/broken.py:build now" in output
    assert ("rebuilt results/summary.tsv, results/leaderboard.csv, results/leaderboard.html" in output), output[-3000:]
    table = pd.read_csv(copy / "results" / "leaderboard.csv", index_col="model")
    assert table.loc["alexnet_untrained", [IT, OST, SPANTIME]].isna().all()
    assert table.loc["recurrent_demo", IT] == pytest.approx(score(copy, "recurrent_demo", IT)["score"], abs=1e-4)
    page = (copy / "results" / "leaderboard.html").read_text()
    assert "2 score(s) stale" in page and f"alexnet_untrained &times; {IT}: " in page


def test_a_targeted_run_that_fails_before_any_score_says_no_table_was_rebuilt(tmp_path):
    """Issue 37.11: a failing targeted run with no score file on disk rebuilt nothing, and says so (it said
    'results/summary.tsv and results/leaderboard.html were rebuilt')."""
    workdir = new_workdir(tmp_path / "fresh")
    (workdir / "models").mkdir()
    (workdir / "models" / "broken.py").write_text(BROKEN_MODEL)
    overlay = tmp_path / "broken.yaml"
    overlay.write_text("models: [broken]\nmodel_zoo:\n  broken:\n    architecture: models/broken.py:build\n"
                       "    visual_degrees: 8\n    layers: {IT: '1'}\n")
    result = snakemake(workdir, f"results/broken/{IT}.json", configfiles=(overlay,), check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "were rebuilt" not in output and "brainpipe: rebuilt" not in output, output[-3000:]
    assert "no table was rebuilt (no score file of the grid exists yet)" in output, output[-3000:]
    assert not (workdir / "results" / "summary.tsv").exists()
    assert not (workdir / "results" / "leaderboard.html").exists()
