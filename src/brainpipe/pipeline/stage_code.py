"""The rules' code fingerprints, one per stage: a rule param (``code=stage_code("fit_fold")``) that changes when the
code a stage computes with changes, so Snakemake's params trigger reruns its jobs, and that stays the same when that
code only moves.

A stage is one such param of one rule (``fit_fold``; ``activations_temporal.temporal_code`` where a rule has a
second one). The committed table ``stage_code.json`` beside this file gives each stage

* ``modules``: the library modules it computes with (paths under src/brainpipe without ``.py``),
* ``script``: its workflow script (``workflow/scripts/<x>.py``, relative to the workflow's folder), or null,
* ``digest``: the digest of those files, normalised (:func:`stage_digest`), when it was last recorded,
* ``version``: what the param reads while the code has that digest.

The param is the ``version`` while the files' digest is the recorded one, else ``<version>+<digest now>``: an edit
that is not recorded reruns the stage's jobs (safe), and recording says what the edit was:

* ``python -m brainpipe.pipeline.stage_code record [STAGE...]``: the code moved, its numbers are the same: the new
  digest is recorded under the same version, so nothing reruns;
* ``python -m brainpipe.pipeline.stage_code bump STAGE...``: the numbers change: the version becomes
  ``<version>+<digest>`` (the value the edited code already reads, so results computed while editing stay current),
  and every results folder made before reruns the stage;
* ``python -m brainpipe.pipeline.stage_code check``: the stages whose code differs from the recorded digest (exit 1).

The digest ignores where code lives: it is over the set of top-level statements of the stage's files (each
function, class and assignment whole, whichever listed file holds it and wherever in it), with docstrings and other
bare strings, comments, blank lines and positions left out, and each import of a brainpipe module reduced to the
names it binds (dropped where the name is one the stage's own files define: that definition counts instead). So
moving a function between listed modules, or splitting a module into several listed ones, keeps the digest; changing
an expression, a default or a constant changes it. ``__all__`` lists are left out too (they name re-exports, which
follow every move). Library only: nothing here imports Snakemake.
"""

from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import json
import re
import sys
from pathlib import Path

from . import parse_cache

#: src/brainpipe: the library whose modules the stages list
LIBRARY_ROOT = Path(__file__).resolve().parents[1]
#: the committed table of stages
TABLE = Path(__file__).with_name("stage_code.json")
#: hex digits of a digest (and of the versions first recorded, the fingerprints rules had before stages existed)
DIGEST_LENGTH = 12
COMMAND = "python -m brainpipe.pipeline.stage_code"
_MARK = "\x00"  # around a nested brainpipe import's names in a statement's form, resolved per stage


class StageCodeError(KeyError):
    """A stage the table does not have."""

    def __str__(self):
        return self.args[0]


# --- the param --------------------------------------------------------------------------------------------------------

def stage_code(stage: str, table: dict | None = None, library=None, workflow=None) -> str:
    """The param value of ``stage``: its recorded version while its files' digest is the recorded one, else
    ``<version>+<digest now>``. ``table``, ``library`` (src/brainpipe) and ``workflow`` (the folder of the Snakefile)
    default to this library's own."""
    entry = stage_entry(stage, table)
    current = stage_digest(stage_files(entry, library, workflow), stage)
    return entry["version"] if current == entry["digest"] else f"{entry['version']}+{current}"


def stage_entry(stage: str, table: dict | None = None) -> dict:
    table = load_table() if table is None else table
    if stage not in table:
        raise StageCodeError(f"no stage {stage!r} in {TABLE}: add it (modules, script) and run `{COMMAND} bump "
                             f"{stage}`")
    return table[stage]


def stage_files(entry: dict, library=None, workflow=None) -> list[Path]:
    """The files a stage's digest is over: its modules, then its script."""
    library = LIBRARY_ROOT if library is None else Path(library)
    files = [library / f"{module}.py" for module in entry["modules"]]
    if entry.get("script"):
        files.append(_workflow_folder(workflow) / entry["script"])
    return files


def _workflow_folder(workflow):
    if workflow is not None:
        return Path(workflow)
    from .workflow_files import folder

    return folder()


@functools.lru_cache(maxsize=None)
def load_table(path=TABLE) -> dict:
    """The table at ``path`` (read once per process: every rule's param reads it while the workflow is parsed)."""
    return json.loads(Path(path).read_text())


