"""Recovery, with real Snakemake runs of the tiny config: a run killed mid-stage resumes with the README's commands
and leaves no staging or .part files; a corrupt activations file stops the run with advice that, followed to the
letter, makes the next run succeed.

Slow (several Snakemake runs), so marked ``slow``. The grid is tiny.yaml narrowed to one model and one benchmark.
"""

import os
import re
import shlex
import signal
import subprocess
import time
from pathlib import Path

import pytest

from workflow_runs import ROOT, with_config
from recovery_runs import command, forced_by_advice, run

pytestmark = pytest.mark.slow

STIMULI = "SyntheticShapes--target8.00--source10.00"
ACTIVATIONS = f"results/activations/pixels/{STIMULI}"
SCORE = "results/pixels/SyntheticShapes.IT-pls.json"


def readme_commands(section="When a run is interrupted"):
    """The snakemake command lines of the docs section's first bash block (docs/operations/interrupted.md), as
    argument lists."""
    from docs_text import section as doc_section

    body = doc_section(section)
    block = re.search(r"```bash\n(.*?)```", body, flags=re.S).group(1)
    return [shlex.split(line, comments=True) for line in block.splitlines() if line.strip()]


def staging_leftovers(workdir):
    """Hidden temporary files and folders (``.<name>…tmp`` / ``.part``, whatever the naming) under the outputs."""
    return sorted(str(p.relative_to(workdir)) for folder in ("results", "resources") if (workdir / folder).exists()
                  for p in (workdir / folder).rglob(".*") if p.name.endswith((".tmp", ".part")))


@pytest.fixture(scope="module")
def resumed(tmp_path_factory):
    """A run killed (SIGKILL to its whole process group) while the activations job writes its staging file,
    then resumed with the README's commands. Returns (workdir, what was seen at the kill, the runs' results)."""
    workdir = with_config(tmp_path_factory.mktemp("recovery"))
    started = subprocess.Popen(command(workdir, ["snakemake", "--cores", "2"]), cwd=workdir,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    parent = workdir / ACTIVATIONS  # the layer file is staged beside itself: .pixels.nc~<host>~<pid>~<random>.tmp
    deadline = time.monotonic() + 400
    seen = []
    try:
        while time.monotonic() < deadline and started.poll() is None:
            seen = [p.name for p in parent.glob(".pixels.nc~*.tmp")] if parent.exists() else []
            if seen or (workdir / "logs" / "fit_fold").exists():
                break  # mid-stage: the activations job is writing, or (missed that) the fold fits have begun
            time.sleep(0.02)
    finally:
        os.killpg(started.pid, signal.SIGKILL)
        started.wait()
    assert started.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    left_at_kill = staging_leftovers(workdir)
    blocked = run(workdir, ["snakemake", "--cores", "2"], check=False)
    results = [run(workdir, args) for args in readme_commands()]
    return workdir, seen, left_at_kill, blocked, results


def test_killed_run_resumes_with_the_readme_commands_and_leaves_no_staging(resumed):
    workdir, seen, left_at_kill, blocked, results = resumed
    assert [args[1] for args in readme_commands()] == ["--unlock", "--cores"]
    assert blocked.returncode != 0 and "cannot be locked" in blocked.stdout + blocked.stderr  # as README says
    assert seen, "the kill missed the activations job's write"  # pixels.nc takes seconds to write
    assert any(STIMULI in name for name in left_at_kill), left_at_kill  # the kill left its staging file
    assert (workdir / SCORE).is_file() and (workdir / "results" / "summary.tsv").is_file()
    assert sorted(p.name for p in (workdir / ACTIVATIONS).glob("*.nc")) == ["pixels.nc"]
    assert staging_leftovers(workdir) == []
    assert "Nothing to be done" in (r := run(workdir, ["snakemake", "-n"])).stdout + r.stderr


def test_corrupt_activations_advice_recovers(resumed):
    workdir = resumed[0]
    layer = workdir / ACTIVATIONS / "pixels.nc"
    layer.write_bytes(layer.read_bytes()[:5000])  # a truncated layer file
    # The first job to read it (here the Gram matrix, forced as a new consumer would be) stops with the advice.
    again = ["snakemake", "--cores", "2", "--forcerun", "gram"]
    failed = run(workdir, again, check=False)
    assert failed.returncode != 0
    forced = forced_by_advice(failed.stdout + failed.stderr)
    assert Path(forced) == Path(ACTIVATIONS) / "pixels.nc"  # each layer file is an output of its own
    run(workdir, again + ["--forcerun", forced])  # follow the advice to the letter
    assert sorted(p.name for p in (workdir / ACTIVATIONS).glob("*.nc")) == ["pixels.nc"]
    assert (workdir / SCORE).is_file()
    assert "Nothing to be done" in (r := run(workdir, ["snakemake", "-n"])).stdout + r.stderr


def test_corrupt_gram_advice_recovers_in_one_step(tmp_path):
    """A Gram file corrupted after a complete run: the fold jobs that read it fail (and lose their JSONs). Deleting
    the file and rerunning said "Nothing to be done" with the Gram and those folds missing; the advice's one command
    rewrites the Gram and redoes the folds, layer score and score made from it."""
    workdir = with_config(tmp_path)
    run(workdir, ["snakemake", "--cores", "2"])
    gram = workdir / "results/gram/pixels" / STIMULI / "pixels.nc"
    folds = workdir / "results/pixels/SyntheticShapes.IT-pls/layers/pixels"
    assert len(list(folds.glob("fold*.json"))) == 3
    gram.write_bytes(gram.read_bytes()[:5000])  # truncated, and newer than the folds: they rerun on it
    failed = run(workdir, ["snakemake", "--cores", "2"], check=False)
    assert failed.returncode != 0 and len(list(folds.glob("fold*.json"))) < 3
    forced = forced_by_advice(failed.stdout + failed.stderr)
    assert Path(forced) == gram.relative_to(workdir)
    run(workdir, ["snakemake", "--cores", "2", "--forcerun", forced])
    assert len(list(folds.glob("fold*.json"))) == 3 and gram.stat().st_size > 5000
    assert "Nothing to be done" in (r := run(workdir, ["snakemake", "-n"])).stdout + r.stderr
