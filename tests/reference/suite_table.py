#!/usr/bin/env python
"""The reference table: brainpipe and Brain-Score 2.4.2 on the same suite-store files and the same stand-in weights,
identifier by identifier: tests/data/reference/suite_table.tsv.

    .venv/bin/python tests/reference/suite_store.py --scale small --out STORE
    .venv/bin/python tests/reference/suite_table.py --store STORE [--families F ...] [--sample N] [--identifiers I ...]

For each group of the store (tests/reference/suite_store.py) that ``--families`` selects (brainpipe family names or
group names, shell patterns; default all), its identifiers that ``--identifiers`` matches (shell patterns; default
all), at most ``--sample`` per group:

* brainpipe: the workflow (``snakemake results/alexnet/<identifier>.json``) in a fresh folder per identifier, the
  store served over HTTP on 127.0.0.1 as ``data.base_url`` with the store's ``checksums.json`` as
  ``data.checksums_override`` (files the catalog gives a full URL or no public copy, e.g. Allen2022's or the
  LAION-fMRI stimuli, as ``data.local_files`` in the store), alexnet with the group's stand-in weights as
  ``weights_file``;
* Brain-Score: tests/reference/brainscore_runner.py in the reference venv (``make reference-venv``), one process
  per group, ``load_benchmark(id)(load_model('alexnet'))`` per identifier, the same weights under torchvision's file
  name in its TORCH_HOME, the group's set-up (:data:`BRAINSCORE_SETUP`).

Each row: identifier, group, both sides' score / raw / ceiling, |Δ| of each, seconds on each side (brainpipe: the
whole ``snakemake`` run of that identifier alone, start-up, fetch and every stage included; Brain-Score: its
load_benchmark + load_model + scoring in a process that has imported Brain-Score already, result cache off) and a
note where a comparison says little (a score at 0 or 1, no number, a failure, the group's caveat). Rows of
identifiers not run keep their previous values; tests/data/reference/suite_table.json records the store scale,
versions and the commands.
"""

from __future__ import annotations

