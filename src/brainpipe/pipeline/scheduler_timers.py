"""Snakemake's job-rate timers, cancelled when a run has ended, so that the process exits at once.

A local run's scheduler (snakemake/snakemake ``src/snakemake/scheduling/job_scheduler.py``,
``JobScheduler._schedule_reevalutation``) starts a ``threading.Timer`` of ``--max-jobs-per-timespan``'s timespan (1 s
by default) at every round of job selection, to look again once the rate allows more jobs. The timers are not daemon
threads, so Python's exit waits for the last of them: up to 1 s after the last job, at the end of every run. Once the
workflow's ``onsuccess`` or ``onerror`` runs, the scheduler has returned and nothing waits for them: cancelling them
changes nothing but that second (measured on a 6-job run, Hebart2023-match on a suite store: see
docs/performance.md).

No Snakemake import: the timers are found among the running threads by the module of the function they will call.
"""

from __future__ import annotations

import threading

SCHEDULER_MODULE = "snakemake.scheduling.job_scheduler"


def scheduler_timers() -> list[threading.Timer]:
    """The running timers whose function Snakemake's job scheduler made."""
    return [thread for thread in threading.enumerate()
            if isinstance(thread, threading.Timer)
            and getattr(thread.function, "__module__", None) == SCHEDULER_MODULE]


def cancel_scheduler_timers() -> int:
    """Cancel (and end) Snakemake's job-rate timers; how many there were. Call it only after the scheduler has
    returned (the workflow's onsuccess or onerror)."""
    timers = scheduler_timers()
    for timer in timers:
        timer.cancel()
    return len(timers)
