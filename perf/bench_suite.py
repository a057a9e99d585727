"""The whole Brain-Score suite as one grid, cold, on a suite store: does every cell end scored or empty with a
reason, and what does the run cost (wall, CPU, peak memory of the largest process and of the whole process tree,
disk, jobs), family by family.

    .venv/bin/python tests/reference/suite_store.py --scale small --out STORE          # once (≈ 10 min, ≈ 4 GB)
    .venv/bin/python perf/bench_suite.py --store STORE                                  # the issue's grid
    .venv/bin/python perf/bench_suite.py --store STORE --models pixels --benchmarks 'family:Rajalingham2020'
    .venv/bin/python perf/bench_suite.py --store STORE --models alexnet --weights-file SEEDED.pth   # seeded alexnet

One fresh working folder (``--work``, default a temporary one), the repository's config/config.yaml plus an
overlay: ``models`` (default ``pixels``, ``alexnet_untrained`` and the temporal ``recurrent_demo``), ``benchmarks``
(default the selector ``suite:brainscore``, all 291 identifiers of Brain-Score 2.4.2) and ``data``: the store served
over HTTP on 127.0.0.1 as ``data.base_url`` with its ``checksums.json`` as ``data.checksums_override``, and the
store's files that the catalog does not fetch from ``data.base_url`` (full URLs of their own, files the user
supplies) as ``data.local_files``. One ``snakemake --cores N --keep-going`` builds every cell, then:

* every cell of the grid is read back: *scored* (a number), *empty* (``score: null`` with its ``reason``) or
  *missing* (no file: a job failed; the run's log names it) — the script exits 1 if any cell is missing or any job
  failed (a report job too);
* the run's cost: wall seconds, CPU seconds of Snakemake and its jobs, the peak resident memory of the largest
  process (ru_maxrss of the children of a small launcher, :func:`measured`) and of the whole process tree (the sums
  of resident and of proportional sets, sampled every 0.5 s), the disk the folder holds (results, caches, logs; the
  store itself not counted), the jobs run (per rule);
* per family: jobs and the seconds of its model-specific jobs (Snakemake's timing TSVs under logs/timing/, each job
  counted once under the family whose identifier or stimulus set its path names; shared jobs such as a stimulus
  set's activations used by several families count under the first one), so the slow families are visible; beside
  them, Brain-Score's seconds for the same family's identifiers in the committed reference table
  (tests/data/reference/suite_table.tsv, ``bs_seconds``: Brain-Score 2.4.2's own code, one identifier at a time,
  result cache off) and the ratio, families where brainpipe's seconds are the larger marked. Not like for like: the
  table's seconds were measured on another day at another load, brainpipe's job seconds add up both job slots, and
  a job shared by families counts under one of them or under "(shared)". An extraction of one paper's stimulus
  folders together (one job for Geirhos2021's 17 data sets, named by the model and its layer-set rule) is split
  evenly over its folders' families (``layer_set_folders``: Snakemake's record of the rule that wrote each file).
  ``--report RUN.json`` prints that table again for an earlier run's ``--json`` figures, without running anything.

With ``--json FILE`` the figures are also written as JSON. Timings depend on the machine's load: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import base64
import collections
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO / "tests", REPO / "tests" / "reference"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
DEFAULT_MODELS = ("pixels", "alexnet_untrained", "recurrent_demo")
REFERENCE_TABLE = REPO / "tests" / "data" / "reference" / "suite_table.tsv"


def overlay(store: Path, base_url: str, models, benchmarks, work: Path, weights_file: Path | None = None) -> dict:
    """The config overlay of the grid; ``weights_file``: config's ``alexnet`` reads its weights from this file
    (``weights_file``, e.g. seeded stand-in weights) instead of torchvision's IMAGENET1K_V1 download."""
    from suite_table import local_files  # the store's files that are not fetched from data.base_url

    settings = {"models": list(models), "benchmarks": list(benchmarks),
                "data": {"base_url": base_url, "cache_dir": str(work / "cache"), "local_files": local_files(store),
                         "checksums_override": str(store / "checksums.json")}}
    if weights_file is not None:
        alexnet = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["model_zoo"]["alexnet"]
        settings["model_zoo"] = {"alexnet": {**alexnet, "weights": None, "weights_file": str(weights_file)}}
    return settings