import argparse
import csv
import fnmatch
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
for _path in (REPO / "tests", REPO / "tests" / "reference", REPO / "src"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

import brainscore_runs  # noqa: E402
import suite_store  # noqa: E402

TABLE = REPO / "tests" / "data" / "reference" / "suite_table.tsv"
META = TABLE.with_suffix(".json")
COLUMNS = ("identifier", "group", "bp_score", "bp_raw", "bp_ceiling", "bs_score", "bs_raw", "bs_ceiling",
           "d_score", "d_raw", "d_ceiling", "bp_seconds", "bs_seconds", "note")
NUMBERS = ("score", "raw", "ceiling")
SNAKEMAKE = Path(sys.executable).parent / "snakemake"  # this venv's


# ------------------------------------------------------------------------------------------ stand-in weights


def write_weights(kind: str, torch_home: Path) -> Path:
    """The stand-in alexnet ``kind`` under torchvision's IMAGENET1K_V1 file name in ``torch_home`` (both sides read
    it: brainpipe as ``weights_file``, Brain-Score's alexnet plugin from TORCH_HOME)."""
    if kind == "seeded":
        return brainscore_runs.seeded_alexnet_weights(torch_home)
    if kind == "kato_prototypes":
        import behaviour_fixtures_kato

        return behaviour_fixtures_kato.write_torch_home(torch_home)
    import behaviour_fixtures_families

    return behaviour_fixtures_families.write_torch_home(torch_home, kind)


# --------------------------------------------------------------------------------------- Brain-Score's set-up


def _zerbe_env(store: Path, scratch: Path) -> dict:
    """LAION-fMRI: the stand-in ``laion_fmri.splits`` package reading the store's split lists and the DUA-gated
    stimuli folder (tests/reference/make_zerbe2026_reference.py)."""
    from make_zerbe2026_reference import SPLITS_STANDIN

    package = scratch / "standin" / "laion_fmri"
    (package / "splits").mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("")
    (package / "splits" / "__init__.py").write_text(SPLITS_STANDIN)
    return dict(LAION_FMRI_STIMULI_DIR=str(store / "stimuli"), ZERBE_SPLITS_DIR=str(store / "splits"),
                BRAINSCORE_SKIP_MEMORY_CHECK="1", PYTHONPATH=str(scratch / "standin"))


def _layers_env(layers: dict):
    return lambda store, scratch: {"REFERENCE_REGION_LAYERS": json.dumps(layers)}


def brainscore_setup(group: suite_store.Group) -> dict:
    """What Brain-Score's process needs besides the runner, per group: ``prelude`` (source run before the runner),
    ``env`` ((store, scratch) -> extra environment), ``skip`` (why the table does not run Brain-Score's side)."""
    from make_cadena2017_mask_reference import SEEDING as CADENA_SEEDING
    from make_igustibagus2024_reference import SEEDING as IGUSTIBAGUS_SEEDING
    from make_neural_rest_reference import PRELUDE as BRACCI_RSA

    setup = {"prelude": "", "env": None, "skip": ""}
    if group.layers:
        setup.update(prelude=brainscore_runs.REGION_LAYERS, env=_layers_env(group.layers))
    if group.name == "Bracci2019":
        setup["prelude"] = BRACCI_RSA
    elif group.name == "Cadena2017mask":
        setup.update(prelude=CADENA_SEEDING, env=lambda store, scratch: {"TF_CPP_MIN_LOG_LEVEL": "2"})
    elif group.name == "Igustibagus2024":
        setup.update(prelude=IGUSTIBAGUS_SEEDING, env=lambda store, scratch: {"READOUT_SEED": "0"})
    elif group.name.startswith("Zerbe2026"):
        setup["env"] = _zerbe_env
    elif group.name == "ImageNet":
        setup["skip"] = ("Brain-Score reads ImageNet's validation images from its own machines' paths: "
                         "tests/reference/make_imagenet_reference.py's harness")
    return setup


# ---------------------------------------------------------------------------------------------- brainpipe


def local_files(store: Path) -> dict:
    """Store files the catalog does not fetch from ``data.base_url``: a full URL of their own (Allen2022, THINGS,
    Li2026, Cowley2026, LAION-fMRI), a declared path (ImageNet's image zip) or no public copy (LAION-fMRI stimuli)."""
    from brainpipe import benchmarks
    from brainpipe.data import catalog as data_catalog

    catalog = data_catalog.load_catalog(registry=benchmarks.builtin())
    remotes = [r for entry in catalog.assemblies.values() for r in entry.all_files]
    remotes += [r for entry in catalog.stimulus_sets.values() for r in (entry.csv, entry.zip)]
    return {r.name: str(store / r.name) for r in remotes
            if (r.url or r.path or r.sha1 is None) and (store / r.name).is_file()}


def brainpipe_config(folder: Path, identifier: str, group: suite_store.Group, store: Path, base_url: str,
                     weights: Path) -> Path:
    import yaml

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=["alexnet"], benchmarks=[identifier])
    config["model_zoo"]["alexnet"].update(weights=None, weights_file=str(weights))
    config["model_zoo"]["alexnet"]["layers"].update(group.layers)
    config["data"] = {"base_url": base_url, "cache_dir": str(folder.parent / "cache"),
                      "local_files": local_files(store), "checksums_override": str(store / "checksums.json")}
    from brainpipe import benchmarks

    family = benchmarks.parse(identifier).family
    if family.private is not None:  # Brain-Score scores MajajHong2015.* and FreemanZiemba2013.* on the private files
        config["data"]["access"] = {family.name: "private"}
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def run_brainpipe(identifier: str, group: suite_store.Group, store: Path, base_url: str, weights: Path,
                  work: Path, timeout: float, keep: bool = True) -> dict:
    """One identifier's ``snakemake`` run in its own folder; ``keep=False`` removes the folder after a run that
    succeeded (a whole-suite table writes tens of GB of activations otherwise), a failed run's folder stays."""
    folder = work / "brainpipe" / identifier
    folder.mkdir(parents=True, exist_ok=True)
    config = brainpipe_config(folder, identifier, group, store, base_url, weights)
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env.update(no_proxy="127.0.0.1,localhost", TORCH_HOME=str(weights.parents[2]))
    env.pop("BRAINPIPE_DATA_URL", None)
    target = f"results/alexnet/{identifier}.json"
    start = time.perf_counter()
    try:
        run = subprocess.run([str(SNAKEMAKE), target, "--cores", "2", "-s", str(REPO / "Snakefile"), "--directory",
                              str(folder), "--configfile", str(config)], cwd=folder, env=env, capture_output=True,
                             text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failure": f"brainpipe: no result after {timeout:.0f} s"}
    seconds = time.perf_counter() - start
    (folder / "snakemake.log").write_text(run.stdout + run.stderr)
    if run.returncode != 0:
        lines = [line for line in run.stderr.splitlines() if "Error" in line or "error" in line]
        return {"failure": "brainpipe failed: " + (lines[-1] if lines else run.stderr[-300:]).strip()[:300],
                "seconds": seconds}
    result = json.loads((folder / target).read_text())
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return {**{key: result.get(key) for key in NUMBERS}, "seconds": seconds, "reason": result.get("reason")}


# ------------------------------------------------------------------------------------------- Brain-Score


def brainscore_command(python: Path, identifiers, group: suite_store.Group, store: Path, weights: Path,
                       scratch: Path, out: Path, result_cache: bool = False) -> tuple[list[str], dict]:
    """The reference venv's command and environment that score the group's ``identifiers`` in one process, with the
    group's set-up (:func:`brainscore_setup`), Brain-Score's homes under ``scratch``, one result JSON per identifier
    in ``out``. ``result_cache``: Brain-Score's result cache on (in ``scratch``), as users run it; off by default so
    that each identifier's seconds are its own (the table's; Zerbe2026's per-subject children share a ceiling through
    it, so it is on for them)."""
    setup = brainscore_setup(group)
    out.mkdir(parents=True, exist_ok=True)
    cached = result_cache or group.name == "Zerbe2026_persubject"  # brainpipe reproduces that sharing
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", TORCH_HOME=str(weights.parents[2]),
               BRAINIO_HOME=str(scratch / "brainio"), RESULTCACHING_DISABLE="0" if cached else "1",
               RESULTCACHING_HOME=str(scratch / "result_caching"), MT_HOME=str(scratch / "mt"),
               BRAINSCORE_HOME=str(scratch / "brain-score"))
    if setup["env"]:
        env.update(setup["env"](store, scratch))
    command = [str(python), "-c", brainscore_runs.wrapper(setup["prelude"]), str(brainscore_runs.RUNNER),
               "--store", str(store), "--benchmark", *identifiers, "--out-dir", str(out)]
    return command, env


