"""The benchmark catalogue: one page per benchmark module of src/brainpipe/benchmarks/families/, generated from the modules
themselves (the registry's families, their data, constants and bibtex) and docs/_data/validation.yaml (the |Δ|
against Brain-Score). Never edit the pages: they exist only inside the MkDocs build.

Used two ways: as an MkDocs hook (mkdocs.yml ``hooks:``; ``on_config`` adds the pages to the navigation,
``on_files`` adds their text), and by tests/test_docs.py (``pages()``, ``validation()``).
"""

from __future__ import annotations

import html
import inspect
import importlib
from fnmatch import fnmatch
from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
VALIDATION = HERE / "_data" / "validation.yaml"
#: Brain-Score 2.4.2's registry (tests/test_brainscore_coverage.py keeps brainpipe's list against it)
BRAINSCORE_IDS = HERE.parent / "src" / "brainpipe" / "benchmarks" / "brainscore_identifiers_2.4.2.txt"
FOLDER = "catalogue"

#: How a raw score becomes the reported one, per Benchmark.normalisation (brainpipe.benchmarks.base).
FORMULAS = {"raw2_over_ceiling": "raw² / ceiling", "raw_over_ceiling": "raw / ceiling", "none": "raw (no ceiling)",
            "raw_over_sqrt_ceiling_per_split": "mean over splits of raw_k / √ceiling_k",
            "chance_corrected": "(raw − chance) / (ceiling − chance)", "raw_over_ceiling_squared": "(raw / ceiling)²",
            "own": "the benchmark's own (per-subject ceiled, averaged)",
            "squared_ratio_bounded": "(raw / ceiling)² bounded to [0, 1]"}


def _formula(benchmark) -> str:
    formula = FORMULAS.get(benchmark.normalisation, benchmark.normalisation)
    if benchmark.behaviour is not None and benchmark.behaviour.clip:
        formula += ", clipped to [0, 1]"
    return formula


@lru_cache(maxsize=1)
def validation() -> dict:
    """docs/_data/validation.yaml: module → {delta, test, reference[, identifiers]}."""
    return yaml.safe_load(VALIDATION.read_text())["modules"]


@lru_cache(maxsize=1)
def _registry():
    from brainpipe.benchmarks.registry import builtin

    return builtin()


def modules() -> dict:
    """module name (``majajhong2015``) → its families, in the registry's order."""
    grouped = {}
    for family in _registry().families.values():
        name = family.origin.split("brainpipe.benchmarks.families.", 1)[1].rstrip(")")
        grouped.setdefault(name, []).append(family)
    return dict(sorted(grouped.items()))


@lru_cache(maxsize=1)
def brainscore_identifiers() -> frozenset:
    lines = BRAINSCORE_IDS.read_text().splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def reference_numbers() -> dict:
    """identifier → (Brain-Score's numbers on the fixture, the file) from every reference file validation.yaml names
    that holds a per-benchmark table (``benchmarks``, or ``scores`` for the Marques2020 chain)."""
    import json

    numbers = {}
    for entry in validation().values():
        for path in filter(None, (p.strip() for p in str(entry.get("reference", "")).split(","))):
            data = json.loads((HERE.parent / path).read_text())
            table = data.get("benchmarks") or data.get("scores")
            if isinstance(table, dict):
                for identifier, values in table.items():
                    if isinstance(values, dict):
                        numbers.setdefault(identifier, (values, path))
    return numbers


def _delta(module: str, identifier: str) -> str:
    """The module's measured |Δ| where it covers the identifier: the identifier is in a reference file's table (or
    matches the entry's ``identifiers`` patterns); a module whose references hold no table covers all of its own."""
    entry = validation().get(module)
    if not entry:
        return "—"
    patterns = entry.get("identifiers")
    if patterns:
        return entry["delta"] if any(fnmatch(identifier, p) for p in patterns) else "—"
    tables = [path for _, path in reference_numbers().values()]
    references = [p.strip() for p in str(entry.get("reference", "")).split(",") if p.strip()]
    if any(path in tables for path in references) and identifier not in reference_numbers():
        return "—"
    return entry["delta"]


