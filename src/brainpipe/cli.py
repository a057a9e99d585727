"""The ``brainpipe`` command: what can be evaluated, and which data files that needs.

    brainpipe list [--config config/config.yaml]   benchmark identifiers (family × region × metric) and models
    brainpipe data [--config config/config.yaml]   catalog files: names, sha1s, and where they land on disk
    brainpipe check BENCHMARK [--model pixels]     run a (new) benchmark's ceiling and a baseline score, check them
    brainpipe layers MODEL [--config ...]          a model's layer names and output shapes (for layers:/sweep:)
    brainpipe score MODEL BENCHMARK [--cores N]    score one model on one benchmark (brainpipe.score); print it
    brainpipe workflow                             the folder of the Snakefile, config/ and profiles/ it runs

Running the evaluation itself is Snakemake's job (``snakemake --cores N``); ``list`` and ``data`` only answer
questions, read no data and never touch the network, and do not import torch. ``check`` runs Snakemake for the two
targets a new benchmark needs (its ceiling and one baseline score) and checks what comes out.
"""

from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

import yaml

from . import benchmarks as bench
from ._version import __version__
from .data import catalog
from .pipeline import workflow_files
from .pipeline.workflow_config import ConfigError, check_yaml_file

DEFAULT_CONFIG = "config/config.yaml"


def _read_config(path: str) -> dict:
    path = Path(path)
    try:
        config = check_yaml_file(path)
    except OSError as error:
        raise SystemExit(f"brainpipe: cannot read config {path} ({error.strerror}); pass --config PATH") from None
    except ConfigError as error:
        raise SystemExit(f"brainpipe: {error}") from None
    if not isinstance(config, dict):
        raise SystemExit(f"brainpipe: {path} must hold a YAML mapping")
    return config


def _update(base: dict, overlay: dict) -> dict:
    """``overlay`` merged into a copy of ``base`` as Snakemake merges a --configfile: mappings key by key, any other
    value (a list included) replaced."""
    merged = dict(base)
    for key, value in overlay.items():
        merged[key] = _update(merged[key], value) if isinstance(value, dict) and isinstance(merged.get(key), dict) \
            else value
    return merged


def _load_config(overlay: str | None) -> dict:
    """The config ``brainpipe score`` runs with: config/config.yaml of the working directory, else the workflow's
    own (workflow_files.default_config), with the ``--config`` file merged over it, as ``snakemake --configfile
    overlay.yaml`` does."""
    try:
        base = _read_config(workflow_files.default_config())
    except workflow_files.WorkflowNotFound:  # an install without its workflow: the catalog's defaults
        base = {}
    return _update(base, _read_config(overlay)) if overlay else base


def _families_by_definition(registry):
    """Family names grouped by the data they share (a family's public and private variants are one)."""
    groups: dict[tuple, list[str]] = {}
    definitions = {}
    for name, family in registry.families.items():
        key = (family.dataset, family.origin, family.version, family.plugin is None)
        groups.setdefault(key, []).append(name)
        definitions.setdefault(key, family)
    return [(names, definitions[key]) for key, names in groups.items()]


