"""A warm fork server for local runs: each job script computes in a process that has already imported numpy,
xarray, scikit-learn and torch, instead of importing them again.

Why. A Snakemake ``script:`` job is a new Python process. Most of brainpipe's jobs compute for well under a second
(a fold's comparison, a layer's aggregate, a ceiling, a task's choices), but each paid its imports first: 0.5 s for
xarray and pandas, 2 s for scikit-learn, 3.5 s for torch and torchvision, where a benchmark's chain is seven jobs
in a row and a paper's 44 benchmarks are 285. One Python process that imports everything once (Brain-Score's way)
paid them once.

How. In a local run the Snakemake main process starts one server (:func:`start`: from the Snakefile while it is
parsed where the command line plainly runs jobs here, else from common.smk's ``onstart``), so the imports run beside
the parsing and planning; its socket's path is in the environment every job inherits (``BRAINPIPE_FORK_SERVER``).
Each workflow script begins with ``hand_over(snakemake)``: the job process sends the server its script file, working
directory, environment, command line and its stdin, stdout and stderr (as file descriptors); the server forks a
child that runs the same script exactly as the job process would have, writing to the job's own streams and log, and
the job process exits with the child's status. In brainpipe's venv the job process does this already at its
interpreter's start, before Snakemake's script preamble (:func:`hand_over_at_start`, called by brainpipe_startup),
for every script whose line names no ``warm`` groups. The child is a fresh copy of the server (nothing one job does
is seen by another); its thread limits are the job's (Snakemake passes ``threads`` as OMP_NUM_THREADS); it stops
itself within a second when its job process or that process's Snakemake is gone (:mod:`.logs`). The server stops
when the Snakemake process that started it ends, however it ends (its end of a pipe closes).

Where no server answers (not Linux; a cluster job: each runs its own Snakemake; ``BRAINPIPE_FORK_SERVER=off``; a
job of another Python: a conda environment, a container; a server that is gone), the script simply runs in its own
process as before. The server changes where a job computes, never what: the same script, the same inputs and
parameters, the same numbers.
"""

# Job processes import this module first (brainpipe_startup: at their interpreter start): it imports only what the
# job side needs, and the server side imports the rest where it is used (20 ms less in each of hundreds of jobs).
import marshal
import os
import socket
import struct
import sys

#: the environment variable that carries the server's socket path to the jobs; "off" (set by the user) starts none
ENV = "BRAINPIPE_FORK_SERVER"
OFF = ("off", "0", "no", "false")
#: the server's Python (sys.prefix): only a job of the same Python hands itself over
PREFIX_ENV = "BRAINPIPE_FORK_SERVER_PREFIX"

#: what the server imports, module by module in this order, between requests: a job is served with what is
#: imported so far, except that a job naming groups in ``hand_over(..., warm=...)`` (the extraction scripts: torch)
#: waits until those are in (the server imports them next). A module that fails to import is skipped: the job imports
#: it itself and reports the error as it would have.
WARM_GROUPS = {
    # "module:function" also calls a cached function, so that every child finds its result: the built-in benchmark
    # registry (its 46 family modules and their fingerprints), xarray's backend entry points (read at every
    # open_dataarray otherwise) and the library versions every score JSON records
    "data": ("numpy", "pandas", "xarray", "netCDF4", "threadpoolctl", "snakemake.iocontainers", "snakemake.io",
             "snakemake.logging", "snakemake.script", "xarray.backends.plugins:list_engines", "brainpipe.io",
             "brainpipe.pipeline.logs", "brainpipe.benchmarks.registry:builtin", "brainpipe.behaviour.stages",
             "brainpipe.behaviour.metrics", "brainpipe.data.brainio", "brainpipe.pipeline.provenance:versions",
             "brainpipe.data.stimuli"),
    # before the fits: a fresh grid's extraction comes first and everything else waits for it, while the fits'
    # imports can run here beside the extraction
    "torch": ("torch",),
    "torchvision": ("brainpipe.models._torchvision:import_torchvision", "brainpipe.models.brain_model",
                    "brainpipe.models.activations"),
    "fits": ("scipy.stats", "sklearn.linear_model", "sklearn.cross_decomposition", "brainpipe.neural.metrics"),
}

