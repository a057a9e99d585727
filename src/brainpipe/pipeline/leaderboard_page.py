"""The leaderboard page (results/leaderboard.html), laid out as brain-score.org's vision leaderboard: one row per
model; the average, neural, behavioural and engineering means first; then one column per parent (V1 ... IT,
behaviour, ...) that expands into its benchmarks. A page per model and per benchmark lives in the same file (views
switched by the URL's fragment, ``#model/<name>``, ``#benchmark/<id>``), so that one self-contained file works
offline, from file:// and inside ``snakemake --report`` (which embeds a result as one data: URL: links to other
files would not resolve there).

Layout is a Jinja2 template (leaderboard_templates/); the interactive table is DataTables (vendored with its
licence in leaderboard_static/, inlined). This module only builds the values the template shows; the numbers come
from brainpipe.pipeline.report (the leaderboard table and its aggregation)."""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np

from . import report as r
from .headline import best_layer

HERE = Path(__file__).parent
TEMPLATES = HERE / "leaderboard_templates"
STATIC = HERE / "leaderboard_static"
NEURAL, BEHAVIOURAL, ENGINEERING = "neural", "behavioral", "engineering"
#: a left-out benchmark's group (repeated recordings, demo data beside real data, engineering children of a
#: behavioural parent): shown, expandable, in no mean
OTHER = "not in the means"
#: data-order of a cell without a number: sorts below every score in either direction's first page
NO_NUMBER = -1e9


@functools.lru_cache(maxsize=1)
def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    environment = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(("html", "j2")),
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.filters["num"] = _fmt
    environment.filters["err"] = _fmt_error
    environment.filters["shade"] = r._shade
    environment.filters["order"] = _order
    # the page's data in a <script type="application/json">: every '<' escaped, so that no value ends the element
    environment.filters["script_json"] = lambda value: json.dumps(value, separators=(",", ":"),
                                                                  allow_nan=False).replace("<", "\\u003c")
    return environment


@functools.lru_cache(maxsize=1)
def static_files():
    """The vendored table library, inlined into the page: {'css': ..., 'js': [jquery, datatables]}."""
    return {"css": (STATIC / "dataTables.dataTables.min.css").read_text(),
            "js": [(STATIC / name).read_text() for name in ("jquery.min.js", "dataTables.min.js")]}


def render(table, headlines, ceilings, *, title="brainpipe leaderboard", missing=(), stale=None, simulated=(),
           facts=None) -> str:
    """The page of ``report.leaderboard(...)``'s ``table`` (``headlines``: the score dicts it was built from;
    ``ceilings``: benchmark -> ceiling dict; ``missing``: (model, benchmark) without a score; ``stale``:
    (model, benchmark) -> why its score file no longer matches the config, shown but in no mean; ``facts``:
    report.facts_of's benchmark definitions)."""
    stale = dict(stale or {})
    missing = list(missing)
    benchmarks = [c for c in table.columns if c != r.AVERAGE_COLUMN and not c.endswith(r.PARENT_SUFFIX)]
    models = [m for m in table.index if m != r.CEILING_ROW]
    known = r.facts_of(benchmarks, facts)
    columns_of = r.aggregation([h for h in headlines if (h["model"], h["benchmark"]) not in stale], benchmarks,
                               simulated, facts)
    left_out = r.left_out_of_means(headlines, benchmarks, simulated)
    by_cell = {(h["model"], h["benchmark"]): h for h in headlines}
    summaries = _summary_columns(table, columns_of)
    columns = _columns(benchmarks, columns_of, known, left_out, headlines)
    ceiling_of = {b: _ceiling(ceilings.get(b)) for b in benchmarks}
    rows = []
    values = table.to_dict()  # column -> model -> value (a dict look-up per cell, not a DataFrame's)
    for rank, model in enumerate(models, start=1):
        cells = [_cell(values, model, column, by_cell, stale) for column in columns]
        rows.append({"model": model, "rank": rank, "summary": [_number(summaries[s].get(model)) for s in summaries],
                     "cells": cells})
    ceiling_cells = [ceiling_of.get(c["key"]) if c["kind"] == "benchmark" else None for c in columns]
    context = {
        "title": title, "models": models, "benchmarks": benchmarks, "summaries": list(summaries),
        "columns": columns, "rows": rows, "ceiling_cells": ceiling_cells,
        "missing": missing, "stale": sorted(stale.items()),
        "model_pages": [_model_page(model, table, benchmarks, by_cell, known) for model in models],
        "benchmark_pages": [_benchmark_page(b, models, by_cell, known.get(b), ceiling_of[b], left_out.get(b))
                            for b in benchmarks],
        "grid": _grid_data(models, benchmarks, by_cell, stale, missing, known),
        "references": _references(headlines, benchmarks), "static": static_files(),
        "n_parents": sum(c["kind"] == "parent" for c in columns),
    }
    return _environment().get_template("leaderboard.html.j2").render(context)