def list_benchmarks(config: dict, out=None) -> None:
    out = out or sys.stdout
    metrics = ", ".join(bench.METRICS)  # each family lists the ones its data supports
    print("Benchmarks: <family>.<region>-<metric> (neural), <family>-<metric> (behaviour, properties)", file=out)
    print(f"  metrics: {metrics}", file=out)
    try:
        registry = bench.from_config(config)
    except ValueError as error:
        raise SystemExit(f"brainpipe: {error}") from None
    for names, family in _families_by_definition(registry):
        data = "generated locally" if family.source == "demo" else f"data set {family.dataset}"
        if family.behaviours:  # behaviour: <family>-<metric>, no region; each metric has its own task and ceiling
            print(f"\n  {' = '.join(names)}  [{family.origin}; behaviour]", file=out)
            fitting = f", readout fitted on {family.readout.stimulus_set}" if family.readout else ""
            print(f"    {data}, stimuli {family.stimulus_set}{fitting}", file=out)
            if family.notes:
                print(f"    {family.notes}", file=out)
            for name in names:
                for b in family.behaviours:
                    degrees = b.visual_degrees if b.visual_degrees is not None else family.visual_degrees
                    identifier = b.identifier or f"{name}-{b.name}"  # Brain-Score's own where it is kept verbatim
                    print(f"    {identifier}: task {b.task}, metric {b.metric}, {degrees:g}°, ceiling "
                          f"{b.ceiling}, {b.normalisation}{' clipped to [0, 1]' if b.clip else ''}; version "
                          f"{b.version}, parent {b.parent or family.parent or 'behavior'}", file=out)
            continue
        if family.properties:  # properties: <family>-<measure>, no region; each measure has its own parent
            print(f"\n  {' = '.join(names)}  [{family.origin}; properties, {family.regions[0]}]", file=out)
            print(f"    {family.visual_degrees:g}°, {data}; units -> neurons on {family.neurons.name}", file=out)
            if family.notes:
                print(f"    {family.notes}", file=out)
            for name in names:
                for m in family.properties:
                    print(f"    {name}-{m.name}: property {m.property} ({m.property_set} on {m.stimulus_set}), "
                          f"ks_similarity, ceiling NeuronalPropertyCeiling; version {m.version}, parent "
                          f"{m.parent or family.parent or family.regions[0]}", file=out)
            continue
        print(f"\n  {' = '.join(names)}  [{family.origin}; version {family.version}, parent "
              f"{family.parent or 'region'}]", file=out)
        if getattr(family, "ost", False):  # object solution times (Kar2019-ost): one region, not named
            start, end = family.temporal.window
            print(f"    {family.visual_degrees:g}°, {data}, stimuli {family.stimulus_set}, {family.regions[0]} in "
                  f"{family.temporal.bin}-ms bins {start}–{end} ms, ceiling {family.ceiling}", file=out)
            if family.notes:
                print(f"    {family.notes}", file=out)
            print("    " + " ".join(f"{name}-ost" for name in names), file=out)
            continue
        print(f"    {family.visual_degrees:g}°, {data}, stimuli {family.stimulus_set}, "
              f"{family.time_window[0]}–{family.time_window[1]} ms, "
              + (f"train/test files {', '.join(d for _, d in family.train_test.files)}, "
                 if family.train_test and family.train_test.files else
                 f"CV stratified by {family.stratification}, ")
              + f"ceiling {family.ceiling}", file=out)
        if family.notes:
            print(f"    {family.notes}", file=out)
        if family.identifiers:  # Brain-Score's own spelling (Family.identifiers): the names to ask for
            print(textwrap.fill(" ".join(i for i, _, _ in family.identifiers), width=116, initial_indent="    ",
                                subsequent_indent="      ", break_on_hyphens=False), file=out)
            continue
        for name in names:
            for region in family.regions:
                identifiers = " ".join(f"{name}.{region}-{metric}" if family.region_in_identifier
                                       else f"{name}-{metric}" for metric in family.metrics)
                print(textwrap.fill(identifiers, width=116, initial_indent="    ", subsequent_indent="      ",
                                    break_on_hyphens=False), file=out)

    zoo = config.get("model_zoo") or {}
    grid = set(config.get("models") or [])
    print(f"\nModels in the config ({len(zoo)}; * = in the grid):", file=out)
    for name, spec in zoo.items():
        weights = spec.get("weights") or ("none" if spec.get("architecture") == "pixels" else
                                          f"untrained, seed {spec.get('seed', 0)}")
        layers = ", ".join(f"{region}: {layer}" for region, layer in (spec.get("layers") or {}).items())
        mark = "*" if name in grid else " "
        print(f"  {mark} {name}: {spec.get('architecture')} (weights {weights}, "
              f"{spec.get('visual_degrees', 8):g}°) {layers}", file=out)
    benchmarks = config.get("benchmarks") or []
    if benchmarks:
        print(f"\nBenchmarks in the grid: {', '.join(benchmarks)}", file=out)