def _ceiling(benchmark) -> str:
    """The ceiling as the family or behaviour declares it (a number, or how it is computed)."""
    if benchmark.behaviour is not None:
        value = benchmark.behaviour.ceiling
    elif benchmark.measure is not None:
        value = "computed (NeuronalPropertyCeiling)"
    else:
        value = benchmark.family.ceiling
    if benchmark.normalisation == "none":
        return "none"
    if benchmark.kind == "representational" and value == "internal_consistency":
        return "split-half consistency of the metric"
    names = {"internal_consistency": "internal consistency", "computed": "computed on the human data",
             "custom": "the benchmark's own"}
    return names.get(value, str(value))


def _cell(text) -> str:
    return str(text).replace("|", "\\|")


def _file(remote) -> str:
    """A data file's object name and sha1 prefix (no sha1: a file the user supplies, e.g. ImageNet's images)."""
    return f"`{remote.name}`" + (f" (sha1 `{remote.sha1[:8]}…`)" if remote.sha1 else " (supplied by you)")


def _files(family) -> list[str]:
    """Markdown lines naming the family's data files (object names and sha1 prefixes) and stimulus sets."""
    registry = _registry()
    lines = []
    if family.source == "demo":
        return ["Data: generated on the spot by brainpipe (SIMULATED demo data; no download)."]
    datasets = list(family.recorded_datasets)
    datasets += [key for _, key in family.train_test.files] if family.train_test else []
    for key in dict.fromkeys(datasets):
        entry = registry.assemblies.get(key)
        if entry is None:
            continue
        files = [entry.file] + [part for part in getattr(entry, "parts", ()) or () if hasattr(part, "name")]
        names = ", ".join(_file(f) for f in files if f is not None)
        lines.append(f"- recordings `{key}`: {names or '(declared by its parts)'}")
    for key in sorted(family.stimulus_sets):
        entry = registry.stimulus_sets.get(key)
        if entry is None:
            lines.append(f"- stimuli `{key}`")
            continue
        names = ", ".join(_file(f) for f in (entry.csv, entry.zip) if f is not None)
        lines.append(f"- stimuli `{key}`: {names}")
    return lines or ["Data: none downloaded (the benchmark reads the stimuli's own columns or the model alone)."]


