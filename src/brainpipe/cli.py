"""The ``brainpipe`` command: what can be evaluated, and which data files that needs.

    brainpipe list [--config config/config.yaml]   benchmark identifiers (family × region × metric) and models
    brainpipe data [--config config/config.yaml]   catalog files: names, sha1s, and where they land on disk

Running the evaluation itself is Snakemake's job (``snakemake --cores N``); this command only answers questions,
reads no data and never touches the network. It does not import torch, so it answers in well under a second.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

import yaml

from . import benchmarks as bench
from . import catalog

DEFAULT_CONFIG = "config/config.yaml"


def _read_config(path: str) -> dict:
    path = Path(path)
    try:
        config = yaml.safe_load(path.read_text())
    except OSError as error:
        raise SystemExit(f"brainpipe: cannot read config {path} ({error.strerror}); pass --config PATH") from None
    except yaml.YAMLError as error:
        raise SystemExit(f"brainpipe: {path} is not valid YAML ({error})") from None
    if not isinstance(config, dict):
        raise SystemExit(f"brainpipe: {path} must hold a YAML mapping")
    return config


def _families_by_definition():
    """Family names grouped by the definition they share (MajajHong2015 and MajajHong2015public are one)."""
    groups: dict[int, list[str]] = {}
    definitions = {}
    for name, family in bench.FAMILIES.items():
        groups.setdefault(id(family), []).append(name)
        definitions[id(family)] = family
    return [(names, definitions[key]) for key, names in groups.items()]


def list_benchmarks(config: dict, out=None) -> None:
    out = out or sys.stdout
    metrics = ", ".join(bench.METRICS)  # each family lists the ones its data supports
    print("Benchmarks: <family>.<region>-<metric>", file=out)
    print(f"  metrics: {metrics}", file=out)
    for names, family in _families_by_definition():
        origin = "generated locally" if family.source == "demo" else f"data set {family.dataset}"
        print(f"\n  {' = '.join(names)}  ({family.visual_degrees:g}°, {origin}, stimuli {family.stimulus_set},"
              f" {family.time_window[0]}–{family.time_window[1]} ms, CV stratified by {family.stratification})",
              file=out)
        if family.notes:
            print(f"    {family.notes}", file=out)
        for name in names:
            for region in family.regions:
                identifiers = " ".join(f"{name}.{region}-{metric}" for metric in family.metrics)
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


def list_data(config: dict, out=None) -> None:
    out = out or sys.stdout
    data = config.get("data") or {}
    cache_dir = data.get("cache_dir") or "resources/cache"
    local = data.get("local_files") or {}
    base = catalog.base_url(data.get("base_url"))
    used = {family.dataset for family in bench.FAMILIES.values() if family.source == "brainio"}
    print(f"Store: {base}", file=out)
    print(f"Cache: {cache_dir}/<sha1>/<file>  (config data.cache_dir; relative paths are under the working "
          "directory)", file=out)
    print("Sizes: not listed in Brain-Score's catalog (UNVERIFIED); see README.md, section 'Real data'.\n", file=out)

    def where(remote):
        if remote.name in local:
            return f"local file {local[remote.name]} (data.local_files)"
        return str(catalog.cache_path(remote, cache_dir))

    for key, entry in catalog.DEFAULT.assemblies.items():
        mark = "used by brainpipe's benchmarks" if key in used else "not used by a benchmark family"
        print(f"assembly {key}  ({entry.identifier}; {mark})", file=out)
        print(f"  {entry.file.name}  sha1 {entry.file.sha1}", file=out)
        print(f"    -> {where(entry.file)}", file=out)
        print(f"  merged with stimulus set {entry.stimulus_set} -> resources/assemblies/{key}.nc", file=out)
    for key, entry in catalog.DEFAULT.stimulus_sets.items():
        print(f"stimulus set {key}", file=out)
        for remote in (entry.csv, entry.zip):
            print(f"  {remote.name}  sha1 {remote.sha1}", file=out)
            print(f"    -> {where(remote)}", file=out)
        print(f"  unpacked -> resources/stimuli/{key}/ (stimuli.csv + images/)", file=out)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brainpipe", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text in (("list", "benchmark identifiers and the config's models"),
                       ("data", "downloadable data files, their sha1s and where they land")):
        command = commands.add_parser(name, help=text, description=text)
        command.add_argument("--config", default=None,
                             help=f"brainpipe config file (default {DEFAULT_CONFIG} if it exists)")
    return parser


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    if args.config is None:  # outside a checkout there is no config: list the catalog's defaults
        config = _read_config(DEFAULT_CONFIG) if Path(DEFAULT_CONFIG).is_file() else {}
    else:
        config = _read_config(args.config)
    try:
        list_benchmarks(config) if args.command == "list" else list_data(config)
        sys.stdout.flush()
    except BrokenPipeError:  # `brainpipe list | head`: the reader left; not an error
        sys.stdout = None
    return 0


if __name__ == "__main__":
    sys.exit(main())