def list_selected(config: dict, entries: list[str], as_json: bool = False, out=None) -> int:
    """The identifiers that config ``benchmarks`` entries select (pipeline/benchmark_selectors.py), one a line or one
    JSON list; ``grid`` stands for the config's own ``benchmarks``. 1 with the error when an entry selects nothing."""
    from .pipeline.benchmark_selectors import config_benchmarks
    from .pipeline.workflow_config import ConfigError

    out = out or sys.stdout
    entries = [e for entry in entries for e in (config.get("benchmarks") or [] if entry == "grid" else [entry])]
    try:
        identifiers = config_benchmarks({**config, "benchmarks": entries})
    except ConfigError as error:
        print(f"brainpipe list: {error}", file=sys.stderr)
        return 1
    print(json.dumps(identifiers) if as_json else "\n".join(identifiers), file=out)
    return 0


def list_data(config: dict, out=None) -> None:
    out = out or sys.stdout
    data = config.get("data") or {}
    cache_dir = data.get("cache_dir") or "resources/cache"
    local = catalog.local_paths(data.get("local_files"))
    base = catalog.base_url(data.get("base_url"))
    used = {family.dataset for family in bench.builtin().families.values() if family.source == "brainio"}
    used |= {d for family in bench.builtin().families.values() if family.train_test  # joined train/test files
             for _, d in family.train_test.files}
    print(f"Store: {base}", file=out)
    print(f"Cache: {cache_dir}/<sha1>/<file>  (config data.cache_dir; relative paths are under the working "
          "directory)", file=out)
    print("Sizes: not listed in Brain-Score's catalog (UNVERIFIED); see README.md, section 'Real data'.\n", file=out)

    def where(remote):
        if remote.name in local:
            return f"local file {local[remote.name]} (data.local_files)"
        if remote.path is not None:  # read in place where its family declares it (ImageNet's image zip)
            return f"local file {remote.path} (declared)"
        if remote.sha1 is None and remote.url is None and remote.path is None:
            return "no public copy: point data.local_files at yours"
        return str(catalog.cache_path(remote, cache_dir))

    for key, entry in bench.default_catalog().assemblies.items():
        mark = "used by brainpipe's benchmarks" if key in used else "not used by a benchmark family"
        print(f"assembly {key}  ({entry.identifier}; {mark})", file=out)
        for remote in entry.all_files:  # the file and the further files read with it (one per subject, ...)
            print(f"  {remote.name}  sha1 {remote.sha1}", file=out)
            print(f"    -> {where(remote)}", file=out)
        print(f"  merged with stimulus set {entry.stimulus_set} -> resources/assemblies/{key}.nc", file=out)
    for key, entry in bench.default_catalog().stimulus_sets.items():
        print(f"stimulus set {key}", file=out)
        for remote in (entry.csv, entry.zip):
            print(f"  {remote.name}  sha1 {remote.sha1}", file=out)
            print(f"    -> {where(remote)}", file=out)
        print(f"  unpacked -> resources/stimuli/{key}/ (stimuli.csv + images/)", file=out)


def _snakefile() -> Path:
    """The workflow to run: ./Snakefile where the user runs the command, else the one of this checkout."""
    here = Path("Snakefile")
    return here if here.is_file() else workflow_files.snakefile()


