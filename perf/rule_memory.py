"""Each rule's declared memory (``resources: mem_mb``, what a cluster scheduler reserves) against the peak its jobs
really reached, for a grid run from scratch.

Usage::

    .venv/bin/python perf/rule_memory.py demo                 # config/config.yaml's demo grid + IT-spantime_pls
    .venv/bin/python perf/rule_memory.py tiny                 # tests/configs/tiny.yaml, same additions (minutes)
    .venv/bin/python perf/rule_memory.py headline             # alexnet × MajajHong2015.{IT,V4}-pls, 3200 images
    .venv/bin/python perf/rule_memory.py headline --scale 0.1
    .venv/bin/python perf/rule_memory.py tiny --repo /path/to/older/checkout   # before/after

The spantime benchmark (``SyntheticShapes.IT-spantime_pls``, one regression over 18 time bins × the training
stimuli) is scored on fold 0 only for each model of the demo grids: every fold has the same size, and a pixels
fold fits a 5184-sample kernel (minutes on two cores).

Declared: the ``mem_mb`` Snakemake printed for each job it ran (evaluated when the job was scheduled, from the sizes
of its inputs then). Measured: the larger of the job's own peak resident memory (the last line of its log, written
by brainpipe.pipeline.logs: exact) and Snakemake's benchmark ``max_rss`` (the job's process tree, sampled once a
second; the only figure for an older checkout). A rule that declares no ``mem_mb`` gets, on a cluster, the
``default-resources`` of profiles/slurm: that is its declared figure here. A rule is OVER when a job's measured peak
exceeds its declared memory. Each job runs in its own process, as on a cluster (``BRAINPIPE_FORK_SERVER=off``).
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
SPANTIME = "SyntheticShapes.IT-spantime_pls"
PEAK = re.compile(r"peak memory \(resident\): (\d+) MB this process")
JOB = re.compile(r"^(?:local)?rule (\w+):\n(.*?)(?:\n\n|\n(?=\[)|\Z)", flags=re.M | re.S)


def demo_targets(config: dict) -> list[str]:
    """The grid's own targets plus fold 0 of the spantime benchmark for each model (its committed IT layer)."""
    folds = [f"results/{model}/{SPANTIME}/layers/{config['model_zoo'][model]['layers']['IT']}/fold0.json"
             for model in config["models"]]
    return ["all", *folds]


def demo_setup(workdir: Path, overlay: Path | None, repo: Path):
    (workdir / "config").mkdir(parents=True)
    shutil.copy(repo / "config" / "config.yaml", workdir / "config" / "config.yaml")
    config = yaml.safe_load((repo / "config" / "config.yaml").read_text())
    configfiles = []
    if overlay is not None:
        configfiles.append(overlay)
        config.update(yaml.safe_load(overlay.read_text()))
    return configfiles, demo_targets(config), {}


def headline_setup(workdir: Path, scale: float, data: Path):
    import bench_headline as headline

    store, sums_file, torch_home = headline.prepare_data(data, scale)
    workdir.mkdir(parents=True)
    config = headline.write_config(workdir / "headline.yaml", store.as_uri() + "/", sums_file, workdir / "cache")
    targets = [f"results/alexnet/{headline.IT}.json", f"results/alexnet/{headline.V4}.json"]
    return [config], targets, {"TORCH_HOME": str(torch_home)}


def run(workdir: Path, repo: Path, configfiles, targets, env, cores: int) -> str:
    command = [SNAKEMAKE, *targets, "--cores", str(cores), "-s", str(repo / "Snakefile"), "--directory",
               str(workdir), "--printshellcmds"]
    if configfiles:
        command += ["--configfile", *map(str, configfiles)]
    # each job in its own process, as on a cluster (where mem_mb is reserved): a job computed by the local fork
    # server (pipeline/fork_server.py) would count the server's imported libraries, shared with it, as its own
    environment = {**os.environ, **env, "PYTHONPATH": str(repo / "src"), "BRAINPIPE_FORK_SERVER": "off"}
    done = subprocess.run(command, cwd=workdir, env=environment, capture_output=True, text=True)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        raise SystemExit(f"snakemake failed in {workdir}:\n{output[-5000:]}")
    return output


def jobs(output: str, workdir: Path):
    """(rule, declared MB, measured MB, what) for every job Snakemake ran that has a log."""
    for match in JOB.finditer(output):
        rule, body = match.group(1), match.group(2)
        fields = dict(re.findall(r"^\s+(\w+): (.*)$", body, flags=re.M))
        if "log" not in fields:
            continue
        declared = re.search(r"\bmem_mb=(\d+)", fields.get("resources", ""))
        log = workdir / fields["log"].split(",")[0].strip()
        peaks = [int(m.group(1)) for m in PEAK.finditer(log.read_text())] if log.is_file() else []
        if fields.get("benchmark"):
            timing = workdir / fields["benchmark"].strip()
            if timing.is_file():
                rows = list(csv.DictReader(timing.open(), delimiter="\t"))
                peaks += [round(float(row["max_rss"]) * 1.048576) for row in rows if row.get("max_rss") not in
                          (None, "", "NA", "-")]
        yield (rule, int(declared.group(1)) if declared else None, max(peaks) if peaks else None,
               fields.get("wildcards", ""))


