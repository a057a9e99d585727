"""Logging for workflow scripts: everything a stage prints goes to its Snakemake ``log:`` file.

A failure writes the full traceback to the log and one clear line to the terminal, then exits non-zero, so the
user sees what went wrong without scrolling through a traceback.
"""

import contextlib
import sys
import traceback
from pathlib import Path


@contextlib.contextmanager
def logged(log_path, stage):
    log_path = Path(log_path)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    terminal, output = sys.stderr, sys.stdout
    with open(log_path, "w", buffering=1) as log:
        sys.stderr = sys.stdout = log
        try:
            yield log
            print(peak_memory_line(), file=log)
        except Exception as error:  # every failure: one line on screen, traceback in the log
            traceback.print_exc(file=log)
            sys.stderr, sys.stdout = terminal, output
            print(f"brainpipe {stage} failed: {error} (traceback: {log_path})", file=terminal, flush=True)
            raise SystemExit(1) from None
        finally:
            sys.stderr, sys.stdout = terminal, output


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
    return PEAK_MEMORY.format(self=round(own / 1e6), children=round(children / 1e6))