# --- columns ---------------------------------------------------------------------------------------------------

def _summary_columns(table, columns_of):
    """average, neural (mean over the counted neural parents), behavioural (the behaviour root's column) and
    engineering (mean over the engineering parents, in no average), each model -> value; only those the grid
    has. The average is the table's (report.leaderboard: the mean over the counted top-level parents)."""
    behaviour = f"{r.BEHAVIOUR_PARENT}{r.PARENT_SUFFIX}"
    nested = {child for children, _ in columns_of.values() for child in children}
    top = [c for c in columns_of if c not in nested]
    neural = [c for c in top if columns_of[c][1] and c != behaviour]
    engineering = [c for c in top if not columns_of[c][1]]
    models = [m for m in table.index if m != r.CEILING_ROW]
    summaries = {"average": table.loc[models, r.AVERAGE_COLUMN]}
    if neural:
        summaries[NEURAL] = table.loc[models, neural].mean(axis=1, skipna=False)
    if behaviour in columns_of:
        summaries[BEHAVIOURAL] = table.loc[models, behaviour]
    if engineering:
        summaries[ENGINEERING] = table.loc[models, engineering].mean(axis=1, skipna=False)
    return {name: values.to_dict() for name, values in summaries.items()}


def _columns(benchmarks, columns_of, known, left_out, headlines):
    """Every column after the summaries, parents first and their children after them (depth first): dicts with
    ``key``, ``label``, ``kind`` ('parent' / 'benchmark'), ``ancestors`` (the parents that must be expanded for it
    to show) and a short ``note``."""
    nested = {child for children, _ in columns_of.values() for child in children}
    access = {h["benchmark"]: r.data_access(h) for h in headlines}
    columns, placed = [], set()

    def add(column, ancestors):
        children, counted = columns_of[column]
        n_benchmarks = sum(child not in columns_of for child in children)
        note = f"{n_benchmarks} benchmark{'s' if n_benchmarks != 1 else ''}"
        if n_benchmarks < len(children):
            note += f" + {len(children) - n_benchmarks} parent(s)"
        columns.append({"key": column, "label": column.removesuffix(r.PARENT_SUFFIX), "kind": "parent",
                        "ancestors": ancestors, "note": note + ("" if counted else "; not in the average"),
                        "id": f"p{len(columns)}"})
        own = columns[-1]["id"]
        for child in children:
            if child in columns_of:
                add(child, ancestors + [own])
            else:
                placed.add(child)
                columns.append(_benchmark_column(child, ancestors + [own], known.get(child), access.get(child),
                                                 left_out.get(child), len(columns)))

    for column in columns_of:
        if column not in nested:
            add(column, [])
    rest = [b for b in benchmarks if b not in placed]
    if rest:  # shown in a group of their own, each with why it is in no mean
        columns.append({"key": None, "label": OTHER, "kind": "parent", "ancestors": [], "id": f"p{len(columns)}",
                        "note": f"{len(rest)} benchmark{'s' if len(rest) != 1 else ''}"})
        own = columns[-1]["id"]
        for b in rest:
            columns.append(_benchmark_column(b, [own], known.get(b), access.get(b),
                                             left_out.get(b, "engineering: scored against the ground truth"),
                                             len(columns)))
    return columns


