"""JSON outputs: written atomically, with NaN as null and numpy values as Python's, and read back with a message
that names a corrupt file and how to have it written again."""

from __future__ import annotations

import json
import math
from pathlib import Path

from .atomic import atomic_path, redo_advice


def _json_default(value):
    if hasattr(value, "tolist") and type(value).__module__ == "numpy":  # numpy scalars and arrays
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def _json_clean(value):
    """``value`` as JSON holds it: NaN and infinities as None, numpy arrays and scalars as Python lists and numbers."""
    if isinstance(value, float) and not math.isfinite(value):  # also numpy's float64 (a float subclass)
        return None
    if isinstance(value, dict):
        return {key: _json_clean(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_clean(item) for item in value]
    if type(value).__module__ == "numpy" and hasattr(value, "tolist"):  # arrays, float32 and other scalars
        return _json_clean(value.tolist())
    return value


def write_json(data, destination):
    """Write ``data`` as indented JSON, atomically. NaN is written as null so the file stays valid JSON."""
    with atomic_path(destination) as temporary:
        temporary.write_text(json.dumps(_json_clean(data), indent=2, default=_json_default) + "\n")


def as_json(data):
    """``data`` as :func:`write_json` then :func:`read_json` give it back: a job that computes what another stage
    would have written (a behavioural benchmark's one comparison, in its score job) reads it in the same form."""
    return json.loads(json.dumps(_json_clean(data), default=_json_default))


def read_json(path):
    path = Path(path)
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: file not found") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        # not "delete it and rerun": Snakemake keeps what was made from it and reruns nothing (see redo_advice)
        raise ValueError(f"{path}: not valid JSON ({error}); the file is corrupt or incomplete. "
                         f"{redo_advice(path)}") from None
