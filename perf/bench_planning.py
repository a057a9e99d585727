"""How long `snakemake -n` takes to plan a grid of N models × every Brain-Score benchmark, and how much memory.

Usage::

    .venv/bin/python perf/bench_planning.py                       # 1 and 10 models × suite:brainscore
    .venv/bin/python perf/bench_planning.py --models 1 10 50      # the issue's three sizes (50: minutes)
    .venv/bin/python perf/bench_planning.py --models 2 --benchmarks 'family:SyntheticShapes'

Each size runs in a fresh working folder (no results/: nothing to skip) with the repository's config plus an
overlay: N untrained alexnets (``alexnet_untrained`` with seeds 0..N-1, one model_zoo entry each, every region
committed as in config/config.yaml) and ``benchmarks`` = the selector given (default ``suite:brainscore``, all 291 of
Brain-Score 2.4.2; ImageNet-top1 is left out: its images are a zip the user supplies). Printed per size: the jobs
planned (Snakemake's job count), the empty cells among them, wall seconds, CPU seconds of the Snakemake process
and its children, and the peak resident memory of the largest process (ru_maxrss of the children), with the
machine's load average before each run. The parse cache (architectures' layer names) is warm after the first run;
the first size is run twice and the second time reported ("warm"), as at every later `snakemake` start.

A change meant to speed planning up must leave every job as it was: perf/dump_jobs.py writes every planned job (rule,
wildcards, input, output, params, resources) of the same grids, before and after, and compares the two.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


def overlay(models: int, benchmarks: list[str]) -> dict:
    zoo = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["model_zoo"]
    base = dict(zoo["alexnet_untrained"])
    entries = {f"alexnet_seed{seed}": {**base, "seed": seed} for seed in range(models)}
    return {"models": list(entries), "model_zoo": entries, "benchmarks": benchmarks}


def timed_run(command: list[str], cwd) -> tuple[subprocess.CompletedProcess, dict]:
    """Run ``command`` (without a SNAKEMAKE_PROFILE from the environment); its result and its wall seconds, CPU
    seconds (it and its children), peak resident memory of its largest process, and the load average before it."""
    env = {k: v for k, v in os.environ.items() if k not in ("SNAKEMAKE_PROFILE", "BRAINPIPE_DATA_URL")}
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as output:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=output, stderr=output, text=True)
        # this command's own usage (wait4), not every child's so far: its peak is its own largest process's
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        output.seek(0)
        text = output.read()
    result = subprocess.CompletedProcess(command, os.waitstatus_to_exitcode(status), text, "")
    return result, {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_mb": usage.ru_maxrss / 1024,
                    "load": load}


def plan(models: int, benchmarks: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench_planning_") as folder:
        config = Path(folder) / "grid.yaml"
        config.write_text(yaml.safe_dump(overlay(models, benchmarks)))
        result, cost = timed_run([SNAKEMAKE, "-n", "--quiet", "rules", "-s", str(REPO / "Snakefile"), "--directory",
                                  folder, "--configfile", str(REPO / "config" / "config.yaml"), str(config)], folder)
    if result.returncode != 0:
        raise SystemExit(f"snakemake -n failed for {models} model(s):\n{(result.stdout + result.stderr)[-3000:]}")
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", result.stdout, flags=re.M))
    return {"models": models, "jobs": int(counts.get("total", 0)), "empty_cells": int(counts.get("empty_cell", 0)),
            **cost}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--benchmarks", nargs="+", default=["suite:brainscore", "!ImageNet-top1"])
    args = parser.parse_args(argv)
    print(f"planning N models × {' '.join(args.benchmarks)}; {os.cpu_count()} cores")
    print(f"{'models':>6} {'jobs':>7} {'empty':>6} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'load':>5}")
    plan(args.models[0], args.benchmarks)  # fills the parse cache, as any earlier start has
    for models in args.models:
        row = plan(models, args.benchmarks)
        print(f"{row['models']:>6} {row['jobs']:>7} {row['empty_cells']:>6} {row['wall_s']:>7.1f} {row['cpu_s']:>7.1f} "
              f"{row['peak_mb']:>8.0f} {row['load']:>5.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