class TreeMemory(threading.Thread):
    """Samples the memory of a process and all its descendants. ``peak``: the largest sum of their resident sets
    (bytes); ``peak_pss``: the largest sum of their proportional sets (Linux PSS: a page shared by n processes counts
    1/n in each), which is what the tree takes from the machine. The resident sum counts a shared page once per
    process: a fork server's children share its imported libraries copy-on-write, so there it overstates; both are
    kept. PSS is read from /proc/<pid>/smaps_rollup; where that cannot be read, ``peak_pss`` stays 0."""

    def __init__(self, pid: int, interval: float = 0.5):
        super().__init__(daemon=True)
        self.pid, self.interval, self.peak, self.peak_pss = pid, interval, 0, 0
        self.done = threading.Event()

    def run(self):
        import psutil

        try:
            root = psutil.Process(self.pid)
        except psutil.NoSuchProcess:
            return
        while not self.done.is_set():
            rss = pss = 0
            try:
                for process in [root, *root.children(recursive=True)]:
                    try:
                        rss += process.memory_info().rss
                        pss += proportional_set_size(process.pid)
                    except psutil.Error:
                        pass
            except psutil.Error:
                break
            self.peak, self.peak_pss = max(self.peak, rss), max(self.peak_pss, pss)
            self.done.wait(self.interval)


#: Runs the command given after it and writes its exit status, the CPU seconds of it and all its descendants and the
#: largest peak RSS among them (getrusage RUSAGE_CHILDREN: exact, not sampled) to the file named first. Linux hands a
#: process's peak RSS to the program it execs (exec records the old address space's peak), so a command started
#: straight from a script would report at least the script's own peak (bench_vs_brainscore.py's: torch and two state
#: dicts loaded to compare the weights); started from this small launcher, it reports the launcher's few MB at most.
LAUNCHER = ("import json, resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
            "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
            "open(sys.argv[1], 'w').write(json.dumps([code, r.ru_utime + r.ru_stime, r.ru_maxrss])); sys.exit(code)")


def measured(command: list[str], cwd: Path, env: dict | None, log: Path) -> dict:
    """Run ``command`` through :data:`LAUNCHER`, its output into ``log``: exit status, wall s, CPU s (it and its
    descendants), peak RSS of its largest process (exact) and of its process tree (sampled, the launcher's few MB
    included), load before."""
    load = os.getloadavg()[0]
    usage = log.with_name(log.name + ".usage.json")
    start = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(usage), *command], cwd=cwd, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
        tree = TreeMemory(process.pid, interval=0.5)
        tree.start()
        process.wait()
        wall = time.perf_counter() - start
        tree.done.set()
        tree.join()
    code, cpu, maxrss_kb = json.loads(usage.read_text()) if usage.is_file() else (process.returncode, 0.0, 0)
    return {"exit": code, "wall_s": wall, "cpu_s": cpu, "largest_mb": maxrss_kb / 1024,
            "tree_mb": tree.peak / 2 ** 20, "tree_pss_mb": tree.peak_pss / 2 ** 20, "load_before": load}