#: the server's socket folder in the temporary folder: FOLDER_PREFIX + random + /socket
FOLDER_PREFIX = "brainpipe-jobs-"

#: seconds a Snakemake process waits for its server to listen, and at its end for it to end
START_WAIT_S = 5.0
STOP_WAIT_S = 10.0

_HEADER = struct.Struct("!Q")  # the request's length, sent with the job's three file descriptors
_STARTED = b"S"  # sent by the forked child before it runs the job
_STATUS = struct.Struct("!i")  # the child's exit status, sent back to the job process

_in_child = False  # True in a forked child: its hand_over runs the script here
_server = None  # (process, pipe write end, folder) of the server this process started


# --- the job side ---------------------------------------------------------------------------------------------------

def hand_over(snakemake, warm=()):
    """Run this job script in the warm server and exit with its status; return (the script runs here) where there
    is no server to hand over to, or none of this Python (a job in a conda environment or a container computes in
    its own). ``warm``: WARM_GROUPS the job needs imported first (e.g. ``("torch", "torchvision")``): the server
    imports them before it forks, if it has not yet."""
    if not _in_child:  # the file Snakemake runs: its preamble, then the script (`__file__` is the script's)
        _hand_over(getattr(sys.modules["__main__"], "__real_file__", None) or sys.argv[0], warm)


#: a workflow script's own hand-over line where it names no WARM_GROUPS (all but the extraction scripts)
PLAIN_HAND_OVER = b"\nhand_over(snakemake)"


def hand_over_at_start(script):
    """:func:`hand_over`, earlier: called at the job process's interpreter start (by brainpipe_startup, from the
    venv's .pth file) where ``script`` is the file Snakemake runs for a ``script:`` job. Snakemake's preamble at its
    top imports part of Snakemake (0.1 s, in each of a paper's hundreds of short jobs); handed over here, only the
    child runs it, where those modules are already imported. Only a script whose own line is a plain
    ``hand_over(snakemake)`` is taken (a script naming ``warm`` groups hands itself over at that line); the child
    runs the whole file as the job process would have."""
    try:
        with open(script, "rb") as file:
            if PLAIN_HAND_OVER not in file.read():
                return
    except OSError:
        return
    _hand_over(script, ())