def check_benchmark(identifier: str, model: str, config_path: str | None, cores: int, out=None) -> int:
    """Brain-Score's per-benchmark test (a plugin's test.py) as one command: the benchmark loads, its ceiling is in
    (0, 1], and a baseline model gets a finite score. Runs the real workflow for the two targets; returns 0 if all
    checks pass, 1 otherwise (each check printed)."""
    import json
    import math
    import subprocess

    out = out or sys.stdout
    config = _load_config(config_path)  # as the snakemake run below merges it
    try:
        benchmark = bench.load(identifier, config)
    except ValueError as error:
        print(f"FAIL  {identifier} does not load: {error}", file=out)
        return 1
    print(f"ok    {identifier} loads ({benchmark.family.origin}; metric {benchmark.metric}, "
          f"{benchmark.n_folds} fold(s), {benchmark.normalisation})", file=out)
    targets = [f"results/ceilings/{identifier}.json", f"results/{model}/{identifier}.json"]
    command = [str(Path(sys.executable).parent / "snakemake"), "-s", str(_snakefile()), "--cores", str(cores),
               *targets]
    if config_path:
        command += ["--configfile", config_path]
    print(f"      running: {' '.join(command)}", file=out, flush=True)
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL  the workflow failed (exit {run.returncode}):\n{run.stderr[-3000:]}", file=out)
        return 1
    ceiling = json.loads(Path(targets[0]).read_text())["ceiling"]
    score = json.loads(Path(targets[1]).read_text())
    checks = [(isinstance(ceiling, float) and 0 < ceiling <= 1, f"ceiling {ceiling:.4f} in (0, 1]"),
              (math.isfinite(score["score"]), f"{model} score {score['score']:.4f} is finite"),
              (-1 <= score["raw"] <= 1 or benchmark.kind == "custom", f"{model} raw {score['raw']:.4f} in [-1, 1]")]
    for passed, text in checks:
        print(f"{'ok  ' if passed else 'FAIL'}  {text}", file=out)
    if benchmark.kind == "behaviour":  # a ceiling near 0 passes the range check but leaves scores that are noise
        from .behaviour.ceiling_advice import ceiling_advice
        from .io import read_netcdf

        human = read_netcdf(f"results/assemblies/{benchmark.family.dataset}/behaviour.nc")
        for line in ceiling_advice(benchmark, ceiling, human):
            print(f"WARN  {line}", file=out)
    return 0 if all(passed for passed, _ in checks) else 1


def _parser() -> argparse.ArgumentParser:
    # Help texts are plain text written for the terminal (docstrings are reStructuredText for the docs)
    parser = argparse.ArgumentParser(prog="brainpipe", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"brainpipe {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("list", "benchmark identifiers and the config's models"),
                       ("data", "downloadable data files, their sha1s and where they land")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--config", default=None,
                             help=f"extra config file, merged over {DEFAULT_CONFIG} (when it exists) as snakemake's "
                                  "--configfile merges it")
        if name == "list":
            command.add_argument("--select", nargs="+", metavar="ENTRY", default=None,
                                 help="print only the identifiers these config `benchmarks` entries select, one a "
                                      "line (identifiers and selectors: suite:brainscore, family:NAME, parent:NAME, "
                                      "globs, !ENTRY to leave out); `--select grid` expands the config's own list")
            command.add_argument("--json", action="store_true",
                                 help="with --select: print the identifiers as one JSON list")
    check = commands.add_parser("check", help="run a benchmark's ceiling and a baseline score, and check them",
                                description=CHECK_HELP)
    check.add_argument("benchmark", help="identifier, e.g. MyExperiment2024.IT-pls")
    check.add_argument("--model", default="pixels", help="baseline model from model_zoo (default pixels)")
    check.add_argument("--config", default=None, help="extra config file, merged over config/config.yaml")
    check.add_argument("--cores", type=int, default=2)
    _package_parser(commands)
    _layers_parser(commands)
    _score_parser(commands)
    commit = commands.add_parser("commit-layers", help="sweep a model's layers on a region's benchmarks and "
                                 "commit the best one in the config",
                                 description="Score every candidate layer of MODEL on the region's benchmarks "
                                             "(a sweep through the workflow) and write the best into "
                                             "model_zoo.MODEL.layers.REGION of the config (comments kept).")
    commit.add_argument("model", help="a model_zoo entry")
    commit.add_argument("--region", required=True, help="e.g. IT")
    commit.add_argument("--benchmark", action="append", required=True,
                        help="selection benchmark (repeat for several; the mean score decides)")
    commit.add_argument("--layers", default=None,
                        help="'all' or comma-separated layer names (default: the entry's sweep, else all)")
    commit.add_argument("--config", default=DEFAULT_CONFIG, help=f"config file to update (default {DEFAULT_CONFIG})")
    commit.add_argument("--cores", type=int, default=2)
    return parser


