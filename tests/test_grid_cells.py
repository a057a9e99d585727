"""Empty cells (src/brainpipe/pipeline/grid_cells.py): a model × benchmark the model cannot do is decided when the
workflow is planned, gets a score JSON with score null and a one-line reason, and every other cell is computed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from brainpipe import benchmarks
from brainpipe.pipeline import grid_cells

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
REGISTRY = benchmarks.builtin()
ZOO = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["model_zoo"]


def test_what_a_model_cannot_do():
    label, readout, neural = (REGISTRY.benchmark(i) for i in ("Geirhos2021colour-top1", "SyntheticShapesBehaviour-i2n",
                                                              "SyntheticShapes.IT-pls"))
    assert "pixels, which has no ImageNet logits" in grid_cells.cannot_do("pixels", ZOO["pixels"], label)
    assert grid_cells.cannot_do("pixels", ZOO["pixels"], readout) is None  # its readout is its pixels
    assert grid_cells.cannot_do("pixels", ZOO["pixels"], neural) is None
    assert grid_cells.cannot_do("alexnet_untrained", ZOO["alexnet_untrained"], label) is None
    # a pixels entry given a logits layer is the user's decision, not an empty cell
    assert grid_cells.cannot_do("pixels", {**ZOO["pixels"], "logits_layer": "pixels"}, label) is None
    temporal = grid_cells.cannot_do("recurrent_demo", ZOO["recurrent_demo"], readout, temporal_model=True)
    assert "temporal model" in temporal and "\n" not in temporal
    assert grid_cells.cannot_do("recurrent_demo", ZOO["recurrent_demo"], neural, temporal_model=True) is None


def test_a_static_model_on_object_solution_times_is_an_empty_cell_with_the_fixed_ceiling():
    kar, demo_ost, temporal_pls = (REGISTRY.benchmark(i) for i in ("Kar2019-ost", "SyntheticShapesOST-ost",
                                                                   "MajajHong2015public.IT-temporal-pls"))
    reason = grid_cells.cannot_do("alexnet_untrained", ZOO["alexnet_untrained"], kar)
    assert reason.startswith("static model: alexnet_untrained has no model_zoo.alexnet_untrained.time_mapping")
    assert "Kar2019-ost NaN" in reason and "\n" not in reason
    assert "static model" in grid_cells.cannot_do("alexnet_untrained", ZOO["alexnet_untrained"], demo_ost)
    # a temporal model is scored; a static model on a time course is scored too (Brain-Score repeats its response)
    assert grid_cells.cannot_do("recurrent_demo", ZOO["recurrent_demo"], kar, temporal_model=True) is None
    assert grid_cells.cannot_do("alexnet_untrained", ZOO["alexnet_untrained"], temporal_pls) is None
    # a model without an IT layer: the region's reason comes first
    no_it = {**ZOO["alexnet_untrained"], "layers": {"V4": "features.7"}}
    assert "commits no layer to region IT" in grid_cells.cannot_do("v4_only", no_it, kar)
    # the cell's file keeps Kar2019's declared ceiling, as Brain-Score's NaN score does; a computed one is not known
    assert grid_cells.fixed_ceiling(kar) == 0.79
    assert grid_cells.fixed_ceiling(demo_ost) is None and grid_cells.fixed_ceiling(temporal_pls) is None
    cell = grid_cells.empty_score("alexnet_untrained", "Kar2019-ost", reason, {"version": 2}, {}, 0.79)
    assert (cell["score"], cell["raw"], cell["ceiling"], cell["empty_cell"]) == (None, None, 0.79, True)
    assert grid_cells.empty_score("m", "b", "r", {}, {})["ceiling"] is None


def test_a_model_without_a_layer_for_the_region_is_an_empty_cell_unless_no_model_commits_it():
    from brainpipe.pipeline.workflow_config import ConfigError, check_committed_regions

    v1 = REGISTRY.benchmark("FreemanZiemba2013public.V1-pls")
    reason = grid_cells.cannot_do("recurrent_demo", ZOO["recurrent_demo"], v1, temporal_model=True)
    assert "commits no layer to region V1" in reason and "brainpipe commit-layers recurrent_demo --region V1" in reason
    assert grid_cells.cannot_do("alexnet_untrained", ZOO["alexnet_untrained"], v1) is None
    config = {"models": ["recurrent_demo"], "model_zoo": ZOO, "benchmarks": [v1.identifier]}
    check_committed_regions(config, REGISTRY)  # a standard region: an empty cell, not an error
    declared = benchmarks.from_config({"benchmark_zoo": {}})
    shapes = declared.families["SyntheticShapes"]
    from dataclasses import replace

    declared.families["SyntheticShapes"] = replace(shapes, regions=(*shapes.regions, "Ti"))
    typo = {"models": ["recurrent_demo", "alexnet_untrained"], "model_zoo": ZOO, "benchmarks": ["SyntheticShapes.Ti-pls"]}
    with pytest.raises(ConfigError, match="no layer for region 'Ti'"):  # no model commits it: most often a typo
        check_committed_regions(typo, declared)


def test_cell_pattern_matches_exactly_the_empty_cells():
    import re

    cells = {"pixels/Geirhos2021colour-top1": "r", "recurrent_demo/SyntheticShapesBehaviour-i2n": "r"}
    pattern = re.compile(grid_cells.cell_pattern(cells) + "$")
    assert all(pattern.match(cell) for cell in cells)
    for other in ("pixels/Geirhos2021colour-top1x", "alexnet/Geirhos2021colour-top1", "pixels/Geirhos2021colour"):
        assert not pattern.match(other)
    assert not re.match(grid_cells.cell_pattern({}), "pixels/anything")


def _grid(tmp_path):
    tiny = yaml.safe_load((ROOT / "tests" / "configs" / "tiny.yaml").read_text())
    tiny.update(models=["pixels", "recurrent_demo"], benchmarks=["SyntheticShapes.IT-pls", "SyntheticShapesBehaviour-i2n"])
    (tmp_path / "grid.yaml").write_text(yaml.safe_dump(tiny))
    env = {k: v for k, v in os.environ.items() if k != "SNAKEMAKE_PROFILE"}
    return [SNAKEMAKE, "--cores", "2", "-s", str(ROOT / "Snakefile"), "--directory", str(tmp_path),
            "--configfile", str(ROOT / "config" / "config.yaml"), str(tmp_path / "grid.yaml")], env


def test_the_plan_has_an_empty_cell_job_and_no_task_for_it(tmp_path):
    command, env = _grid(tmp_path)
    command.insert(1, "scores")
    result = subprocess.run([*command, "-n"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "rule empty_cell:\n    output: results/recurrent_demo/SyntheticShapesBehaviour-i2n.json" in output
    assert output.count("rule empty_cell:") == 1
    assert "results/behaviour/recurrent_demo" not in output


@pytest.mark.slow
def test_a_grid_with_cells_a_model_cannot_do_runs_to_the_end(tmp_path):
    """A temporal model and a static one on a behavioural and a neural benchmark: the temporal model's behavioural
    cell is empty with its reason (no job for it), the three others are scored, and the summary, leaderboard and
    figures are made with the empty cell in them. Before, the plan stopped."""
    command, env = _grid(tmp_path)
    result = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    empty = json.loads((tmp_path / "results/recurrent_demo/SyntheticShapesBehaviour-i2n.json").read_text())
    assert empty["score"] is None and empty["empty_cell"] is True
    assert "temporal model" in empty["reason"] and empty["parent"] == REGISTRY.benchmark(
        "SyntheticShapesBehaviour-i2n").parent
    assert not (tmp_path / "results/behaviour/recurrent_demo").exists()  # no task ran for it
    for cell in ("pixels/SyntheticShapes.IT-pls", "pixels/SyntheticShapesBehaviour-i2n",
                 "recurrent_demo/SyntheticShapes.IT-pls"):
        scored = json.loads((tmp_path / f"results/{cell}.json").read_text())
        assert isinstance(scored["score"], float) and "empty_cell" not in scored, cell
    import pandas as pd

    summary = pd.read_csv(tmp_path / "results/summary.tsv", sep="\t")
    assert len(summary) == 4 and set(summary["status"]) == {"scored"}  # an empty cell is what its file says
    page = (tmp_path / "results/leaderboard.html").read_text()
    assert "behavioural tasks on temporal models are not wired yet" in page  # its reason, on the page

    # the plan does not depend on what results/ holds: the whole plan (--forceall) of this used folder is the one of
    # a fresh folder, summary and leaderboard included, and a plain dry run here says there is nothing to do
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "grid.yaml").write_text((tmp_path / "grid.yaml").read_text())
    plans = {}
    for folder in (tmp_path, fresh):
        folder_command, _ = _grid(folder)
        planned = subprocess.run([*folder_command, "-n", "--forceall", "--quiet", "rules"], cwd=folder, env=env,
                                 capture_output=True, text=True, timeout=600)
        assert planned.returncode == 0, (planned.stdout + planned.stderr)[-3000:]
        output = planned.stdout + planned.stderr  # its "Job stats" table: rule and job count, then the total
        plans[folder] = output[output.index("Job stats:"):].split("\n\n", 1)[0]
    assert plans[tmp_path] == plans[fresh] and "summary" in plans[fresh] and "leaderboard" in plans[fresh], plans
    again = subprocess.run([*command, "-n"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr


def test_skip_benchmarks_leaves_cells_out_with_the_reason():
    from brainpipe.pipeline.workflow_config import ConfigError

    config = {"model_zoo": ZOO, "skip_benchmarks": {"alexnet_untrained": ["family:SyntheticShapes", "Kar2019-ost"]}}
    skipped = grid_cells.skipped_benchmarks(config, REGISTRY)
    assert skipped["alexnet_untrained"] == {*benchmarks.registry.family_identifiers(REGISTRY.families["SyntheticShapes"]),
                                            "Kar2019-ost"}
    cells = grid_cells.empty_cells(["pixels", "alexnet_untrained"], ["SyntheticShapes.IT-pls"], ZOO.__getitem__,
                                   REGISTRY.benchmark, lambda name: False, skipped)
    assert cells == {"alexnet_untrained/SyntheticShapes.IT-pls": "left out by config skip_benchmarks.alexnet_untrained"}
    for bad, message in (({"alexnet9": ["Kar2019-ost"]}, "config skip_benchmarks.alexnet9: no model 'alexnet9' in "
                                                           "model_zoo"),
                         ({"pixels": ["family:Nope"]}, "config skip_benchmarks.pixels: entry[0] 'family:Nope': no "
                                                       "benchmark family 'Nope'"),
                         ({"pixels": ["Kar2019-ots"]}, "config skip_benchmarks.pixels: unknown benchmark 'Kar2019-ots'")):
        with pytest.raises(ConfigError) as raised:
            grid_cells.skipped_benchmarks({"model_zoo": ZOO, "skip_benchmarks": bad}, REGISTRY)
        assert message in str(raised.value)


def test_skip_benchmarks_in_a_real_plan(tmp_path):
    command, env = _grid(tmp_path)
    command.insert(1, "scores")
    with open(tmp_path / "grid.yaml", "a") as grid:
        grid.write("skip_benchmarks: {pixels: ['SyntheticShapes.*']}\n")
    result = subprocess.run([*command, "-n"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert "rule empty_cell:\n    output: results/pixels/SyntheticShapes.IT-pls.json" in output
    assert output.count("rule empty_cell:") == 2  # and recurrent_demo's behavioural cell
    assert "results/pixels/SyntheticShapes.IT-pls/layers" not in output


def test_a_benchmark_whose_supplied_file_is_missing_is_empty_for_every_model(tmp_path):
    """ImageNet-top1 reads the user's zip of the ILSVRC2012 validation images (no server has it): without it, its
    cells are empty with the reason and no job (fetch, ceiling, task) is planned for it; the rest of the grid is."""
    from brainpipe.data import catalog as brainio_catalog

    imagenet = REGISTRY.benchmark("ImageNet-top1")
    catalog = brainio_catalog.load_catalog(None, registry=REGISTRY)
    missing = grid_cells.supplied_files_missing(imagenet.family, catalog, {}, exists=lambda path: False)
    assert missing == ["resources/imagenet2012_val.zip"]
    assert grid_cells.supplied_files_missing(imagenet.family, catalog, {"imagenet2012_val.zip": "x.zip"},
                                             exists=lambda path: False) == []
    assert grid_cells.supplied_files_missing(imagenet.family, catalog, {}, exists=lambda path: True) == []
    geirhos = REGISTRY.benchmark("Geirhos2021colour-top1").family  # downloaded: never "missing" at plan time
    assert grid_cells.supplied_files_missing(geirhos, catalog, {}, exists=lambda path: False) == []
    command, env = _grid(tmp_path)
    with open(tmp_path / "grid.yaml", "a") as grid:
        grid.write("benchmarks: [SyntheticShapes.IT-pls, ImageNet-top1]\n")
    result = subprocess.run([*command, "-n"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-4000:]
    assert output.count("rule empty_cell:") == 2  # both models
    assert "results/pixels/ImageNet-top1.json" in output and "results/recurrent_demo/ImageNet-top1.json" in output
    assert "imagenet2012" not in output.replace("ImageNet-top1", "")  # no fetch, no task
    assert "results/ceilings/ImageNet-top1.json" not in output
    assert "results/ceilings/SyntheticShapes.IT-pls.json" in output