def _benchmark_column(benchmark, ancestors, facts, access, left_out, index):
    region = facts["region"] if facts else (r.identifier_parts(benchmark)[1] if r.readable_identifier(benchmark)
                                            else None)
    metric = facts["metric"] if facts else (r.identifier_parts(benchmark)[2] if r.readable_identifier(benchmark)
                                            else "")
    note = ", ".join(x for x in (region or ("behaviour" if not facts or facts["kind"] == "behaviour" else ""),
                                  metric, f"{access} recordings" if access not in (None, "all") else "") if x)
    return {"key": benchmark, "label": benchmark, "kind": "benchmark", "ancestors": ancestors, "note": note,
            "left_out": left_out, "id": f"b{index}"}


# --- cells -----------------------------------------------------------------------------------------------------

def _cell(values, model, column, by_cell, stale):
    """A cell of the overview: its number (sort key and shade) and text; its hover text comes from the page's data
    (the script's), so that 14,550 cells do not each carry a sentence."""
    if column["kind"] == "parent":
        value = values[column["key"]][model] if column["key"] in values else None
        return {"value": _number(value), "text": _fmt(value), "status": None}
    benchmark = column["key"]
    h = by_cell.get((model, benchmark))
    if (model, benchmark) in stale:
        return {"value": None, "text": "stale", "status": "stale"}
    if h is None:
        return {"value": None, "text": "–", "status": "missing"}
    value = values[benchmark][model]
    return {"value": _number(value), "text": _fmt(value), "status": "null" if h.get("score") is None else None}


def _best(h):
    """The best layer of a swept score (its ``best_layer``, else from its ``sweep``); None without a sweep or a
    scored layer."""
    if not h.get("sweep"):
        return None
    return h.get("best_layer") or best_layer(h["sweep"])


def _ceiling(ceiling):
    """{'value', 'error', 'bins'} of a ceiling JSON: a time-resolved ceiling (a list per time bin) shows the mean
    over its bins, as the score JSON's ``ceiling`` (brainpipe.pipeline.scoring)."""
    if ceiling is None:
        return None
    value = ceiling.get("ceiling") if isinstance(ceiling, dict) else ceiling
    error = ceiling.get("error") if isinstance(ceiling, dict) else None
    bins = len(value) if isinstance(value, (list, tuple)) else None
    return {"value": _number(_scalar(value)), "error": None if bins else _number(_scalar(error)), "bins": bins}


# --- pages -----------------------------------------------------------------------------------------------------

#: the fields of each cell in the page's data (the model and benchmark pages, the cells' hover text)
CELL_FIELDS = ("score", "raw", "ceiling", "error", "layer", "best_layer", "status", "reason")


def _grid_data(models, benchmarks, by_cell, stale, missing, known):
    """The grid as plain data for the page's script: ``cells[model index][benchmark index]`` = the values of
    ``CELL_FIELDS`` (a time-resolved value: its mean over bins); each swept model's per-layer scores; each
    benchmark's parent. The script builds the model and benchmark pages' tables from it (DataTables), so that
    50 × 291 cells are not 30,000 rows of HTML."""
    missing = set(missing)
    cells, sweeps = [], {}
    for model in models:
        row = []
        for b in benchmarks:
            h = by_cell.get((model, b))
            status = ("stale" if (model, b) in stale else "missing" if h is None or (model, b) in missing
                      else "null" if h.get("score") is None else "scored")
            h = h or {}
            row.append([_rounded(h.get("score")) if status != "stale" else None, _rounded(_scalar(h.get("raw"))),
                        _rounded(_scalar(h.get("ceiling"))), _rounded(_scalar(h.get("error"))),
                        h.get("layer") or "", _best(h) or "", status, stale.get((model, b)) or h.get("reason") or ""])
            if h.get("sweep"):
                sweeps.setdefault(model, {})[b] = [[layer, _rounded(score)] for layer, score in h["sweep"].items()]
        cells.append(row)
    return {"fields": list(CELL_FIELDS), "models": models, "benchmarks": benchmarks, "cells": cells,
            "sweeps": sweeps, "parents": [(known.get(b) or {}).get("parent") or "" for b in benchmarks]}