def timings(workdir: Path):
    """{rule: [(what, seconds), ...]} from Snakemake's benchmark TSVs (logs/timing/<rule>/...)."""
    found = defaultdict(list)
    for path in sorted((workdir / "logs" / "timing").rglob("*.tsv")):
        rows = list(csv.DictReader(path.open(), delimiter="\t"))
        rule = path.relative_to(workdir / "logs" / "timing").parts[0]
        found[rule] += [(str(path.relative_to(workdir / "logs" / "timing" / rule)), float(row["s"])) for row in rows]
    return found


def print_timings(workdir: Path):
    """Per rule: jobs, summed and slowest wall time (Snakemake's benchmark TSVs)."""
    print(f"\n{'rule':<26} {'jobs':>4} {'total s':>8} {'slowest s':>9}  slowest job")
    for rule, entries in sorted(timings(workdir).items()):
        slowest = max(entries, key=lambda e: e[1])
        print(f"{rule:<26} {len(entries):>4} {sum(s for _, s in entries):>8.1f} {slowest[1]:>9.1f}  {slowest[0]}")


def profile_default_mb() -> int | None:
    """The mem_mb that profiles/slurm gives rules declaring none (what a cluster run reserves for them)."""
    config = yaml.safe_load((REPO / "profiles" / "slurm" / "config.yaml").read_text())
    return (config.get("default-resources") or {}).get("mem_mb")


def report(rows, title: str, show: str = SPANTIME):
    default = profile_default_mb()
    by_rule = defaultdict(list)
    for rule, declared, measured, what in rows:
        by_rule[rule].append((declared if declared is not None else default, measured, what))
    print(f"\n(rules that declare no mem_mb: profiles/slurm's default-resources, {default} MB)")
    print(f"\n{title}\n")
    print(f"{'rule':<18} {'jobs':>4} {'declared MB':>14} {'measured MB':>12}  {'worst job (measured / declared)':<50} ok")
    over = []
    for rule in sorted(by_rule):
        entries = by_rule[rule]
        declared = [d for d, _, _ in entries if d is not None]
        measured = [m for _, m, _ in entries if m is not None]
        ratio = lambda e: (e[1] or 0) / (e[0] or 1)
        worst = max(entries, key=ratio)
        bad = [e for e in entries if e[0] is not None and e[1] is not None and e[1] > e[0]]
        over += [(rule, *e) for e in bad]
        span = (f"{min(declared)}–{max(declared)}" if declared and min(declared) != max(declared)
                else str(declared[0]) if declared else "-")
        print(f"{rule:<18} {len(entries):>4} {span:>14} {max(measured) if measured else '-':>12}  "
              f"{worst[1]} / {worst[0]} {worst[2][:36]:<36} {'OVER' if bad else 'ok'}")
    for rule, declared, measured, what in over:
        print(f"OVER: {rule} ({what}): measured {measured} MB, declared {declared} MB")
    shown = [(rule, *entry) for rule in sorted(by_rule) for entry in by_rule[rule] if show and show in entry[2]]
    for rule, declared, measured, what in shown:
        print(f"{rule} ({what}): measured {measured} MB, declared {declared} MB")
    return over


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("grid", choices=("demo", "tiny", "headline"))
    parser.add_argument("--scale", type=float, default=1.0, help="headline: image count scale (1 = 3200 images)")
    parser.add_argument("--data", type=Path, default=Path(tempfile.gettempdir()) / "brainpipe-headline-data",
                        help="headline: where the data set is kept between runs")
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose workflow runs")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the working folder")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix=f"rule_memory_{args.grid}_")) / "work"
    try:
        if args.grid == "headline":
            configfiles, targets, env = headline_setup(workdir, args.scale, args.data)
        else:
            overlay = REPO / "tests" / "configs" / "tiny.yaml" if args.grid == "tiny" else None
            configfiles, targets, env = demo_setup(workdir, overlay, args.repo)
        output = run(workdir, args.repo, configfiles, targets, env, args.cores)
        title = f"{args.grid}{f' (scale {args.scale:g})' if args.grid == 'headline' else ''}, {args.repo}"
        over = report(list(jobs(output, workdir)), title)
    finally:
        if not args.keep:
            shutil.rmtree(workdir.parent, ignore_errors=True)
        else:
            print(f"kept {workdir}")
    raise SystemExit(1 if over else 0)


if __name__ == "__main__":
    main()
