"""brainpipe against Brain-Score 2.4.2's own code: the same benchmarks, files and weights, each side cold, the runs
interleaved.

Usage::

    .venv/bin/python perf/bench_vs_brainscore.py                      # the headline at full size, 2 rounds
    .venv/bin/python perf/bench_vs_brainscore.py --scale 0.1 --rounds 1
    .venv/bin/python perf/bench_vs_brainscore.py --identifiers MajajHong2015public.IT-pls MajajHong2015public.V4-pls
    .venv/bin/python perf/bench_vs_brainscore.py --side brainpipe     # brainpipe's runs only (no reference venv)
    .venv/bin/python perf/bench_vs_brainscore.py --store STORE --identifiers Geirhos2021colour-top1   # a suite store
    .venv/bin/python perf/bench_vs_brainscore.py --store STORE --groups all --rounds 1 --json suite.json  # every group

Data and weights are perf/bench_headline.py's: MajajHong2015-public's files in Brain-Score's formats (3200 images
at scale 1, 44 repetitions, 88 V4 + 168 IT sites; written once under ``--data``) and ``torch.manual_seed(0)`` alexnet
weights. brainpipe reads them as alexnet's ``weights_file``; Brain-Score as torchvision's IMAGENET1K_V1 file in a
scratch TORCH_HOME (tests/reference/brainscore_runs.py). The two are checked to be the same tensors, so both sides
must give the same scores, and the figures print both. The benchmarks are the ones these files serve:
``MajajHong2015public.IT-pls`` (the default) and ``MajajHong2015public.V4-pls``. With ``--store``, a suite store
(tests/reference/suite_store.py) instead: identifiers of one of its groups, both sides with the group's stand-in
weights, Brain-Score with the group's set-up, as tests/reference/suite_table.py runs them (but both cold and timed
as whole commands).

Each round runs both sides once, the order alternating from round to round (so that neither always runs first on a
machine whose load drifts):

* brainpipe: ``snakemake --cores N results/alexnet/<identifier>.json ...`` in a new empty folder, the files downloaded
  from 127.0.0.1 (sha1 checked), every stage computed;
* Brain-Score: tests/reference/brainscore_runner.py in the reference venv (``make reference-venv``), all identifiers
  in one process (``load_benchmark(id)(load_model('alexnet'))`` each), the files copied from the store into a new
  BRAINIO_HOME, its result cache on, as users run it, in a new folder (so cold too).

Printed per run: wall seconds of the whole command; CPU seconds of it and all its descendants; peak resident memory
of the largest process (``ru_maxrss`` of a small launcher's children: exact, :data:`LAUNCHER`) and of the whole
process tree, sampled every 0.5 s (perf/bench_suite.py's ``TreeMemory``): the sum of the command's and its
descendants' resident sets, and the sum of their proportional sets (PSS), which counts once a page that forked
processes share; the load average before it; each identifier's score. Then per side the median over rounds,
Brain-Score's wall time over brainpipe's, and brainpipe's peak memory over Brain-Score's.
With ``--groups`` (group names or patterns, ``all`` for every group of the store), each group of the store in
turn, every identifier of it, as above; then a table of the groups, the one where brainpipe gains least first, and
the sums of the medians over all groups: the suite, family by family. ``--json`` is rewritten after each group, so
that an interrupted run keeps what it measured. A group whose Brain-Score side does not run on a store (ImageNet's
validation images) is named and left out.
Timings compare only on a quiet machine: run nothing else meanwhile.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
for _path in (REPO / "perf", REPO / "tests", REPO / "tests" / "reference"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import bench_headline  # noqa: E402
from bench_suite import measured  # noqa: E402

SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
HEADLINE = "MajajHong2015public.IT-pls"
#: The benchmarks bench_headline's files serve (MajajHong2015's public recordings and stimuli).
SERVED = (HEADLINE, "MajajHong2015public.V4-pls")
SIDES = ("brainpipe", "brainscore")


def same_weights(first: Path, second: Path) -> bool:
    """Whether two saved state dicts hold the same tensors under the same names."""
    import torch

    a, b = torch.load(first, weights_only=True), torch.load(second, weights_only=True)
    return a.keys() == b.keys() and all(torch.equal(a[name], b[name]) for name in a)


@dataclass
class Setup:
    """What both sides read: the files (``store``, served to brainpipe over HTTP, copied by Brain-Score's runner), the
    same weights twice (brainpipe's ``weights_file``; Brain-Score's TORCH_HOME, holding them under torchvision's file
    name) and, on a suite store, the identifiers' group (tests/reference/suite_store.py); ``group`` None:
    bench_headline.py's data set, whose checksums are ``sums_file``."""

    store: Path
    identifiers: list
    weights: Path
    torch_home: Path
    group: object = None
    sums_file: Path | None = None


def brainpipe_config(setup: Setup, work: Path, base_url: str) -> Path:
    """The config of brainpipe's run in ``work``: the store as data.base_url, alexnet with the setup's weights, the
    setup's identifiers as the grid's benchmarks, the download cache in ``work`` (so every run is cold)."""
    if setup.group is None:
        config = bench_headline.write_config(work / "config.yaml", base_url, setup.sums_file, work / "cache")
    else:
        import suite_table

        config = suite_table.brainpipe_config(work, setup.identifiers[0], setup.group, setup.store, base_url,
                                              setup.weights)
    settings = yaml.safe_load(config.read_text())
    settings["benchmarks"] = list(setup.identifiers)
    settings["data"]["cache_dir"] = str(work / "cache")
    config.write_text(yaml.safe_dump(settings, sort_keys=False))
    return config


def brainpipe_run(setup: Setup, base_url: str, cores: int, scratch: Path) -> dict:
    """brainpipe's targets for the setup's identifiers in a new folder under ``scratch``: the figures, the scores."""
    work = Path(tempfile.mkdtemp(prefix="brainpipe-", dir=scratch))
    config = brainpipe_config(setup, work, base_url)
    command = [SNAKEMAKE, *[f"results/alexnet/{identifier}.json" for identifier in setup.identifiers], "--cores",
               str(cores), "-s", str(REPO / "Snakefile"), "--directory", str(work), "--configfile", str(config)]
    env = bench_headline.environment()
    env.pop("SNAKEMAKE_PROFILE", None)
    figures = measured(command, work, env, work / "snakemake.log")
    return {**figures, "scores": scores_in(work / "results" / "alexnet", setup.identifiers),
            "log": str(work / "snakemake.log")}


def brainscore_run(setup: Setup, scratch: Path, python: Path) -> dict:
    """Brain-Score's identifiers in one reference-venv process, its result cache on and everything it caches in a
    new folder under ``scratch``; on a suite store with the group's set-up (suite_table.brainscore_command)."""
    import brainscore_runs

    work = Path(tempfile.mkdtemp(prefix="brainscore-", dir=scratch))
    out = work / "out"
    if setup.group is None:
        env = brainscore_runs.reference_env(work)  # result cache on, in the new folder; BRAINIO_HOME there too
        env["TORCH_HOME"] = str(setup.torch_home)
        command = [str(python), "-c", brainscore_runs.wrapper(), str(brainscore_runs.RUNNER), "--store",
                   str(setup.store), "--benchmark", *setup.identifiers, "--model", "alexnet", "--out-dir", str(out)]
    else:
        import suite_table

        command, env = suite_table.brainscore_command(python, setup.identifiers, setup.group, setup.store,
                                                      setup.weights, work, out, result_cache=True)
    for name in bench_headline.PROXIES:
        env.pop(name, None)
    figures = measured(command, work, env, work / "brainscore.log")
    return {**figures, "scores": scores_in(out, setup.identifiers), "log": str(work / "brainscore.log")}


def scores_in(folder: Path, identifiers) -> dict:
    """identifier -> the ``score`` of ``folder/<identifier>.json`` (either side writes one such file per
    identifier), None where the file is missing."""
    return {identifier: json.loads((folder / f"{identifier}.json").read_text())["score"]
            if (folder / f"{identifier}.json").is_file() else None for identifier in identifiers}


def store_group(identifiers):
    """The one suite-store group (tests/reference/suite_store.py) that holds every identifier, or an error naming
    the identifiers of none or of another group."""
    import suite_store

    owners = {}
    for identifier in identifiers:
        found = [group for group in suite_store.groups() if suite_store.family_of(identifier) in group.families]
        if not found:
            raise ValueError(f"{identifier}: no group of the suite store holds it (tests/reference/suite_store.py)")
        owners[identifier] = found[0]
    names = sorted({group.name for group in owners.values()})
    if len(names) > 1:
        raise ValueError(f"the identifiers belong to groups {', '.join(names)} of the suite store, which Brain-Score "
                         "runs with different set-ups and weights: give one group's identifiers per run")
    return next(iter(owners.values()))


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
    parser.add_argument("--identifiers", nargs="+", default=[HEADLINE],
                        help=f"the benchmarks (default {HEADLINE}; without --store: {' or '.join(SERVED)})")
    parser.add_argument("--store", type=Path,
                        help="a suite store (tests/reference/suite_store.py) instead of bench_headline.py's data set: "
                             "--identifiers of one of its groups, with the group's weights and set-up")
    parser.add_argument("--scale", type=float, default=1.0, help="image count × this (bench_headline.py's sizes)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--side", choices=("both", *SIDES), default="both")
    parser.add_argument("--cores", type=int, default=2, help="brainpipe's snakemake --cores")
    parser.add_argument("--data", type=Path,
                        help="where the data set and weights are kept between runs (default: bench_headline.py's "
                             "folder for the scale; with --store, the stand-in weights in a folder of the system's "
                             "temporary folder)")
    parser.add_argument("--brainscore-python", type=Path, default=REPO / ".venv-reference" / "bin" / "python",
                        help="the reference venv's interpreter (make reference-venv)")
    parser.add_argument("--groups", nargs="+", metavar="GROUP",
                        help="with --store: these groups of it in turn (names or patterns; all: every group), each "
                             "with every identifier of it, instead of --identifiers")
    parser.add_argument("--json", type=Path, help="also write every run's figures and the summary here")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be 1 or more")
    sides = SIDES if args.side == "both" else (args.side,)
    if "brainscore" in sides and not args.brainscore_python.is_file():
        parser.error(f"--brainscore-python {args.brainscore_python}: no such interpreter; make the reference venv "
                     "(make reference-venv) or give --side brainpipe")
    if args.groups is not None:
        return main_groups(args, parser, sides)
    scratch = Path(tempfile.mkdtemp(prefix="bench-vs-brainscore-"))
    try:
        setup = prepare(args, parser, sides, scratch)
        runs = run_rounds(setup, args, sides, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result = summary(runs)
    print_summary(result)
    if args.json:
        args.json.write_text(json.dumps({"identifiers": args.identifiers, "store": str(setup.store),
                                         "scale": None if args.store else args.scale, "runs": runs, **result},
                                        indent=1) + "\n")
    return 0


def prepare(args, parser, sides, scratch: Path) -> Setup:
    """The files and weights both sides read (written where they are not yet)."""
    if args.store is not None:
        store = checked_store(args.store, parser)
        try:
            group = store_group(args.identifiers)
        except ValueError as error:
            parser.error(str(error))
        skip = brainscore_skip(group)
        if skip and "brainscore" in sides:
            parser.error(f"{group.name}: Brain-Score's side does not run on a store: {skip}")
        return store_setup(store, list(args.identifiers), group, args.data)
    unknown = sorted(set(args.identifiers) - set(SERVED))
    if unknown:
        parser.error(f"--identifiers {' '.join(unknown)}: bench_headline.py's files serve {' and '.join(SERVED)}; "
                     "give --store STORE (a suite store) for other benchmarks")
    # bench_headline.py's folder for the same scale: one copy of the data set serves both scripts
    data = (args.data or Path(tempfile.gettempdir()) / "brainpipe-bench-headline" / f"scale-{args.scale:g}").resolve()
    store, sums_file, _ = bench_headline.prepare_data(data, args.scale)
    weights, torch_home = data / "alexnet-seeded.pth", data / "brainscore_torch_home"
    if "brainscore" in sides:
        import brainscore_runs

        under_torchvision_name = brainscore_runs.seeded_alexnet_weights(torch_home)
        if not same_weights(under_torchvision_name, weights):
            raise SystemExit(f"{under_torchvision_name} and {weights} differ: the two sides would not score the same "
                             "network; delete both and run again")
    return Setup(store, list(args.identifiers), weights, torch_home, None, sums_file)


def checked_store(path: Path, parser) -> Path:
    """``--store``'s folder, resolved; a parser error where it holds no suite store's manifest."""
    if not (path / "manifest.json").is_file():
        parser.error(f"--store {path}: no manifest.json; write a store with tests/reference/suite_store.py")
    return path.resolve()


def brainscore_skip(group) -> str:
    """Why Brain-Score's side of ``group`` does not run on a store ('' where it does)."""
    import suite_table

    return suite_table.brainscore_setup(group)["skip"]


def store_setup(store: Path, identifiers: list, group, data: Path | None) -> Setup:
    """The setup of ``identifiers`` of a suite store's ``group``: the group's stand-in weights, written under ``data``
    (default: a folder of the system's temporary folder) where they are not yet."""
    import suite_table

    # written once per kind and kept (as the headline's are): rewritten at every invocation, the file's new
    # time would send brainpipe's first run to digest it again (its parse cache keys a weights file by its
    # time), which a user's later runs never pay
    home = (data or Path(tempfile.gettempdir()) / "brainpipe-bench-vs-brainscore").resolve() / group.weights
    if not home.is_dir():  # written beside it, then renamed: an interrupted write leaves no half file here
        partial = home.with_name(f"{home.name}.partial-{os.getpid()}")
        suite_table.write_weights(group.weights, partial)
        home.parent.mkdir(parents=True, exist_ok=True)
        os.replace(partial, home)
    (weights,) = (home / "hub" / "checkpoints").glob("*.pth")
    return Setup(store, identifiers, weights, home, group)


def main_groups(args, parser, sides) -> int:
    """--groups: each selected group of the store in turn, every identifier of it; the table of the groups and the
    sums over them."""
    import suite_table

    if args.store is None:
        parser.error("--groups needs --store STORE (a suite store: tests/reference/suite_store.py)")
    if args.identifiers != [HEADLINE]:
        parser.error("give --groups or --identifiers, not both")
    store = checked_store(args.store, parser)
    manifest = json.loads((store / "manifest.json").read_text())
    chosen = suite_table.selected(manifest, None if args.groups == ["all"] else args.groups, None)
    if not chosen:
        parser.error(f"--groups {' '.join(args.groups)}: no group of {args.store} matches; its groups: "
                     f"{', '.join(sorted(manifest['groups']))}")
    results, skipped = [], {}
    for group, identifiers in chosen:
        skip = brainscore_skip(group) if "brainscore" in sides else ""
        if skip:
            skipped[group.name] = skip
            print(f"=== {group.name}: left out, Brain-Score's side does not run on a store: {skip}", flush=True)
            continue
        print(f"=== {group.name} ({len(identifiers)} identifiers)", flush=True)
        scratch = Path(tempfile.mkdtemp(prefix="bench-vs-brainscore-"))
        try:
            runs = run_rounds(store_setup(store, identifiers, group, args.data), args, sides, scratch)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        result = summary(runs)
        print_summary(result)
        results.append({"group": group.name, "identifiers": identifiers, "runs": runs, **result})
        if args.json:  # after each group: an interrupted run keeps what it measured
            args.json.write_text(json.dumps({"store": str(store), "groups": results, "skipped": skipped,
                                             "totals": group_totals(results)}, indent=1) + "\n")
    print_group_table(results, skipped)
    return 0


def group_totals(results: list[dict]) -> dict:
    """Per side the sum over groups of the median wall and CPU seconds; Brain-Score's over brainpipe's; the groups
    where brainpipe took the longer wall time."""
    totals = {side: {key: sum(result["median"][side][key] for result in results if side in result["median"])
                     for key in ("wall_s", "cpu_s")}
              for side in SIDES if any(side in result["median"] for result in results)}
    out = {"groups": len(results), "identifiers": sum(len(result["identifiers"]) for result in results),
           "sums": totals}
    if len(totals) == 2:
        out.update(wall_ratio=totals["brainscore"]["wall_s"] / totals["brainpipe"]["wall_s"],
                   cpu_ratio=totals["brainscore"]["cpu_s"] / totals["brainpipe"]["cpu_s"],
                   slower=[result["group"] for result in results if result["wall_ratio"] < 1])
    return out


def print_group_table(results: list[dict], skipped: dict) -> None:
    """The groups, the one where brainpipe gains least first; the sums over them."""
    both = all("wall_ratio" in result for result in results)
    print(f"\n{'group':24s} {'ids':>4s} {'brainpipe':>10s} {'Brain-Score':>12s} {'ratio':>6s} {'largest':>8s} "
          f"{'tree PSS':>9s}")
    order = sorted(results, key=lambda result: result["wall_ratio"]) if both else results
    for result in order:
        bp = result["median"].get("brainpipe")
        bs = result["median"].get("brainscore")
        cells = [f"{result['group']:24s} {len(result['identifiers']):4d}",
                 f"{bp['wall_s']:8.1f} s" if bp else f"{'':10s}", f"{bs['wall_s']:10.1f} s" if bs else f"{'':12s}"]
        if "wall_ratio" in result:
            cells.append(f"{result['wall_ratio']:5.2f}x {result['largest_over_brainscore']:8.2f} "
                         f"{result['tree_pss_over_brainscore']:9.2f}")
        print(" ".join(cells))
    totals = group_totals(results)
    sums = ", ".join(f"{side} {figures['wall_s']:.1f} s wall, {figures['cpu_s']:.1f} s CPU"
                     for side, figures in totals["sums"].items())
    print(f"{totals['groups']} groups, {totals['identifiers']} identifiers: {sums}")
    if "wall_ratio" in totals:
        print(f"Brain-Score / brainpipe over the groups: wall {totals['wall_ratio']:.2f}x, "
              f"CPU {totals['cpu_ratio']:.2f}x; groups where brainpipe took longer: "
              f"{', '.join(totals['slower']) or 'none'}")
    for name, why in skipped.items():
        print(f"left out: {name} ({why})")


def run_rounds(setup: Setup, args, sides, scratch: Path) -> list[dict]:
    """Each round: both sides once, the order alternating; stops at a failed run, showing its output's end."""
    from brainio_fixtures import local_http_server

    where = f"suite store {setup.store} (group {setup.group.name})" if setup.group else \
        f"data {setup.store} (scale {args.scale:g})"
    print(f"{' and '.join(sides)} on {', '.join(setup.identifiers)}; {where}; {args.rounds} round(s); "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", flush=True)
    runs = []
    with local_http_server(setup.store) as server:
        for index in range(args.rounds):
            for side in round_order(index, sides):
                if side == "brainpipe":
                    run = brainpipe_run(setup, server.url, args.cores, scratch)
                else:
                    run = brainscore_run(setup, scratch, args.brainscore_python)
                run.update(side=side, round=index + 1)
                print_run(run)
                if run["exit"] != 0:
                    raise SystemExit(f"the {side} run failed (exit {run['exit']}); the end of its output "
                                     f"({run['log']}):\n{Path(run['log']).read_text()[-4000:]}")
                runs.append(run)
    return runs


if __name__ == "__main__":
    sys.exit(main())
