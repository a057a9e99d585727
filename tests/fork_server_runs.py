"""Running snakemake with the warm fork server, for the fork-server tests."""

import os
import subprocess
import sys
from pathlib import Path
from brainpipe.pipeline import fork_server


REPO = Path(__file__).resolve().parents[1]


SNAKEMAKE = Path(sys.executable).with_name("snakemake")


def run_snakemake(folder, *args, env=None):
    environ = {key: value for key, value in os.environ.items() if key != fork_server.ENV}
    environ.update(PYTHONPATH=str(REPO / "src"), **(env or {}))
    return subprocess.run([str(SNAKEMAKE), "--cores", "2", *args], cwd=folder, env=environ, capture_output=True,
                          text=True, timeout=300)
