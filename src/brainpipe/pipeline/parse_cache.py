"""A small on-disk cache of parse-time answers that are slow to get and rarely change: the layer names of a
torchvision or timm architecture and whether its named weights exist. Getting them means importing torch and
torchvision (~2-4 s), which every ``snakemake`` start (a dry run included) would otherwise pay.

Off unless a caller opens it (``use(path)``; the workflow does, at ``.snakemake/brainpipe/parse_cache.json`` in its
working directory), so the library alone never writes files. An entry is keyed by everything its answer depends
on: the question, the installed versions of torch / torchvision / timm, and the brainpipe code that answers it.
Only successes are stored: a wrong layer or weights name is looked up afresh (and fails with its message) on
every run. An unreadable or malformed cache file is ignored and rewritten, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

_PATH: Path | None = None
_ENTRIES: dict | None = None
_ENVIRONMENT: str | None = None

# The modules whose code decides the cached answers: an edit to any of them empties the cache's meaning.
_CODE = ("models/model_sources.py", "models/_torchvision.py", "pipeline/workflow_config.py", "pipeline/parse_cache.py")
_PACKAGES = ("torch", "torchvision", "timm")


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


def put(question: str, answer, *parts) -> None:
    """Store a (JSON) answer and write the cache file atomically; a cache that cannot be written is skipped."""
    if _PATH is None:
        return
    _entries()[_key(question, *parts)] = answer
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