DESCRIPTION = "brainpipe: what can be evaluated, which data files that needs, and tools for your own benchmarks."
EPILOG = """Running the evaluation itself is Snakemake's job: snakemake --cores N (README.md); one score without
a Snakefile in sight: brainpipe score MODEL BENCHMARK.
The commands list and data only answer questions: they read no data and never touch the network.
Help on one command: brainpipe COMMAND --help"""
CHECK_HELP = """Brain-Score's per-benchmark test (a plugin's test.py) as one command: the benchmark loads, its ceiling is in
(0, 1], and a baseline model gets a finite score. Runs the real workflow for the two targets and prints each check;
exits with 0 if all pass, 1 otherwise."""

PACKAGE_HELP = """Turn your images, stimulus CSV and responses into the standard files (stimulus_<name>.csv + .zip,
assy_<name>.nc) and print their sha1s and the benchmark_zoo entry to paste into config/config.yaml.

Responses, one of:
  file.nc   NetCDF DataArray, dims presentation x neuroid [x time_bin]; names that differ from Brain-Score's
            are mapped with --coords (e.g. region=brain_area,repetition=trial,presentation=trials)
  file.csv  long format, one row per value: stimulus_id, neuroid_id, region, repetition, value
            [, time_bin_start, time_bin_end (ms)]
  file.npy  array repetition x stimulus x neuroid, stimuli in the stimulus CSV's row order, with
            --neuroids NEUROIDS.csv (neuroid_id, region, ... in the array's neuroid order)
Bad input stops with one error naming the file and value; nothing is written then."""


def _coords_option(text: str) -> dict:
    mapping = {}
    for pair in filter(None, text.split(",")):
        ours, sep, theirs = pair.partition("=")
        if not sep or not ours.strip() or not theirs.strip():
            raise argparse.ArgumentTypeError(f"{pair!r}: expected brainpipe_name=name_in_file, e.g. region=brain_area")
        mapping[ours.strip()] = theirs.strip()
    return mapping


