"""File I/O shared by every stage: atomic writes and checked NetCDF reads.

Every output is written to a temporary name beside its destination and renamed into place, so an
interrupted job never leaves a half-written file that a later run would mistake for a result.
"""

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import xarray as xr


def _umask():
    """The process umask (os.umask can only be read by setting it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(destination):
    """Yield a temporary path beside ``destination``; rename it into place only if the block succeeds."""
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent)
    os.close(handle)
    temporary = Path(temporary)
    try:
        yield temporary
        # mkstemp creates the file 0600; give the result the permissions an ordinary write would have
        if temporary.exists():
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, destination)
    finally:
        temporary.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_directory(destination):
    """Yield a temporary directory beside ``destination``; it replaces ``destination`` if the block succeeds."""
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    temporary = Path(tempfile.mkdtemp(prefix=f".{destination.name}.", suffix=".tmp", dir=destination.parent))
    try:
        yield temporary
        os.chmod(temporary, 0o777 & ~_umask())  # mkdtemp creates the folder 0700
        if destination.exists():
            shutil.rmtree(destination)
        os.replace(temporary, destination)
    finally:
        if temporary.exists():
            shutil.rmtree(temporary)


def _json_default(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def write_json(data, destination):
    """Write ``data`` as indented JSON, atomically. NaN is written as null so the file stays valid JSON."""

    def clean(value):
        if isinstance(value, float) and not np.isfinite(value):
            return None
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [clean(item) for item in value]
        if isinstance(value, np.ndarray):
            return clean(value.tolist())
        if isinstance(value, np.floating):
            return clean(float(value))
        return value

    with atomic_path(destination) as temporary:
        temporary.write_text(json.dumps(clean(data), indent=2, default=_json_default) + "\n")


def read_json(path):
    path = Path(path)
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: file not found") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error}); delete it and rerun the stage that makes it") from None


def write_netcdf(array: xr.DataArray, destination):
    """Write a DataArray to NetCDF atomically; MultiIndex coordinates are reset first (NetCDF cannot store them)."""
    indexes = [name for name, index in array.indexes.items() if getattr(index, "nlevels", 1) > 1]
    if indexes:
        array = array.reset_index(indexes)
    with atomic_path(destination) as temporary:
        array.to_netcdf(temporary)


def read_netcdf(path, required_coords=(), required_dims=()):
    """Open a NetCDF DataArray fully into memory and check that it has what the caller needs.

    Raises one ValueError naming the file and every missing coordinate or dimension.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: file not found")
    try:
        with xr.open_dataarray(path) as opened:
            array = opened.load()
    except Exception as error:  # netCDF4/h5 errors come in many types; all mean the same to the user
        raise ValueError(f"{path}: cannot read as a NetCDF DataArray ({error}); delete it and rerun") from None
    missing = [f"coordinate '{name}'" for name in required_coords if name not in array.coords]
    missing += [f"dimension '{name}'" for name in required_dims if name not in array.dims]
    if missing:
        raise ValueError(f"{path}: missing {', '.join(missing)} (has dims {list(array.dims)}, coords {sorted(array.coords)})")
    return array