def _hand_over(script, warm):
    address = os.environ.get(ENV, "")
    if not address or address.lower() in OFF or os.environ.get(PREFIX_ENV) != sys.prefix:
        return
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(address)
    except OSError:  # no server (any more): compute here
        connection.close()
        return
    from brainpipe.pipeline.logs import _snakemake_process

    ancestor = _snakemake_process()  # the child watches it, as the job would have (pipeline/logs.py)
    # marshal, not pickle: built in (importing pickle takes 12 ms), and job and server are the same Python
    request = marshal.dumps(dict(script=os.path.abspath(script), cwd=os.getcwd(), environ=dict(os.environ),
                                 argv=list(sys.argv), pid=os.getpid(), warm=tuple(warm),
                                 snakemake=ancestor if ancestor and ancestor[1] is not None else None))
    try:
        try:
            socket.send_fds(connection, [_HEADER.pack(len(request))], [0, 1, 2])
            connection.sendall(request)
            started = _receive(connection, len(_STARTED))
        except OSError:
            started = b""
        if started != _STARTED:  # the server could not take it (it is ending): compute here
            connection.close()
            return
        try:  # from here on the job is the child's: whatever happens, this process must not run it as well
            status = _receive(connection, _STATUS.size)
        except OSError:
            status = b""
    except KeyboardInterrupt:  # Ctrl-C reaches the child too, which reports it as the job would have
        os._exit(130)
    code = _STATUS.unpack(status)[0] if len(status) == _STATUS.size else None
    try:
        if code is None:  # the child died without a word (killed, out of memory)
            # A plain rerun is the remedy: the job failed, so Snakemake reruns it (its outputs are written atomically:
            # nothing half-written is kept), and each Snakemake run starts its own server. Turning the server off
            # would change nothing: a job that runs out of memory does so in a process of its own as well.
            print(f"brainpipe: the process computing this job ({os.path.basename(script)}) ended without an exit "
                  "status (killed? out of memory?). Rerun the same snakemake command: it runs this job again "
                  "(nothing it half-wrote is kept). If it is killed again, it most likely ran out of memory: run "
                  "fewer jobs at once (a smaller --cores, or --resources mem_mb=<the MB this machine has free>)",
                  file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:  # never return: the caller would run the job a second time
        os._exit(1 if code is None else code)


def _receive(connection, size):
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


# --- the Snakemake main process's side ------------------------------------------------------------------------------

def start(environ=None):
    """Start the server (once per process) and put its socket path into ``environ`` (default: os.environ, which
    the jobs inherit). Returns the path, or None where the user turned it off. The server lives until this process
    ends."""
    import atexit
    import subprocess
    import tempfile
    import time
    from pathlib import Path

    global _server
    environ = os.environ if environ is None else environ
    if environ.get(ENV, "").lower() in OFF or not sys.platform.startswith("linux"):
        return None  # turned off; or not Linux, where forking a process that has imported torch is not safe (macOS)
    if _server is not None:
        return environ[ENV]
    _remove_dead_servers_folders()
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=_socket_base()))
    address = str(folder / "socket")
    lifeline_read, lifeline_write = os.pipe()  # the write end stays here, not inherited: closed when we end
    process = subprocess.Popen([sys.executable, "-m", "brainpipe.pipeline.fork_server", address, str(lifeline_read)],
                               pass_fds=(lifeline_read,), env={**environ, ENV: "off"},
                               # not Snakemake's streams: whoever reads them (a pipe, a test) would wait for the
                               # server too; each job's child writes to that job's own streams
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(lifeline_read)
    _server = (process, lifeline_write, folder)
    atexit.register(stop)
    # listening within ~0.1 s (before it imports anything); a job that came earlier would compute on its own
    deadline = time.monotonic() + START_WAIT_S
    while not os.path.exists(address) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    if not os.path.exists(address):  # it could not listen: the jobs compute on their own, as without it
        stop()
        return None
    environ[ENV] = address
    environ[PREFIX_ENV] = sys.prefix
    return address


def _socket_base():
    """The temporary folder, or /tmp where its path is too long for a socket's (at most 107 bytes on Linux)."""
    import tempfile

    base = tempfile.gettempdir()
    return base if len(base) <= 64 else "/tmp"


#: command-line options after which a Snakemake process runs no job here, or not on this machine: the server is not
#: started while the workflow is parsed (:func:`plainly_local_run`); single-letter ones may be combined (``-np``)
NOT_PLAINLY_LOCAL = ("--dry-run", "--dryrun", "--touch", "--lint", "--list", "--summary", "--detailed-summary",
                     "--dag", "--rulegraph", "--filegraph", "--d3dag", "--report", "--archive", "--cleanup",
                     "--unlock", "--delete", "--export", "--containerize", "--generate-unit-tests",
                     "--print-compilation", "--executor", "--profile", "--workflow-profile", "--no-hooks", "--lc",
                     "--li", "--lp", "--cluster", "--slurm", "--kubernetes", "--mode")
NOT_PLAINLY_LOCAL_LETTERS = set("ntlSDe")


def _remove_dead_servers_folders():
    """Remove the socket folders of servers killed outright (SIGKILL of a whole process group gives them no chance
    to clean up): a folder whose socket nobody listens on any more. A live server's socket refuses no connection
    (it appears only once the server listens); one still starting has no ``socket`` yet."""
    import shutil
    from pathlib import Path

    for address in Path(_socket_base()).glob(f"{FOLDER_PREFIX}*/socket"):
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(address))
        except ConnectionRefusedError:
            shutil.rmtree(address.parent, ignore_errors=True)
        except OSError:  # another user's, or gone meanwhile
            pass
        finally:
            probe.close()


