"""Behavioural benchmarks through the real workflow on their fixtures: wall time and peak RSS per stage.

Usage::

    .venv/bin/python perf/bench_behaviour.py                  # every family below, alexnet (seeded weights)
    .venv/bin/python perf/bench_behaviour.py --only Geirhos2021colour-error_consistency --cores 2

Data: tests/behaviour_fixtures.py writes each family's files in the real formats under their real object names
(Rajalingham2018 public, Geirhos2021 colour, Hebart2023, Ferguson2024 tilted_line); they are served over HTTP on
127.0.0.1 and the workflow downloads them (sha1s through ``data.checksums_override``). The offline demo
``SyntheticShapesBehaviour-i2n`` is simulated by the workflow itself. alexnet's weights are seeded random numbers
given as its ``weights_file`` (as perf/bench_headline.py), so no score is Brain-Score's; the timings are
those of the fixture sizes, which are small: what they show is each stage's fixed cost and its memory floor.

Per benchmark, one cold ``snakemake`` run (a subprocess, ``--cores`` as given) of
``results/alexnet/<benchmark>.json`` in an empty folder; per stage, from Snakemake's ``benchmark:`` files: summed
wall time and the largest peak RSS (Snakemake samples it). Stages: ``inputs`` (fetch, placing on screen,
activations), ``task`` (rule behaviour_task: the model's choices), ``ceiling``, ``score`` (score_behaviour, whose
timing files are the score rule's; fit_fold, score_layer and score before it). Rules without a ``benchmark:``
directive are counted only in the run's wall time. A benchmark id not in this checkout's registry is listed as
skipped. The machine's load average is printed with the figures (timings are only comparable on a quiet machine).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests"), str(Path(__file__).resolve().parent)]

import bench_headline as headline  # noqa: E402  (its snakemake runner, benchmark-file reader and load average)

#: (fixture family of tests/behaviour_fixtures.write_behaviour_store or None for the offline demo, benchmark id)
CASES = (
    ("Rajalingham2018.public", "Rajalingham2018public-i2n"),
    ("Geirhos2021_colour", "Geirhos2021colour-error_consistency"),
    ("Geirhos2021_colour", "Geirhos2021colour-top1"),
    ("Hebart2023", "Hebart2023-match"),
    ("Ferguson2024", "Ferguson2024tilted_line-value_delta"),
    (None, "SyntheticShapesBehaviour-i2n"),
)
STAGES = {"fetch_stimuli": "inputs", "fetch_assembly": "inputs", "place_on_screen": "inputs",
          "demo_behaviour": "inputs", "prepare_behaviour": "inputs", "activations": "inputs", "behaviour_task": "task", "ceiling": "ceiling", "fit_fold": "score",
          "score_layer": "score", "score": "score"}
STAGE_ORDER = ("inputs", "task", "ceiling", "score")


def prepare(folder: Path):
    """The fixture store of every fixture family (once; checksums.json, written last, marks it complete) and
    alexnet's seeded weights file."""
    import behaviour_fixtures as fixtures

    store, sums_file = folder / "store", folder / "checksums.json"
    if not sums_file.exists():  # family -> {object name: sha1}: a run overrides only its own family's sha1s
        shutil.rmtree(store, ignore_errors=True)
        sums = {family: fixtures.write_behaviour_store(store, (family,)) for family in fixtures.FAMILIES}
        sums_file.write_text(json.dumps(sums, indent=1))
    weights = folder / "alexnet-seeded.pth"
    if not weights.exists():
        import torch

        from brainpipe.models._torchvision import import_torchvision

        torch.manual_seed(0)
        torch.save(import_torchvision().models.alexnet(weights=None).state_dict(), f"{weights}.tmp")
        os.replace(f"{weights}.tmp", weights)
    return store, sums_file, weights


