"""The warm fork server (brainpipe.pipeline.fork_server): real Snakemake runs of a small workflow whose script jobs
hand themselves over, and job processes started and killed by hand."""

import ast
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from brainpipe.pipeline import fork_server
from fork_server_runs import REPO, run_snakemake


SNAKEFILE = """
import sys
sys.path.insert(0, {src!r})
from brainpipe.pipeline import fork_server

onstart:
    fork_server.start()

rule all:
    input: ["ok.txt", "blas2.txt"]

rule ok:
    output: "ok.txt"
    log: "logs/ok.log"
    threads: 1
    resources: tmpdir={tmp!r}
    script: "job.py"

rule blas2:
    output: "blas2.txt"
    log: "logs/blas2.log"
    threads: 2
    script: "job.py"

rule fails:
    output: "never.txt"
    log: "logs/fails.log"
    script: "fails.py"
"""

JOB = """
open(f"ran-{snakemake.rule}.txt", "a").write(f"{__import__('os').getpid()}\\n")  # each process that runs the file
from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)

import json, os, sys, tempfile
os_threads = len(os.listdir("/proc/self/task"))  # before `logged` starts its watcher thread
from threadpoolctl import threadpool_info
from brainpipe.pipeline import fork_server
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], snakemake.rule):
    print("computing", snakemake.rule)
    import numpy  # noqa: F401 (loads the BLAS whose threads are checked)
    blas = sorted({info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"})
    with open(snakemake.output[0], "w") as out:
        json.dump(dict(in_server_child=fork_server._in_child, pid=os.getpid(), blas_threads=blas,
                       os_threads=os_threads, tmp=tempfile.gettempdir(),
                       cwd=os.getcwd(), threads_env=os.environ.get("OMP_NUM_THREADS")), out)
"""

FAILS = """
from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)

from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fails"):
    raise ValueError("the input has no column 'choice'")
"""


@pytest.fixture
def workflow(tmp_path):
    (tmp_path / "jobtmp").mkdir()
    (tmp_path / "Snakefile").write_text(SNAKEFILE.format(src=str(REPO / "src"), tmp=str(tmp_path / "jobtmp")))
    (tmp_path / "job.py").write_text(JOB)
    (tmp_path / "fails.py").write_text(FAILS)
    return tmp_path


def read(path):
    import json

    return json.loads(Path(path).read_text())


def test_jobs_compute_in_a_child_of_the_server_with_their_own_threads_and_folder(workflow):
    run = run_snakemake(workflow)
    assert run.returncode == 0, run.stderr[-3000:]
    one, two = read(workflow / "ok.txt"), read(workflow / "blas2.txt")
    assert one["in_server_child"] and two["in_server_child"]
    assert one["cwd"] == two["cwd"] == str(workflow)
    assert one["tmp"] == str(workflow / "jobtmp") and two["tmp"] != one["tmp"]  # the job's TMPDIR
    assert (one["threads_env"], two["threads_env"]) == ("1", "2")  # Snakemake's, passed on to the child
    assert one["blas_threads"] == [1] and two["blas_threads"] == [2]  # and applied to the BLAS already loaded
    # a 1-thread job's child starts no BLAS worker threads: each would busy-wait ~0.1 CPU-s for work that never
    # comes (the server imports numpy single-threaded; _limit_threads starts what a job asks for)
    assert one["os_threads"] == 1
    assert "computing ok" in (workflow / "logs/ok.log").read_text()
    # handed over at the job process's start (the venv's brainpipe_startup): Snakemake's preamble and the file's
    # first line ran in the child only, not in the job process first
    assert (workflow / "ran-ok.txt").read_text().split() == [str(one["pid"])]


def test_off_runs_each_job_in_its_own_process(workflow):
    run = run_snakemake(workflow, env={fork_server.ENV: "off"})
    assert run.returncode == 0, run.stderr[-3000:]
    assert not read(workflow / "ok.txt")["in_server_child"]
    assert read(workflow / "blas2.txt")["blas_threads"] == [2]


def test_a_failing_job_fails_the_run_with_its_one_line_and_its_traceback_in_the_log(workflow):
    run = run_snakemake(workflow, "never.txt")
    assert run.returncode != 0
    assert "brainpipe fails failed: the input has no column 'choice' (traceback: logs/fails.log)" in run.stderr
    log = (workflow / "logs/fails.log").read_text()
    assert "Traceback" in log and "ValueError: the input has no column 'choice'" in log
    assert not (workflow / "never.txt").exists()


def server_and_job(tmp_path, body):
    """A server started in this process and a job process (a script calling hand_over, as Snakemake's would)."""
    environ = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    fork_server.start(environ)
    script = tmp_path / "job.py"
    script.write_text("from brainpipe.pipeline.fork_server import hand_over\nhand_over(None)\n" + textwrap.dedent(body))
    job = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, env=environ, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    return environ, job