def run_brainscore(identifiers, group: suite_store.Group, store: Path, weights: Path, work: Path,
                   timeout: float) -> dict:
    """identifier -> the runner's result (or {'failure': why}) for the group's identifiers, in one process."""
    setup = brainscore_setup(group)
    if setup["skip"]:
        return {identifier: {"failure": f"Brain-Score side not run here: {setup['skip']}"}
                for identifier in identifiers}
    python = brainscore_runs.REFERENCE_PYTHON
    if not python.exists():
        sys.exit(f"no reference venv at {python.parent.parent}: make reference-venv")
    scratch = work / "brainscore"
    out = scratch / "results"
    command, env = brainscore_command(python, identifiers, group, store, weights, scratch, out)
    command.append("--keep-going")
    try:
        run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
        ended = f"exit {run.returncode}: {run.stderr.strip().splitlines()[-1][:300] if run.stderr.strip() else ''}"
        (scratch / "runner.log").write_text(run.stdout + run.stderr)
    except subprocess.TimeoutExpired:
        ended = f"no result after {timeout:.0f} s"
    results = {}
    for identifier in identifiers:
        path = out / f"{identifier}.json"
        results[identifier] = (json.loads(path.read_text()) if path.is_file()
                               else {"failure": f"Brain-Score: no result ({ended})"})
    return results


