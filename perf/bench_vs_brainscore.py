"""brainpipe against Brain-Score 2.4.2's own code: the same benchmarks, files and weights, each side cold, the runs
interleaved.

Usage::

    .venv/bin/python perf/bench_vs_brainscore.py                      # the headline at full size, 2 rounds
    .venv/bin/python perf/bench_vs_brainscore.py --scale 0.1 --rounds 1
    .venv/bin/python perf/bench_vs_brainscore.py --identifiers MajajHong2015public.IT-pls MajajHong2015public.V4-pls
    .venv/bin/python perf/bench_vs_brainscore.py --side brainpipe     # brainpipe's runs only (no reference venv)

Data and weights are perf/bench_headline.py's: MajajHong2015-public's files in Brain-Score's formats (3200 images
at scale 1, 44 repetitions, 88 V4 + 168 IT sites; written once under ``--data``) and ``torch.manual_seed(0)`` alexnet
weights. brainpipe reads them as alexnet's ``weights_file``; Brain-Score as torchvision's IMAGENET1K_V1 file in a
scratch TORCH_HOME (tests/reference/brainscore_runs.py). The two are checked to be the same tensors, so both sides
must give the same scores, and the figures print both. The benchmarks are the ones these files serve:
``MajajHong2015public.IT-pls`` (the default) and ``MajajHong2015public.V4-pls``.

Each round runs both sides once, the order alternating from round to round (so that neither always runs first on a
machine whose load drifts):

* brainpipe: ``snakemake --cores N results/alexnet/<identifier>.json ...`` in a new empty folder, the files downloaded
  from 127.0.0.1 (sha1 checked), every stage computed;
* Brain-Score: tests/reference/brainscore_runner.py in the reference venv (``make reference-venv``), all identifiers
  in one process (``load_benchmark(id)(load_model('alexnet'))`` each), the files copied from the store into a new
  BRAINIO_HOME, its result cache on, as users run it, in a new folder (so cold too).

Printed per run: wall seconds of the whole command; CPU seconds of it and all its descendants; peak resident memory
of the largest process (``wait4``'s ``ru_maxrss``: exact) and of the whole process tree, sampled every 0.5 s
(perf/bench_suite.py's ``TreeMemory``): the sum of the command's and its descendants' resident sets, and the sum of
their proportional sets (PSS), which counts once a page that forked processes share; the load average before it;
each identifier's score. Then per side the median over rounds, Brain-Score's wall time over brainpipe's, and
brainpipe's peak memory over Brain-Score's.
Timings compare only on a quiet machine: run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO / "perf", REPO / "tests", REPO / "tests" / "reference"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import bench_headline  # noqa: E402
from bench_suite import TreeMemory  # noqa: E402

SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
HEADLINE = "MajajHong2015public.IT-pls"
#: The benchmarks bench_headline's files serve (MajajHong2015's public recordings and stimuli).
SERVED = (HEADLINE, "MajajHong2015public.V4-pls")
SIDES = ("brainpipe", "brainscore")


def measured(command: list[str], cwd: Path, env: dict, log: Path) -> dict:
    """Run ``command``, its output into ``log``: exit status, wall s, CPU s (it and its descendants), peak RSS of its
    largest process (wait4: every descendant it waited for) and of its process tree (sampled), load before."""
    load = os.getloadavg()[0]
    start = time.perf_counter()
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        tree = TreeMemory(process.pid, interval=0.5)
        tree.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
        tree.done.set()
        tree.join()
    return {"exit": process.returncode, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "largest_mb": usage.ru_maxrss / 1024, "tree_mb": tree.peak / 2 ** 20,
            "tree_pss_mb": tree.peak_pss / 2 ** 20, "load_before": load}


def same_weights(first: Path, second: Path) -> bool:
    """Whether two saved state dicts hold the same tensors under the same names."""
    import torch

    a, b = torch.load(first, weights_only=True), torch.load(second, weights_only=True)
    return a.keys() == b.keys() and all(torch.equal(a[name], b[name]) for name in a)


def brainpipe_run(data: Path, base_url: str, sums_file: Path, identifiers, cores: int, scratch: Path) -> dict:
    """brainpipe's targets for ``identifiers`` in a new folder under ``scratch``: the figures and the scores."""
    work = Path(tempfile.mkdtemp(prefix="brainpipe-", dir=scratch))
    config = bench_headline.write_config(work / "config.yaml", base_url, sums_file, work / "cache")
    settings = yaml.safe_load(config.read_text())
    settings["benchmarks"] = list(identifiers)
    config.write_text(yaml.safe_dump(settings, sort_keys=False))
    command = [SNAKEMAKE, *[f"results/alexnet/{identifier}.json" for identifier in identifiers], "--cores",
               str(cores), "-s", str(REPO / "Snakefile"), "--directory", str(work), "--configfile", str(config)]
    env = bench_headline.environment()
    env.pop("SNAKEMAKE_PROFILE", None)
    figures = measured(command, work, env, work / "snakemake.log")
    figures["scores"] = {}
    for identifier in identifiers:
        path = work / "results" / "alexnet" / f"{identifier}.json"
        figures["scores"][identifier] = json.loads(path.read_text())["score"] if path.is_file() else None
    figures["log"] = str(work / "snakemake.log")
    return figures