def _model_page(model, table, benchmarks, by_cell, known):
    """A model's page: its average, and where it has sweeps the workflow's sweep figures (one per parent,
    report.figure_groups), linked relative to results/ (shown when the page is opened from results/; inside
    snakemake --report they are the 'Layer sweeps' category's own results)."""
    swept = [b for b in benchmarks if by_cell.get((model, b), {}).get("sweep")]
    parents = {b: (known.get(b) or {}).get("parent") or by_cell[(model, b)].get("parent") or b for b in swept}
    figures = [f"plots/sweep/{model}/{group}.png" for group in r.figure_groups(swept, parents)]
    return {"model": model, "average": _number(table.loc[model, r.AVERAGE_COLUMN]), "swept": bool(swept),
            "figures": figures}


def _rounded(value, digits=6):
    value = _number(value)
    return None if value is None else round(value, digits)


def _benchmark_page(benchmark, models, by_cell, facts, ceiling, left_out):
    any_score = next((by_cell[(m, benchmark)] for m in models if (m, benchmark) in by_cell), {})
    data = any_score.get("data") or {}
    return {"benchmark": benchmark, "facts": facts or {}, "ceiling": ceiling, "left_out": left_out,
            "bibtex": any_score.get("bibtex") or "", "formula": any_score.get("formula") or "",
            "data": {k: v for k, v in (("dataset", data.get("dataset")), ("access", r.data_access({"data": data})),
                                        ("stimulus_set", data.get("stimulus_set")),
                                        ("visual_degrees", data.get("visual_degrees"))) if v},
            "settings": data.get("settings") or {},
            "files": [f.get("name") if isinstance(f, dict) else str(f) for f in (data.get("files") or [])]}


def _references(headlines, benchmarks):
    cited = {}
    for h in headlines:  # each benchmark's reference, once (score JSONs carry the family's bibtex)
        if h.get("bibtex") and h["benchmark"] in benchmarks:
            cited.setdefault(h["bibtex"], set()).add(h["benchmark"])
    return [(", ".join(sorted(bs)), bib) for bib, bs in cited.items()]


# --- numbers ---------------------------------------------------------------------------------------------------

def _scalar(value):
    """One number of a JSON value: a list per time bin gives its mean (NaN bins left out), None stays None."""
    if isinstance(value, (list, tuple)):
        finite = [float(v) for v in value if v is not None and math.isfinite(float(v))]
        return float(np.mean(finite)) if finite else None
    return value


def _number(value):
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _fmt(value, digits=3):
    value = _number(value) if not isinstance(value, (list, tuple)) else _number(_scalar(value))
    return "–" if value is None else f"{value:.{digits}f}"


def _fmt_error(value):
    """± error with two significant digits (a ceiling's error is often below 0.001); 'n/a' where there is none
    (a single-shot metric)."""
    value = _number(_scalar(value))
    return "n/a" if value is None else f"{value:.2g}"


def _order(value):
    return NO_NUMBER if value is None else round(value, 6)


# --- the grid's tables as a run writes them (rule leaderboard) and rebuilds them after a failure (onerror) ---