def plainly_local_run(argv, environ=None):
    """Whether a Snakemake command line plainly runs jobs on this machine, so that the server can start while the
    workflow is still parsed (its imports then run beside the parsing and planning). Only a head start: where this
    says no, the workflow's ``onstart`` starts the server once Snakemake knows it executes locally; where it says
    yes, ``onstart`` stops the server again if the executor is another (common.smk)."""
    environ = os.environ if environ is None else environ
    if environ.get("SNAKEMAKE_PROFILE"):
        return False
    for argument in argv[1:]:
        if argument.startswith("--"):
            if argument.split("=")[0].startswith(NOT_PLAINLY_LOCAL):
                return False
        elif argument.startswith("-") and argument[1:2].isalpha() and NOT_PLAINLY_LOCAL_LETTERS & set(argument[1:]):
            return False
    return True


def stop(timeout_s=STOP_WAIT_S):
    """Stop the server this process started, at this process's exit, and wait for it (up to ``timeout_s``), so
    that its CPU time counts toward this process's children as the job processes' did. Had this process been
    killed, the server ends by itself all the same."""
    import shutil
    import subprocess

    global _server
    if _server is None:
        return
    process, lifeline_write, folder = _server
    _server = None
    os.close(lifeline_write)
    # No job runs at Snakemake's end: nothing is lost. Idle, the server ends at the lifeline's close; in the middle
    # of a warm-up import (sklearn, torch: seconds) only at the signal, which stops the import where its Python code
    # resumes (waiting 0.2 s for the lifeline first cost a small run up to 1.2 s at its end)
    process.terminate()
    try:
        process.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        pass
    shutil.rmtree(folder, ignore_errors=True)  # the server's own cleanup, where it died or was killed before it
    if os.environ.get(ENV) == str(folder / "socket"):
        del os.environ[ENV], os.environ[PREFIX_ENV]


# --- the server -----------------------------------------------------------------------------------------------------

def serve(address, lifeline):
    """Listen on ``address``, import the WARM_GROUPS' modules one by one between requests, fork a child per job;
    return when ``lifeline`` (a pipe's read end) reaches its end, i.e. when the process that started us is gone."""
    import select
    import shutil
    import signal
    from pathlib import Path

    # OpenBLAS (numpy's and scipy's) starts its worker threads at import, from this variable. A forked child has
    # none of them, and setting its job's thread count (_limit_threads) starts them again: each then busy-waits
    # for work for ~0.1 s of CPU (measured: 0.21 CPU-s per child with the default 2 threads and both libraries,
    # in jobs that compute for 0.1 s). Started single-threaded here, a child of a 1-thread job starts none, and one
    # of a job with more threads starts what it asks for.
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops Snakemake, whose end stops us; jobs get their own
    for ending in (signal.SIGTERM, signal.SIGHUP):  # stop() during an import, a closed terminal: clean up below
        signal.signal(ending, _exit_on_signal)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address + ".new")
    listener.listen(128)
    os.rename(address + ".new", address)  # the path appears once connections are accepted (start() waits for it)
    pending = [(group, name) for group, names in WARM_GROUPS.items() for name in names]
    try:
        while True:
            _reap_children()
            readable, _, _ = select.select([listener, lifeline], [], [], 0 if pending else 1.0)
            if lifeline in readable and not os.read(lifeline, 1):
                break
            if listener in readable:
                _fork_job(listener, lifeline, pending)
            elif pending:
                _import(pending.pop(0)[1])
    finally:
        listener.close()
        shutil.rmtree(Path(address).parent, ignore_errors=True)
        _reap_children(until_none_left=True)


def _exit_on_signal(signum, frame):
    raise SystemExit(0)