def brainscore_run(store: Path, torch_home: Path, identifiers, scratch: Path, python: Path) -> dict:
    """Brain-Score's ``identifiers`` in one reference-venv process, everything it caches in a new folder."""
    import brainscore_runs

    work = Path(tempfile.mkdtemp(prefix="brainscore-", dir=scratch))
    env = brainscore_runs.reference_env(work)  # result cache on, in the new folder; BRAINIO_HOME there too
    env["TORCH_HOME"] = str(torch_home)
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        env.pop(name, None)
    command = [str(python), "-c", brainscore_runs.wrapper(), str(brainscore_runs.RUNNER), "--store", str(store),
               "--benchmark", *identifiers, "--model", "alexnet", "--out-dir", str(work / "out")]
    figures = measured(command, work, env, work / "brainscore.log")
    figures["scores"] = {}
    for identifier in identifiers:
        path = work / "out" / f"{identifier}.json"
        figures["scores"][identifier] = json.loads(path.read_text())["score"] if path.is_file() else None
    figures["log"] = str(work / "brainscore.log")
    return figures


def round_order(index: int, sides) -> list[str]:
    """The sides in round ``index``'s order: as given in even rounds, reversed in odd ones."""
    return list(sides) if index % 2 == 0 else list(reversed(sides))


def summary(runs: list[dict]) -> dict:
    """Per side the median of each figure over its runs; Brain-Score's wall over brainpipe's and brainpipe's peak
    memory over Brain-Score's (where both sides ran)."""
    sides = {}
    for side in SIDES:
        mine = [run for run in runs if run["side"] == side]
        if mine:
            sides[side] = {key: statistics.median(run[key] for run in mine)
                           for key in ("wall_s", "cpu_s", "largest_mb", "tree_mb", "tree_pss_mb")}
    result = {"median": sides}
    if len(sides) == 2:
        bp, bs = sides["brainpipe"], sides["brainscore"]
        result.update(wall_ratio=bs["wall_s"] / bp["wall_s"], cpu_ratio=bs["cpu_s"] / bp["cpu_s"],
                      largest_over_brainscore=bp["largest_mb"] / bs["largest_mb"],
                      tree_over_brainscore=bp["tree_mb"] / bs["tree_mb"],
                      tree_pss_over_brainscore=bp["tree_pss_mb"] / bs["tree_pss_mb"])
    return result


def print_run(run: dict) -> None:
    scores = ", ".join(f"{identifier} {score:.6f}" if score is not None else f"{identifier} none"
                       for identifier, score in run["scores"].items())
    print(f"round {run['round']} {run['side']:10s} {run['wall_s']:7.1f} s wall {run['cpu_s']:7.1f} s CPU  "
          f"largest {run['largest_mb']:6.0f} MB  tree {run['tree_mb']:6.0f} MB (PSS {run['tree_pss_mb']:6.0f} MB)  "
          f"load {run['load_before']:.1f}  "
          f"exit {run['exit']}  scores: {scores}", flush=True)