def _family_section(module: str, family) -> list[str]:
    from brainpipe.benchmarks.registry import family_identifiers

    registry = _registry()
    out = [f"## {family.name}", ""]
    if family.notes:
        out += [html.escape(family.notes), ""]
    out += ["| identifier | in Brain-Score 2.4.2 | kind | region | metric | folds | ceiling | score | parent | version "
            "| split | \\|Δ\\| vs Brain-Score |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for identifier in family_identifiers(family):
        b = registry.benchmark(identifier)
        out.append("| " + " | ".join(_cell(v) for v in (
            f"`{identifier}`", "yes" if identifier in brainscore_identifiers() else "no (brainpipe's)", b.kind, b.region or "—", b.metric, b.n_folds, _ceiling(b),
            _formula(b), b.parent, b.version, b.access,
            _delta(module, identifier))) + " |")
    out += ["", f"Shown at {family.visual_degrees}°"
            + (f"; cross-validation stratified on `{family.stratification}`" if family.stratification else "")
            + (f"; time window {family.time_window[0]}–{family.time_window[1]} ms" if family.regions else "")
            + ".", ""]
    out += _files(family) + [""]
    if family.sources:
        out += ["Constants from: " + "; ".join(f"`{s}`" for s in family.sources) + ".", ""]
    if family.bibtex:
        out += ["```bibtex", family.bibtex.strip(), "```", ""]
    return out


def page(module: str, families) -> str:
    """The Markdown of one module's catalogue page."""
    doc = inspect.getdoc(importlib.import_module(f"brainpipe.benchmarks.families.{module}")) or ""
    identifiers = sum(len(_identifiers(f)) for f in families)
    out = [f"# {module}", "",
           f"*Generated from `src/brainpipe/benchmarks/families/{module}.py` by `docs/catalogue.py`; do not edit.* "
           f"{len(families)} {'family' if len(families) == 1 else 'families'}, {identifiers} benchmark"
           f"{'' if identifiers == 1 else 's'}.", ""]
    entry = validation().get(module)
    if entry:
        out += [f"Against Brain-Score 2.4.2: |Δ| {entry['delta']} — checked by `{entry['test']}`"
                + (f" (Brain-Score's numbers: `{entry['reference']}`)" if entry.get("reference") else "") + ".", ""]
    if doc:
        out += ["The module's notes:", "", "```text", doc, "```", ""]
    for family in families:
        out += _family_section(module, family)
    return "\n".join(out)


def _identifiers(family):
    from brainpipe.benchmarks.registry import family_identifiers

    return family_identifiers(family)


def index() -> str:
    out = ["# Benchmark catalogue", "",
           "*Generated from the family modules of `src/brainpipe/benchmarks/` by `docs/catalogue.py` at every docs "
           "build; do not edit.* `brainpipe list` prints the same identifiers.", "",
           "| module | families | benchmarks | kinds | \\|Δ\\| vs Brain-Score |", "|---|---|---|---|---|"]
    registry = _registry()
    for module, families in modules().items():
        ids = [i for f in families for i in _identifiers(f)]
        kinds = sorted({registry.benchmark(i).kind for i in ids})
        entry = validation().get(module)
        out.append(f"| [{module}]({module}.md) | {len(families)} | {len(ids)} | {', '.join(kinds)} | "
                   f"{_cell(entry['delta']) if entry else '—'} |")
    total = sum(len(_identifiers(f)) for fs in modules().values() for f in fs)
    out += ["", f"{len(modules())} modules, {sum(len(f) for f in modules().values())} families, {total} benchmark "
            "identifiers.", ""]
    return "\n".join(out)


def pages() -> dict:
    """path under docs/ → Markdown, for every generated page."""
    generated = {f"{FOLDER}/index.md": index()}
    for module, families in modules().items():
        generated[f"{FOLDER}/{module}.md"] = page(module, families)
    return generated


# ---- MkDocs hook ----

def on_config(config, **kwargs):
    """Put the catalogue pages into the navigation under "Benchmark catalogue"."""
    entries = [{"Overview": f"{FOLDER}/index.md"}] + [{m: f"{FOLDER}/{m}.md"} for m in modules()]
    nav = config["nav"]
    for item in nav:
        if isinstance(item, dict) and "Benchmark catalogue" in item:
            item["Benchmark catalogue"] = entries
            break
    else:
        nav.append({"Benchmark catalogue": entries})
    return config


def on_files(files, config, **kwargs):
    from mkdocs.structure.files import File

    for path, text in pages().items():
        files.append(File.generated(config, path, content=text))
    return files


def validation_table() -> str:
    """The validation page's table (docs/validation.md, at its ``<!-- validation-table -->`` line)."""
    counts = {module: sum(len(_identifiers(f)) for f in families) for module, families in modules().items()}
    out = ["| module | benchmarks | \\|Δ\\| vs Brain-Score 2.4.2 | checked by | Brain-Score's numbers |",
           "|---|---|---|---|---|"]
    for module, entry in sorted(validation().items()):
        out.append(f"| [{module}](catalogue/{module}.md) | {counts.get(module, 0)} | {_cell(entry['delta'])} | "
                   f"{_cell(entry['test'])} | {_cell(entry.get('reference', '—'))} |")
    unlisted = sorted(set(modules()) - set(validation()))
    out += ["", "Not listed (no whole-benchmark comparison stored): "
            + ", ".join(f"[{m}](catalogue/{m}.md)" for m in unlisted) + "."]
    return "\n".join(out)


def _number(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):  # per time bin
        finite = [v for v in value if v is not None]
        return f"{sum(finite) / len(finite):.6g} (mean of {len(value)} bins)" if finite else "—"
    return f"{float(value):.6g}"


def reference_table() -> str:
    """Brain-Score's own numbers on the fixture files, per benchmark, with the module's |Δ| (the validation page's
    ``<!-- validation-benchmarks -->`` line)."""
    owner = {identifier: module for module, families in modules().items()
             for family in families for identifier in _identifiers(family)}
    out = ["| benchmark | Brain-Score score | raw | ceiling | stored in | brainpipe's \\|Δ\\| |", "|---|---|---|---|---|---|"]
    for identifier, (values, path) in sorted(reference_numbers().items()):
        module = owner.get(identifier)
        score = values.get("score", values.get("ceiled"))
        delta = _delta(module, identifier) if module else "—"
        link = f"[`{identifier}`](catalogue/{module}.md)" if module else f"`{identifier}`"
        out.append(f"| {link} | {_number(score)} | {_number(values.get('raw'))} | {_number(values.get('ceiling'))} | "
                   f"`{path}` | {_cell(delta)} |")
    return "\n".join(out)


def on_page_markdown(markdown, page, config, files, **kwargs):
    if page.file.src_uri == "validation.md":
        return (markdown.replace("<!-- validation-table -->", validation_table())
                .replace("<!-- validation-benchmarks -->", reference_table()))
    return markdown