def write_table(table: dict, path=TABLE) -> None:
    """The table as JSON, one stage per block, sorted by name, module lists wrapped (readable diffs)."""
    blocks = []
    for stage in sorted(table):
        entry = table[stage]
        lines, line = [], '    "modules": ['
        for k, module in enumerate(entry["modules"]):
            item = json.dumps(module) + ("," if k < len(entry["modules"]) - 1 else "")
            if len(line) + len(item) > 116:
                lines.append(line.rstrip())
                line = "      "
            line += item + " "
        lines.append(line.rstrip() + "],")
        blocks.append("\n".join([f"  {json.dumps(stage)}: {{", *lines,
                                 f'    "script": {json.dumps(entry.get("script"))},',
                                 f'    "version": {json.dumps(entry["version"])},',
                                 f'    "digest": {json.dumps(entry["digest"])}', "  }"]))
    text = "{\n" + ",\n".join(blocks) + "\n}\n"
    assert json.loads(text) == {stage: {**entry, "script": entry.get("script")} for stage, entry in table.items()}
    Path(path).write_text(text)
    load_table.cache_clear()


# --- the digest -------------------------------------------------------------------------------------------------------

def stage_digest(files, stage: str = "") -> str:
    """Digest of the normalised code of ``files`` (see the module's docstring). Kept in the per-user parse cache,
    keyed by the files' texts and this module's own code, as the rules' fingerprints always were: normalising the
    ~100 files the stages list takes ~0.4 s, which a ``snakemake -n`` should not pay at every start."""
    texts = []
    for path in files:
        try:
            texts.append(Path(path).read_bytes())
        except FileNotFoundError:
            raise FileNotFoundError(f"stage {stage or '?'} lists {path}, which does not exist: update {TABLE.name} "
                                    f"(its modules or script) and run `{COMMAND} record {stage}`") from None
    keys = tuple(sorted({hashlib.sha1(text).hexdigest() for text in texts}))
    if keys not in _DIGESTS:  # each stage's files once per process (activations' param is read once per layer set)
        cached = parse_cache.get("stage_digest", list(keys), _normaliser())
        if cached is None:
            cached = hashlib.sha1("\n".join(normalised([text.decode() for text in texts])).encode()).hexdigest()
            cached = cached[:DIGEST_LENGTH]
            parse_cache.put("stage_digest", cached, list(keys), _normaliser(), write=False)
        _DIGESTS[keys] = cached
    return _DIGESTS[keys]


_DIGESTS: dict = {}  # sha1s of a stage's file texts -> their digest, in this process


@functools.lru_cache(maxsize=None)
def _normaliser() -> str:
    """This module's code: what the cached digests were computed by."""
    return hashlib.sha1(Path(__file__).read_bytes()).hexdigest()


def normalised(texts) -> list[str]:
    """The sorted, distinct forms of the top-level statements of the files ``texts`` (one stage's)."""
    modules = [_module(text) for text in texts]
    defined = frozenset().union(*(names for names, _, _ in modules))
    forms = set()
    for _, statements, bindings in modules:
        forms.update(_resolve(form, defined) for form in statements)
        forms.update(f"bind {bound} = {name}" for bound, name in bindings if not (bound == name and name in defined))
    return sorted(forms)


@functools.lru_cache(maxsize=None)
def _module(text: str):
    """(names the file defines at top level, forms of its top-level statements, the (bound, imported) names of its
    top-level brainpipe imports). A file listed by several stages is parsed once per process."""
    defined, statements, bindings = set(), [], []
    for node in ast.parse(text).body:
        if _bare_string(node) or _names_all(node):
            continue
        brainpipe, others = _split_import(node)
        bindings.extend(brainpipe)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            # one form per name, so that two files importing the same name (a module split in two) count once
            statements.extend(_form(type(node)(**{**_fields(node), "names": [alias]})) for alias in others)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                defined.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        statements.append(_form(node))
    return frozenset(defined), tuple(statements), tuple(bindings)


def _fields(node):
    return dict(ast.iter_fields(node))


