"""How long a ``snakemake`` start takes on a *finished* grid of N models × the whole suite, with finished models
skipped (src/brainpipe/pipeline/finished_models.py) and with every job planned, and with one new model added.

Usage (after one real model × the suite, perf/bench_suite.py's run, kept in WORK)::

    .venv/bin/python perf/bench_suite.py --store STORE --models alexnet_untrained \\
        --benchmarks suite:brainscore '!family:Zerbe2026_fmri_persubject' --work WORK
    .venv/bin/python perf/bench_finished_planning.py --work WORK --models 50

Computing 49 more models × 283 benchmarks would take about 8 hours on a 2-core machine, so the other N-1 models'
result folders are *copies* of the first's: hard links, and the JSON and TSV files rewritten with the copy's name
(``alexnet_copy1``...: model_zoo entries of alexnet_untrained with seeds 1...), their modification times kept. Planning
reads the files' names, sizes and times, never their contents, so the copies cost a start what computed results
would; their numbers are the first model's and mean nothing. Then one ``snakemake --cores 2`` run of the whole grid
(every job planned: the record of finished models covers the first model only) makes the summary, the leaderboard
and the figures, and its success records all N models as finished. Timed after it, each a fresh Snakemake process:

* ``snakemake -n`` of the finished grid (finished models skipped: the default);
* the same with ``--config skip_finished_models=False`` (every job planned, as before);
* ``snakemake -n`` with one more model that has no results (only its jobs are planned);
* ``snakemake --cores 2`` of the finished grid (nothing to do).

Printed per start: the jobs planned, wall and CPU seconds (Snakemake and its children) and the peak resident memory
of the largest process, with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "perf"))
from bench_planning import timed_run  # noqa: E402  (perf/ is a folder of scripts, not a package)
from brainpipe.pipeline.finished_models import MODEL_FOLDERS, RECORD  # noqa: E402

SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
FIRST = "alexnet_untrained"
#: files whose text names the model (score JSONs, sweep tables): rewritten for a copy; the others are hard links
TEXT_SUFFIXES = (".json", ".tsv")


def copy_model(results: Path, source: str, copy: str) -> int:
    """Copy ``source``'s result folders to ``copy``'s (hard links; JSON/TSV rewritten with the copy's name), the
    modification times kept; the files copied."""
    copied = 0
    for folder in [results] + [results / f for f in MODEL_FOLDERS]:
        origin, target = folder / source, folder / copy
        if not origin.is_dir() or target.exists():
            continue
        for path in sorted(origin.rglob("*")):
            destination = target / path.relative_to(origin)
            if path.is_dir():
                destination.mkdir(parents=True, exist_ok=True)
                continue
            destination.parent.mkdir(parents=True, exist_ok=True)
            if path.suffix in TEXT_SUFFIXES:
                destination.write_text(path.read_text().replace(source, copy))
                status = path.stat()
                os.utime(destination, ns=(status.st_atime_ns, status.st_mtime_ns))
            else:
                os.link(path, destination)
            copied += 1
        for path in sorted(target.rglob("*"), key=lambda p: -len(p.parts)):  # folders' times too, deepest first
            if path.is_dir():
                status = (origin / path.relative_to(target)).stat()
                os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns))
    return copied


def snakemake(work: Path, configs: list[Path], *args) -> dict:
    command = [SNAKEMAKE, "-s", str(REPO / "Snakefile"), "--directory", str(work), "--cores", "2", *args,
               "--configfile", str(REPO / "config" / "config.yaml"), *map(str, configs)]
    result, cost = timed_run(command, work)
    output = result.stdout + result.stderr
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{output[-4000:]}")
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", output.split("Job stats:", 1)[1], flags=re.M)) \
        if "Job stats:" in output else {}
    finished = re.search(r"brainpipe: (\d+) of (\d+) models finished", output)
    return {"jobs": int(counts.get("total", 0)), "finished": finished.group(1) if finished else "0", **cost}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, required=True, help="perf/bench_suite.py's --work folder, run to the end")
    parser.add_argument("--models", type=int, default=50, help="models in the finished grid (the first one real)")
    args = parser.parse_args(argv)
    work = args.work.resolve()
    suite = work / "suite.yaml"
    if not (work / "results" / FIRST).is_dir() or not suite.is_file():
        raise SystemExit(f"{work}: no finished run of {FIRST}; run perf/bench_suite.py --models {FIRST} --work {work}")
    zoo = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["model_zoo"]
    copies = [f"alexnet_copy{i}" for i in range(1, args.models)]
    started = time.perf_counter()
    files = sum(copy_model(work / "results", FIRST, copy) for copy in copies)
    print(f"{len(copies)} copies of {FIRST}'s result folders ({files} files) in {time.perf_counter() - started:.0f} s")
    grid = work / "finished_grid.yaml"
    entries = {copy: {**zoo[FIRST], "seed": i} for i, copy in enumerate(copies, start=1)}
    grid.write_text(yaml.safe_dump({"models": [FIRST] + copies, "model_zoo": entries}))
    one_more = work / "one_more.yaml"
    one_more.write_text(yaml.safe_dump({"models": [FIRST] + copies + ["alexnet_new"],
                                        "model_zoo": {**entries, "alexnet_new": {**zoo[FIRST], "seed": 1000}}}))
    run = snakemake(work, [suite, grid])  # the summary, leaderboard and figures of N models; records them finished
    print(f"whole run of the {args.models}-model grid ({run['jobs']} jobs to run: the tables and figures of the new "
          f"copies): {run['wall_s']:.0f} s wall; record: {work / RECORD}")
    print(f"{'start':<52} {'finished':>8} {'jobs':>7} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'load':>5}")
    starts = [("snakemake -n (finished models skipped)", [grid], ["-n"]),
              ("snakemake -n, skip_finished_models=False", [grid], ["-n", "--config", "skip_finished_models=False"]),
              ("snakemake -n, one more model without results", [one_more], ["-n"]),
              ("snakemake --cores 2 (nothing to do)", [grid], [])]
    for name, configs, extra in starts:
        row = snakemake(work, [suite, *configs], *extra)
        print(f"{name:<52} {row['finished']:>8} {row['jobs']:>7} {row['wall_s']:>7.1f} {row['cpu_s']:>7.1f} "
              f"{row['peak_mb']:>8.0f} {row['load']:>5.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