def _import(name):
    module, _, function = name.partition(":")
    try:
        imported = __import__(module, fromlist=["_"])
        if function:
            getattr(imported, function)()
    except Exception:  # noqa: BLE001: the job that needs it imports it itself and reports the error
        pass


def _reap_children(until_none_left=False):
    """Collect finished children (so their CPU time counts toward ours, as a job process's does)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, 0 if until_none_left else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _fork_job(listener, lifeline, pending):
    connection, _ = listener.accept()
    fds = []
    try:
        header, fds, _, _ = socket.recv_fds(connection, _HEADER.size, 3)
        request = marshal.loads(_receive(connection, _HEADER.unpack(header)[0]))
        for item in [item for item in pending if item[0] in request["warm"]]:
            pending.remove(item)
            _import(item[1])
        if _cuda_initialized():  # CUDA does not survive a fork: the job computes on its own (it never should be here)
            raise RuntimeError("CUDA initialized in the fork server")
        child = os.fork()
    except Exception:  # noqa: BLE001: a job process gone mid-request, or no fork (memory): it computes on its own
        child = None
    if child == 0:
        try:
            listener.close()
            os.close(lifeline)
            _run_job(connection, request, fds)
        finally:
            os._exit(1)  # whatever happens, a child never returns into the server's loop
    for fd in fds:
        os.close(fd)
    connection.close()


def _cuda_initialized():
    """Whether an import initialized CUDA here (none of WARM_GROUPS does: importing torch leaves it alone): a forked
    child could not use the GPU then."""
    torch = sys.modules.get("torch")
    return torch is not None and torch.cuda.is_initialized()


def _run_job(connection, request, fds):
    """In the forked child: become the job process (its streams, folder, environment, command line, thread limits)
    and run its script; send its exit status back and exit."""
    import runpy
    import signal
    import tempfile
    import traceback

    global _in_child
    _in_child = True
    try:
        connection.sendall(_STARTED)  # from here on the job is this child's (the job process waits for its status)
    except OSError:  # the job process is gone already
        os._exit(1)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environ"])
    tempfile.tempdir = None  # the job's TMPDIR (Snakemake's tmpdir resource), not the one an import may have cached
    sys.argv = request["argv"]
    sys.path[0] = os.path.dirname(request["script"])  # as for `python script.py`
    _limit_threads(os.environ.get("OMP_NUM_THREADS"))
    from brainpipe.pipeline import logs

    # the job process (when Snakemake kills it, this child stops too) and its Snakemake (killed hard, it kills none)
    logs.watch_instead(request["pid"], request["snakemake"])
    status = 0
    try:
        runpy.run_path(request["script"], run_name="__main__")
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        if done.code is not None and not isinstance(done.code, int):
            print(done.code, file=sys.stderr)
    except BaseException as error:  # noqa: BLE001: as Python reports an uncaught exception, and its exit status
        traceback.print_exc()
        status = 130 if isinstance(error, KeyboardInterrupt) else 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    try:
        connection.sendall(_STATUS.pack(status))
    except OSError:
        pass
    os._exit(status)


def _limit_threads(threads):
    """The job's thread count (Snakemake sets OMP_NUM_THREADS and the BLAS variables to the rule's threads): the
    libraries the server imported read those variables at import, before the job existed, so set them here."""
    if not threads or not threads.isdigit():
        return
    from threadpoolctl import threadpool_limits

    threadpool_limits(int(threads))
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(int(threads))


if __name__ == "__main__":
    # `python -m` runs this file as __main__; the job scripts import brainpipe.pipeline.fork_server, whose
    # _in_child must be the one a forked child sets: serve from that module, not from this copy
    from brainpipe.pipeline import fork_server

    try:
        fork_server.serve(sys.argv[1], int(sys.argv[2]))
    finally:
        # serve() has cleaned up and collected its children; the interpreter's own ending (torch's and sklearn's
        # modules torn down one by one: ~0.2 s) is work nobody waits for but the Snakemake process at its exit
        os._exit(0)
