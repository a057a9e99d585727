"""What brainpipe's venv does at the start of each of its Python processes (``make setup`` adds a ``.pth`` file that
calls :func:`install`): two things, each invisible where it does not apply.

1. Where a ``--configfile`` overlay has a YAML syntax error, make Snakemake's message name the file, line and column.
   Snakemake (9.x) loads ``--configfile`` files in its command line, before it reads the Snakefile, and answers a YAML
   syntax error (a tab, a missing ':') with "Config file is not valid JSON or YAML" alone: no file, no line
   (brain-score-style grids are usually run with an overlay per experiment, so the user is left guessing which file).
   Nothing in the workflow can run before that point, so an import hook does it: when Snakemake's
   ``snakemake.common.configfile`` module is first imported, its ``_load_configfile`` is wrapped so that this one
   error is re-raised with the file, line and column (the same wording as config/config.yaml's check in the
   Snakefile). Every other behaviour of Snakemake is left as it is.
2. In a ``script:`` job process of a local run, hand the job to the run's warm fork server before Snakemake's script
   preamble imports anything (:func:`_hand_over_job`; brainpipe/pipeline/fork_server.py says why).

A Python without the ``.pth`` (a plain ``pip install``) gets Snakemake's own message, and its jobs hand themselves
over one line later, from the script. This module is deliberately standalone and light (``os`` and ``sys`` only at
start: it runs in every process, each of a run's jobs included). It imports :mod:`brainpipe` only in a job process
of a local run, where the run has put its checkout first on PYTHONPATH (as the script would); anywhere else it would
fix which copy of the library a process uses before the Snakefile can choose the checkout's own.
"""

import os
import sys

TARGET = "snakemake.common.configfile"
SNAKEMAKE_MESSAGE = "not valid JSON or YAML"


def located_yaml_error(path):
    """'<path>, line L, column C: YAML syntax error: ...' for a file PyYAML cannot parse; None if it parses."""
    import yaml

    try:
        with open(path, encoding="utf-8") as file:
            yaml.safe_load(file.read())
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"{path}, line {mark.line + 1}, column {mark.column + 1}" if mark else str(path)
        problem = " ".join(str(part) for part in (getattr(error, "context", None), getattr(error, "problem", None))
                           if part) or str(error)
        advice = "a missing closing bracket, a tab used for indentation, or a key missing its ':' are common causes"
        return f"{where}: YAML syntax error: {problem}. Fix the file ({advice})."
    except (OSError, UnicodeDecodeError):
        return None
    return None


def wrap_config_loader(module):
    """Wrap ``module._load_configfile`` (Snakemake's) so that its JSON-or-YAML error names file, line and column."""
    inner = module._load_configfile
    if getattr(inner, "_brainpipe_wrapped", False):
        return

    def _load_configfile(configpath_or_obj, filetype="Config"):
        try:
            return inner(configpath_or_obj, filetype)
        except module.WorkflowError as error:
            if not isinstance(configpath_or_obj, (str, os.PathLike)) or SNAKEMAKE_MESSAGE not in str(error):
                raise
            located = located_yaml_error(configpath_or_obj)
            if located is None:
                raise
            raise module.WorkflowError(f"{filetype} file {located}") from None

    _load_configfile._brainpipe_wrapped = True
    module._load_configfile = _load_configfile


class _ConfigLoaderHook:
    """Finds nothing itself; when Snakemake's config module is imported, wraps its loader after it executes.

    A meta path finder by protocol (``find_spec``) rather than by subclassing ``importlib.abc.MetaPathFinder``:
    importing importlib.abc costs 35 ms, at the start of every Python process of this venv."""

    def find_spec(self, name, path=None, target=None):
        if name != TARGET:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        execute = loader.exec_module

        def exec_module(module):
            execute(module)
            wrap_config_loader(module)

        loader.exec_module = exec_module
        return spec


def install():
    """Register the hook once (called from the venv's brainpipe-startup.pth); in a brainpipe job process, hand the
    job over to the warm fork server first."""
    _hand_over_job()
    if TARGET in sys.modules:
        wrap_config_loader(sys.modules[TARGET])
    elif not any(isinstance(finder, _ConfigLoaderHook) for finder in sys.meta_path):
        sys.meta_path.insert(0, _ConfigLoaderHook())


def _hand_over_job():
    """Where this process is a ``script:`` job of a local brainpipe run (Snakemake runs
    ``python .snakemake/scripts/tmpXXXX.<script>.py``; the run's Snakefile set BRAINPIPE_FORK_SERVER), give it to the
    warm server before Snakemake's preamble imports anything (brainpipe.pipeline.fork_server.hand_over_at_start; it
    returns where the server does not take the job). brainpipe comes from PYTHONPATH here, which the run set to its
    checkout, as the script's own import would; any other process pays one environment look-up."""
    script = sys.argv[0] if sys.argv else ""
    if not os.environ.get("BRAINPIPE_FORK_SERVER") or f"{os.sep}.snakemake{os.sep}scripts{os.sep}" not in script:
        return
    try:  # returns only where the job was not taken (then the script's own line tries again, and reports errors)
        from brainpipe.pipeline.fork_server import hand_over_at_start

        hand_over_at_start(script)
    except Exception:  # noqa: BLE001: e.g. no brainpipe on this path: the script runs as it would have
        return
