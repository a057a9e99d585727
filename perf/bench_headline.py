"""The headline target at MajajHong2015-public size: per-rule time, CPU and memory, and each stage against its floor.

Usage::

    .venv/bin/python perf/bench_headline.py --scale 0.1     # 320 images × 44 repetitions: a few minutes
    .venv/bin/python perf/bench_headline.py                 # 3200 images × 44 repetitions × (88 V4 + 168 IT)
    .venv/bin/python perf/bench_headline.py --jobs-overhead # fixed cost of an empty job of each kind
    .venv/bin/python perf/bench_headline.py --jobs-overhead --repo /path/to/older/checkout   # before/after

Data: tests/brainio_fixtures.py writes ``assy_dicarlo_MajajHong2015_public.nc`` and ``stimulus_hvm-public.csv/.zip``
in the real formats (16 objects × (40 V0 + 160 V3) 256×256 PNGs at scale 1, 44 repetitions, 88 V4 + 168 IT
neuroids, float32), kept under ``--data`` for later runs. They are served over HTTP on 127.0.0.1 and the workflow
downloads them (sha1s through ``data.checksums_override``). alexnet's weights are seeded random numbers given as
its ``weights_file`` (a real file under torchvision's name would be refused: its hash is checked), so scores are not
Brain-Score's; the timings are those of the real shapes.

Runs, each with the ``snakemake`` command as a subprocess (``--cores`` as given, default 2):

1. ``IT cold``: ``results/alexnet/MajajHong2015.IT-pls.json`` in an empty folder (downloads included);
2. ``V4 after IT``: ``results/alexnet/MajajHong2015.V4-pls.json`` in the same folder;
3. ``pls_components 20``: the IT target again after setting ``benchmark_settings.MajajHong2015.IT-pls.pls_components``;
4. ``no-op -n``: ``snakemake -n`` on the IT target (nothing to do);
5. ``grid cold``: IT and V4 targets together in a new empty folder;
6. ``default grid -n``: ``snakemake -n`` on config/config.yaml's own grid in an empty folder (parse + DAG).

Per run and rule, from Snakemake's ``benchmark:`` files (logs/timing/<rule>/…, rewritten by the jobs that
ran): jobs, summed wall time, summed CPU time, largest peak RSS (Snakemake samples it). Per run: wall time, the
CPU time and largest peak RSS of all its processes (getrusage of the finished children: exact, not sampled).

Floors: extraction against a bare torch loop over the same image files (PIL decode, resize 224, normalise,
alexnet forward, batch 64, same threads); fold jobs against the same fold fits (``metrics.run_fold_gram`` on the
same Gram matrix and target) in one process; the run's wall time against the sum of its jobs' wall times.
The machine's load average is printed with the figures (timings are only comparable on a quiet machine).
"""

from __future__ import annotations

import argparse
import ast
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
IT, V4 = "MajajHong2015.IT-pls", "MajajHong2015.V4-pls"
PROXIES = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")


def sizes(scale):
    """Fixture sizes: MajajHong2015-public (3200 images = 16 objects × (40 V0 + 160 V3), 44 repetitions,
    88 V4 + 168 IT neuroids) with the image count scaled; at least 160 images so that 10 stratified splits run."""
    return dict(v0=max(2, round(40 * scale)), v3=max(8, round(160 * scale)), reps=44, v4=88, it=168)


def load():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# --- data ----------------------------------------------------------------------------------------------------------


def prepare_data(folder: Path, scale: float):
    """The fixture store and a TORCH_HOME with alexnet weights; written once per scale, then reused."""
    sys.path.insert(0, str(REPO / "tests"))
    import brainio_fixtures as fixtures

    store, sums_file = folder / "store", folder / "checksums.json"
    if not sums_file.exists():
        started = time.perf_counter()
        shutil.rmtree(store, ignore_errors=True)
        sums = fixtures.write_fixture_store(store, scale=sizes(scale), datasets=("MajajHong2015.public",))
        sums_file.write_text(json.dumps(sums, indent=1))  # written last: its presence marks a complete store
        print(f"wrote the data set in {time.perf_counter() - started:.0f} s: {store}")
    torch_home = folder / "torch_home"
    weights = folder / "alexnet-seeded.pth"
    if not weights.exists():
        import torch

        from brainpipe.models._torchvision import import_torchvision

        torch.manual_seed(0)
        weights.parent.mkdir(parents=True, exist_ok=True)
        torch.save(import_torchvision().models.alexnet(weights=None).state_dict(), f"{weights}.tmp")
        os.replace(f"{weights}.tmp", weights)
    return store, sums_file, torch_home


