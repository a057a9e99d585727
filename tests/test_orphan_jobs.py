"""A hard kill of Snakemake (SIGKILL: no chance to stop its jobs) does not leave the running job behind: the job
notices that its Snakemake is gone and stops within seconds, instead of running on beside the rerun (README "When
a run is interrupted"). Real processes: the workflow's activations job on a model that takes its time."""

import os
import signal
import subprocess
import textwrap
import time
from pathlib import Path

from workflow_runs import ROOT, SNAKEMAKE, TINY, with_config

SLOW_MODEL = '''
import os
import time

import torch


class Slow(torch.nn.Module):
    """A network that takes two minutes for its first batch (and says which process it runs in)."""

    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 2, 3)

    def forward(self, images):
        with open("job.pid", "w") as f:
            f.write(str(os.getpid()))
        time.sleep(120)
        return self.conv(images)


def build():
    return Slow()
'''

OVERLAY = """
models: [slow]
benchmarks: [SyntheticShapes.IT-pls]
model_zoo:
  slow: {architecture: models/slow.py:build, visual_degrees: 10, layers: {IT: conv}}
"""


def running(pid):
    """The process exists and is not a zombie (a finished process nobody reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_a_hard_killed_snakemake_takes_its_running_job_with_it(tmp_path):
    workdir = with_config(tmp_path)
    (workdir / "models").mkdir()
    (workdir / "models/slow.py").write_text(textwrap.dedent(SLOW_MODEL))
    (workdir / "slow.yaml").write_text(OVERLAY)
    target = "results/activations/slow/SyntheticShapes/conv.nc"  # one layer file: one job
    snakemake = subprocess.Popen([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--cores", "2", "--configfile",
                                  str(TINY), "slow.yaml", "--", target], cwd=workdir, start_new_session=True,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    job = None
    try:
        deadline = time.monotonic() + 180
        while not (workdir / "job.pid").exists():  # the activations job is inside its model's first batch
            assert snakemake.poll() is None, "snakemake ended before the activations job started"
            assert time.monotonic() < deadline, "the activations job did not start within 3 minutes"
            time.sleep(0.1)
        time.sleep(0.2)
        job = int((workdir / "job.pid").read_text())
        assert running(job)
        os.kill(snakemake.pid, signal.SIGKILL)  # a hard kill: Snakemake can tell its jobs nothing
        snakemake.wait()  # reaped, as a shell would
        killed = time.monotonic()
        while running(job) and time.monotonic() - killed < 20:
            time.sleep(0.1)
        assert not running(job), "the activations job runs on, orphaned, 20 s after its Snakemake was killed"
        log = (workdir / "logs/activations/slow/SyntheticShapes/conv.log").read_text()
        assert "the Snakemake process that started this job" in log and "is gone" in log, log
        assert "stopped" in log, log  # stopped cleanly (interrupted), not by the hard exit after the grace time
        assert not (workdir / target).exists()
        assert not [p for p in (workdir / "results/activations/slow").rglob("*") if p.name.endswith(".tmp")]
    finally:
        if snakemake.poll() is None:
            os.kill(snakemake.pid, signal.SIGKILL)
            snakemake.wait()
        if job is not None and running(job):  # before the fix: the orphan would sleep on for two minutes
            os.kill(job, signal.SIGKILL)


def test_the_watched_process_is_snakemake_not_a_shell_naming_a_job_script():
    from brainpipe.pipeline.logs import _runs_snakemake

    assert _runs_snakemake(b"/venv/bin/python3\0/venv/bin/snakemake\0--cores\0002\0")
    assert _runs_snakemake(b"snakemake\0-n\0") and _runs_snakemake(b"python\0-m\0snakemake\0--cores\0")
    assert not _runs_snakemake(b"bash\0-c\0set -euo pipefail; python /w/.snakemake/scripts/tmp1.gram.py\0")
    assert not _runs_snakemake(b"/venv/bin/python3\0/w/.snakemake/scripts/tmp1.gram.py\0")
