"""A corrupt JSON output (a fold's comparison, truncated after a complete run) stops the job that reads it with
advice that, followed to the letter, makes the next run succeed: a real Snakemake run of the tiny config.

The advice used to be "delete it and rerun the stage that makes it". Done literally, Snakemake kept the layer and
benchmark scores made from the file (a job whose output exists is not rerun for a missing input), so the fold and
layer JSONs stayed missing behind "Nothing to be done". Slow (three Snakemake runs), so marked ``slow``.
"""

import json
from pathlib import Path

import pytest

from recovery_runs import forced_by_advice, run
from workflow_runs import with_config

pytestmark = pytest.mark.slow

LAYERS = "results/pixels/SyntheticShapes.IT-pls/layers"


def test_corrupt_fold_json_advice_recovers_in_one_step(tmp_path):
    workdir = with_config(tmp_path)
    run(workdir, ["snakemake", "--cores", "2"])
    folds, layer = workdir / LAYERS / "pixels", workdir / LAYERS / "pixels.json"
    fold = folds / "fold0.json"
    assert len(list(folds.glob("fold*.json"))) == 3 and layer.is_file()
    text = fold.read_text()
    fold.write_text(text[: len(text) // 2])  # truncated, and newer than the layer score: it reruns on it
    failed = run(workdir, ["snakemake", "--cores", "2"], check=False)
    output = failed.stdout + failed.stderr
    assert failed.returncode != 0 and f"{Path(LAYERS) / 'pixels' / 'fold0.json'}: not valid JSON" in output, \
        output[-4000:]
    assert not layer.exists()  # the failed job's output is gone: only a rerun of the fold can bring it back
    forced = forced_by_advice(output)
    assert Path(forced) == fold.relative_to(workdir)  # the file itself, as Snakemake names it
    run(workdir, ["snakemake", "--cores", "2", "--forcerun", forced])  # the advice, to the letter
    assert json.loads(fold.read_text())["fold"] == 0 and json.loads(layer.read_text())["layer"] == "pixels"
    assert (workdir / "results/pixels/SyntheticShapes.IT-pls.json").is_file()
    assert "Nothing to be done" in (r := run(workdir, ["snakemake", "-n"])).stdout + r.stderr
