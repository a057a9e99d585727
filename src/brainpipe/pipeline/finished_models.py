"""Models a grid has finished under this very config and code, which the next ``snakemake`` start does not plan again.

Snakemake builds the whole DAG at every start, also of jobs whose files are all there: about 3 ms of CPU a job, so
50 models × every Brain-Score benchmark (55,000 jobs) took three minutes to plan before anything ran, and again to
find that nothing had to. A model is *finished* when the last run of the whole grid (the default target) left none of
its jobs undone (a run that succeeded, or one that failed with ``--keep-going`` for other models), and since then
nothing that decides its results has changed:

- the config, but for the list of models and the other models' model_zoo entries (any change to a setting, a data
  source or a benchmark of your own is a change for every model), with the model's benchmarks a subset of those it
  finished;
- the code: every file of the brainpipe package and of the workflow, and the versions of the libraries that compute;
- the files: every file under the model's result folders (``results/<model>``, ``results/activations/<model>``, ...),
  every file the results of all models share (``results/ceilings``, ``results/assemblies``, ``resources/``...), and
  every file the config names (a weights_file, a model's source, a local data file), by size and modification time.

The finished models' files stay where they are and are read as they are (the summary, the leaderboard and the figures
take them as inputs); no rule makes them (their names are left out of the rules' ``{model}`` wildcard constraints,
pipeline/plan/patterns.py), so Snakemake plans none of their jobs. Anything else, or a command that asks for more
than a plain run (``--forceall``, ``--forcerun``, ``--report``, ``--summary``...), plans the model's jobs again, as
before, and Snakemake reruns what changed. The record is ``.snakemake/brainpipe/finished_models.json``; config
``skip_finished_models: false`` turns this off.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import re
import sys
from pathlib import Path

from brainpipe.io.atomic import atomic_path

#: where the record is kept, beside Snakemake's own state (relative to the working directory)
RECORD = Path(".snakemake/brainpipe/finished_models.json")
#: bump when what a stamp covers changes: an older record then finishes nothing
VERSION = 1
#: results/<folder>/<model>/... : the result folders of one model besides results/<model>/ (rule outputs' patterns)
MODEL_FOLDERS = ("activations", "behaviour", "gram", "properties", "thresholds", "trial_activations", "plots/sweep")
#: results/<folder>/...: the files every model's results read (ceilings, prepared data, stimuli on screen)
SHARED_RESULT_FOLDERS = ("ceilings", "assemblies", "stimuli_on_screen", "benchmarks")
#: the libraries whose version can change a number (a new scikit-learn solver, a new torch kernel)
COMPUTING_LIBRARIES = ("numpy", "scipy", "scikit-learn", "xarray", "netCDF4", "torch", "torchvision", "timm",
                       "pillow", "snakemake")
#: config keys that list the grid rather than decide a model's results
GRID_KEYS = ("models", "benchmarks", "model_zoo")
#: Snakemake options (its command line's names) that ask for more than a plain run of the whole grid: every model is
#: planned for them, as before (a --report lists the jobs of every model; -R reruns some of a finished model's)
PLAN_EVERYTHING_OPTIONS = ("forceall", "forcerun", "force", "until", "omit_from", "touch", "report", "report_after_run",
                           "summary", "detailed_summary", "list_changes", "list_input_changes", "list_params_changes",
                           "list_untracked", "delete_all_output", "delete_temp_output", "cleanup_metadata", "archive",
                           "dag", "rulegraph", "filegraph", "d3dag", "batch", "allowed_rules", "target_jobs",
                           "containerize", "export_cwl", "generate_unit_tests", "unlock")


def asks_for_everything(argv) -> str | None:
    """Why a Snakemake command line ``argv`` must plan every model (an option such as ``--forceall``, or targets of
    its own: a file of a finished model must have a rule to be a target), read with Snakemake's own parser; None
    for a plain run or dry run of the whole grid."""
    from snakemake.cli import get_argument_parser

    try:
        args, _ = get_argument_parser().parse_known_args(list(argv[1:]))
    except SystemExit:  # Snakemake itself says what is wrong with the command line
        return "a command line Snakemake cannot read"
    if set(args.targets or []) - {"all"}:
        return "targets on the command line"
    for option in PLAN_EVERYTHING_OPTIONS:
        if getattr(args, option, None):
            return "--" + option.replace("_", "-")
    return None


def code_folders(workflow_folder) -> list[Path]:
    """What the code digest reads: the brainpipe package that runs, and the workflow beside ``workflow_folder``'s
    Snakefile (its rules, scripts and schemas)."""
    workflow_folder = Path(workflow_folder)
    package = Path(__file__).resolve().parents[1]  # src/brainpipe, or site-packages/brainpipe where installed
    return [package, workflow_folder / "workflow", workflow_folder / "Snakefile"]


def whole_run(workflow) -> bool:
    """Whether a Snakemake run that has ended (in success, in failure, or with nothing to do) was one of the whole
    grid as it is now: the default target, every rule allowed, nothing left out (``--until``, ``--omit-from``,
    ``--batch``), no ``--touch``, on this machine's main process."""
    settings = workflow.dag_settings
    return bool(workflow.is_main_process and not workflow.touch and set(settings.targets) <= {"all"}
                and not settings.until and not settings.omit_from and settings.batch is None
                and not settings.allowed_rules and not settings.target_jobs)