def write_config(path: Path, base_url, sums_file, cache, settings=None):
    import yaml

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=["alexnet"], benchmarks=[IT, V4], benchmark_settings=settings or {})
    config["model_zoo"]["alexnet"].update(weights=None, weights_file=str(Path(sums_file).parent / "alexnet-seeded.pth"))
    config["data"] = {"base_url": base_url, "cache_dir": str(cache), "local_files": {},
                      "checksums_override": str(sums_file)}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


# --- running snakemake ----------------------------------------------------------------------------------------------

# Runs a command and prints the CPU time and the largest peak RSS of all its (waited-for) descendants.
RUSAGE = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]); "
          "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
          "print('RUSAGE', r.ru_utime + r.ru_stime, r.ru_maxrss, file=sys.stderr); sys.exit(code)")


def environment(torch_home=None):
    env = {key: value for key, value in os.environ.items() if key not in PROXIES}
    env["no_proxy"] = "127.0.0.1,localhost"
    env.pop("BRAINPIPE_DATA_URL", None)
    if torch_home:
        env["TORCH_HOME"] = str(torch_home)
    return env


def snakemake(workdir: Path, configfile, targets, cores, torch_home=None, dry_run=False, snakefile=None):
    """Run snakemake; return (wall s, CPU s of all processes, largest peak RSS MiB, output)."""
    command = [PYTHON, "-c", RUSAGE, SNAKEMAKE, *targets, "--cores", str(cores), "-s",
               str(snakefile or REPO / "Snakefile"), "--directory", str(workdir)]
    if configfile:
        command += ["--configfile", str(configfile)]
    if dry_run:
        command.append("-n")
    started = time.perf_counter()
    run = subprocess.run(command, cwd=workdir, env=environment(torch_home), capture_output=True, text=True)
    wall = time.perf_counter() - started
    output = run.stdout + run.stderr
    if run.returncode != 0:
        raise SystemExit(f"snakemake failed in {workdir}:\n{output[-5000:]}")
    cpu, rss = next(line.split()[1:] for line in output.splitlines() if line.startswith("RUSAGE"))
    return wall, float(cpu), int(rss) / 1024, output


def benchmark_records(workdir: Path, since: float):
    """{rule: [record, ...]} from the benchmark TSVs written after ``since`` (epoch seconds)."""
    records = defaultdict(list)
    root = workdir / "logs" / "timing"
    for path in root.rglob("*.tsv") if root.exists() else []:
        if path.stat().st_mtime < since:
            continue
        with path.open() as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        number = lambda key: float(row[key]) if row.get(key) not in (None, "", "NA", "-") else float("nan")
        records[path.relative_to(root).parts[0]].append(
            {"file": str(path.relative_to(workdir)), "s": number("s"), "cpu_time": number("cpu_time"),
             "max_rss": number("max_rss")})
    return records


def per_rule_table(records):
    rows = []
    for rule, items in sorted(records.items(), key=lambda kv: -sum(r["s"] for r in kv[1])):
        rss = [r["max_rss"] for r in items if r["max_rss"] == r["max_rss"]]
        rows.append({"rule": rule, "jobs": len(items), "wall_s": sum(r["s"] for r in items),
                     "cpu_s": sum(r["cpu_time"] for r in items if r["cpu_time"] == r["cpu_time"]),
                     "peak_rss_mib": max(rss) if rss else float("nan")})
    return rows


def print_run(name, wall, cpu, rss, records):
    rows = per_rule_table(records)
    stages = sum(row["wall_s"] for row in rows)
    print(f"\n== {name}: {wall:.1f} s wall, {cpu:.1f} s CPU (all processes), peak RSS {rss:.0f} MiB "
          f"(largest process), load {load()}")
    if rows:
        print(f"   {'rule':18s} {'jobs':>4s} {'wall s':>8s} {'CPU s':>8s} {'peak RSS MiB':>13s}")
        for row in rows:
            print(f"   {row['rule']:18s} {row['jobs']:4d} {row['wall_s']:8.1f} {row['cpu_s']:8.1f} "
                  f"{row['peak_rss_mib']:13.0f}")
        print(f"   sum of job wall times {stages:.1f} s; run / sum of stages = {wall / stages:.2f}")
    return {"run": name, "wall_s": wall, "cpu_s": cpu, "peak_rss_mib": rss, "rules": rows,
            "sum_of_stages_s": stages}