def proportional_set_size(pid: int) -> int:
    """A process's PSS in bytes (/proc/<pid>/smaps_rollup); 0 where it cannot be read (gone, or not Linux)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def disk_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def read_cells(work: Path, models, identifiers) -> dict:
    """(model, identifier) -> ('scored', score) | ('empty', reason) | ('missing', None)."""
    cells = {}
    for model in models:
        for identifier in identifiers:
            path = work / "results" / model / f"{identifier}.json"
            if not path.is_file():
                cells[model, identifier] = ("missing", None)
                continue
            result = json.loads(path.read_text())
            if result.get("score") is None:
                cells[model, identifier] = ("empty", result.get("reason") or "(no reason given)")
            else:
                cells[model, identifier] = ("scored", result["score"])
    return cells


def layer_set_folders(work: Path) -> dict:
    """rule name -> the stimulus folders an extraction rule of several folders wrote (activations_layers_<hash>,
    whose timing file names only the model and the rule), read from Snakemake's record of each output file
    (.snakemake/metadata/<the output path, URL-safe base64>: JSON with the ``rule`` that made it; snakemake/snakemake
    ``src/snakemake/persistence/file.py``, ``_record_path``)."""
    folders = collections.defaultdict(set)
    metadata = work / ".snakemake" / "metadata"
    for entry in metadata.rglob("*") if metadata.is_dir() else ():
        if not entry.is_file():
            continue
        # a name longer than the file system allows is cut into folders "@<part>/.../<last part>"
        name = "".join(part.lstrip("@") for part in entry.relative_to(metadata).parts)
        try:
            path = base64.urlsafe_b64decode(name + "=" * (-len(name) % 4)).decode()
        except (ValueError, UnicodeDecodeError):
            continue
        parts = Path(path).parts
        if len(parts) != 5 or parts[:2] != ("results", "activations"):  # results/activations/<model>/<folder>/<layer>
            continue
        rule = json.loads(entry.read_text()).get("rule", "")
        if rule.startswith("activations_layers_"):
            folders[rule].add(parts[3])
    return {rule: sorted(names) for rule, names in folders.items()}


def family_seconds(work: Path, identifiers) -> dict:
    """family -> [jobs, seconds] from logs/timing/<rule>/... TSVs (Snakemake's ``benchmark:`` files). An extraction
    of several stimulus folders in one job (one paper's data sets) is split evenly over its folders' families, and
    counts as a job of each."""
    from brainpipe import benchmarks

    family_of = {i: benchmarks.parse(i).family_name for i in identifiers}
    names = sorted(family_of, key=len, reverse=True)  # the longest identifier a path names wins
    stimulus_family = {}
    for identifier in identifiers:
        for stimuli in benchmarks.parse(identifier).family.stimulus_sets:
            stimulus_family.setdefault(stimuli, family_of[identifier])
    stimulus_names = sorted(stimulus_family, key=len, reverse=True)
    of_stimuli = lambda text: next((stimulus_family[s] for s in stimulus_names if s in text), "(shared)")
    several = layer_set_folders(work)
    totals = collections.defaultdict(lambda: [0, 0.0])
    for tsv in (work / "logs" / "timing").rglob("*.tsv"):
        relative = str(tsv.relative_to(work / "logs" / "timing"))
        with tsv.open() as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        if not rows:
            continue
        seconds = float(rows[-1]["s"])
        if tsv.stem in several:
            shares = collections.Counter(of_stimuli(folder) for folder in several[tsv.stem])
            for family, count in shares.items():
                totals[family][0] += 1
                totals[family][1] += seconds * count / len(several[tsv.stem])
            continue
        family = next((family_of[i] for i in names if f"/{i}/" in f"/{relative}" or f"/{i}." in f"/{relative}"),
                      None) or of_stimuli(relative)
        totals[family][0] += 1
        totals[family][1] += seconds
    return dict(totals)


def brainscore_family_seconds(table: Path, identifiers) -> dict:
    """family -> [identifiers, seconds]: Brain-Score's seconds (the reference table's ``bs_seconds``) summed over the
    family's identifiers among ``identifiers`` that have a number there."""
    from brainpipe import benchmarks

    if not table.is_file():
        return {}
    wanted = set(identifiers)
    totals: dict[str, list] = {}
    with table.open() as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["identifier"] in wanted and row.get("bs_seconds"):
                entry = totals.setdefault(benchmarks.parse(row["identifier"]).family_name, [0, 0.0])
                entry[0] += 1
                entry[1] += float(row["bs_seconds"])
    return totals


def print_families(families: dict, brainscore: dict) -> None:
    """brainpipe's job seconds per family, slowest first, beside Brain-Score's from the reference table."""
    print(f"{'family':<40} {'jobs':>6} {'job s':>8} {'Brain-Score s':>14} {'BS / bp':>8}")
    slower = []
    for family, (count, seconds) in sorted(families.items(), key=lambda item: -item[1][1]):
        theirs = brainscore.get(family)
        ratio = theirs[1] / seconds if theirs and seconds > 0 else None
        mark = "  <- brainpipe slower" if ratio is not None and ratio < 1 else ""
        if mark:
            slower.append(family)
        print(f"{family:<40} {count:>6} {seconds:>8.1f} "
              f"{(f'{theirs[1]:.1f}' if theirs else '-'):>14} {(f'{ratio:.2f}' if ratio else '-'):>8}{mark}")
    if brainscore:
        ours = sum(seconds for _, seconds in families.values())
        theirs = sum(seconds for _, seconds in brainscore.values())
        print(f"job seconds in all {ours:.1f} (both job slots, \"(shared)\" included); Brain-Score's seconds for these "
              f"identifiers in {REFERENCE_TABLE.relative_to(REPO)}: {theirs:.1f} (another day, another load); "
              f"brainpipe's job seconds larger in {len(slower)} of {len(set(families) & set(brainscore))} families"
              f"{': ' + ', '.join(slower) if slower else ''}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", type=Path, help="a folder tests/reference/suite_store.py wrote (required to run)")
    parser.add_argument("--models", nargs="+", default=list(DEFAULT_MODELS))
    parser.add_argument("--benchmarks", nargs="+", default=["suite:brainscore"], help="config benchmarks selectors")
    parser.add_argument("--work", type=Path, help="the working folder (kept; default: a new temporary folder)")
    parser.add_argument("--weights-file", type=Path,
                        help="the model alexnet's weights (a saved state dict, config weights_file), e.g. "
                             "perf/bench_headline.py's seeded ones; default: torchvision's download")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--dry-run", action="store_true", help="plan only (snakemake -n) and print the job counts")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--report", type=Path, metavar="RUN_JSON",
                        help="print the per-family table of an earlier run's --json figures; runs nothing")
    args = parser.parse_args(argv)
    if args.report:
        if not args.report.is_file():
            parser.error(f"--report {args.report}: no such file; give the file an earlier run wrote with --json")
        figures = json.loads(args.report.read_text())
        identifiers = figures.get("identifiers")
        if identifiers is None:  # figures written before they listed them: the --benchmarks given now
            from brainpipe import benchmarks
            from brainpipe.pipeline.benchmark_selectors import expand
            identifiers = expand(args.benchmarks, benchmarks.builtin())
        print_families(figures["families"], brainscore_family_seconds(REFERENCE_TABLE, identifiers))
        return 0
    if args.store is None:
        parser.error("--store is required to run the grid (or --report RUN_JSON to print an earlier run's table)")
    from brainio_fixtures import local_http_server
    from brainpipe import benchmarks
    from brainpipe.pipeline.benchmark_selectors import expand

    if args.weights_file is not None and not args.weights_file.is_file():
        parser.error(f"--weights-file {args.weights_file}: no such file")
    store = args.store.resolve()
    if not (store / "manifest.json").is_file():
        raise SystemExit(f"{store}: no manifest.json; write a store with tests/reference/suite_store.py first")
    identifiers = expand(args.benchmarks, benchmarks.builtin())
    work = (args.work or Path(tempfile.mkdtemp(prefix="bench-suite-"))).resolve()
    work.mkdir(parents=True, exist_ok=True)
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        os.environ.pop(name, None)
    env = {**os.environ, "no_proxy": "127.0.0.1,localhost"}
    env.pop("SNAKEMAKE_PROFILE", None)
    env.pop("BRAINPIPE_DATA_URL", None)
    print(f"{len(args.models)} model(s) × {len(identifiers)} benchmark(s) ({' '.join(args.benchmarks)}) in {work}; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    with local_http_server(store) as server:
        config = work / "suite.yaml"
        config.write_text(yaml.safe_dump(overlay(store, server.url, args.models, args.benchmarks, work,
                                                 args.weights_file and args.weights_file.resolve())))
        command = [SNAKEMAKE, "--cores", str(args.cores), "--keep-going", "-s", str(REPO / "Snakefile"),
                   "--directory", str(work), "--configfile", str(REPO / "config" / "config.yaml"), str(config)]
        if args.dry_run:
            command += ["-n", "--quiet", "rules"]
        run = measured(command, work, env, work / "snakemake.log")
    returncode = run["exit"]
    text = (work / "snakemake.log").read_text()
    if args.dry_run:  # Snakemake's job table: a line per rule with its job count, then the total
        counts = re.findall(r"^(\w+)\s+(\d+)$", text, flags=re.M)
        print("\n".join(f"{rule} {count}" for rule, count in counts) if returncode == 0 else text[-4000:])
        print(f"planned in {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} s CPU, {run['largest_mb']:.0f} MB; "
              f"snakemake exit {returncode}")
        return returncode
    jobs = collections.Counter(re.findall(r"^rule (\w+):$", text, flags=re.M)
                               + re.findall(r"^localrule (\w+):$", text, flags=re.M))
    cells = read_cells(work, args.models, identifiers)
    kinds = collections.Counter(kind for kind, _ in cells.values())
    figures = {
        "models": args.models, "benchmarks": len(identifiers), "cells": len(cells), "scored": kinds["scored"],
        "empty": kinds["empty"], "missing": kinds["missing"], "snakemake_exit": returncode,
        "wall_s": round(run["wall_s"], 1), "cpu_s": round(run["cpu_s"], 1),
        "peak_largest_process_mb": round(run["largest_mb"]),
        "peak_process_tree_mb": round(run["tree_mb"]), "peak_process_tree_pss_mb": round(run["tree_pss_mb"]),
        "disk_mb": round(disk_bytes(work) / 2**20), "jobs": sum(jobs.values()), "jobs_per_rule": dict(jobs),
        "load_after": round(os.getloadavg()[0], 1),
        "empty_reasons": dict(collections.Counter(reason.split(":")[0][:90] for kind, reason in cells.values()
                                                  if kind == "empty")),
        "missing_cells": sorted(f"{m}/{i}" for (m, i), (kind, _) in cells.items() if kind == "missing"),
        "families": family_seconds(work, identifiers),
    }
    print(f"cells: {figures['scored']} scored, {figures['empty']} empty with a reason, {figures['missing']} missing "
          f"(of {len(cells)}); snakemake exit {returncode}")
    print(f"wall {figures['wall_s']} s, CPU {figures['cpu_s']} s, peak memory: largest process "
          f"{figures['peak_largest_process_mb']} MB, process tree {figures['peak_process_tree_mb']} MB (resident sum; "
          f"proportional sum {figures['peak_process_tree_pss_mb']} MB); disk "
          f"{figures['disk_mb']} MB; {figures['jobs']} jobs; load after {figures['load_after']}")
    print("empty cells by reason:")
    for reason, count in sorted(figures["empty_reasons"].items(), key=lambda item: -item[1]):
        print(f"  {count:5d}  {reason}")
    for cell in figures["missing_cells"][:50]:
        print(f"  missing: {cell}")
    figures["identifiers"] = identifiers
    print_families(figures["families"], brainscore_family_seconds(REFERENCE_TABLE, identifiers))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return 1 if figures["missing"] or returncode else 0  # a failed report job fails the run too


if __name__ == "__main__":
    sys.exit(main())