def complete_models(workflow, models) -> list[str]:
    """The ``models`` none of whose jobs is left undone when a run ends (each finished, or had nothing to do), read
    off the DAG of the run (Snakemake's ``workflow.dag``): after a run with ``--keep-going`` that failed for one
    model, the others are finished all the same. A job is a model's by its ``{model}`` wildcard (or an empty cell's
    ``{cell}``, ``<model>/<benchmark>``); a shared job that failed leaves undone the jobs of every model that reads
    its file. No model where the DAG cannot be read (another Snakemake version): nothing is recorded then."""
    undone = set()
    try:
        dag = workflow.dag
        for job in dag.jobs:
            if not dag.noneedrun_finished(job):
                wildcards = job.wildcards_dict
                undone.add(wildcards.get("model") or str(wildcards.get("cell", "")).split("/", 1)[0])
    except AttributeError:
        return []
    return [model for model in models if model not in undone]


def skipped(config: dict, code: str, argv) -> list[str]:
    """The models a ``snakemake`` start with command line ``argv`` leaves out of its plan: the finished ones, unless
    the command asks for more than a plain run (:func:`asks_for_everything`)."""
    if not RECORD.exists():
        return []
    done = finished(config, code)  # first: reading the command line builds Snakemake's parser (about 1 s)
    return done if done and asks_for_everything(argv) is None else []


def start_message(skipped_models, models) -> str:
    """The line a start prints when it leaves finished models out of its plan."""
    return (f"brainpipe: {len(skipped_models)} of {len(models)} models finished in an earlier run of the whole grid, "
            f"nothing changed since ({RECORD}): their files are read as they are, their jobs not planned: "
            f"{', '.join(sorted(skipped_models))}. Any change to the config, the code or their files plans them "
            "again, as do --forceall and skip_finished_models: false.")


def record_run(workflow, config: dict, code: str | None) -> None:
    """After a run of the grid has ended (in success, in failure, or with nothing to do; common.smk, report.smk):
    if it was one of the whole grid, record the models none of whose jobs it left undone. ``code``: None where this
    process does not record (a cluster job's, or skip_finished_models: false)."""
    if code is not None and whole_run(workflow):
        record(config, code, complete_models(workflow, config.get("models") or []))


def record_when_nothing_to_do(logger, message: str, action) -> None:
    """Call ``action`` when ``logger`` (Snakemake's) says ``message`` (its "Nothing to be done"): one such filter
    per process, the last workflow's (a process may plan workflow after workflow through Snakemake's API)."""
    for old in [f for f in logger.filters if isinstance(f, OnMessage)]:
        logger.removeFilter(old)
    logger.addFilter(OnMessage(message, action))


