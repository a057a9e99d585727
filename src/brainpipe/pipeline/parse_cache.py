"""A small on-disk cache of parse-time answers that are slow to get and rarely change: the layer names of a
torchvision or timm architecture and whether its named weights exist (getting them means importing torch and
torchvision, ~2-4 s), the rules' library code fingerprints (parsing some 60 modules, ~0.3 s) and the digests of
weights and model files (~0.2 s a 240 MB file), which every ``snakemake`` start (a dry run included) would
otherwise pay.

Off unless a caller opens it (``use(path)``), so the library alone never writes files. The workflow opens
``user_cache_path()``: one file per user (``$XDG_CACHE_HOME/brainpipe/parse_cache.json``, ``~/.cache/...`` by
default, as pip and torch keep theirs), because the answers depend on the installation, not on the results folder:
a new folder, a fresh clone's demo or a colleague's config then starts without importing torch. An entry is keyed by
everything its answer depends on: the question, the installed versions of torch / torchvision / timm, and the
brainpipe code that answers it (so two installations share the file safely). Only successes are stored: a wrong
layer or weights name is looked up afresh (and fails with its message) on every run. An unreadable or malformed
cache file is ignored and rewritten, an unwritable one skipped, never an error; it keeps the ``MAX_ENTRIES`` most
recently stored answers.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import tempfile
from pathlib import Path

_PATH: Path | None = None
_ENTRIES: dict | None = None
_ENVIRONMENT: str | None = None
_AT_EXIT = False  # whether the file is written again at exit (answers stored with write=False)

# The modules whose code decides the cached answers: an edit to any of them empties the cache's meaning.
_CODE = ("models/model_sources.py", "models/_torchvision.py", "pipeline/workflow_config.py", "pipeline/parse_cache.py")
_PACKAGES = ("torch", "torchvision", "timm")
#: a bound on the file (each checked weights_file adds an entry): the oldest answers are dropped first
MAX_ENTRIES = 1000


def user_cache_path(environ=os.environ) -> Path:
    """``$XDG_CACHE_HOME/brainpipe/parse_cache.json`` (``~/.cache`` when unset, per the XDG base directory spec);
    the working directory's ``.snakemake/brainpipe/`` where there is no home directory to hold it."""
    base = environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = Path.home() / ".cache"
        except RuntimeError:  # no HOME and no passwd entry (some containers)
            return Path(".snakemake/brainpipe/parse_cache.json")
    return Path(base) / "brainpipe" / "parse_cache.json"


def use(path) -> None:
    """Read (and later write) the cache at ``path``; ``None`` turns caching off."""
    global _PATH, _ENTRIES
    _PATH = None if path is None else Path(path)
    _ENTRIES = None


def _environment() -> str:
    """Fingerprint of the installed packages and brainpipe code an answer depends on."""
    global _ENVIRONMENT
    if _ENVIRONMENT is None:
        from importlib import metadata

        digest = hashlib.sha1()
        for package in _PACKAGES:
            try:
                digest.update(f"{package}=={metadata.version(package)};".encode())
            except metadata.PackageNotFoundError:
                digest.update(f"{package} absent;".encode())
        here = Path(__file__).resolve().parents[1]  # src/brainpipe
        for module in _CODE:
            digest.update((here / module).read_bytes())
        _ENVIRONMENT = digest.hexdigest()
    return _ENVIRONMENT


def _entries() -> dict:
    global _ENTRIES
    if _ENTRIES is None:
        _ENTRIES = {}
        try:
            data = json.loads(_PATH.read_text())
            if isinstance(data, dict) and isinstance(data.get("entries"), dict):
                _ENTRIES = data["entries"]
        except (OSError, ValueError):  # absent, unreadable or not JSON: start empty
            pass
    return _ENTRIES


def _key(question, *parts) -> str:
    return hashlib.sha1(json.dumps([question, _environment(), *parts], sort_keys=True).encode()).hexdigest()


def get(question: str, *parts):
    """The stored answer to ``question`` about ``parts`` (JSON values), or None."""
    if _PATH is None:
        return None
    return _entries().get(_key(question, *parts))


def put(question: str, answer, *parts, write: bool = True) -> None:
    """Store a (JSON) answer and write the cache file atomically; a cache that cannot be written is skipped.

    ``write=False``: keep it in memory and write the file once, when the process exits (a parse that stores many
    answers, e.g. every rule's code fingerprint after an edit, writes once, not once per answer)."""
    global _AT_EXIT
    if _PATH is None:
        return
    entries, key = _entries(), _key(question, *parts)
    entries.pop(key, None)  # re-stored answers move to the end: the most recent are kept
    entries[key] = answer
    for stale in list(entries)[:-MAX_ENTRIES]:
        del entries[stale]
    if write:
        _write()
    elif not _AT_EXIT:
        atexit.register(_write)
        _AT_EXIT = True


def _write() -> None:
    if _PATH is None or _ENTRIES is None:
        return
    try:
        _PATH.parent.mkdir(parents=True, exist_ok=True)
        handle, staging = tempfile.mkstemp(dir=_PATH.parent, prefix=f".{_PATH.name}.")
        with os.fdopen(handle, "w") as stream:
            json.dump({"entries": _ENTRIES}, stream)
        os.replace(staging, _PATH)
    except OSError:  # a read-only working directory: the answers are simply not kept
        try:
            os.unlink(staging)
        except (OSError, UnboundLocalError):
            pass