# --- floors ---------------------------------------------------------------------------------------------------------


def bare_loop(images_folder, torch_home, threads, batch_size=64):
    """Seconds for a plain torch loop over the image files: decode, resize, normalise, alexnet forward."""
    code = f"""
import os, time, numpy as np, torch
from PIL import Image
from brainpipe.models._torchvision import import_torchvision
torch.set_num_threads({threads})
tv = import_torchvision()
net = tv.models.alexnet(weights=None)
net.load_state_dict(torch.load({str(Path(torch_home).parent / "alexnet-seeded.pth")!r}, weights_only=True))
net = net.eval()
paths = sorted(os.path.join(root, name) for root, _, names in os.walk({str(images_folder)!r})
               for name in names if name.endswith('.png'))
mean, std = np.array([0.485, 0.456, 0.406], np.float32), np.array([0.229, 0.224, 0.225], np.float32)
started = time.perf_counter()
with torch.inference_mode():
    for i in range(0, len(paths), {batch_size}):
        batch = []
        for p in paths[i:i + {batch_size}]:
            image = Image.open(p).convert('RGB').resize((224, 224), 2)
            batch.append(((np.asarray(image, np.float32) / 255 - mean) / std).transpose(2, 0, 1))
        net(torch.from_numpy(np.stack(batch)))
print(time.perf_counter() - started, len(paths))
"""
    run = subprocess.run([PYTHON, "-c", code], env=environment(torch_home), capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"bare torch loop failed:\n{run.stderr[-3000:]}")
    seconds, count = run.stdout.split()[-2:]
    return float(seconds), int(count)


def fold_floor(workdir: Path, benchmark_id, layer, settings):
    """Seconds for all folds of ``benchmark_id`` fitted in one process from the same files the fold jobs read."""
    gram = next((workdir / "results" / "gram" / "alexnet").glob(f"*/{layer}.nc"))
    region = benchmark_id.split(".")[1].split("-")[0]
    target = next((workdir / "results" / "assemblies").glob(f"*/{region}-static/target.nc"))
    code = f"""
import json, time
from threadpoolctl import threadpool_limits
threadpool_limits(1)  # as a fold job (threads: 1)
from brainpipe import benchmarks
from brainpipe.io import read_netcdf
from brainpipe.neural.metrics import run_fold_gram
benchmark = benchmarks.parse({benchmark_id!r}, {settings!r})
started = time.perf_counter()
gram = read_netcdf({str(gram)!r}); target = read_netcdf({str(target)!r})
read = time.perf_counter() - started
started = time.perf_counter()
results = [run_fold_gram(benchmark, gram, target, fold) for fold in range({{n_folds}})]
print(json.dumps({{"read_s": read, "fit_s": time.perf_counter() - started,
                  "values": [r["values"] for r in results]}}))
"""
    folds = sorted((workdir / "results" / "alexnet" / benchmark_id / "layers" / layer).glob("fold*.json"))
    run = subprocess.run([PYTHON, "-c", code.replace("{n_folds}", str(len(folds)))], capture_output=True,
                         text=True, env=environment())
    if run.returncode != 0:
        raise SystemExit(f"fold floor failed:\n{run.stderr[-3000:]}")
    floor = json.loads(run.stdout.splitlines()[-1])
    jobs = [json.loads(path.read_text()) for path in folds]
    same = all(a["values"] == b for a, b in zip(sorted(jobs, key=lambda j: j["fold"]), floor["values"]))
    return floor["read_s"], floor["fit_s"], sum(j["seconds"] for j in jobs), same


# --- the headline runs ----------------------------------------------------------------------------------------------


