"""A job whose forked child is killed outright (SIGKILL, as the kernel's out-of-memory killer sends it) fails its
Snakemake run with a message saying what to do, and doing exactly that, the same snakemake command again, recovers:
a real Snakemake run of a small workflow whose script job hands itself over to the warm fork server."""

import json
import os
import signal
import subprocess
import time

from fork_server_runs import REPO, SNAKEMAKE, run_snakemake

import pytest

from brainpipe.pipeline import fork_server

SNAKEFILE = """
import sys
sys.path.insert(0, {src!r})
from brainpipe.pipeline import fork_server

onstart:
    fork_server.start()

rule victim:
    output: "out.json"
    script: "victim.py"
"""

# Writes its output atomically, as every workflow script does, and (the first time) waits inside the write to be
# killed: the kill leaves a staging file beside out.json, as a real job killed mid-write does.
VICTIM = """
from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)

import json, os, time
from brainpipe.io import atomic_path
from brainpipe.pipeline import fork_server

with atomic_path(snakemake.output[0]) as temporary:
    temporary.write_text("{\\"half")
    if not os.path.exists("killed-once"):
        open("child.pid.new", "w").write(str(os.getpid()))
        os.replace("child.pid.new", "child.pid")
        time.sleep(300)  # killed here
    temporary.write_text(json.dumps(dict(in_server_child=fork_server._in_child, pid=os.getpid())))
"""


def staging(folder):
    return sorted(p.name for p in folder.glob(".out.json~*"))


@pytest.mark.slow  # a real workflow run (seconds to a minute on 2 cores): CI runs it (make test-slow)
def test_a_killed_child_says_to_rerun_and_a_plain_rerun_recovers(tmp_path):
    (tmp_path / "Snakefile").write_text(SNAKEFILE.format(src=str(REPO / "src")))
    (tmp_path / "victim.py").write_text(VICTIM)
    environ = {key: value for key, value in os.environ.items() if key != fork_server.ENV}
    environ["PYTHONPATH"] = str(REPO / "src")
    first = subprocess.Popen([str(SNAKEMAKE), "--cores", "2"], cwd=tmp_path, env=environ, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / "child.pid").exists():
            assert first.poll() is None and time.monotonic() < deadline, first.communicate()
            time.sleep(0.1)
        child = int((tmp_path / "child.pid").read_text())
        (tmp_path / "killed-once").touch()  # what killed it (memory taken by other jobs) is gone on the rerun
        os.kill(child, signal.SIGKILL)
        out, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode != 0
    assert "ended without an exit status (killed? out of memory?)" in err, err[-3000:]
    assert "Rerun the same snakemake command" in err and f"{fork_server.ENV}=off" not in err, err[-3000:]
    assert not (tmp_path / "out.json").exists() and staging(tmp_path)  # killed mid-write: its staging file is left

    rerun = run_snakemake(tmp_path)  # the advice: the same command, nothing else
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    result = json.loads((tmp_path / "out.json").read_text())
    assert result["in_server_child"] and result["pid"] != child  # the rerun's own server computed it
    assert staging(tmp_path) == []  # the killed job's staging file is removed by the rerun's write
    dry = run_snakemake(tmp_path, "-n")
    assert "Nothing to be done" in dry.stdout + dry.stderr
