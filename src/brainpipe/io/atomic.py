"""Outputs written whole: every output goes to a temporary name beside its destination and is renamed into place,
so an interrupted job never leaves a half-written file that a later run would mistake for a result.

A job killed outright (SIGKILL, a node failure, a SLURM time limit) cannot remove its temporary file or folder.
Their names say which host and process wrote them (``.<name>~<host>~<pid>~<random>.tmp``, ``.part`` for
downloads), so the next write of the same destination removes the ones whose process is gone
(:func:`remove_stale_staging`) without touching those of a job that is still writing, e.g. a concurrent download
into a shared cache. A write that fails on a full disk says so (:class:`DiskFullError`), and a reader that finds an
output corrupt says how to have the workflow write it again (:func:`redo_advice`).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path


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


#: Snakemake (9.x, ``snakemake/io.py``) touches this file inside every ``directory()`` output when its job ends.
_DIRECTORY_OUTPUT_MARK = ".snakemake_timestamp"


def redo_advice(path):
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