def headline(args):
    data = Path(args.data or Path(tempfile.gettempdir()) / "brainpipe-bench-headline" / f"scale-{args.scale:g}")
    work = Path(args.work or data / "runs")
    data.mkdir(parents=True, exist_ok=True)
    store, sums_file, torch_home = prepare_data(data, args.scale)
    import brainio_fixtures as fixtures  # on the path since prepare_data

    print(f"machine: {os.cpu_count()} CPUs, load {load()}; snakemake --cores {args.cores}; data {store}")
    summary = work / "headline.json"
    first, second = work / "it-then-v4", work / "grid"
    target = lambda b: f"results/alexnet/{b}.json"
    results = [] if not args.reuse else json.loads(summary.read_text())["runs"]

    def save(**extra):
        summary.write_text(json.dumps({"scale": args.scale, "cores": args.cores, "cpus": os.cpu_count(),
                                       "load": load(), "runs": results, **extra}, indent=1))

    with fixtures.local_http_server(store) as server:
        def run(name, workdir, configfile, targets, dry_run=False):
            since = time.time() - 1
            wall, cpu, rss, output = snakemake(workdir, configfile, targets, args.cores, torch_home, dry_run)
            if dry_run:
                jobs = [line for line in output.splitlines() if line.strip().startswith("total")]
                print(f"\n== {name}: {wall:.2f} s wall ({jobs[0].strip() if jobs else 'nothing to be done'}), "
                      f"load {load()}")
                results.append({"run": name, "wall_s": wall, "cpu_s": cpu})
            else:
                results.append(print_run(name, wall, cpu, rss, benchmark_records(workdir, since)))
            save()

        if not args.reuse:
            shutil.rmtree(work, ignore_errors=True)
            first.mkdir(parents=True)
            second.mkdir(parents=True)
            config = write_config(work / "config.yaml", server.url, sums_file, first / "cache")
            run("IT cold", first, config, [target(IT)])
            run("V4 after IT", first, config, [target(V4)])
            changed = write_config(work / "config-pls20.yaml", server.url, sums_file, first / "cache",
                                   settings={IT: {"pls_components": 20}})
            run("pls_components 20", first, changed, [target(IT)])
            run("no-op -n", first, changed, [target(IT)], dry_run=True)
            grid_config = write_config(work / "config-grid.yaml", server.url, sums_file, second / "cache")
            run("grid cold", second, grid_config, [target(IT), target(V4)])
        results[:] = [r for r in results if r["run"] != "default grid -n"]
        empty = Path(tempfile.mkdtemp(prefix="default-grid-", dir=work))
        run("default grid -n", empty, REPO / "config" / "config.yaml", [], dry_run=True)
        shutil.rmtree(empty)

    it_cold = next(r for r in results if r["run"] == "IT cold")
    activations_s = next(r["wall_s"] for r in it_cold["rules"] if r["rule"] == "activations")
    fold_jobs_s = next(r["wall_s"] for r in it_cold["rules"] if r["rule"] == "fit_fold")
    print("\n== floors (job figures: IT cold run; floors measured now, fold fits with the last IT settings)")
    images = first / "resources" / "stimuli" / "hvm-public"
    bare_s, count = bare_loop(images, torch_home, threads=args.cores)
    print(f"   extraction job {activations_s:.1f} s vs bare torch loop {bare_s:.1f} s over {count} images "
          f"({count / bare_s:.0f} images/s): {activations_s / bare_s:.2f}×")
    score = json.loads((first / target(IT)).read_text())  # last written with pls_components 20
    read_s, fit_s, in_job_fit_s, same = fold_floor(first, IT, "features.12", score["data"]["settings"])
    print(f"   fold jobs {fold_jobs_s:.1f} s (their fits: {in_job_fit_s:.1f} s) vs the same fits in one process "
          f"{fit_s:.1f} s (+ {read_s:.1f} s reading the Gram matrix and target): "
          f"{fold_jobs_s / (fit_s + read_s):.2f}×; identical values: {same}")
    print(f"   IT cold run {it_cold['wall_s']:.1f} s vs the sum of its jobs {it_cold['sum_of_stages_s']:.1f} s: "
          f"{it_cold['wall_s'] / it_cold['sum_of_stages_s']:.2f}×")
    print(f"   IT score (pls_components 20) {score['score']:.6f}, raw {score['raw']:.6f}, "
          f"ceiling {score['ceiling']:.6f}")
    activations = sorted((first / "results" / "activations" / "alexnet").glob("*/*.nc"))
    grams = sorted((first / "results" / "gram" / "alexnet").glob("*/*.nc"))
    print(f"   on disk: activations {sum(p.stat().st_size for p in activations) / 2**20:.0f} MiB "
          f"({len(activations)} layers), Gram matrices {sum(p.stat().st_size for p in grams) / 2**20:.0f} MiB; "
          f"load {load()}")
    save(floors={"activations_s": activations_s, "bare_loop_s": bare_s, "images": count,
                 "fold_jobs_s": fold_jobs_s, "fold_fits_one_process_s": fit_s, "fold_read_s": read_s,
                 "fold_values_identical": same})
    print(f"\nfigures: {summary}")


