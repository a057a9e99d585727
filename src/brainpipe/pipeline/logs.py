"""Logging for workflow scripts: everything a stage prints goes to its Snakemake ``log:`` file.

A failure writes the full traceback to the log and one clear line to the terminal, then exits non-zero, so the
user sees what went wrong without scrolling through a traceback.

A job also stops when the Snakemake that started it dies. A hard kill (``kill -9``, a closed terminal without
SIGHUP forwarding, an OOM kill) gives its jobs no signal: they would run on, orphaned, beside the rerun that redoes
them, writing the same outputs and doubling the memory in use. Each job watches its Snakemake process and stops
itself within about a second of it disappearing (:func:`stop_when_snakemake_dies`). A job computed by the warm
fork server (pipeline/fork_server.py) watches both the job process it computes for (which Snakemake started and
kills) and that process's Snakemake.
"""

import contextlib
import os
import signal
import sys
import threading

# a job process imports this module before it hands its job to the fork server (for _snakemake_process): what only
# a computing job needs (pathlib, traceback: 6 ms each) is imported where it is used

#: seconds between two looks at the Snakemake process, and the time a job gets to stop cleanly before it exits hard
WATCH_INTERVAL_S = 1.0
GRACE_S = 10.0

#: [(pid, start time, what)] this job watches instead of its own Snakemake ancestor (:func:`watch_instead`)
_watched_instead = None


def watch_instead(job_pid, snakemake):
    """In a child of the fork server: watch the job process ``job_pid`` (the one Snakemake started, waits on and
    kills; it waits here for this child) and ``snakemake``, that job process's Snakemake ((pid, start time), as
    :func:`_snakemake_process` found it there, or None), instead of an ancestor of this process."""
    global _watched_instead
    stat = _stat(job_pid)
    _watched_instead = [(job_pid, stat[19] if stat else None, "job")]
    if snakemake is not None:
        _watched_instead.append((*snakemake, "Snakemake"))


@contextlib.contextmanager
def logged(log_path, stage):
    from pathlib import Path

    log_path = Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    terminal, output = sys.stderr, sys.stdout
    with open(log_path, "w", buffering=1) as log:
        sys.stderr = sys.stdout = log
        watch = stop_when_snakemake_dies(log)
        try:
            yield log
            print(peak_memory_line(), file=log)
        except KeyboardInterrupt:
            if not watch.fired.is_set():
                raise  # Ctrl-C: Snakemake reports the interrupted job itself
            print(f"brainpipe {stage}: stopped, {watch.reason}", file=log)
            raise SystemExit(1) from None
        except Exception as error:  # every failure: one line on screen, traceback in the log
            import traceback

            traceback.print_exc(file=log)
            sys.stderr, sys.stdout = terminal, output
            print(f"brainpipe {stage} failed: {error} (traceback: {log_path})", file=terminal, flush=True)
            raise SystemExit(1) from None
        finally:
            watch.stop()
            sys.stderr, sys.stdout = terminal, output


class _Watch:
    def __init__(self):
        self.fired, self.done, self.reason = threading.Event(), threading.Event(), ""

    def stop(self):
        self.done.set()


def stop_when_snakemake_dies(log):
    """Start a daemon thread that ends this job once the Snakemake process running it is gone: it interrupts the
    main thread (so open writers remove their hidden staging files, as on Ctrl-C) and, if the job has not ended
    after GRACE_S, exits the process. Where the process cannot be found (no /proc and no parent), nothing is
    watched. Returns the watch (``stop()`` ends the thread)."""
    watch = _Watch()
    ancestor = _snakemake_process() if _watched_instead is None else None
    watched = _watched_instead or ([(*ancestor, "Snakemake")] if ancestor else [])
    if not watched:
        return watch

    def run():
        while not watch.done.wait(WATCH_INTERVAL_S):
            gone = [(pid, what) for pid, started, what in watched if not _alive(pid, started)]
            if not gone:
                continue
            pid, what = gone[-1]  # Snakemake's end, where both are gone (it ends its jobs' processes)
            watch.reason = (f"the {what} process that started this job (pid {pid}) is gone; the next run redoes "
                            "the job (README: When a run is interrupted)")
            print(f"brainpipe: {watch.reason}", file=log, flush=True)
            watch.fired.set()
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                os.kill(os.getpid(), signal.SIGINT)  # a real signal also wakes a main thread blocked in a call
                if watch.done.wait(GRACE_S):
                    return
            os._exit(1)  # SIGINT ignored or not handled in time: end now (the next run removes the leftovers)

    threading.Thread(target=run, name="brainpipe-watch-snakemake", daemon=True).start()
    return watch


def _snakemake_process():
    """(pid, start time) of the nearest ancestor whose command line runs snakemake (Linux), else (parent pid,
    None) where /proc is missing, or None for a process with no parent left."""
    parent = os.getppid()
    if parent <= 1:
        return None
    pid = parent
    while pid > 1:
        stat = _stat(pid)
        if stat is None:  # no /proc (macOS): the parent is what runs the job
            return (parent, None)
        if _runs_snakemake(_cmdline(pid)):
            return (pid, stat[19])
        pid = int(stat[1])
    return (parent, _stat(parent)[19]) if _stat(parent) else None


def _stat(pid):
    """Fields of /proc/PID/stat after the command name (state, ppid, ...), or None."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            text = file.read()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read()
    except OSError:
        return b""


def _runs_snakemake(cmdline):
    """`snakemake ...`, `python .../bin/snakemake ...` or `python -m snakemake ...`; not a shell whose command
    merely names a job script under .snakemake/scripts/."""
    arguments = cmdline.split(b"\0")[:3]
    return any(os.path.basename(a) == b"snakemake" for a in arguments) or b"\0-m\0snakemake\0" in cmdline


def _alive(pid, started):
    """Whether the watched process runs: not gone, not a zombie waiting to be reaped, not another process that
    reuses its pid (start time), and, if it is this job's parent, still the parent (a dead parent's children are
    handed to another process)."""
    if started is None:
        return os.getppid() == pid
    stat = _stat(pid)
    return stat is not None and stat[0] not in ("Z", "X") and stat[19] == started


#: The line each stage's log ends with; perf/rule_memory.py reads it (the job's own peak, exact, where Snakemake's
#: benchmark samples the memory once a second).
PEAK_MEMORY = "peak memory (resident): {self} MB this process, {children} MB its largest child process"


def peak_memory_line() -> str:
    """The peak resident memory of this process and of its largest finished child (decode workers), in MB.

    This process's own peak is /proc's VmHWM where there is one: getrusage's ru_maxrss survives exec, so a job
    started from the Snakemake process would report Snakemake's size at the fork instead of its own."""
    import resource

    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, kB on Linux
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
    try:
        with open("/proc/self/status") as status:
            own = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        pass
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * unit
    line = PEAK_MEMORY.format(self=round(own / 1e6), children=round(children / 1e6))
    if _watched_instead is not None:  # a child of the fork server: its resident pages include the server's (shared)
        line += " (computed in the warm fork server: includes the libraries it shares with it)"
    return line
