"""Snakemake's job-rate timers are cancelled at a run's end (brainpipe.pipeline.scheduler_timers): the timer is made
by Snakemake's own scheduler method, so a Snakemake that makes it elsewhere fails here, not silently."""

import threading
import time
from types import SimpleNamespace

from snakemake.scheduling.job_scheduler import JobScheduler

from brainpipe.pipeline.scheduler_timers import cancel_scheduler_timers, scheduler_timers


def test_the_schedulers_timer_is_found_and_cancelled_and_no_other():
    released = threading.Semaphore(0)
    scheduler = SimpleNamespace(_open_jobs=released)
    mine = threading.Timer(60, lambda: None)
    mine.start()
    try:
        JobScheduler._schedule_reevalutation(scheduler, 60)  # what every round of job selection does (1 s default)
        (timer,) = scheduler_timers()
        assert not timer.daemon  # why Python's exit waited for it
        assert cancel_scheduler_timers() == 1
        timer.join(5)
        assert not timer.is_alive()
        assert not released.acquire(blocking=False)  # cancelled, not run: the semaphore was never released
        assert mine.is_alive() and scheduler_timers() == []
        assert cancel_scheduler_timers() == 0
    finally:
        mine.cancel()


def test_a_timer_that_fired_already_is_left_as_it_is():
    released = threading.Semaphore(0)
    JobScheduler._schedule_reevalutation(SimpleNamespace(_open_jobs=released), 0.01)
    assert released.acquire(timeout=5)
    time.sleep(0.05)
    assert cancel_scheduler_timers() == 0
