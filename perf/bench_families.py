"""Behavioural families on their fixtures: brainpipe's cold time, CPU and jobs beside Brain-Score 2.4.2's on the same files.

Usage::

    .venv/bin/python perf/bench_families.py --tool PATH/TO/brainscore_reference.py \\
        [--families Geirhos2021colour Scialom2024 ...] [--bsref /work/bsref/.venv/bin/python] [--cores 2] \\
        [--no-brainscore] [--user-cache warm|empty] [--snakemake-args '--scheduler greedy'] [--json OUT.json]

Per family (``FAMILIES``: the fixture files of tests/behaviour_fixtures*.py and tests/malania_fixtures.py, written
once into a fresh folder, with the stand-in alexnet weights the family's fidelity test uses):

* brainpipe: one cold ``snakemake`` run (``--cores`` as given) of every listed benchmark of the family in an empty
  folder, the files served on 127.0.0.1 and fetched by the workflow; jobs = Snakemake's "N of M steps", per rule
  from its ``benchmark:`` files. The per-user parse cache (architectures' layer names) is warm, as after any
  earlier brainpipe run (a dry run in another folder made it), unless ``--user-cache empty``.
* Brain-Score: one process of the reference venv (its cold imports included) that loads alexnet once and runs
  Brain-Score's own benchmarks one after another on the same files, served by the project's
  ``brainscore_reference.py`` tool (``install_fixture_source``), through the torchvision op-schema shim of
  tests/reference/make_behaviour_families_reference.py.

Wall seconds and CPU seconds (user + system of every process, from ``getrusage(RUSAGE_CHILDREN)``) are printed per
side with the machine's load average before and after: the machine may be shared, so compare CPU seconds, and wall
times only of runs made at the same load. ``max |Δ|`` is the largest difference between the two sides' scores (the
fidelity tests hold them to 1e-6..1e-5; a family whose fixture has no Brain-Score reference shows what it gives).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests"), str(REPO / "tests" / "reference")]

DRIVER = """
import importlib.util, json, sys, time
tool, fixtures, out, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
spec = importlib.util.spec_from_file_location("brainscore_reference", tool)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from pathlib import Path
module.install_fixture_source(Path(fixtures).resolve(), [], False)
from brainscore_vision import load_benchmark, load_model
model = load_model("alexnet")
scores = {}
for identifier in ids:
    score = load_benchmark(identifier)(model)
    scores[identifier] = float(score.values)