class OnMessage(logging.Filter):
    """Calls ``action`` when a log record's text is ``message`` and lets every record through: Snakemake says
    "Nothing to be done" and returns without its onsuccess handler, so a grid found finished (after an upgrade that
    changed no result, or with the record deleted) is recorded here instead (common.smk)."""

    def __init__(self, message: str, action):
        super().__init__()
        self.message, self.action = message, action

    def filter(self, record) -> bool:
        if record.getMessage() == self.message:
            try:
                self.action()
            except OSError:  # a read-only folder: the next start plans every model, as without a record
                pass
        return True


def _digest(items) -> str:
    hasher = hashlib.sha256()
    for item in items:
        hasher.update(json.dumps(item, sort_keys=True, default=str).encode())
        hasher.update(b"\0")
    return hasher.hexdigest()[:24]


def _files(root: Path):
    """Every file under ``root`` (none if it is not there), but one stamp for a directory output: Snakemake's
    ``.snakemake_timestamp`` inside it stands for its contents, as it does for Snakemake."""
    if root.is_file():
        yield root
        return
    for folder, subfolders, files in os.walk(root):
        if ".snakemake_timestamp" in files:
            subfolders.clear()
            yield Path(folder) / ".snakemake_timestamp"
            continue
        subfolders.sort()
        for name in sorted(files):
            yield Path(folder) / name


def stamp(roots) -> str:
    """The size and modification time of every file under ``roots``, as one digest."""
    entries = []
    for root in roots:
        for path in _files(Path(root)):
            try:
                status = path.stat()
            except FileNotFoundError:  # removed while walking (a staging file)
                continue
            entries.append((str(path), status.st_size, status.st_mtime_ns))
    return _digest(entries)


