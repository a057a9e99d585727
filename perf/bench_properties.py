"""The Marques2020 properties stages against Brain-Score 2.4.2's code on the same arrays: time and peak memory.

Usage (after keeping a workflow run of all 22 benchmarks on the loopback fixtures)::

    BRAINPIPE_KEEP_MARQUES=/tmp/marques .venv/bin/python -m pytest -m slow tests/test_marques2020_workflow.py
    .venv/bin/python perf/bench_properties.py /tmp/marques [--brainscore-python /work/bsref/.venv/bin/python]

Three figures, all on the activations the workflow wrote (alexnet_untrained, layer features.2, tiny fixture grids
of tests/properties_fixtures.py: the timings show the fixed costs and the scaling of the bootstrap, not real-scale
extraction):

1. **the workflow's jobs** (Snakemake's ``benchmark:`` files): wall time and peak RSS per stage, summed over jobs
   (each job also pays a Python start, ~3 s);
2. **brainpipe's computation** in one process, the stages' library functions in the workflow's order: RF mapping,
   firing-rate map, each of the 6 property sets once, 22 ceilings, 22 scores;
3. **Brain-Score's** ``load_benchmark(id)``, ``benchmark(model)`` and ``benchmark.ceiling`` for the 22 (run in its own
   venv by tests/reference/make_marques2020_reference.py with ``--time``), whose RF mapping, affine map, firing
   rates and properties are recomputed inside each benchmark call (result_caching disabled, as on a fresh install
   without a cache).

The numbers of 2 and 3 are compared too (they must be equal within 1e-6).

At real stimulus counts (the issue's figure): ``--real-size DIR`` first writes Brain-Score's real grids
(tests/properties_fixtures.py ``real=True``: 3528 + 1152 + 2112 + 2304 + 450 + 1 = 9547 images, 672 pixels or
``--size-px``), serves
them on 127.0.0.1 as the loopback test does, runs the workflow for the 22 benchmarks with ``alexnet_untrained``
(torchvision's alexnet, seeded weights) into DIR/work, then prints the three figures on it::

    nice .venv/bin/python perf/bench_properties.py --real-size /tmp/marques_real
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

MODEL, LAYER = "alexnet_untrained", "features.2"


def workflow_stages(work: Path):
    stages = defaultdict(lambda: [0.0, 0.0, 0])
    for tsv in (work / "logs" / "timing").rglob("*.tsv"):
        rule = tsv.relative_to(work / "logs" / "timing").parts[0]
        name = {"ceiling": "ceiling", "score_layer": "score_layer", "score": "score"}.get(rule, rule)
        if rule == "properties":
            name = "properties:" + tsv.stem.split(".")[0].replace("ringach2002", "property sets").replace(
                "devalois1982a", "property sets").replace("devalois1982b", "property sets").replace(
                "schiller1976", "property sets").replace("cavanaugh2002", "property sets").replace(
                "freemanziemba2013", "property sets")
        with open(tsv) as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        entry = stages[name]
        entry[0] += float(row["s"])
        entry[1] = max(entry[1], float(row["max_rss"]) if row["max_rss"] not in ("", "-", "NA") else 0.0)
        entry[2] += 1
    return stages


def brainpipe_in_process(work: Path):
    import numpy as np

    from brainpipe import benchmarks
    from brainpipe.data.stimuli import read_stimulus_set
    from brainpipe.io import read_netcdf
    from brainpipe.properties import stages
    from brainpipe.properties.sets import property_function

    def folder(stimulus_set, degrees):
        return stimulus_set if degrees == 8 else f"{stimulus_set}--target8.00--source{degrees:.2f}"

    def load(stimulus_set, degrees):
        key = folder(stimulus_set, degrees)
        table = read_stimulus_set(work / "results" / "stimuli_on_screen" / key if key != stimulus_set
                                  else work / "resources" / "stimuli" / key, check_files=False)
        array = read_netcdf(work / "results" / "activations" / MODEL / key / f"{LAYER}.nc")
        return table, array

    identifiers = sorted(i for i in benchmarks.builtin().identifiers() if i.startswith("Marques2020_"))
    registry = benchmarks.builtin()
    timings, results = defaultdict(float), {}
    cpu = [0.0]  # CPU seconds (all threads) of the timed parts: the figure that holds on a loaded machine

    class timed:  # adds the wall time of the block to timings[name], its CPU time to cpu
        def __init__(self, name):
            self.name = name

        def __enter__(self):
            self.wall, self.cpu = time.perf_counter(), time.process_time()

        def __exit__(self, *exc):
            timings[self.name] += time.perf_counter() - self.wall
            if self.name != "read activations":
                cpu[0] += time.process_time() - self.cpu

    with timed("read activations"):
        rf_table, rf = load("Marques2020_receptive_field", 12)
        _, blank_array = load("Marques2020_blank", 12)
        or_table, orientation = load("Marques2020_orientation", 12)
        blank = stages.blank_response(blank_array, "blank")
    with timed("receptive fields"):
        positions = stages.receptive_field_positions(stages.responses_on(rf, rf_table, "rf"), blank, rf_table,
                                                     rf["neuroid_id"].values)
    with timed("firing-rate map"):
        affine = stages.firing_rate_map(positions, stages.responses_on(orientation, or_table, "or"), blank, or_table)
    tables = {}
    for identifier in identifiers:
        b = registry.benchmark(identifier)
        key = b.measure.property_set
        if key not in tables:
            table, array = load(b.measure.stimulus_set, b.family.visual_degrees)
            responses = stages.responses_on(array, table, key)
            with timed("property sets (6)"):
                tables[key] = stages.model_properties(property_function(key), responses, blank, table, positions,
                                                      affine, key)
    for identifier in identifiers:
        b = registry.benchmark(identifier)
        data = read_netcdf(work / "resources" / "properties" / f"{b.measure.dataset}.nc")
        values, bins = stages.neural_property(data, b.measure.property, identifier)
        with timed("ceilings (22)"):
            ceiling = stages.property_ceiling(values, bins, 0, b.measure.property)
        model = stages.model_property_values(tables[b.measure.property_set], b.measure.property, identifier)
        with timed("scores (22)"):
            results[identifier] = stages.property_score(model, values, bins, ceiling, 0, b.measure.property)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return dict(timings), results, peak, cpu[0]


def run_real_size(root: Path, size_px: int = 672):
    """Real-count fixtures in ROOT/store, the workflow's 22 benchmarks for MODEL in ROOT/work (as
    tests/test_marques2020_workflow.py runs them on the tiny grids)."""
    import yaml

    sys.path.insert(0, str(REPO / "tests"))
    from brainio_fixtures import local_http_server
    from properties_fixtures import write_marques_store

    started = time.perf_counter()
    sums = write_marques_store(root / "store", real=True, size=size_px)
    (root / "checksums.json").write_text(json.dumps(sums))
    print(f"0. real-size fixtures written in {time.perf_counter() - started:.0f} s (load {load()})")
    work = root / "work"
    (work / "config").mkdir(parents=True, exist_ok=True)
    identifiers = sorted(line.strip() for line in (REPO / "src/brainpipe/benchmarks/brainscore_identifiers_2.4.2.txt")
                         .read_text().splitlines() if line.startswith("Marques2020_"))
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=[MODEL], benchmarks=identifiers, batch_size=32)
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env.update(no_proxy="127.0.0.1,localhost", PYTHONPATH=str(REPO / "src"))
    env.pop("BRAINPIPE_DATA_URL", None)
    with local_http_server(root / "store") as server:
        config["data"] = {"base_url": server.url, "cache_dir": str(root / "cache"), "local_files": {},
                          "checksums_override": str(root / "checksums.json")}
        (work / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        started = time.perf_counter()
        subprocess.run([str(Path(sys.executable).parent / "snakemake"), "-s", str(REPO / "Snakefile"), "--cores", "2"],
                       cwd=work, env=env, check=True, capture_output=True, text=True)
    print(f"   workflow (fetch, place on screen, extraction, properties, 22 scores): "
          f"{time.perf_counter() - started:.0f} s wall (load {load()})")


def load():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kept", type=Path, nargs="?",
                        help="folder kept by BRAINPIPE_KEEP_MARQUES (store/ and work/)")
    parser.add_argument("--real-size", type=Path, metavar="DIR",
                        help="first write the real-count fixtures and run the workflow into DIR, then measure it")
    parser.add_argument("--size-px", type=int, default=672,
                        help="image size of the real-count fixtures (Brain-Score's 672; the model sees 224 either way)")
    parser.add_argument("--brainscore-python", default="/work/bsref/.venv/bin/python",
                        help="python of a venv with brainscore-vision 2.4.2 (BS_INSTALL_DEPENDENCIES=no)")
    args = parser.parse_args()
    if args.real_size:
        run_real_size(args.real_size, args.size_px)
        args.kept = args.real_size
    if args.kept is None:
        parser.error("give the kept folder or --real-size DIR")
    print(f"machine: {os.cpu_count()} CPUs, load {load()}")
    work = args.kept / "work"
    print("1. workflow jobs (Snakemake benchmark files; seconds summed over jobs, largest peak RSS in MB)")
    for name, (seconds, rss, jobs) in sorted(workflow_stages(work).items()):
        print(f"   {name:<40} {seconds:8.1f} s  {rss:8.0f} MB  ({jobs} jobs)")
    timings, results, peak, cpu = brainpipe_in_process(work)
    print(f"2. brainpipe, one process (peak RSS {peak:.0f} MB)")
    for name, seconds in timings.items():
        print(f"   {name:<40} {seconds:8.3f} s")
    ours = sum(v for k, v in timings.items() if k != "read activations")
    out = args.kept / "brainscore_timed.json"
    command = [args.brainscore_python, str(REPO / "tests/reference/make_marques2020_reference.py"), str(args.kept),
               str(out), "--time"]
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env={"BS_INSTALL_DEPENDENCIES": "no",
                                                                   "RESULTCACHING_DISABLE": "1", "PATH": "/usr/bin:/bin"})
    wall = time.perf_counter() - started
    theirs = json.loads(out.read_text())
    seconds = sum(entry["seconds"] for entry in theirs["scores"].values())
    print(f"3. Brain-Score 2.4.2, one process (peak RSS {theirs['peak_rss_mb']:.0f} MB, process wall {wall:.1f} s)")
    print(f"   22 × (benchmark(model) + benchmark.ceiling)  {seconds:8.3f} s")
    print(f"properties + ceilings + scores: brainpipe {ours:.3f} s, Brain-Score {seconds:.3f} s: "
          f"{seconds / ours:.1f}× faster (wall)")
    if all("cpu_seconds" in entry for entry in theirs["scores"].values()):  # CPU time: fair on a loaded machine
        theirs_cpu = sum(entry["cpu_seconds"] for entry in theirs["scores"].values())
        print(f"CPU seconds (all threads) of the same: brainpipe {cpu:.3f} s, Brain-Score {theirs_cpu:.3f} s: "
              f"{theirs_cpu / cpu:.1f}× less CPU")
    worst = max(abs(results[i][f] - theirs["scores"][i][f]) for i in results
                for f in ("raw", "error", "ceiling", "ceiling_error", "score"))
    print(f"largest difference of any raw, error, ceiling, ceiling error or score: {worst:.2e}")


if __name__ == "__main__":
    main()