Path(out).write_text(json.dumps(scores))
"""

#: the Geirhos2021colour fixture at the size issue 26 measured (2 conditions x 16 categories x 10 images = 320, 4
#: subjects: 1280 trials)
GEIRHOS_IMAGES_PER_CATEGORY = 10


def _geirhos_colour(store: Path) -> dict:
    import behaviour_fixtures as bf

    store.mkdir(parents=True, exist_ok=True)
    array, table, images = bf.geirhos2021_colour(0, images_per_category=GEIRHOS_IMAGES_PER_CATEGORY)
    bf._write_nc(array, store / "assy_brendel_Geirhos2021_colour.nc", False)
    table.to_csv(store / "stimulus_Geirhos2021_colour.csv", index=False)
    bf.write_zip(images, store / "stimulus_Geirhos2021_colour.zip")
    return {name: bf._sha1((store / name).read_bytes()) for name in
            ("assy_brendel_Geirhos2021_colour.nc", "stimulus_Geirhos2021_colour.csv", "stimulus_Geirhos2021_colour.zip")}


def _behaviour_store(family):
    def write(store):
        import behaviour_fixtures as bf

        return bf.write_behaviour_store(store, (family,))
    return write


def _families_store(family):
    def write(store):
        import behaviour_fixtures_families as ff

        return ff.write_store(store, (family,))
    return write


def _module_store(module):
    def write(store):
        return __import__(module).write_store(store)
    return write


def _seeded(home):
    import behaviour_fixtures_families as ff

    return ff.write_torch_home(home, "seeded")


def _weights(kind):
    def write(home):
        import behaviour_fixtures_families as ff

        return ff.write_torch_home(home, kind)
    return write


def _kato_weights(home):
    import behaviour_fixtures_kato as fk

    return fk.write_torch_home(home)


def _identifiers(prefix, keep=lambda identifier: True):
    def ids():
        every = (REPO / "src" / "brainpipe" / "benchmarks" / "brainscore_identifiers_2.4.2.txt").read_text().split()
        return tuple(sorted(i for i in every if i.startswith(prefix) and keep(i)))
    return ids


def _scialom_ids():
    import behaviour_fixtures_families as ff

    return _identifiers("Scialom2024", lambda i: any(f"_{d}B" in i or f"_{d}E" in i for d in ff.SCIALOM_DATASETS))()


def _scialom_all_store(store):
    import behaviour_fixtures_families as ff

    return ff.write_store(store, ("Scialom2024",), scialom_datasets=ff.SCIALOM_ALL_DATASETS)


#: family -> (fixture files writer(store) -> {file: sha1}, weights writer(torch_home) -> path, identifiers)
FAMILIES = {
    "Geirhos2021colour": (_geirhos_colour, _seeded,
                          ("Geirhos2021colour-error_consistency", "Geirhos2021colour-top1")),
    "Rajalingham2018": (_behaviour_store("Rajalingham2018.public"), _seeded, ("Rajalingham2018public-i2n",)),
    "Hebart2023": (_behaviour_store("Hebart2023"), _seeded, ("Hebart2023-match",)),
    "Ferguson2024": (_behaviour_store("Ferguson2024"), _seeded, ("Ferguson2024tilted_line-value_delta",)),
    "Hermann2020": (_families_store("Hermann2020"), _seeded,
                    ("Hermann2020cueconflict-shape_bias", "Hermann2020cueconflict-shape_match")),
    "Baker2022": (_families_store("Baker2022"), _weights("baker_prototypes"),
                  ("Baker2022frankenstein-accuracy_delta", "Baker2022fragmented-accuracy_delta",
                   "Baker2022inverted-accuracy_delta")),
    "ObjectNet": (_families_store("ObjectNet"), _weights("baker_prototypes"), ("ObjectNet-top1",)),
    "BMD2024": (_families_store("BMD2024"), _seeded,
                ("BMD2024.texture_1Behavioral-accuracy_distance", "BMD2024.dotted_2Behavioral-accuracy_distance")),
    "Lonnqvist2024": (_families_store("Lonnqvist2024"), _seeded,
                      ("Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance",
                       "Lonnqvist2024_InlabNoInstructionsBehavioralAccuracyDistance",
                       "Lonnqvist2024_EngineeringAccuracy")),
    "Scialom2024": (_families_store("Scialom2024"), _weights("scialom_prototypes"), _scialom_ids),
    # the issue's "whole family": all 44 benchmarks on all 22 data sets (24 images, 72 for a composite: half of
    # the real sets, 12 categories × 4 objects)
    "Scialom2024-all": (_scialom_all_store, _weights("scialom_prototypes"), _identifiers("Scialom2024")),
    "Kato2026": (_module_store("behaviour_fixtures_kato"), _kato_weights, _identifiers("Kato2026")),
    "Maniquet2024": (_module_store("behaviour_fixtures_maniquet"), _seeded,
                     ("Maniquet2024-confusion_similarity", "Maniquet2024-tasks_consistency")),
    "Coggan2024_behavior": (_module_store("behaviour_fixtures_coggan"), _seeded,
                            ("tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity",)),
    "Malania2007": (_module_store("malania_fixtures"), _seeded,
                    ("Malania2007.vernieracuity-threshold", "Malania2007.short2-threshold_elevation")),
}


def load():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_brainpipe(folder: Path, ids, sums, weights, cores, user_cache="warm", extra_args=()):
    from brainio_fixtures import local_http_server
    from test_real_data_workflow import snakemake, write_checksums, write_config

    work = folder / "work"
    work.mkdir()
    targets = [f"results/alexnet/{i}.json" for i in ids]
    # PYTHONPATH: the jobs compute with this checkout's library even where the venv's editable brainpipe is another
    # checkout's (a before/after comparison runs this script from a copy of the older commit). XDG_CACHE_HOME: the
    # per-user parse cache (pipeline/parse_cache.py) of this run alone
    env = {"PYTHONPATH": str(REPO / "src"), "XDG_CACHE_HOME": str(folder / "user_cache")}
    # brainpipe's own modules compiled to bytecode, as an installed package's are (pip compiles at install; an
    # editable install writes __pycache__ at its first import) and as Brain-Score's are in its venv: where
    # PYTHONDONTWRITEBYTECODE is set (some containers), every job would compile them again (≈ 0.1 s a job)
    env["PYTHONDONTWRITEBYTECODE"] = ""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "src")], check=True,
                   env={**os.environ, **env})
    with local_http_server(folder / "store") as server:
        config = write_config(folder, ids, dict(base_url=server.url,
                                                checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights, batch_size=None)  # the shipped batch size, as a user runs it
        if user_cache == "warm":  # as after any earlier brainpipe run of this user: a dry run in another folder
            (folder / "earlier").mkdir()
            snakemake(folder / "earlier", config, targets, extra_env=env, args=("-n",))
        cpu, start = children_cpu(), time.perf_counter()
        run = snakemake(work, config, targets, torch_home=folder / "torch_home", extra_env=env,
                        args=("--cores", str(cores), *extra_args))
        wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if run.returncode:
        return {"failed": run.stderr[-3000:]}
    steps = re.findall(r"(\d+) of (\d+) steps", run.stderr)
    timing = work / "logs" / "timing"
    timed = sorted(p.relative_to(timing).parts[0] for p in timing.rglob("*.tsv")) if timing.exists() else []
    return {"wall_s": wall, "cpu_s": cpu, "jobs": int(steps[-1][1]) if steps else None,
            "per_rule": {rule: timed.count(rule) for rule in dict.fromkeys(timed)},
            "scores": {i: json.loads((work / "results" / "alexnet" / f"{i}.json").read_text())["score"] for i in ids}}


def run_brainscore(folder: Path, ids, tool, bsref, result_caching=False):
    from make_behaviour_families_reference import SHIM

    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1",
               TORCH_HOME=str(folder / "torch_home"), BRAINIO_HOME=str(folder / "brainio"))
    if result_caching:  # Brain-Score's default for its users: activations stored on disk per model × stimulus set
        env["RESULTCACHING_DISABLE"] = ""  # set, so the tool's setdefault("1") keeps it; "" disables nothing
        env["RESULTCACHING_HOME"] = str(folder / "result_caching")  # empty: cold
    driver = folder / "driver.py"
    driver.write_text(DRIVER)
    cpu, start = children_cpu(), time.perf_counter()
    run = subprocess.run([bsref, "-c", SHIM, str(driver), tool, str(folder / "store"), str(folder / "bs.json"), *ids],
                         env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - start, children_cpu() - cpu
    if run.returncode:
        return {"failed": run.stderr[-3000:]}
    return {"wall_s": wall, "cpu_s": cpu, "scores": json.loads((folder / "bs.json").read_text())}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--tool", help="the brainscore_reference.py tool (needed unless --no-brainscore)")
    parser.add_argument("--bsref", default="/work/bsref/.venv/bin/python")
    parser.add_argument("--families", nargs="*", help=f"default: all of {', '.join(FAMILIES)}")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--no-brainscore", action="store_true", help="time brainpipe only")
    parser.add_argument("--json", help="write the figures here too")
    parser.add_argument("--brainscore-caching", action="store_true",
                        help="run Brain-Score with its result_caching on (its users' default; an empty store), not "
                             "disabled as the fidelity references run it")
    parser.add_argument("--user-cache", choices=("warm", "empty"), default="warm",
                        help="the per-user parse cache (layer names, weights checks): warm as after any earlier "
                             "brainpipe run (default), or empty as on brainpipe's very first run (+≈3 s: torch)")
    parser.add_argument("--snakemake-args", default="",
                        help="more options for brainpipe's snakemake command, e.g. '--scheduler ilp'")
    parser.add_argument("--keep", action="store_true",
                        help="keep each family's folder (fixtures, a copy of the weights: ~250 MB each) for inspection")
    args = parser.parse_args()
    if not args.no_brainscore and not args.tool:
        parser.error("--tool is needed (or --no-brainscore)")
    from brainpipe import benchmarks

    known = set(benchmarks.builtin().identifiers())
    root = Path(tempfile.mkdtemp(prefix="bench-families-"))
    print(f"machine: {os.cpu_count()} CPUs, load {load()}; snakemake --cores {args.cores} {args.snakemake_args}; "
          f"model alexnet (stand-in weights); user parse cache {args.user_cache}; folders under {root}"
          f"{' (kept)' if args.keep else ' (removed at the end; --keep keeps them)'}")
    rows = []
    for family in args.families or FAMILIES:
        write_store, write_weights, ids = FAMILIES[family]
        ids = ids() if callable(ids) else ids
        missing = [i for i in ids if i not in known]
        if missing:
            print(f"\n== {family}: skipped: {', '.join(missing)} not in this checkout's registry")
            continue
        folder = root / family
        sums = write_store(folder / "store")
        weights = write_weights(folder / "torch_home")
        row = {"family": family, "benchmarks": len(ids), "load_before": load()}
        row["brainpipe"] = run_brainpipe(folder, ids, sums, weights, args.cores, args.user_cache,
                                         args.snakemake_args.split())
        row["load_between"] = load()
        if not args.no_brainscore:
            row["brainscore"] = run_brainscore(folder, ids, args.tool, args.bsref, args.brainscore_caching)
        row["load_after"] = load()
        ours, theirs = row["brainpipe"], row.get("brainscore")
        print(f"\n== {family}: {len(ids)} benchmark(s), {len(sums)} fixture files; load {row['load_before']} -> "
              f"{row['load_after']}")
        if "failed" in ours:
            print(f"  brainpipe FAILED:\n{ours['failed']}")
        else:
            print(f"  brainpipe   {ours['wall_s']:6.1f} s wall {ours['cpu_s']:6.1f} s CPU, {ours['jobs']} jobs "
                  f"({', '.join(f'{r} {n}' for r, n in ours['per_rule'].items())})")
        if theirs and "failed" in theirs:
            print(f"  Brain-Score FAILED:\n{theirs['failed'][-1500:]}")
        elif theirs:
            print(f"  Brain-Score {theirs['wall_s']:6.1f} s wall {theirs['cpu_s']:6.1f} s CPU, one process")
            if "scores" in ours:
                row["max_delta"] = max(abs(ours["scores"][i] - theirs["scores"][i]) for i in ids)
                print(f"  max |score difference| {row['max_delta']:.2e}")
        rows.append(row)
    print(f"\n{'family':22s} {'ids':>3s} {'bp wall':>8s} {'bp CPU':>7s} {'jobs':>4s} {'BS wall':>8s} {'BS CPU':>7s} "
          f"{'max |Δ|':>8s}")
    for row in rows:
        ours, theirs = row["brainpipe"], row.get("brainscore") or {}
        cell = lambda side, key, form: format(side[key], form) if key in side and side[key] is not None else "-"
        print(f"{row['family']:22s} {row['benchmarks']:3d} {cell(ours, 'wall_s', '8.1f'):>8s} "
              f"{cell(ours, 'cpu_s', '7.1f'):>7s} {cell(ours, 'jobs', '4d'):>4s} {cell(theirs, 'wall_s', '8.1f'):>8s} "
              f"{cell(theirs, 'cpu_s', '7.1f'):>7s} {cell(row, 'max_delta', '8.1e'):>8s}")
    print(f"load {load()}")
    if args.json:
        Path(args.json).write_text(json.dumps({"cores": args.cores, "cpus": os.cpu_count(), "rows": rows}, indent=1))
    if not args.keep:  # each family's folder holds a copy of alexnet's weights: a few runs filled /tmp before
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