def _package_parser(commands) -> None:
    package = commands.add_parser("package", help="package your own experiment's data into the standard files",
                                  description=PACKAGE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    package.add_argument("--name", required=True, help="family name, letters and digits (e.g. MyExperiment2024)")
    package.add_argument("--images", required=True, help="folder of the images")
    package.add_argument("--stimuli", required=True,
                         help="CSV: stimulus_id, filename (relative to --images), any metadata columns")
    package.add_argument("--responses", help="responses: .nc, .csv (long format) or .npy")
    package.add_argument("--neuroids", help="with a .npy: CSV of neuroid_id, region (array order)")
    package.add_argument("--trials", help="with a .npy of trials × neuroids: CSV naming each trial's stimulus_id "
                                          "[, repetition] (array order)")
    package.add_argument("--choices", help="human choices: CSV, one row per trial (subject, stimulus_id, choice "
                                           "[, truth, condition, distractor]; or image_1..image_3, choice)")
    package.add_argument("--task", choices=("label", "probabilities", "odd_one_out"),
                         help="the choices' task (default: odd_one_out with image_1..3 columns, probabilities with a "
                              "distractor column, else label)")
    package.add_argument("--labels",
                         help="label task: the label set (default: the truth column's values), comma-separated; map "
                              "a label to ImageNet classes (indices, WordNet ids, class names or labels brainpipe "
                              "maps; several joined by '+') as label=class: plane=airplane+895,bird; or a YAML/JSON "
                              "file of label: [classes]; or imagenet (choices are WordNet ids)")
    package.add_argument("--ceiling", type=float, help="a fixed behavioural ceiling (odd_one_out needs one)")
    package.add_argument("--coords", type=_coords_option, default=None,
                         help="brainpipe_name=your_name,... for names that differ, in a .nc and in the CSVs "
                              "(e.g. stimulus_id=file,region=area,subject=participant)")
    package.add_argument("--stimulus-id", metavar="COLUMN", help="= --coords stimulus_id=COLUMN")
    package.add_argument("--region-column", metavar="COLUMN", help="= --coords region=COLUMN")
    package.add_argument("--region", help="region of every neuroid, when the responses name none (e.g. IT)")
    package.add_argument("--min-neuroids", type=int, default=2,
                         help="refuse a region with fewer neuroids (default 2: rdm and cka need a pattern)")
    package.add_argument("--visual-degrees", type=float, required=True,
                         help="size of the images on the subjects' screen, in degrees of visual angle")
    package.add_argument("--stratification", help="stimulus CSV column to stratify the CV folds on (e.g. category)")
    package.add_argument("--time-window", type=float, nargs=2, metavar=("START", "END"),
                         help="ms; time bins inside are averaged (default 70 170 if bins lie there, else all)")
    package.add_argument("--out", required=True, help="output folder (created; the three files are replaced)")
    # a properties benchmark (README "Your own benchmark → properties"): a neuron × property table instead of responses
    package.add_argument("--properties", help="a property table: CSV (one row per neuron, one column per property) "
                                              "or NetCDF (neuroid × neuronal_property)")
    package.add_argument("--bins", help="with --properties: YAML/JSON mapping property -> list of bin edges")
    package.add_argument("--property-set", default="ringach2002",
                         help="with --properties: a built-in property set (ringach2002, ...) or your .py file")
    package.add_argument("--measures", type=_coords_option, default=None,
                         help="with --properties: identifier_suffix=property,... (e.g. or_bandwidth=bandwidth)")
    package.add_argument("--neurons", default="Marques2020",
                         help="with --properties: how units become neurons (Marques2020 or SyntheticGratings)")


def package_data(args, out=None) -> int:
    from .pipeline.packaging import PackagingError, package

    out = out or sys.stdout
    coords = dict(args.coords or {})
    for ours, column in (("stimulus_id", args.stimulus_id), ("region", args.region_column)):
        if column:
            coords[ours] = column
    if args.properties:  # a properties benchmark's files
        from .pipeline.packaging_properties import package_properties

        if not args.bins:
            print("brainpipe package: --properties needs --bins (property -> bin edges)", file=sys.stderr)
            return 1
        try:
            result = package_properties(args.name, args.images, args.stimuli, args.properties, args.bins, args.out,
                                        args.visual_degrees, args.property_set, dict(args.measures or {}),
                                        args.neurons)
        except PackagingError as error:
            print(f"brainpipe package: {error}", file=sys.stderr)
            return 1
        print(result.report(), file=out)
        return 0
    try:
        result = package(args.name, args.images, args.stimuli, args.responses, args.out, args.visual_degrees,
                         neuroids=args.neuroids, coords=coords or None, region=args.region,
                         stratification=args.stratification, time_window=args.time_window, choices=args.choices,
                         task=args.task, labels=args.labels, ceiling=args.ceiling, trials=args.trials,
                         min_neuroids=args.min_neuroids)
    except PackagingError as error:
        print(f"brainpipe package: {error}", file=sys.stderr)
        return 1
    print(result.report(), file=out)
    return 0


def _layers_parser(commands) -> None:
    layers = commands.add_parser("layers", help="a model's layer names with their output shapes",
                                 description=LAYERS_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    layers.add_argument("model", help="a model_zoo entry (e.g. alexnet_untrained), or an architecture not in the "
                                      "config (e.g. resnet50, timm/convnext_tiny, models/my_net.py:build)")
    layers.add_argument("--config", default=None, help=f"config file (default {DEFAULT_CONFIG} if it exists)")


LAYERS_HELP = """Print every layer of MODEL with the shape it outputs for one image, the units a benchmark gets from
it, whether `sweep: all` scores it and which regions the entry commits to it: the names to write under
model_zoo.MODEL.layers and sweep. Builds the network without its weights (shapes do not depend on them) and runs
one blank image through it on torch's meta device; nothing is downloaded."""


def list_layers(model: str, config_path: str | None, out=None) -> int:
    """``brainpipe layers MODEL``: the table of :func:`brainpipe.models.layer_shapes.format_layers`; 1 on error."""
    import difflib

    from .models.layer_shapes import format_layers, layer_shapes
    from .models.model_sources import ModelSourceError

    out = out or sys.stdout
    zoo = {}
    for path in (DEFAULT_CONFIG if Path(DEFAULT_CONFIG).is_file() else None, config_path):  # --config merged over
        zoo.update((_read_config(path).get("model_zoo") or {}) if path else {})
    path = config_path or DEFAULT_CONFIG
    # Not an entry: read it as an architecture, so a model can be explored before its entry is written.
    spec = zoo.get(model) or {"architecture": model, "weights": None}
    try:
        description, layers = layer_shapes(model, spec)
    except (ModelSourceError, ValueError) as error:
        close = difflib.get_close_matches(model, list(zoo), n=1)
        known = (f"model_zoo of {path}{f' (did you mean {close[0]!r}?)' if close else ''}: {sorted(zoo)}" if zoo
                 else f"no model_zoo ({path} not found or empty)")
        print(f"brainpipe layers: {model} is neither an entry of {known}, nor an architecture ({error})"
              if model not in zoo else f"brainpipe layers: {error}", file=sys.stderr)
        return 1
    try:
        print(format_layers(model, spec, description, layers), file=out)
        where = f"model_zoo.{model}" if model in zoo else f"a model_zoo entry with architecture: {model}"
        print(f"Write these names under layers (region: layer) or sweep (region: [layers] or all) of {where}.",
              file=out)
        out.flush()
    except BrokenPipeError:  # `brainpipe layers resnet50 | head`: the reader left; not an error
        sys.stdout = None
    return 0


def _score_parser(commands) -> None:
    score = commands.add_parser("score", help="score one model on one benchmark through the workflow",
                                description=SCORE_HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    score.add_argument("model", help="a model_zoo entry of the config (brainpipe list shows them), e.g. pixels")
    score.add_argument("benchmark", help="a benchmark identifier (brainpipe list), e.g. SyntheticShapes.IT-pls")
    score.add_argument("--config", default=None,
                       help=f"the config file (default {DEFAULT_CONFIG} of the working directory, else the "
                            "workflow's own: brainpipe workflow shows where)")
    score.add_argument("--cores", type=int, default=2, help="cores Snakemake may use (default 2)")
    score.add_argument("--verbose", action="store_true", help="show Snakemake's whole log, not one progress line")
    commands.add_parser("workflow", help="the folder of the workflow this brainpipe runs (Snakefile, config/, "
                                         "profiles/)", description=WORKFLOW_HELP,
                        formatter_class=argparse.RawDescriptionHelpFormatter)


SCORE_HELP = """Score MODEL on BENCHMARK with the Snakemake workflow (as brainpipe.score does from Python) and print
the score, its raw value, the ceiling and where the score's JSON is.

Everything lands in the working directory: results/MODEL/BENCHMARK.json (and the stages' files under results/),
data and caches under resources/, logs under logs/; a second call reuses them. MODEL is a model_zoo entry and
BENCHMARK an identifier of the config: config/config.yaml of the working directory when it exists, else the
workflow's own (its demo models and benchmarks; brainpipe list shows them). Exits with 1 and the reason when the
model or the benchmark is unknown or the workflow fails."""
WORKFLOW_HELP = """Print the folder of the workflow that brainpipe score and brainpipe.score run: its Snakefile,
workflow/ (rules, scripts, schemas), config/config.yaml (the default config) and profiles/ (local, slurm). In a
clone that is the clone; in an installed wheel, the copy inside the package. To run it yourself:
  snakemake -s FOLDER/Snakefile --cores 2                 in a folder of your own (results land there)
  snakemake -s FOLDER/Snakefile --profile FOLDER/profiles/slurm"""


def _number(value) -> str:
    """A score JSON's number as printed: 4 decimals, n/a for null, a list (a ceiling per time bin) as its mean."""
    if value is None:
        return "n/a"
    if isinstance(value, list):
        values = [v for v in value if v is not None]
        return f"{sum(values) / len(values):.4f} (mean of {len(values)} time bins)" if values else "n/a"
    return f"{value:.4f}"


def score_command(model: str, benchmark: str, config_path: str | None, cores: int, verbose: bool = False,
                  out=None) -> int:
    """``brainpipe score MODEL BENCHMARK``: :func:`brainpipe.score` for the command line; 0, or 1 with one message."""
    import difflib
    import json

    from . import api

    out = out or sys.stdout
    try:
        path = Path(config_path) if config_path else workflow_files.default_config()
    except workflow_files.WorkflowNotFound as error:
        print(f"brainpipe score: {error}", file=sys.stderr)
        return 1
    config = _read_config(path)  # a missing or broken file: SystemExit naming it
    zoo = config.get("model_zoo") or {}
    if model not in zoo:  # checked here, before Snakemake starts, with the names that would do
        close = difflib.get_close_matches(model, list(zoo), n=1)
        print(f"brainpipe score: model {model!r} is not in model_zoo of {path}"
              f"{f' (did you mean {close[0]!r}?)' if close else ''}; known: {', '.join(sorted(zoo)) or 'none'}. "
              "Add an entry there (or pass --config FILE with one)", file=sys.stderr)
        return 1
    try:
        bench.load(benchmark, config)
    except ValueError as error:
        print(f"brainpipe score: {error}", file=sys.stderr)
        return 1
    try:
        api.score(model, benchmark, cores=cores, config=config_path, quiet=False if verbose else None)
    except (ValueError, RuntimeError) as error:  # api's checks, or the workflow's failure with its log's end
        print(f"brainpipe score: {error}", file=sys.stderr)
        return 1
    target = Path("results", model, f"{benchmark}.json").resolve()
    result = json.loads(target.read_text())
    error = "" if result.get("error") is None else f", error {_number(result['error'])}"
    layer = f", layer {result['layer']}" if result.get("layer") else ""
    print(f"{model} on {benchmark}: score {_number(result.get('score'))} (raw {_number(result.get('raw'))}, "
          f"ceiling {_number(result.get('ceiling'))}{error}{layer})", file=out)
    if result.get("score") is None and result.get("reason"):
        print(f"no score: {result['reason']}", file=out)
    print(f"score JSON: {target}", file=out)
    return 0


def print_workflow(out=None) -> int:
    """``brainpipe workflow``: the workflow's folder (workflow_files.folder); 1 when the install has none."""
    try:
        folder = workflow_files.folder()
    except workflow_files.WorkflowNotFound as error:
        print(f"brainpipe workflow: {error}", file=sys.stderr)
        return 1
    print(folder, file=out or sys.stdout)
    return 0


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "layers":
        return list_layers(args.model, args.config)
    if args.command == "commit-layers":
        from .pipeline.layer_commitment import CommitError, commit_layers

        layers = args.layers if args.layers in (None, "all") else args.layers.split(",")
        try:
            commit_layers(args.model, args.region, args.benchmark, layers, args.config, args.cores)
        except CommitError as error:
            print(f"brainpipe commit-layers: {error}", file=sys.stderr)
            return 1
        return 0
    if args.command == "check":
        return check_benchmark(args.benchmark, args.model, args.config, args.cores)
    if args.command == "package":
        return package_data(args)
    if args.command == "score":
        return score_command(args.model, args.benchmark, args.config, args.cores, args.verbose)
    if args.command == "workflow":
        return print_workflow()
    config = _load_config(args.config)  # outside a checkout and without --config: {} (the catalog's defaults)
    try:
        if args.command == "list" and args.select:
            return list_selected(config, args.select, args.json)
        list_benchmarks(config) if args.command == "list" else list_data(config)
        sys.stdout.flush()
    except BrokenPipeError:  # `brainpipe list | head`: the reader left; not an error
        sys.stdout = None
    return 0


if __name__ == "__main__":
    sys.exit(main())