# ----------------------------------------------------------------------------------------------- the table


def _number(value):
    if value is None or value == "":
        return None
    value = float(value)
    return value


def _text(value) -> str:
    if value is None:
        return ""
    return "nan" if math.isnan(value) else repr(value)  # every digit: the |Δ| of 1e-9 stay checkable


def _at_bound(value) -> bool:
    return value is not None and not math.isnan(value) and (abs(value) < 1e-12 or abs(value - 1) < 1e-12)


def row(identifier: str, group: suite_store.Group, ours: dict, theirs: dict) -> dict:
    """One table row; the note says why a comparison is not informative, where it is not."""
    entry = {"identifier": identifier, "group": group.name}
    notes = [group.note] if group.note else []
    for side, result in (("bp", ours), ("bs", theirs)):
        for key in NUMBERS:
            entry[f"{side}_{key}"] = _number(result.get(key))
        entry[f"{side}_seconds"] = result.get("seconds")
        if result.get("failure"):
            notes.append(result["failure"])
        elif entry[f"{side}_score"] is None or math.isnan(entry[f"{side}_score"]):
            why = result.get("reason") or "NaN"
            notes.append(f"{'brainpipe' if side == 'bp' else 'Brain-Score'}: no score ({why})")
    for key in NUMBERS:
        a, b = entry[f"bp_{key}"], entry[f"bs_{key}"]
        entry[f"d_{key}"] = abs(a - b) if a is not None and b is not None else None
    if _at_bound(entry["bp_score"]) or _at_bound(entry["bs_score"]):
        notes.append("score at a bound (0 or 1): equal scores say little; compare raw and ceiling")
    entry["note"] = "; ".join(dict.fromkeys(n for n in notes if n))
    return entry


def read_table(path: Path = TABLE) -> dict:
    """identifier -> row (numbers as floats, None where empty)."""
    if not path.is_file():
        return {}
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    table = {}
    for entry in rows:
        for key in COLUMNS:
            if key not in ("identifier", "group", "note"):
                entry[key] = _number(entry[key])
        table[entry["identifier"]] = entry
    return table


def write_table(table: dict, path: Path = TABLE) -> None:
    order = {identifier: n for n, identifier in enumerate(suite_store.identifiers())}
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        writer = csv.writer(f, delimiter="\t", lineterminator="\n")
        writer.writerow(COLUMNS)
        for identifier in sorted(table, key=lambda i: order.get(i, len(order))):
            entry = table[identifier]
            writer.writerow([entry[key] if key in ("identifier", "group", "note")
                             else _text(entry[key]) if key not in ("bp_seconds", "bs_seconds")
                             else ("" if entry[key] is None else f"{entry[key]:.1f}") for key in COLUMNS])


