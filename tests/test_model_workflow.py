"""The real workflow scoring your own model: a .py file in the working directory with a local checkpoint, on the
tiny config. The score JSON records the file's sha1 and the checkpoint's sha256; editing the model file reruns its
activations and what follows, and nothing else."""

import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from model_source_fixtures import USER_MODEL

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"

MODEL = textwrap.dedent('''
    import torch


    def build():
        return torch.nn.Sequential(torch.nn.Conv2d(3, 8, 7, stride=4), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(3),
                                   torch.nn.Flatten(), torch.nn.Linear(72, 10))
''')

CONFIG = textwrap.dedent('''
    models: [mine]
    benchmarks: [SyntheticShapes.IT-pls]
    benchmark_settings:
      SyntheticShapes.IT-pls: {splits: 3}
    model_zoo:
      mine:
        architecture: models/mine.py:build
        weights_file: checkpoints/mine.pt
        visual_degrees: 8
        preprocessing: {image_size: 64}
        layers: {IT: "1", V4: "0"}
''')


def snakemake(workdir, *args):
    command = [SNAKEMAKE, *args, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "2",
               "--configfile", str(TINY), str(workdir / "mine.yaml")]
    return subprocess.run(command, capture_output=True, text=True, cwd=workdir,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "src")})


@pytest.mark.slow  # ~50 s of CPU (two snakemake parses, a real run); run with -m slow
def test_own_model_file_with_checkpoint_scores_and_reruns_on_edit(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "mine.py").write_text(MODEL)
    (tmp_path / "mine.yaml").write_text(CONFIG)
    namespace = {}
    exec(MODEL, namespace)
    torch.manual_seed(1)
    (tmp_path / "checkpoints").mkdir()
    torch.save(namespace["build"]().state_dict(), tmp_path / "checkpoints" / "mine.pt")

    run = snakemake(tmp_path, "results/mine/SyntheticShapes.IT-pls.json")
    assert run.returncode == 0, run.stderr[-5000:]
    score = json.loads((tmp_path / "results/mine/SyntheticShapes.IT-pls.json").read_text())
    assert score["layer"] == "1" and 0 < score["ceiling"] < 1 and len(score["per_fold"]) == 3
    assert score["model_spec"]["weights_sha256"] == hashlib.sha256(
        (tmp_path / "checkpoints" / "mine.pt").read_bytes()).hexdigest()
    assert score["model_spec"]["source_sha1"] == hashlib.sha1((tmp_path / "models/mine.py").read_bytes()).hexdigest()

    again = snakemake(tmp_path, "results/mine/SyntheticShapes.IT-pls.json", "-n")
    assert "Nothing to be done" in again.stdout + again.stderr

    (tmp_path / "models" / "mine.py").write_text(MODEL + "\n# a comment changes the fingerprint\n")
    edited = snakemake(tmp_path, "results/mine/SyntheticShapes.IT-pls.json", "-n")
    text = edited.stdout + edited.stderr
    assert edited.returncode == 0, text[-3000:]
    planned = re.findall(r"^\s+output: (.+)$", text, flags=re.M)
    assert any(o.startswith("results/activations/mine/") for o in planned), text[-3000:]
    assert not any(o.startswith(("results/ceilings", "resources/", "results/stimuli_on_screen")) for o in planned)



@pytest.mark.slow  # a real run (~30 s)
def test_brain_model_class_scores_through_the_workflow(tmp_path):
    """A model_zoo entry naming a BrainModel class (README "Models"): the activations job passes the entry with the
    default preprocessing filled in, which must not count as a preprocessing the user set (it did: the job
    refused its own default)."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "mine.py").write_text(USER_MODEL)  # test_model_sources.py's file, with MeanColour
    (tmp_path / "mine.yaml").write_text(textwrap.dedent('''
        models: [colour]
        benchmarks: [SyntheticShapes.IT-rdm]
        model_zoo:
          colour: {architecture: models/mine.py:MeanColour, visual_degrees: 8, layers: {IT: IT, V4: V4}}
    '''))
    run = snakemake(tmp_path, "results/colour/SyntheticShapes.IT-rdm.json")
    assert run.returncode == 0, run.stderr[-5000:]
    score = json.loads((tmp_path / "results/colour/SyntheticShapes.IT-rdm.json").read_text())
    assert score["layer"] == "IT" and score["error"] is None and -1 <= score["raw"] <= 1
    from brainpipe.io import read_netcdf

    activations = read_netcdf(tmp_path / "results/activations/colour/SyntheticShapes--target8.00--source10.00/IT.nc")
    assert activations.shape[-1] == 12  # four quadrants × RGB