def code_digest(folders) -> str:
    """The contents of every file under ``folders`` (the brainpipe package, the workflow: rules, scripts, schemas)
    and the versions of Python and of the computing libraries."""
    hasher = hashlib.sha256()
    for folder in folders:
        folder = Path(folder)
        paths = [folder] if folder.is_file() else sorted(
            p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")
        for path in paths:
            hasher.update(str(path.relative_to(folder.parent)).encode() + b"\0" + path.read_bytes() + b"\0")
    versions = [sys.version]
    for name in COMPUTING_LIBRARIES:
        try:
            versions.append(f"{name}=={importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} absent")
    hasher.update("\n".join(versions).encode())
    return hasher.hexdigest()[:24]


def _strings(value):
    """Every string in a config value (its mappings' values and lists' items, at any depth)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, str) and value and len(value) < 4096:
        yield value


def _named_path(value: str) -> list[str]:
    """The existing file or folder a config string names (a weights_file, a model's source file, also as
    ``file.py:callable``, a local data file, your images' folder, the download cache), but the working folder, a
    folder above it and results/ (whose files the record covers by model)."""
    if ":" in value and os.path.isfile(value.rsplit(":", 1)[0]):  # path/to/model.py:build, plugins/lab.py:Mine
        return [value.rsplit(":", 1)[0]]
    if os.path.isfile(value):
        return [value]
    if os.path.isdir(value):
        folder, here = Path(value).resolve(), Path.cwd().resolve()
        if folder != here and folder not in here.parents and not folder.is_relative_to(here / "results"):
            return [value]
    return []


#: ``package.module:attribute``: a benchmark plugin or a model's architecture imported by name
_IMPORTED = re.compile(r"([A-Za-z_]\w*)((?:\.[A-Za-z_]\w*)*):[A-Za-z_]\w*")


def _module_file(name: str) -> str | None:
    """The source file of module ``name`` (``package.module``) without importing anything: the top-level package is
    looked up on sys.path, the rest as folders in it. brainpipe's own modules are left to the code digest."""
    import importlib.machinery

    top, *rest = name.split(".")
    if top == "brainpipe":
        return None
    spec = importlib.machinery.PathFinder.find_spec(top)
    if spec is None or not spec.origin or not os.path.isfile(spec.origin):
        return None
    base = Path(spec.origin)
    if not rest:
        return str(base)
    module = base.parent.joinpath(*rest)
    for candidate in (module.with_suffix(".py"), module / "__init__.py"):
        if candidate.is_file():
            return str(candidate)
    return None


def _imported_file(value: str) -> list[str]:
    """The source file of the module a config string imports by name (``package.module:attribute``), if any."""
    found = _module_file(value.split(":", 1)[0]) if _IMPORTED.fullmatch(value) else None
    return [found] if found else []


def _read_files(value) -> list[str]:
    """The files and folders a config value names or imports by name, each once, sorted."""
    return sorted({path for text in _strings(value) for path in _named_path(text) + _imported_file(text)})


def settings_key(config: dict, code: str) -> str:
    """What decides every model's results: the config less the grid's lists (``GRID_KEYS``), the code, and the files
    and folders that part of the config names, the plugin modules it imports by name among them (size and
    modification time)."""
    shared = {key: value for key, value in config.items() if key not in GRID_KEYS}
    return _digest([shared, code, stamp(_read_files(shared))])


def model_key(config: dict, model: str, code: str, settings: str | None = None) -> str:
    """What decides ``model``'s results but its files and the benchmarks: the settings (:func:`settings_key`,
    computed once for a grid and passed in, or here), the model's own entry and the files it names."""
    entry = (config.get("model_zoo") or {}).get(model)
    settings = settings_key(config, code) if settings is None else settings
    return _digest([settings, entry, stamp(_read_files(entry))])


def model_roots(model: str, results: Path = Path("results")) -> list[Path]:
    """The result folders of ``model``."""
    return [results / model] + [results / folder / model for folder in MODEL_FOLDERS]


def shared_stamp(results: Path = Path("results"), resources: Path = Path("resources")) -> str:
    """The stamp of the files every model's results read: results/ceilings, assemblies, stimuli on screen, and
    everything fetched or made under resources/."""
    return stamp([results / folder for folder in SHARED_RESULT_FOLDERS] + [resources])


def read_record(path: Path = RECORD) -> dict:
    """The record of the last run of the whole grid, or an empty one (none yet, another version, or unreadable)."""
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) and record.get("version") == VERSION else {}


def finished(config: dict, code: str, path: Path = RECORD) -> list[str]:
    """The models of ``config`` (its ``benchmarks`` expanded) that the record says are finished and that nothing
    has changed for since."""
    record = read_record(path)
    if not record or record.get("shared") != shared_stamp():
        return []
    benchmarks = set(config.get("benchmarks") or [])
    settings = settings_key(config, code)
    done = []
    for model in config.get("models") or []:
        entry = (record.get("models") or {}).get(model)
        if (entry and entry.get("key") == model_key(config, model, code, settings)
                and benchmarks <= set(entry.get("benchmarks") or [])
                and entry.get("files") == stamp(model_roots(model))):
            done.append(model)
    return done


def record(config: dict, code: str, models=None, path: Path = RECORD) -> None:
    """After a run of the whole grid ended: ``models`` (default: every model of ``config``; after a failed run, the
    complete ones) are finished as their files are now, and no other model is."""
    models = (config.get("models") or []) if models is None else models
    settings, benchmarks = settings_key(config, code), sorted(config.get("benchmarks") or [])
    entries = {model: {"key": model_key(config, model, code, settings), "benchmarks": benchmarks,
                       "files": stamp(model_roots(model))}
               for model in models}
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as staging:
        Path(staging).write_text(json.dumps({"version": VERSION, "shared": shared_stamp(), "models": entries},
                                            indent=1, sort_keys=True))