def selected(manifest: dict, families, sample, identifiers=None) -> list:
    """(group, its identifiers to run) for the groups ``families`` selects (family or group names, patterns), and
    of those the identifiers ``identifiers`` matches (patterns), where given."""
    chosen = []
    for group in suite_store.groups():
        if group.name not in manifest["groups"]:
            continue
        ids = [i for i in manifest["groups"][group.name]["identifiers"] if i not in manifest["unwritable"]]
        if identifiers:
            ids = [i for i in ids if any(fnmatch.fnmatchcase(i, pattern) for pattern in identifiers)]
        if families:
            ids = [i for i in ids if any(fnmatch.fnmatchcase(suite_store.family_of(i), pattern)
                                         or fnmatch.fnmatchcase(group.name, pattern) for pattern in families)]
        if sample:
            ids = ids[:sample]
        if ids:
            chosen.append((group, ids))
    return chosen


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True, type=Path, help="a store tests/reference/suite_store.py wrote")
    parser.add_argument("--families", nargs="+", help="brainpipe family or store group names (shell patterns)")
    parser.add_argument("--sample", type=int, help="at most this many identifiers per group")
    parser.add_argument("--identifiers", nargs="+", help="only these identifiers (shell patterns)")
    parser.add_argument("--side", choices=("both", "brainpipe", "brainscore"), default="both")
    parser.add_argument("--work", type=Path, help="keep the runs' folders here (default: a temporary folder, where "
                        "a brainpipe run's folder is removed once it has its score)")
    parser.add_argument("--out", type=Path, default=TABLE)
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per brainpipe run / Brain-Score group")
    args = parser.parse_args(argv)
    from brainio_fixtures import local_http_server

    store = args.store.resolve()
    manifest = json.loads((store / "manifest.json").read_text())
    table = read_table(args.out)
    work = args.work or Path(tempfile.mkdtemp(prefix="suite-table-"))
    meta = json.loads(args.out.with_suffix(".json").read_text()) if args.out.with_suffix(".json").is_file() else {}
    meta.update(store_scale=manifest["scale"], store_command=".venv/bin/python " + manifest["made_by"] + " --out STORE")
    command = " ".join([".venv/bin/python tests/reference/suite_table.py --store STORE"]
                       + (["--families", *(f"'{f}'" if "*" in f else f for f in args.families)] if args.families
                          else []) + ([f"--sample {args.sample}"] if args.sample else [])
                       + (["--identifiers", *(f"'{i}'" for i in args.identifiers)] if args.identifiers else []))
    meta.setdefault("commands", {})  # per side, the last command that ran it
    for side in ("brainpipe", "brainscore"):
        if args.side in ("both", side):
            meta["commands"][side] = command + ("" if args.side == "both" else f" --side {args.side}")
    meta.pop("command", None)
    meta.setdefault("groups", {})
    for name in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        os.environ.pop(name, None)
    with local_http_server(store) as server:
        for group, ids in selected(manifest, args.families, args.sample, args.identifiers):
            folder = work / group.name
            weights = write_weights(group.weights, folder / "torch_home")
            started = time.perf_counter()
            ours = {i: {} for i in ids}
            if args.side in ("both", "brainpipe"):
                for identifier in ids:
                    ours[identifier] = run_brainpipe(identifier, group, store, server.url, weights, folder,
                                                     args.timeout, keep=args.work is not None)
                    print(f"brainpipe {identifier}: {ours[identifier]}", flush=True)
            theirs = {i: {} for i in ids}
            if args.side in ("both", "brainscore"):
                theirs = run_brainscore(ids, group, store, weights, folder, args.timeout)
                for identifier in ids:
                    print(f"Brain-Score {identifier}: "
                          f"{ {k: theirs[identifier].get(k) for k in (*NUMBERS, 'seconds', 'failure')} }", flush=True)
                    if theirs[identifier].get("versions"):
                        meta["brainscore_versions"] = theirs[identifier]["versions"]
            for identifier in ids:
                previous = table.get(identifier, {})
                if args.side == "brainscore":
                    ours[identifier] = {k: previous.get(f"bp_{k}") for k in (*NUMBERS, "seconds")}
                if args.side == "brainpipe":
                    theirs[identifier] = {k: previous.get(f"bs_{k}") for k in (*NUMBERS, "seconds")}
                table[identifier] = row(identifier, group, ours[identifier], theirs[identifier])
            earlier = meta["groups"].get(group.name, {}).get("identifiers", [])
            meta["groups"][group.name] = {"identifiers": sorted(set(earlier) | set(ids)),
                                          "seconds_last_run": round(time.perf_counter() - started)}
            write_table(table, args.out)  # after every group: a long run keeps what it has
            args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    from importlib.metadata import version

    meta["brainpipe_version"] = version("brainpipe")
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"{len(table)} rows in {args.out}; runs in {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
