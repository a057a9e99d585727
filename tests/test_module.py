"""brainpipe used as a Snakemake module of another workflow (README "Using brainpipe inside your own workflow"):
a small outer Snakefile that imports every rule from this checkout's Snakefile by path, adds a rule of its own on a
brainpipe score, and gets the number the workflow itself computes. A module fetched from a URL (github(...)) stops
with one message saying what to do instead."""

import functools
import http.server
import json
import os
import re
import subprocess
import threading

import pytest

from workflow_runs import ROOT, SNAKEMAKE, TINY


def readme_snakefile():
    """The outer Snakefile the docs' "Using brainpipe inside your own workflow" shows (docs/guide/python.md), pointed
    at this checkout."""
    from docs_text import section

    block = re.search(r"```snakemake\n(.*?)```", section("Using brainpipe inside your own workflow"),
                      flags=re.S).group(1)
    assert 'snakefile: "path/to/brainpipe/Snakefile"' in block and "use rule * from brainpipe" in block
    return block.replace("path/to/brainpipe/Snakefile", str(ROOT / "Snakefile"))


def outer_snakemake(workdir, target, *options):
    return subprocess.run([SNAKEMAKE, "--cores", "2", *options, "--configfile", str(TINY), "--", target], cwd=workdir, capture_output=True, text=True,
                          env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_the_workflow_runs_as_a_module_of_another_workflow(tmp_path):
    # the outer workflow's own folder: its config under another name, no config/ folder, no src/
    (tmp_path / "my_config.yaml").write_text((ROOT / "config/config.yaml").read_text())
    (tmp_path / "Snakefile").write_text(readme_snakefile())
    run = outer_snakemake(tmp_path, "my_table.txt")  # the tiny grid's settings over my_config.yaml
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    reference = json.loads((ROOT / "tests/data/tiny_reference_scores.json").read_text())
    score = json.loads((tmp_path / "results/pixels/SyntheticShapes.IT-pls.json").read_text())
    assert score["score"] == reference["pixels/SyntheticShapes.IT-pls"]["score"]
    assert float((tmp_path / "my_table.txt").read_text()) == score["score"]
    # the module's rules keep their names and their reruns: a second run has nothing to do
    again = outer_snakemake(tmp_path, "my_table.txt", "-n")
    assert "Nothing to be done" in again.stdout + again.stderr


def test_a_module_from_a_url_says_to_use_a_clone(tmp_path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        (tmp_path / "Snakefile").write_text(
            f'module brainpipe:\n    snakefile: "http://127.0.0.1:{server.server_port}/Snakefile"\n'
            "    config: {}\n\nuse rule * from brainpipe\n")
        run = outer_snakemake(tmp_path, "all", "-n")
    finally:
        server.shutdown()
    output = run.stdout + run.stderr
    assert run.returncode != 0
    assert "is not fetched with the Snakefile. Clone brainpipe" in output and "this Python process" not in output