def _bare_string(node) -> bool:
    """A docstring, or any other string standing alone as a statement: it computes nothing."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _names_all(node) -> bool:
    return (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "__all__")


def _is_brainpipe(module: str | None) -> bool:
    return module is not None and (module == "brainpipe" or module.startswith("brainpipe."))


def _split_import(node):
    """([(bound name, imported name)] of the brainpipe part of an import statement, [aliases of the rest]); for any
    other statement ([], [])."""
    if isinstance(node, ast.ImportFrom):
        if node.level or _is_brainpipe(node.module):
            return [(a.asname or a.name, a.name) for a in node.names], []
        return [], list(node.names)
    if isinstance(node, ast.Import):
        ours = [(a.asname or a.name.split(".")[0], a.name.rsplit(".", 1)[-1] if a.asname else a.name.split(".")[0])
                for a in node.names if _is_brainpipe(a.name)]
        return ours, [a for a in node.names if not _is_brainpipe(a.name)]
    return [], []


def _form(node) -> str:
    """A statement's or expression's structure as text: node types and fields, without positions (ast.dump leaves
    them out too) and without empty fields, which Python versions print differently (3.13 omits them; 3.12 added
    ``type_params``), so that the digest does not depend on the Python that computes it."""
    if isinstance(node, list):
        return "[" + "".join(_item(item) for item in node) + "]"
    if isinstance(node, ast.AST):
        fields = ",".join(f"{name}={_form(value)}" for name, value in ast.iter_fields(node)
                          if value is not None and not (isinstance(value, list) and not value))
        return f"{type(node).__name__}({fields})"
    return repr(node)


def _item(node) -> str:
    """One element of a list field: a statement of a body is left out when it is a bare string; a brainpipe import
    inside a body becomes a mark with the names it binds, resolved per stage (:func:`_resolve`)."""
    if _bare_string(node):
        return ""
    brainpipe, others = _split_import(node)
    if brainpipe:
        names = sorted(f"{bound}={name}" for bound, name in brainpipe)
        rest = _form(type(node)(**{**_fields(node), "names": others})) + ";" if others else ""
        return _MARK + ",".join(names) + _MARK + rest
    return _form(node) + ";"


def _resolve(form: str, defined: frozenset) -> str:
    """A statement's form with each mark of a nested brainpipe import reduced to the names the stage's own files do
    not define (left out altogether when none is left)."""
    def names(match):
        kept = [pair for pair in match.group(1).split(",") if not _defined(pair, defined)]
        return f"Import({','.join(kept)});" if kept else ""

    return re.sub(f"{_MARK}([^{_MARK}]*){_MARK}", names, form) if _MARK in form else form


def _defined(pair: str, defined: frozenset) -> bool:
    bound, name = pair.split("=")
    return bound == name and name in defined


# --- record, bump, check ----------------------------------------------------------------------------------------------

def current_digests(table: dict, library=None, workflow=None) -> dict:
    return {stage: stage_digest(stage_files(entry, library, workflow), stage) for stage, entry in table.items()}


def changed(table: dict, library=None, workflow=None) -> dict:
    """stage -> (recorded digest, digest now) of each stage whose code differs from the recorded digest."""
    now = current_digests(table, library, workflow)
    return {stage: (table[stage]["digest"], now[stage]) for stage in sorted(table)
            if now[stage] != table[stage]["digest"]}


def record(table: dict, stages=(), library=None, workflow=None) -> dict:
    """The table with the digests of ``stages`` (all where none are named) recorded anew, versions kept."""
    stages = _known(table, stages) or sorted(table)
    now = current_digests({stage: table[stage] for stage in stages}, library, workflow)
    return {stage: {**entry, "digest": now.get(stage, entry["digest"])} for stage, entry in table.items()}


def bump(table: dict, stages, library=None, workflow=None) -> dict:
    """The table with a new version for each of ``stages``: ``<version>+<digest now>``, the digest recorded."""
    stages = _known(table, stages)
    now = current_digests({stage: table[stage] for stage in stages}, library, workflow)
    return {stage: ({**entry, "version": f"{entry['version']}+{now[stage]}", "digest": now[stage]}
                    if stage in now else entry) for stage, entry in table.items()}


def _known(table, stages):
    unknown = [stage for stage in stages if stage not in table]
    if unknown:
        raise StageCodeError(f"no stage {', '.join(unknown)} in {TABLE.name}; its stages: {', '.join(sorted(table))}")
    return list(stages)


def main(argv=None, out=sys.stdout) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("check", help="list the stages whose code differs from the recorded digest (exit 1 if any)")
    commands.add_parser("record", help="code moved, numbers unchanged: record the digests (all stages where none "
                                       "are named); nothing reruns").add_argument("stages", nargs="*")
    commands.add_parser("bump", help="numbers change: a new version for each stage named; its jobs rerun"
                        ).add_argument("stages", nargs="+")
    args = parser.parse_args(argv)
    table = load_table()
    try:
        if args.command == "check":
            differ = changed(table)
            for stage, (recorded, now) in differ.items():
                print(f"{stage}: recorded digest {recorded}, the code now {now} (its param reads "
                      f"{table[stage]['version']}+{now}: its jobs rerun)", file=out)
            if differ:
                print(f"{len(differ)} of {len(table)} stages differ from {TABLE.name}. Code moved, numbers unchanged: "
                      f"`{COMMAND} record STAGE...`; numbers change: `{COMMAND} bump STAGE...`", file=out)
                return 1
            print(f"all {len(table)} stages have their recorded digests", file=out)
            return 0
        new = (record if args.command == "record" else bump)(table, args.stages)
    except (StageCodeError, FileNotFoundError) as error:  # an unknown stage, a listed file that is gone
        print(f"{COMMAND} {args.command}: {error}", file=sys.stderr)
        return 2
    for stage in sorted(new):
        old, now = table[stage], new[stage]
        if now != old:
            print(f"{stage}: version {old['version']} -> {now['version']}, digest {old['digest']} -> {now['digest']}"
                  if args.command == "bump" else
                  f"{stage}: digest {old['digest']} -> {now['digest']} (version {old['version']} kept)", file=out)
    write_table(new)
    return 0


if __name__ == "__main__":
    sys.exit(main())