def test_exit_status_and_streams_of_the_child_are_the_job_processes(tmp_path):
    try:
        _, job = server_and_job(tmp_path, """
            import sys
            from brainpipe.pipeline import fork_server
            print("out", fork_server._in_child)
            print("err", file=sys.stderr)
            sys.exit(3)
        """)
        out, err = job.communicate(timeout=60)
    finally:
        fork_server.stop()
    assert (job.returncode, out, err) == (3, "out True\n", "err\n")


def test_killing_the_job_process_stops_its_child(tmp_path):
    try:
        _, job = server_and_job(tmp_path, """
            import time
            from brainpipe.pipeline.logs import logged
            with logged("job.log", "sleeper"):
                print("started", flush=True)
                time.sleep(60)
        """)
        deadline = time.monotonic() + 60
        while "started" not in ((tmp_path / "job.log").read_text() if (tmp_path / "job.log").exists() else ""):
            assert time.monotonic() < deadline, "the job never started"
            time.sleep(0.1)
        job.send_signal(signal.SIGKILL)  # as a hard kill of the job leaves its child no signal
        job.wait(timeout=10)
        deadline = time.monotonic() + 15
        while "is gone" not in (tmp_path / "job.log").read_text():
            assert time.monotonic() < deadline, (tmp_path / "job.log").read_text()
            time.sleep(0.2)
    finally:
        fork_server.stop()
    log = (tmp_path / "job.log").read_text()
    assert f"the job process that started this job (pid {job.pid}) is gone" in log


def test_the_server_ends_with_the_process_that_started_it(tmp_path):
    starter = subprocess.run(
        [sys.executable, "-c", "import os; from brainpipe.pipeline import fork_server; "
                               "print(fork_server.start(dict(os.environ)), fork_server._server[0].pid)"],
        env={**os.environ, "PYTHONPATH": str(REPO / "src")}, capture_output=True, text=True, timeout=60)
    address, pid = starter.stdout.split()
    assert starter.returncode == 0
    assert not Path(address).exists() and not Path(address).parent.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid), 0)


def test_stopping_the_server_during_its_warm_up_imports_ends_it_and_removes_its_folder():
    address = fork_server.start(dict(os.environ))
    process = fork_server._server[0]
    time.sleep(0.5)  # listening, importing its warm groups (numpy, xarray, torch, ...)
    fork_server.stop()
    assert process.poll() is not None  # ended and collected, not left for the 10 s wait
    assert not Path(address).parent.exists()


@pytest.mark.parametrize("folder, hand_over_line, processes", [
    (".snakemake/scripts", "hand_over(snakemake)", 1),  # taken at the job process's start: the child runs it all
    (".snakemake/scripts", "hand_over(snakemake, warm=('data',))", 2),  # taken at its line, once the server warmed
    ("scripts", "hand_over(snakemake)", 2),  # not where Snakemake writes the file a script job runs
])
def test_a_snakemake_script_job_is_handed_over_at_interpreter_start(tmp_path, folder, hand_over_line, processes):
    """brainpipe_startup (the venv's .pth, `make setup`) hands a Snakemake script job over before its preamble."""
    script = tmp_path / folder / "tmpab12cd.job.py"
    script.parent.mkdir(parents=True)
    script.write_text("import os; open('ran.txt', 'a').write(f'{os.getpid()}\\n'); snakemake = None  # a preamble\n"
                      f"from brainpipe.pipeline.fork_server import hand_over\n{hand_over_line}\n"
                      "from brainpipe.pipeline import fork_server\nprint(fork_server._in_child)\nraise SystemExit(4)\n")
    environ = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    try:
        fork_server.start(environ)
        job = subprocess.Popen([sys.executable, str(script)], cwd=tmp_path, env=environ, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        out, err = job.communicate(timeout=60)
    finally:
        fork_server.stop()
    assert (job.returncode, out, err) == (4, "True\n", "")
    job_process_ran_it = [str(job.pid)] if processes == 2 else []
    pids = (tmp_path / "ran.txt").read_text().split()
    assert len(pids) == processes and pids[:-1] == job_process_ran_it and pids[-1] != str(job.pid)


def test_a_child_killed_outright_fails_its_job_once_with_a_message(tmp_path):
    script = tmp_path / ".snakemake/scripts/tmpkill01.job.py"
    script.parent.mkdir(parents=True)
    script.write_text("import os; open('ran.txt', 'a').write(f'{os.getpid()}\\n'); snakemake = None\n"
                      "from brainpipe.pipeline.fork_server import hand_over\nhand_over(snakemake)\n"
                      "import signal\nos.kill(os.getpid(), signal.SIGKILL)  # as the kernel's OOM killer would\n")
    environ = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    try:
        fork_server.start(environ)
        job = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=environ, capture_output=True,
                             text=True, timeout=60)
    finally:
        fork_server.stop()
    assert job.returncode == 1 and "ended without an exit status (killed? out of memory?)" in job.stderr, job.stderr
    assert len((tmp_path / "ran.txt").read_text().split()) == 1  # not run again by the job process