def print_summary(result: dict) -> None:
    print("\nmedian over rounds:")
    for side, figures in result["median"].items():
        print(f"  {side:10s} {figures['wall_s']:7.1f} s wall {figures['cpu_s']:7.1f} s CPU  largest "
              f"{figures['largest_mb']:6.0f} MB  tree {figures['tree_mb']:6.0f} MB "
              f"(PSS {figures['tree_pss_mb']:6.0f} MB)")
    if "wall_ratio" in result:
        print(f"Brain-Score / brainpipe: wall {result['wall_ratio']:.2f}x, CPU {result['cpu_ratio']:.2f}x; "
              f"brainpipe / Brain-Score peak memory: largest process {result['largest_over_brainscore']:.2f}, "
              f"process tree {result['tree_over_brainscore']:.2f} (resident sums), "
              f"{result['tree_pss_over_brainscore']:.2f} (proportional sums)")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--identifiers", nargs="+", default=[HEADLINE], choices=SERVED)
    parser.add_argument("--scale", type=float, default=1.0, help="image count × this (bench_headline.py's sizes)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--side", choices=("both", *SIDES), default="both")
    parser.add_argument("--cores", type=int, default=2, help="brainpipe's snakemake --cores")
    parser.add_argument("--data", type=Path,
                        help="where the data set is kept between runs (default: bench_headline.py's folder for "
                             "the scale)")
    parser.add_argument("--brainscore-python", type=Path, default=REPO / ".venv-reference" / "bin" / "python",
                        help="the reference venv's interpreter (make reference-venv)")
    parser.add_argument("--json", type=Path, help="also write every run's figures and the summary here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    sides = SIDES if args.side == "both" else (args.side,)
    if "brainscore" in sides and not args.brainscore_python.is_file():
        parser.error(f"--brainscore-python {args.brainscore_python}: no such interpreter; make the reference venv "
                     "(make reference-venv) or give --side brainpipe")
    # bench_headline.py's folder for the same scale: one copy of the data set serves both scripts
    data = (args.data or Path(tempfile.gettempdir()) / "brainpipe-bench-headline" / f"scale-{args.scale:g}").resolve()
    store, sums_file, _ = bench_headline.prepare_data(data, args.scale)
    torch_home = data / "brainscore_torch_home"
    if "brainscore" in sides:
        import brainscore_runs

        weights = brainscore_runs.seeded_alexnet_weights(torch_home)
        if not same_weights(weights, data / "alexnet-seeded.pth"):
            raise SystemExit(f"{weights} and {data / 'alexnet-seeded.pth'} differ: the two sides would not score the "
                             "same network; delete both and run again")
    from brainio_fixtures import local_http_server

    print(f"{' and '.join(sides)} on {', '.join(args.identifiers)}; data {store} (scale {args.scale:g}); "
          f"{args.rounds} round(s); {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    runs = []
    scratch = Path(tempfile.mkdtemp(prefix="bench-vs-brainscore-"))
    try:
        with local_http_server(store) as server:
            for index in range(args.rounds):
                for side in round_order(index, sides):
                    if side == "brainpipe":
                        run = brainpipe_run(data, server.url, sums_file, args.identifiers, args.cores, scratch)
                    else:
                        run = brainscore_run(store, torch_home, args.identifiers, scratch, args.brainscore_python)
                    run.update(side=side, round=index + 1)
                    print_run(run)
                    if run["exit"] != 0:
                        raise SystemExit(f"the {side} run failed (exit {run['exit']}); the end of its output "
                                         f"({run['log']}):\n{Path(run['log']).read_text()[-4000:]}")
                    runs.append(run)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result = summary(runs)
    print_summary(result)
    if args.json:
        args.json.write_text(json.dumps({"identifiers": args.identifiers, "scale": args.scale, "runs": runs,
                                         **result}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
