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
    """The peak resident memory of this process and of its largest finished child (decode workers), in MB."""
    import resource

    unit = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, kB on Linux
    mb = lambda who: round(resource.getrusage(who).ru_maxrss * unit / 1e6)
    return PEAK_MEMORY.format(self=mb(resource.RUSAGE_SELF), children=mb(resource.RUSAGE_CHILDREN))
