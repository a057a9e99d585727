"""Importing a user's Python file (a benchmark plugin, a property function): once per process, under a module name
made from its path, with any exception it raises turned into the caller's error naming the file."""

import hashlib
import importlib.util
import sys
from pathlib import Path


def import_user_file(path: Path, prefix: str, error_type, what: str):
    """The module of ``path`` (imported at most once, as ``<prefix><sha1 of the path>``); ``error_type(message)``
    where importing it raises, the message starting with ``what`` (e.g. "benchmark plugin <path>")."""
    path = Path(path)
    name = prefix + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # a user's file: any error is theirs, reported with the file's name
        raise error_type(f"{what}: importing it raised {type(error).__name__}: {error}") from None
    sys.modules[name] = module
    return module
