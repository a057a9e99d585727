"""A dry run never touches the network (issue: `snakemake -n` with the pretrained cornet_s downloaded its weights).
The config check reads a code source's layer names from the build it names without weights
(pipeline/workflow_config.py NETWORK_WITHOUT_WEIGHTS); the real run still downloads and checks the checkpoint."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from brainpipe.models import cornet_s
from brainpipe.pipeline import workflow_config

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


def test_pretrained_cornet_s_names_its_build_without_weights():
    assert getattr(cornet_s.pretrained, workflow_config.NETWORK_WITHOUT_WEIGHTS) is cornet_s.build
    layers = workflow_config.architecture_layers("brainpipe.models.cornet_s:pretrained")
    assert "IT.output" in layers or any(layer.startswith("IT") for layer in layers), layers[:20]


@pytest.mark.slow  # a real workflow run (seconds to a minute on 2 cores): CI runs it (make test-slow)
def test_dry_run_with_a_pretrained_code_model_downloads_nothing(tmp_path):
    cache = tmp_path / "weights"  # where cornet_s.pretrained would put its checkpoint
    (tmp_path / "grid.yaml").write_text("models: [cornet_s]\nbenchmarks: [SyntheticShapes.IT-pls]\n")
    # any HTTP(S) request of this process tree goes to a closed port and fails at once
    env = {k: v for k, v in os.environ.items() if k != "SNAKEMAKE_PROFILE"}
    env.update(BRAINPIPE_CORNET_CACHE=str(cache), https_proxy="http://127.0.0.1:9", http_proxy="http://127.0.0.1:9",
               HTTPS_PROXY="http://127.0.0.1:9", HTTP_PROXY="http://127.0.0.1:9")
    result = subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "-n", "--directory", str(tmp_path),
                             "--configfile", str(ROOT / "config" / "config.yaml"), str(tmp_path / "grid.yaml")],
                            cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "results/cornet_s/SyntheticShapes.IT-pls.json" in output
    assert not cache.exists() or not any(cache.iterdir()), sorted(cache.iterdir())
    assert not (tmp_path / "results").exists()