# --- the fixed cost of a job ----------------------------------------------------------------------------------------

EMPTY_SNAKEFILE = """
rule all:
    input: expand("done/{{kind}}", kind={kinds!r})

rule empty:
    output: "done/{{kind}}"
    log: "logs/{{kind}}.log"
    benchmark: "logs/timing/{{kind}}.tsv"
    script: "scripts/{{wildcards.kind}}.py"
"""


def import_lines(script: Path):
    """The script's top-level imports (what a job of that kind loads before doing anything)."""
    tree = ast.parse(script.read_text())
    return [ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]


def jobs_overhead(args):
    """Run one empty job per workflow script: the script's imports, its log set-up, nothing else."""
    repo = Path(args.repo).resolve() if args.repo else REPO
    scripts = sorted((repo / "workflow" / "scripts").glob("*.py"))
    with tempfile.TemporaryDirectory(prefix="brainpipe-jobs-overhead-") as folder:
        folder = Path(folder)
        (folder / "scripts").mkdir()
        # a regression fold job also imports brainpipe.neural.regression (torch) once it fits: timed as its own kind
        jobs = [("empty", None, [])] + [(s.stem, s, []) for s in scripts] + [
            ("fit_fold+regression", repo / "workflow" / "scripts" / "fit_fold.py", ["import brainpipe.neural.regression"])]
        kinds = [kind for kind, _, _ in jobs]
        for kind, script, extra in jobs:
            body = [] if script is None else [
                f"import sys; sys.path.insert(0, {str(repo / 'src')!r})", *import_lines(script), *extra,
                "from brainpipe.pipeline.logs import logged",
                f"with logged(snakemake.log[0], {kind!r}):", "    pass"]
            (folder / "scripts" / f"{kind}.py").write_text("\n".join(body + [
                "open(snakemake.output[0], 'w').close()",
                f"print('torch' in sys.modules, file=open(snakemake.output[0], 'w'))" if script else ""]) + "\n")
        snakefile = folder / "Snakefile"
        snakefile.write_text(EMPTY_SNAKEFILE.format(kinds=kinds))
        best = {}
        for _ in range(args.repeat):
            shutil.rmtree(folder / "done", ignore_errors=True)
            snakemake(folder, None, [], 1, snakefile=snakefile)
            for kind in kinds:
                with (folder / "logs" / "timing" / f"{kind}.tsv").open() as handle:
                    seconds = float(next(csv.DictReader(handle, delimiter="\t"))["s"])
                best[kind] = min(best.get(kind, float("inf")), seconds)
        torch_used = {kind: (folder / "done" / kind).read_text().strip() == "True" for kind in kinds}
    print(f"empty job of each kind (snakemake script job, best of {args.repeat}; library: {repo / 'src'}); "
          f"load {load()}")
    print(f"   {'kind':18s} {'job s':>6s} {'- empty':>8s}  torch")
    for kind in kinds:
        print(f"   {kind:18s} {best[kind]:6.2f} {best[kind] - best['empty']:8.2f}  "
              f"{'yes' if torch_used[kind] else ''}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the 3200 images (default 1)")
    parser.add_argument("--cores", type=int, default=2, help="snakemake --cores (default 2)")
    parser.add_argument("--data", help="where the data set and weights are kept (default: a temp folder per scale)")
    parser.add_argument("--work", help="where the runs' folders are made (default: <data>/runs, emptied first)")
    parser.add_argument("--reuse", action="store_true",
                        help="skip the workflow runs; floors and the default-grid dry run on the last runs' folders")
    parser.add_argument("--jobs-overhead", action="store_true", help="time an empty job of each kind instead")
    parser.add_argument("--repo", help="--jobs-overhead: the checkout whose scripts and library to time")
    parser.add_argument("--repeat", type=int, default=3, help="--jobs-overhead: repetitions (best is shown)")
    args = parser.parse_args()
    if args.jobs_overhead:
        jobs_overhead(args)
    else:
        headline(args)


if __name__ == "__main__":
    main()
