"""Choose a model's layer for a region from a sweep, and write it into the model's config entry.

Brain-Score commits layers this way when a model has no region→layer map (brain-score/vision
brainscore_vision/model_helpers/brain_transformation/neural.py, ``LayerSelection._call``): every candidate layer is
scored on the region's selection benchmark (``LayerScores``, ceiled scores) and ``layer_scores.argmax()`` picks the
layer; numpy's argmax keeps the first maximum, so a tie goes to the earliest candidate in the network's order.
Brain-Score selects on one benchmark per region; with several, brainpipe takes the mean of their ceiled scores, and
a layer missing a score on any of them cannot win. Only the requested candidates compete: the committed layer,
which the workflow also scores for the headline, is not a candidate unless it is among them.

The sweep itself is the workflow's: ``model_zoo.<model>.sweep`` makes every candidate a scored layer
(``results/<model>/<benchmark>/layers/<layer>.json``, ``.../sweep.tsv``). :func:`commit_layers` runs it through a
temporary extra config file, so the user's config changes only once the result is known, and then only the one
value, edited in place as text (comments, order and layout are kept; the edit is checked by parsing the result and
written atomically).
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from . import workflow_files


class CommitError(ValueError):
    """A request that cannot be carried out; the message names the model, region, benchmark or file."""


def select_layer(scores: pd.DataFrame) -> str:
    """The best layer: ``scores`` has one row per candidate layer (in network order), one column per benchmark."""
    if scores.empty:
        raise CommitError("no layer was scored")
    mean = scores.mean(axis=1, skipna=False)
    if mean.isna().all():
        raise CommitError(f"every layer misses a score on some benchmark:\n{scores.to_string()}")
    return str(mean.index[int(np.nanargmax(mean.to_numpy()))])


# ---- The config edit. Text, not a YAML round trip: PyYAML drops comments, and the user's config is full of them.

def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _is_content(line: str) -> bool:
    return bool(line.strip()) and not line.lstrip().startswith("#")


def _block_end(lines, start):
    """The index after the block that the key on ``lines[start]`` opens (its more-indented lines)."""
    indent = _indent(lines[start])
    return next((i for i in range(start + 1, len(lines)) if _is_content(lines[i]) and _indent(lines[i]) <= indent),
                len(lines))


def _child(lines, start, end, key):
    """The line of ``key:`` directly inside lines[start+1:end] (the first content line sets the child indent)."""
    children = [i for i in range(start + 1, end) if _is_content(lines[i])]
    if not children:
        return None
    indent = _indent(lines[children[0]])
    pattern = re.compile(rf"^ {{{indent}}}(['\"]?){re.escape(key)}\1:(\s|$)")
    return next((i for i in children if _indent(lines[i]) == indent and pattern.match(lines[i])), None)


def _scalar(value: str) -> str:
    """``value`` as a YAML plain scalar if it reads back as itself, else double-quoted."""
    try:
        plain = yaml.safe_load(f"k: {value}")["k"] == value and not re.search(r"[{},\[\]#]", value)
    except yaml.YAMLError:
        plain = False
    return value if plain else json.dumps(value)


def _line_end(line: str) -> str:
    return line[len(line.rstrip("\r\n")):] or "\n"


def set_committed_layer(text: str, model: str, region: str, layer: str) -> str:
    """``text`` (a config file) with ``model_zoo.<model>.layers.<region>`` set to ``layer``; only that value changes.

    Handles a flow mapping (``layers: {V1: a, IT: b}``), a block mapping (``layers:`` then indented lines) and an
    entry without ``layers:`` (one line is added). The result is parsed and compared with the input: anything but
    that one value differing raises :class:`CommitError` instead of returning a damaged config.
    """
    lines = text.splitlines(keepends=True)
    zoo = next((i for i, line in enumerate(lines) if re.match(r"^model_zoo:\s*(#.*)?$", line.rstrip("\r\n"))), None)
    if zoo is None:
        raise CommitError("the config has no block 'model_zoo:' (a line of its own, entries indented below it)")
    entry = _child(lines, zoo, _block_end(lines, zoo), model)
    if entry is None:
        raise CommitError(f"model_zoo has no entry {model!r} written as a block ('  {model}:' on a line of its own)")
    entry_end = _block_end(lines, entry)
    value = _scalar(layer)
    key = _child(lines, entry, entry_end, "layers")
    if key is None:  # no layers: yet: add one after the entry's last content line
        last = max([i for i in range(entry + 1, entry_end) if _is_content(lines[i])], default=entry)
        indent = next((_indent(lines[i]) for i in range(entry + 1, entry_end) if _is_content(lines[i])),
                      _indent(lines[entry]) + 2)
        lines.insert(last + 1, f"{' ' * indent}layers: {{{region}: {value}}}{_line_end(lines[last])}")
    else:
        line = lines[key]
        body, end = line.rstrip("\r\n"), _line_end(line)
        flow = re.match(r"^(\s*layers:\s*\{)([^{}#]*)(\}\s*(#.*)?)$", body)
        block = re.match(r"^\s*layers:\s*(#.*)?$", body)
        if flow:
            items = flow.group(2)
            pattern = rf"((?:^|,)\s*(['\"]?){re.escape(region)}\2\s*:\s*)([^,]*?)(\s*)(?=,|$)"
            if re.search(pattern, items):
                items = re.sub(pattern, lambda m: f"{m.group(1)}{value}{m.group(4)}", items, count=1)
            else:
                trailing = items[len(items.rstrip()):]
                items = f"{items.rstrip()}, {region}: {value}{trailing}" if items.strip() else f"{region}: {value}"
            lines[key] = f"{flow.group(1)}{items}{flow.group(3)}{end}"
        elif block:
            found = _child(lines, key, _block_end(lines, key), region)
            if found is not None:
                match = re.match(r"^(\s*[^:]+:\s*)([^#]*?)(\s*#.*)?$", lines[found].rstrip("\r\n"))
                lines[found] = f"{match.group(1)}{value}{match.group(3) or ''}{_line_end(lines[found])}"
            else:
                children = [i for i in range(key + 1, _block_end(lines, key)) if _is_content(lines[i])]
                indent = _indent(lines[children[0]]) if children else _indent(line) + 2
                lines.insert(key + 1, f"{' ' * indent}{region}: {value}{end}")
        else:
            raise CommitError(f"model_zoo.{model}.layers is written in a form this command does not edit "
                              f"({body.strip()!r}); write it as 'layers: {{{region}: ...}}' or as a block")
    updated = "".join(lines)
    _check_edit(text, updated, model, region, layer)
    return updated


def _check_edit(before: str, after: str, model: str, region: str, layer: str):
    """The edit changed model_zoo.<model>.layers.<region> to ``layer`` and nothing else (as YAML)."""
    try:
        old, new = yaml.safe_load(before) or {}, yaml.safe_load(after) or {}
    except yaml.YAMLError as error:
        raise CommitError(f"editing model_zoo.{model}.layers.{region} would not leave valid YAML ({error}); "
                          f"set it by hand to {layer}") from None
    expected = json.loads(json.dumps(old, default=str))
    spec = expected["model_zoo"][model] = expected["model_zoo"][model] or {}
    spec["layers"] = {**(spec.get("layers") or {}), region: layer}
    if json.loads(json.dumps(new, default=str)) != expected:
        raise CommitError(f"could not edit model_zoo.{model}.layers.{region} without changing anything else; "
                          f"set it by hand to {layer}")


# ---- The sweep.

def _candidates(spec, model, region, layers, base_dir="."):
    from .workflow_config import ConfigError, leaf_layers

    if layers is None:
        layers = (spec.get("sweep") or {}).get(region, "all")
    if layers == "all":
        try:
            return list(leaf_layers(spec["architecture"], base_dir, model))
        except ConfigError as error:
            raise CommitError(str(error)) from None
    layers = [layer.strip() for layer in layers if layer.strip()]
    if not layers:
        raise CommitError("--layers names no layer; give 'all' or comma-separated layer names")
    return list(dict.fromkeys(layers))


def _check_benchmarks(config, benchmarks, region, base_dir="."):
    from .workflow_config import ConfigError, load_registry

    if not benchmarks:
        raise CommitError(f"name at least one --benchmark for region {region} (e.g. <Family>.{region}-pls; `brainpipe list` names them)")
    try:
        registry = load_registry(config, base_dir)
    except ConfigError as error:
        raise CommitError(str(error)) from None
    for identifier in benchmarks:
        try:
            benchmark = registry.benchmark(identifier)
        except ValueError as error:
            raise CommitError(str(error)) from None
        if benchmark.kind == "behaviour" or benchmark.region != region:
            raise CommitError(f"benchmark {identifier} does not record region {region} "
                              f"({'behavioural' if benchmark.kind == 'behaviour' else benchmark.region}); "
                              f"layer selection for {region} needs a {region} benchmark")


def selection_warning(config, benchmarks, region, base_dir=".") -> str | None:
    """A warning when the layer is chosen on the data the grid then reports for the region (the same data set):
    the reported score then counts the choice in its favour. None when selection and reporting data differ."""
    from .workflow_config import load_registry

    registry = load_registry(config, base_dir)
    reported = {}
    for identifier in config.get("benchmarks") or []:
        try:
            benchmark = registry.benchmark(identifier)
        except ValueError:
            continue  # the workflow names a bad identifier itself
        if benchmark.kind != "behaviour" and benchmark.region == region:
            reported.setdefault(benchmark.family.dataset, []).append(identifier)
    shared = sorted({r for b in benchmarks for r in reported.get(registry.benchmark(b).family.dataset, [])})
    if not shared:
        return None
    return (f"the layer for {region} is chosen on {', '.join(benchmarks)}, whose data the grid also reports "
            f"({', '.join(shared)}): the reported score then counts the choice in its favour. Brain-Score keeps "
            "them apart: it selects layers on the public recordings (MajajHong2015public.{V4,IT}-pls, "
            "FreemanZiemba2013public.{V1,V2}-pls; brain-score/vision model_helpers/brain_transformation/neural.py "
            "LayerSelection) and reports on the private recordings, other images of the same experiment. Choose on "
            "data you do not report (e.g. a benchmark_zoo entry of held-out images), or say in your results that "
            "layer and score come from the same data. (brainpipe's MajajHong2015.* and FreemanZiemba2013.* are "
            "the public recordings unless config data.access says private.)")


def _layer_score(path: Path) -> float:
    score = json.loads(path.read_text()).get("score")
    return float(score) if score is not None and math.isfinite(float(score)) else math.nan


def _write_atomic(path: Path, text: str):
    staging = path.with_name(f".{path.name}.tmp")
    staging.write_text(text)
    os.replace(staging, path)  # atomic: never half-written


def commit_layers(model: str, region: str, benchmarks: list[str], layers=None, config_path="config/config.yaml",
                  cores: int = 2, snakefile=None, out=None) -> str:
    """Run the sweep through the workflow, pick the best layer, write it into the config; returns the layer.

    ``layers``: a list of candidate layer names, ``"all"`` (every leaf module but dropout), or None (the entry's
    ``sweep`` for the region, else all). Everything that can be checked is checked before the sweep starts.
    """
    out = out or sys.stdout
    config_path = Path(config_path)
    if not config_path.is_file():
        raise CommitError(f"{config_path}: no such config file (run in the workflow folder or pass --config)")
    text = config_path.read_text()
    config = yaml.safe_load(text) or {}
    zoo = config.get("model_zoo") or {}
    if model not in zoo:
        raise CommitError(f"{config_path}: model_zoo has no entry {model!r}; known: {sorted(zoo)}")
    spec = zoo[model] or {}
    _check_benchmarks(config, benchmarks, region)
    warning = selection_warning(config, benchmarks, region)
    if warning:
        print(f"warning: {warning}", file=out, flush=True)
    candidates = _candidates(spec, model, region, layers)
    try:  # a config this command cannot edit stops here, not after an hour of sweeping
        set_committed_layer(text, model, region, candidates[0])
    except CommitError as error:
        raise CommitError(f"{config_path}: {error}") from None
    before = (spec.get("layers") or {}).get(region)

    # the sweep: the user's config plus this, merged by snakemake; a region without a committed layer gets the first
    # candidate for the run (the workflow scores the committed layer for the headline)
    override = {"sweep": {region: candidates}}
    if before is None:
        override["layers"] = {region: candidates[0]}
    extra = {"models": [model], "benchmarks": list(benchmarks), "model_zoo": {model: override}}
    # this file is src/brainpipe/pipeline/layer_commitment.py: the checkout's root is three folders up
    snakefile = Path(snakefile) if snakefile else workflow_files.snakefile()  # a checkout's, or a wheel's copy
    targets = [f"results/{model}/{benchmark}/sweep.tsv" for benchmark in benchmarks]
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", prefix=".brainpipe-sweep-", dir=".", delete=False) as f:
        yaml.safe_dump(extra, f)
    try:  # targets before --configfile, which takes several values
        command = [str(Path(sys.executable).parent / "snakemake"), "-s", str(snakefile), "--cores", str(cores),
                   *targets, "--configfile", str(config_path), f.name]
        print(f"sweeping {len(candidates)} layers of {model} on {', '.join(benchmarks)}: {' '.join(command)}",
              file=out, flush=True)
        run = subprocess.run(command)  # snakemake's progress and errors go straight to the terminal
    finally:
        Path(f.name).unlink(missing_ok=True)
    if run.returncode != 0:
        raise CommitError(f"the sweep failed (snakemake exit {run.returncode}; its messages are above); "
                          f"{config_path} is unchanged")

    # full-precision scores from the per-layer results (sweep.tsv rounds), candidates in the network's order
    from .report import read_sweep_table

    order = [layer for layer in read_sweep_table(targets[0])["layer"] if layer in candidates]
    order += [layer for layer in candidates if layer not in order]
    scores = pd.DataFrame({benchmark: [_layer_score(Path(f"results/{model}/{benchmark}/layers/{layer}.json"))
                                       for layer in order] for benchmark in benchmarks},
                          index=pd.Index(order, name="layer"))
    best = select_layer(scores)
    table = scores.assign(mean=scores.mean(axis=1, skipna=False), best=scores.index == best)
    record = Path(f"results/{model}/layer_commitment_{region}.tsv")
    record.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(record, table.to_csv(sep="\t", float_format="%.6g"))
    print(table.to_string(float_format=lambda v: f"{v:.4f}"), file=out)
    _write_atomic(config_path, set_committed_layer(config_path.read_text(), model, region, best))
    print(f"{config_path}: model_zoo.{model}.layers.{region}: {before} -> {best} (table: {record})", file=out)
    print(json.dumps({"model": model, "region": region, "layer": best, "previous": before}), file=out)
    return best
