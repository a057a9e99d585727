"""File I/O shared by every stage: atomic writes and checked NetCDF reads (this module), and the fast reader of
the arrays a fold job needs (``netcdf_arrays.py``). The base layer: imports no other brainpipe package.

Every output is written to a temporary name beside its destination and renamed into place, so an
interrupted job never leaves a half-written file that a later run would mistake for a result.

A job killed outright (SIGKILL, a node failure, a SLURM time limit) cannot remove its temporary file or folder.
Their names say which host and process wrote them (``.<name>~<host>~<pid>~<random>.tmp``, ``.part`` for
downloads), so the next write of the same destination removes the ones whose process is gone
(:func:`remove_stale_staging`) without touching those of a job that is still writing, e.g. a concurrent download
into a shared cache.
"""

from __future__ import annotations

import contextlib
import errno
import json
import math
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import xarray as xr

# numpy, pandas and xarray are imported where arrays are read or written: a job that only reads and writes JSON
# (score, score_layer, leaderboard) then starts without them (~0.4 s per job).


def _umask():
    """The process umask (os.umask can only be read by setting it)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: Staging left by another host is removed once nothing in it has changed for this long (its process cannot be
#: asked whether it is alive); a live download or write touches its file far more often.
STALE_AFTER_S = 6 * 3600
_STAGING_SUFFIXES = (".tmp", ".part")


def _host():
    return re.sub(r"[^A-Za-z0-9.-]", "_", socket.gethostname()) or "host"


def staging_prefix(destination):
    """Name prefix of the temporary files and folders that write ``destination`` (hidden, beside it)."""
    return f".{Path(destination).name}~{_host()}~{os.getpid()}~"


def _process_gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, owned by another user
        return False
    return False


def _newest_change(path):
    newest = path.lstat().st_mtime
    if path.is_dir() and not path.is_symlink():
        for root, folders, files in os.walk(path):
            for name in folders + files:
                with contextlib.suppress(OSError):
                    newest = max(newest, os.lstat(os.path.join(root, name)).st_mtime)
    return newest


def _is_stale(path, destination_name):
    """Whether a staging file or folder of ``destination_name`` was left by a process that is gone."""
    rest = path.name[len(destination_name) + 2:]  # after ".<name>~"
    parts = rest.split("~")
    if len(parts) == 3 and parts[1].isdigit():
        host, pid = parts[0], int(parts[1])
        if host == _host():
            return pid != os.getpid() and _process_gone(pid)
    return time.time() - _newest_change(path) > STALE_AFTER_S


def remove_stale_staging(destination):
    """Remove the temporary files and folders that killed writers of ``destination`` left beside it.

    Only names made by :func:`staging_prefix` are considered, and of those only the ones whose process is gone
    (same host), or, from another host, untouched for :data:`STALE_AFTER_S`. Returns the removed paths.
    """
    destination = Path(destination)
    prefix = f".{destination.name}~"
    removed = []
    try:
        siblings = list(destination.parent.iterdir())
    except FileNotFoundError:
        return removed
    for path in siblings:
        if not (path.name.startswith(prefix) and path.name.endswith(_STAGING_SUFFIXES)):
            continue
        try:
            if not _is_stale(path, destination.name):
                continue
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        except FileNotFoundError:  # another run cleaned it up at the same moment
            continue
        removed.append(path)
    return removed


class DiskFullError(OSError):
    """Writing an output failed because its file system is full. The message names the output and the folder."""


#: Free space below which a failed write is taken to be a full disk: the NetCDF library reports ENOSPC only as
#: "NetCDF: HDF error", without the errno.
_NEARLY_FULL = 1 << 20


def _disk_full(destination, error):
    """A :class:`DiskFullError` for ``error`` if the file system of ``destination`` is full, else None."""
    # An inner write's DiskFullError (a file inside an atomic_directory) is explained again for the outer
    # destination, the output the user knows; the inner one stays chained.
    full = isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT)
    if not full and isinstance(error, (OSError, RuntimeError)):  # what netCDF4 and h5py raise
        with contextlib.suppress(OSError):
            full = shutil.disk_usage(destination.parent).free < _NEARLY_FULL
    if not full:
        return None
    # a writer that checked the free space first said how many bytes it needed: keep that
    needed = f" ({error.strerror})" if isinstance(error, DiskFullError) and error.strerror else ""
    return DiskFullError(errno.ENOSPC, f"cannot write {destination}: the disk is full (no space left on the file "
                                       f"system that holds {destination.parent}){needed}. Nothing was kept; free "
                                       "space there and rerun.")


def check_free_space(path, needed: int):
    """Raise :class:`DiskFullError` unless the file system holding ``path`` has ``needed`` bytes free.

    The NetCDF library cannot be trusted to fail cleanly on a full disk: writing the rows of a file whose storage
    does not fit killed the extraction job with SIGSEGV (no message, its staging folder left behind). Checking
    first turns that into an exception the atomic writers clean up after.
    """
    path = Path(path)
    free = shutil.disk_usage(path.parent).free
    if free < needed:
        raise DiskFullError(errno.ENOSPC, f"disk full: writing {path} needs {needed} bytes ({needed / 1e6:.1f} MB), "
                                          f"the file system holding {path.parent} has {free} bytes free")


@contextlib.contextmanager
def atomic_path(destination):
    """Yield a temporary path beside ``destination``; rename it into place only if the block succeeds.

    Temporary files that killed writers of the same destination left are removed first.
    """
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(destination)
    handle, temporary = tempfile.mkstemp(prefix=staging_prefix(destination), suffix=".tmp", dir=destination.parent)
    os.close(handle)
    temporary = Path(temporary)
    try:
        yield temporary
        # mkstemp creates the file 0600; give the result the permissions an ordinary write would have
        if temporary.exists():
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, destination)
    except BaseException as error:
        explained = _disk_full(destination, error)
        if explained is None:
            raise
        raise explained from error
    finally:
        temporary.unlink(missing_ok=True)


@contextlib.contextmanager
def atomic_directory(destination):
    """Yield a temporary directory beside ``destination``; it replaces ``destination`` if the block succeeds.

    Temporary folders that killed writers of the same destination left are removed first.
    """
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(destination)
    temporary = Path(tempfile.mkdtemp(prefix=staging_prefix(destination), suffix=".tmp", dir=destination.parent))
    try:
        yield temporary
        os.chmod(temporary, 0o777 & ~_umask())  # mkdtemp creates the folder 0700
        if destination.exists():
            shutil.rmtree(destination)
        os.replace(temporary, destination)
    except BaseException as error:
        explained = _disk_full(destination, error)
        if explained is None:
            raise
        raise explained from error
    finally:
        if temporary.exists():
            shutil.rmtree(temporary)


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
        # not "delete it and rerun": Snakemake keeps what was made from it and reruns nothing (see _redo_advice)
        raise ValueError(f"{path}: not valid JSON ({error}); the file is corrupt or incomplete. "
                         f"{_redo_advice(path)}") from None


def write_netcdf(array: xr.DataArray, destination):
    """Write a DataArray to NetCDF atomically; MultiIndex coordinates are reset first (NetCDF cannot store them)."""
    indexes = [name for name, index in array.indexes.items() if getattr(index, "nlevels", 1) > 1]
    if indexes:
        array = array.reset_index(indexes)
    # An array read from a file keeps that file's encoding (a BrainIO assembly: zlib, chunked), which to_netcdf
    # would reuse: compressing 150 MB of recordings again took 2.6 of the 3.5 s of each intermediate write.
    # Intermediate files are written plain (contiguous, uncompressed); the values are the same.
    array = array.copy(deep=False)
    array.encoding = {}
    for name in array.coords:
        array[name].encoding = {}
    with atomic_path(destination) as temporary:
        array.to_netcdf(temporary, encoding=_text_fill_values(array))


def _text_fill_values(array: xr.DataArray) -> dict:
    """A ``_FillValue`` for each text variable holding missing values: NetCDF strings have no NaN, and without
    one xarray writes NaN/None as '' (a missing human choice would turn into an answer ''). The fill value is a
    text the variable does not hold, so nothing else changes; reading decodes it back to NaN."""
    import numpy as np
    import pandas as pd

    encoding = {}
    variables = {array.name if array.name is not None else "__xarray_dataarray_variable__": array.variable,
                 **{name: array[name].variable for name in array.coords}}
    for name, variable in variables.items():
        if variable.dtype != object:
            continue
        missing = pd.isna(np.asarray(variable.values, dtype=object).ravel())
        if missing.any():
            present = {str(v) for v in np.asarray(variable.values, dtype=object).ravel()[~missing]}
            candidates = (f"<missing{k or ''}>" for k in range(len(present) + 1))
            encoding[name] = {"_FillValue": next(c for c in candidates if c not in present)}
    return encoding


#: Snakemake (9.x, ``snakemake/io.py``) touches this file inside every ``directory()`` output when its job ends.
_DIRECTORY_OUTPUT_MARK = ".snakemake_timestamp"


def _redo_advice(path):
    """How to make the workflow write ``path`` again, in one step.

    Deleting a corrupt output is not enough: Snakemake keeps the outputs already made from it (a job whose input is
    missing but whose output exists is not rerun), so the fold JSONs that failed on a corrupt Gram would stay
    missing behind a "Nothing to be done". ``--forcerun <file>`` rewrites the file and redoes everything made from
    it, whether or not it was deleted. A file inside a ``directory()`` output (an activations folder holds one
    file per layer) is not an output itself: the folder is what to name.
    """
    folder = path.parent
    if (folder / _DIRECTORY_OUTPUT_MARK).exists():
        return (f"It belongs to the folder {folder}, which one job writes as a whole: rerun the same snakemake "
                f"command with --forcerun '{folder}' added, which writes the folder again and redoes everything "
                "made from it (deleting files by hand leaves what was made from them in place).")
    return (f"Rerun the same snakemake command with --forcerun '{path}' added: it writes the file again and redoes "
            "everything made from it (deleting the file alone leaves what was made from it in place).")


def read_netcdf(path, required_coords=(), required_dims=()):
    """Open a NetCDF DataArray fully into memory and check that it has what the caller needs.

    Raises one ValueError naming the file and every missing coordinate or dimension.
    """
    import xarray as xr

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: file not found")
    try:
        with xr.open_dataarray(path) as opened:
            array = opened.load()
    except Exception as error:  # netCDF4/h5 errors come in many types; all mean the same to the user
        raise ValueError(f"{path}: cannot read as a NetCDF DataArray ({error}); the file is corrupt or "
                         f"incomplete. {_redo_advice(path)}") from None
    missing = [f"coordinate '{name}'" for name in required_coords if name not in array.coords]
    missing += [f"dimension '{name}'" for name in required_dims if name not in array.dims]
    if missing:
        raise ValueError(f"{path}: missing {', '.join(missing)} (has dims {list(array.dims)}, coords {sorted(array.coords)})")
    return array


def _coordinate_bytes(dataset) -> int:
    """An upper estimate of the bytes a Dataset's coordinates take in a NetCDF4 file: numbers as stored, text as
    HDF5 variable-length strings (the text plus 64 bytes of heap and reference per string; measured 52-57 for a
    layer's neuroid_id and layer coordinates), plus 64 KiB of headers."""
    import numpy as np

    total = 1 << 16
    for variable in dataset.variables.values():
        values = np.asarray(variable.values)
        if values.dtype.kind in "OUS":
            total += sum(len(str(value).encode()) for value in values.ravel()) + 64 * values.size
        else:
            total += values.nbytes
    return total


class NetcdfRowWriter:
    """Write one 2-D DataArray to NetCDF a block of rows at a time, so it never has to be in memory whole.

    The file is the one ``write_netcdf`` would write for the finished DataArray (same variable name, dims,
    coordinates, attributes, float32 contiguous storage with xarray's NaN ``_FillValue``), so ``read_netcdf`` and
    ``xr.open_dataarray`` read it exactly as before. Every row must be written (storage is not pre-filled; see
    ``rows_written``). Not atomic by itself: write into an ``atomic_directory`` (or an ``atomic_path``) and close
    before the block ends.

    >>> with NetcdfRowWriter(path, "m.layer", ("presentation", "neuroid"), (n, units), coords, attrs) as out:
    ...     out.write(0, first_rows); out.write(len(first_rows), next_rows)
    """

    def __init__(self, path, name, dims, shape, coords, attrs, dtype="float32", reserved=0):
        """``reserved``: bytes that other files on the same disk still need (writers opened before this one,
        whose rows are not written yet); the free space must hold them and this file's values."""
        import netCDF4  # imported here: only extraction streams, and netCDF4 is a heavy import
        import numpy as np
        import xarray as xr

        if name in coords or name in dims:
            raise ValueError(f"{path}: variable name {name!r} collides with a coordinate or dimension")
        self.path, self.name, self.shape, self.dtype = Path(path), name, tuple(shape), np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape)) * self.dtype.itemsize  # the values, written later row by row
        # xarray writes the coordinates (string encoding, dimension order) exactly as DataArray.to_netcdf does.
        skeleton = xr.Dataset(coords=coords)
        if tuple(skeleton.sizes[dim] for dim in dims) != self.shape:
            raise ValueError(f"{path}: coordinates give shape {dict(skeleton.sizes)}, expected {dims}={self.shape}")
        # the coordinates are written now, the values later: the disk must hold both (and what is reserved)
        check_free_space(self.path, _coordinate_bytes(skeleton) + self.nbytes + reserved)
        skeleton.to_netcdf(self.path, engine="netcdf4")
        check_free_space(self.path, self.nbytes + reserved)  # what the coordinates really took: room left for rows?
        non_dimension = sorted(name for name in skeleton.coords if name not in skeleton.dims)
        self._file = netCDF4.Dataset(self.path, "a")
        try:
            # With no data variable, xarray lists the coordinates globally; DataArray.to_netcdf puts them on the
            # variable instead (xarray conventions._encode_coordinates), and so do we.
            if "coordinates" in self._file.ncattrs():
                self._file.delncattr("coordinates")
            fill = np.array(np.nan, self.dtype) if self.dtype.kind == "f" else None  # xarray's default for floats
            # The file keeps its _FillValue attribute, but HDF5 is told never to pre-fill the storage: by default
            # the first write fills the whole variable with NaN before writing its rows (1.5 s for a 830 MB layer,
            # all of it overwritten). Every row is written by the caller (extract_to_folder checks rows_written),
            # so the values are the same; a row never written would read as zeros, not NaN.
            self._file.set_fill_off()
            self._variable = self._file.createVariable(name, self.dtype, dims, fill_value=fill, contiguous=True)
            self._variable.setncatts({**attrs, "coordinates": " ".join(non_dimension)})
        except BaseException:
            self._file.close()
            raise
        self.rows_written = 0

    def write(self, start, rows):
        """Write ``rows`` (shape (k, columns)) at rows start … start + k."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=self.dtype)
        if rows.ndim != 2 or rows.shape[1] != self.shape[1] or not 0 <= start <= self.shape[0] - len(rows):
            raise ValueError(f"{self.path}: cannot write rows of shape {rows.shape} at row {start} of {self.shape}")
        self._variable[start: start + len(rows), :] = rows
        self.rows_written += len(rows)

    def close(self):
        if self._file.isopen():
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