def test_a_job_runs_on_its_own_where_the_server_is_gone_or_of_another_python(tmp_path):
    script = tmp_path / "job.py"
    script.write_text("from brainpipe.pipeline.fork_server import hand_over\nhand_over(None)\n"
                      "from brainpipe.pipeline import fork_server\nprint(fork_server._in_child)\n")

    def job(environ):
        return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(REPO / "src"), **environ})

    gone = job({fork_server.ENV: str(tmp_path / "no-such-socket"), fork_server.PREFIX_ENV: sys.prefix})
    assert (gone.returncode, gone.stdout) == (0, "False\n")
    try:  # a job in a conda environment or a container: another Python than the server's
        environ = {**os.environ, "PYTHONPATH": str(REPO / "src")}
        fork_server.start(environ)
        other = job({fork_server.ENV: environ[fork_server.ENV], fork_server.PREFIX_ENV: "/opt/conda/envs/other"})
        same = job({fork_server.ENV: environ[fork_server.ENV], fork_server.PREFIX_ENV: sys.prefix})
    finally:
        fork_server.stop()
    assert (other.returncode, other.stdout) == (0, "False\n")
    assert (same.returncode, same.stdout) == (0, "True\n")


@pytest.mark.parametrize("command, plain", [
    ("snakemake --cores 2", True), ("snakemake -c2 results/alexnet/MajajHong2015.IT-pls.json", True),
    ("snakemake --cores 2 -F -p -s /x/Snakefile --directory /w", True),
    ("snakemake -n", False), ("snakemake -np", False), ("snakemake --dry-run", False), ("snakemake --touch", False),
    ("snakemake --lint", False), ("snakemake --report r.html", False), ("snakemake --profile profiles/slurm", False),
    ("snakemake --executor=slurm", False), ("snakemake -e slurm", False), ("snakemake --no-hooks", False),
])
def test_plainly_local_run(command, plain):
    assert fork_server.plainly_local_run(command.split(), {}) is plain
    assert not fork_server.plainly_local_run(["snakemake"], {"SNAKEMAKE_PROFILE": "slurm"})


def test_every_workflow_script_hands_itself_over_before_its_imports():
    """A new script that forgets it would still be right, only slow; one that calls it after its imports would
    import everything twice."""
    for script in sorted((REPO / "workflow/scripts").glob("*.py")):
        body = ast.parse(script.read_text()).body
        body = body[1:] if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) else body
        first, second = body[0], body[1]
        assert isinstance(first, ast.ImportFrom) and first.module == "brainpipe.pipeline.fork_server", script.name
        assert isinstance(second, ast.Expr) and ast.unparse(second.value).startswith("hand_over(snakemake"), \
            script.name
        if not second.value.keywords:  # taken at the job's interpreter start only where the line reads exactly so
            assert fork_server.PLAIN_HAND_OVER in script.read_bytes(), script.name


def test_starting_removes_the_socket_folders_of_servers_killed_outright(tmp_path, monkeypatch):
    import socket

    monkeypatch.setattr(fork_server, "_socket_base", lambda: str(tmp_path))
    dead, starting = tmp_path / f"{fork_server.FOLDER_PREFIX}dead", tmp_path / f"{fork_server.FOLDER_PREFIX}starting"
    dead.mkdir(), starting.mkdir()
    bound = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    bound.bind(str(dead / "socket"))  # as a SIGKILLed server leaves it: the file, nobody listening
    bound.close()
    try:
        address = fork_server.start({**os.environ, "PYTHONPATH": str(REPO / "src")})
        assert not dead.exists() and starting.exists() and Path(address).exists()
        fork_server._remove_dead_servers_folders()  # a live server's folder stays
        assert Path(address).exists()
    finally:
        fork_server.stop()


def test_a_temporary_folder_too_long_for_a_socket_path_gets_its_socket_under_tmp(tmp_path, monkeypatch):
    import tempfile

    long = tmp_path / ("x" * 90)
    long.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(long))
    try:
        address = fork_server.start({**os.environ, "PYTHONPATH": str(REPO / "src")})
        assert address.startswith("/tmp/" + fork_server.FOLDER_PREFIX) and Path(address).exists()
    finally:
        fork_server.stop()