def write_config(path: Path, benchmark, family, base_url, sums_file, weights, cache):
    """The run's config: alexnet with the seeded weights on ``benchmark``; a fixture family's data from the
    loopback server with its sha1s (an object the catalog does not know would be refused)."""
    import yaml

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=["alexnet"], benchmarks=[benchmark])
    config["model_zoo"]["alexnet"].update(weights=None, weights_file=str(weights))
    if family:
        sums = path.parent / "checksums.json"
        sums.write_text(json.dumps(json.loads(Path(sums_file).read_text())[family], indent=1))
        config["data"] = {"base_url": base_url, "cache_dir": str(cache), "local_files": {},
                          "checksums_override": str(sums)}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def stage_table(records):
    """stage -> (jobs, summed wall s, largest peak RSS MiB) from {rule: [benchmark record]}."""
    stages = {}
    for rule, items in records.items():
        stage = STAGES.get(rule, rule)
        jobs, wall, rss = stages.get(stage, (0, 0.0, float("nan")))
        peaks = [r["max_rss"] for r in items if r["max_rss"] == r["max_rss"]] + ([rss] if rss == rss else [])
        stages[stage] = (jobs + len(items), wall + sum(r["s"] for r in items), max(peaks, default=float("nan")))
    return stages


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--cores", type=int, default=2, help="snakemake --cores (default 2)")
    parser.add_argument("--only", nargs="*", help="benchmark ids to run (default: every one in the table)")
    parser.add_argument("--work", help="folder for the data and runs (default: a temp folder, kept)")
    args = parser.parse_args()
    from brainpipe import benchmarks

    known = set(benchmarks.builtin().identifiers())
    cases = [(f, b) for f, b in CASES if not args.only or b in args.only]
    work = Path(args.work or Path(tempfile.gettempdir()) / "brainpipe-bench-behaviour")
    work.mkdir(parents=True, exist_ok=True)
    store, sums_file, weights = prepare(work)
    import brainio_fixtures

    print(f"machine: {os.cpu_count()} CPUs, load {headline.load()}; snakemake --cores {args.cores}; "
          f"model alexnet (seeded weights_file); data {store}")
    results = []
    with brainio_fixtures.local_http_server(store) as server:
        for family, benchmark in cases:
            if benchmark not in known:
                print(f"\n== {benchmark}: skipped: not in this checkout")
                continue
            folder = work / "runs" / benchmark
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            config = write_config(folder / "config.yaml", benchmark, family, server.url, sums_file, weights,
                                  folder / "cache")
            since = time.time() - 1
            try:
                wall, cpu, rss, _ = headline.snakemake(folder, config, [f"results/alexnet/{benchmark}.json"],
                                                       args.cores, torch_home=work / "torch_home")
            except SystemExit as failure:  # one family's failure should not hide the others' figures
                print(f"\n== {benchmark}: FAILED (log under {folder / 'logs'}):\n{str(failure)[-1500:]}")
                results.append({"benchmark": benchmark, "family": family, "failed": True})
                continue
            stages = stage_table(headline.benchmark_records(folder, since))
            score = json.loads((folder / "results" / "alexnet" / f"{benchmark}.json").read_text())
            print(f"\n== {benchmark} ({family or 'offline demo'}): {wall:.1f} s wall, {cpu:.1f} s CPU, peak RSS "
                  f"{rss:.0f} MiB (largest process), load {headline.load()}; score {score['score']:.4f} "
                  f"(raw {score['raw']:.4f}, ceiling {score['ceiling']:.4f})")
            print(f"   {'stage':8s} {'jobs':>4s} {'wall s':>8s} {'peak RSS MiB':>13s}")
            for stage in [*STAGE_ORDER, *sorted(set(stages) - set(STAGE_ORDER))]:
                if stage in stages:
                    jobs, seconds, peak = stages[stage]
                    print(f"   {stage:8s} {jobs:4d} {seconds:8.1f} {peak:13.0f}")
            results.append({"benchmark": benchmark, "family": family, "wall_s": wall, "cpu_s": cpu,
                            "peak_rss_mib": rss, "score": score["score"],
                            "stages": {s: dict(zip(("jobs", "wall_s", "peak_rss_mib"), v)) for s, v in stages.items()}})
    summary = work / "behaviour.json"
    summary.write_text(json.dumps({"cores": args.cores, "cpus": os.cpu_count(), "load": headline.load(),
                                   "runs": results}, indent=1))
    print(f"\nload {headline.load()}; figures: {summary}")


if __name__ == "__main__":
    main()