def leaderboard_html(table, headlines, ceilings, title="brainpipe leaderboard", missing=(), simulated=(), stale=None,
                     facts=None):
    """The leaderboard page of ``leaderboard(...)`` (one self-contained HTML
    file, a Jinja2 template and the vendored DataTables). ``missing``: (model, benchmark) pairs without a score;
    ``stale``: (model, benchmark) -> why its file no longer matches the config; both named at the top."""
    return render(table, headlines, ceilings, title=title, missing=missing, stale=stale, simulated=simulated,
                  facts=facts)


class GridTables:
    """What :func:`write_grid_tables` did: ``written`` (the paths it wrote, empty when it wrote none), ``missing``
    and ``stale`` (as :func:`brainpipe.pipeline.report.summary_table` takes them) and, when there was nothing to write, ``why``."""

    def __init__(self, written, missing, stale, why=""):
        self.written, self.missing, self.stale, self.why = list(written), list(missing), dict(stale), why

    def message(self):
        """One paragraph for the terminal saying what happened (nothing more)."""
        lines = []
        if self.missing:
            lines.append(f"brainpipe: {len(self.missing)} score(s) of the grid missing: "
                         + ", ".join(f"{model} × {benchmark}" for model, benchmark in self.missing) + ".")
        if self.stale:
            lines.append(f"brainpipe: {len(self.stale)} score file(s) stale (computed with other settings or "
                         "definitions than the current config's; this run could not recompute them): "
                         + "; ".join(f"{m} × {b} ({why})" for (m, b), why in self.stale.items()) + ".")
        if self.written:
            lines.append(f"brainpipe: rebuilt {', '.join(map(str, self.written))} from the score files that exist"
                         + (" (status 'missing' / 'stale' names the others)." if self.missing or self.stale
                            else "."))
        else:
            lines.append(f"brainpipe: no table was rebuilt ({self.why}); results/summary.tsv and the leaderboard "
                         "are as the last run that wrote them left them, if any.")
        return "\n".join(lines)


def write_grid_tables(score_paths, ceiling_paths, models, benchmarks, summary_path, csv_path, html_path,
                      simulated=(), expected=None, facts=None):
    """results/summary.tsv and the leaderboard (CSV + HTML) from the score files that exist, naming the missing
    and the stale ones (``expected``: see :func:`brainpipe.pipeline.report.stale_scores`) (the workflow's ``onerror``: a run that partly
    failed, e.g. with --keep-going, must not leave the previous run's tables behind, nor show an old score as
    current). Stale scores are listed in summary.tsv with status 'stale' and left out of the leaderboard's cells
    and means. Returns a :class:`GridTables`."""
    from pathlib import Path

    from brainpipe.io import atomic_path, read_json

    headlines, missing = r.existing_scores(score_paths)
    if not headlines:  # nothing scored yet: no table to rebuild (and no stale one can exist)
        return GridTables([], missing, {}, why="no score file of the grid exists yet")
    stale = r.stale_scores(headlines, expected or {})
    ceilings = {}
    for path in map(Path, ceiling_paths):
        if path.is_file():
            ceiling = read_json(path)
            ceilings[ceiling.get("benchmark", path.stem)] = ceiling
    current = [h for h in headlines if (h["model"], h["benchmark"]) not in stale]
    table = r.leaderboard(current, ceilings, models=models, benchmarks=benchmarks, simulated=simulated, facts=facts)
    page = leaderboard_html(table, headlines, ceilings, missing=missing, stale=stale, simulated=simulated,
                            facts=facts)
    with atomic_path(summary_path) as temporary:
        r.summary_table(headlines, missing, stale).to_csv(temporary, sep="\t", index=False, float_format="%.4f")
    with atomic_path(csv_path) as temporary:
        r.write_leaderboard_csv(table, temporary)
    with atomic_path(html_path) as temporary:
        temporary.write_text(page)
    return GridTables([summary_path, csv_path, html_path], missing, stale)
