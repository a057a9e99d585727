"""Download Brain-Score's data files into the cache, checking their sha1: the files every fetch stage starts from.

Standard library only for the network (``urllib``), so no new dependency and no boto3: the public objects are
plain HTTPS downloads. A download writes beside its destination and renames into place, so an interrupted run
never leaves a file that a later run would take for a good one, and every failure raises :class:`FetchError`
with one message that names the URL or file, says what went wrong and what to do (also for the archives and
assemblies read after it: :mod:`brainpipe.data.archives`, :mod:`brainpipe.data.brainio`).

Brain-Score behaviour this mirrors (brain-score/core
``brainscore_core/supported_data_standards/brainio/{s3,fetch}.py``): the cache layout ``<cache>/<sha1>/<file>``
and sha1 verification of every download.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import http.client
import os
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from brainpipe._version import __version__
from .catalog import RemoteFile, resolve
from brainpipe.io import remove_stale_staging, staging_prefix

#: Bytes per read (1 MiB), of a download and of a zip entry: few syscalls, and progress granularity fine enough for
#: files of any size.
CHUNK_BYTES = 1 << 20
_PROGRESS_STEP_PERCENT = 5
_PROGRESS_STEP_SECONDS = 5.0

#: Seconds a download may wait for the connection or for the next block of data (config ``data.timeout_s``).
DEFAULT_TIMEOUT_S = 60.0
#: Environment variable that sets the download timeout when config ``data.timeout_s`` is null.
TIMEOUT_ENV = "BRAINPIPE_DOWNLOAD_TIMEOUT"
#: errno values that mean "the file system is full" (EFBIG: the process's file-size limit, ulimit -f).
_DISK_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}


class FetchError(RuntimeError):
    """A data file could not be obtained or read. The message says what happened and what to do."""


def timeout_s(configured: float | None = None) -> float:
    """Download timeout in seconds: config ``data.timeout_s`` if set, else ``$BRAINPIPE_DOWNLOAD_TIMEOUT``, else 60.

    Raises ValueError naming the setting when the value is not a positive number.
    """
    source, value = "config data.timeout_s", configured
    if value is None and os.environ.get(TIMEOUT_ENV, "").strip():
        source, value = f"${TIMEOUT_ENV}", os.environ[TIMEOUT_ENV].strip()
    if value is None:
        return DEFAULT_TIMEOUT_S
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = float("nan")
    if not seconds > 0 or seconds == float("inf"):
        raise ValueError(f"{source} = {value!r}: expected a positive number of seconds, e.g. 300")
    return seconds


def is_disk_full(error: BaseException) -> bool:
    """Whether an OSError means that the file system (or the process's file-size limit) is full."""
    return isinstance(error, OSError) and error.errno in _DISK_FULL


def disk_full_message(what: str, folder: Path, error: OSError) -> str:
    """The message of a :class:`FetchError` for a full disk: ``what`` failed in ``folder``, and what to do."""
    return (f"{what} failed: the disk is full ({os.strerror(error.errno)}) in {folder}. Nothing was kept. "
            "Free space on that file system (or point config data.cache_dir at one with room), then rerun.")


def _in_cache(path: Path) -> bool:
    """Whether ``path`` is a download in brainpipe's cache (``<cache>/<sha1>/<file>``), i.e. brainpipe's to delete.

    Anything else came from the user (config ``data.local_files``), and the advice must never be to delete it.
    """
    folder = path.parent.name
    return len(folder) == 40 and all(c in "0123456789abcdef" for c in folder)


def bad_file_advice(path: Path) -> str:
    """What to do about a data file that cannot be read: delete it where it is a download in the cache, replace it
    where it is the user's own (never advise deleting that)."""
    if _in_cache(path):
        return f"Delete {path} and rerun to download it again."
    return (f"{path} is not in brainpipe's download cache (a file listed under config data.local_files, or one "
            "you passed in), so brainpipe leaves it alone: replace it with a good copy, or remove its "
            "data.local_files entry to download the file instead.")


def sha1_of(path: str | os.PathLike) -> str:
    """sha1 hex digest of a file, read in 1 MiB blocks (constant memory for multi-GB assemblies)."""
    digest = hashlib.sha1()
    with open(path, "rb") as handle:
        while block := handle.read(CHUNK_BYTES):
            digest.update(block)
    return digest.hexdigest()


def _offline_hint(url: str, dest: Path, sha1: str | None) -> str:
    checksum = f" (expected sha1 {sha1})" if sha1 else ""
    return (f"If this machine has no internet access, download {url} by hand on one that has, "
            f"and place it at {dest}{checksum}; then rerun.")


def _megabytes(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


class _Progress:
    """Progress lines meant for log files: one per ~5 % or per ~5 s, never a carriage-return bar."""

    def __init__(self, stream: TextIO | None, label: str, total: int | None):
        self.stream, self.label, self.total = stream, label, total
        self.start = self.last_time = time.monotonic()
        self.last_percent = 0
        self.last_received = -1

    def update(self, received: int, final: bool = False) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        percent = int(100 * received / self.total) if self.total else None
        due_by_percent = percent is not None and percent >= self.last_percent + _PROGRESS_STEP_PERCENT
        if received == self.last_received or not (
                final or due_by_percent or now - self.last_time >= _PROGRESS_STEP_SECONDS):
            return
        rate = received / max(now - self.start, 1e-9) / 1e6
        of_total = f" / {_megabytes(self.total)} ({percent}%)" if self.total else ""
        self.stream.write(f"{self.label}: {_megabytes(received)}{of_total}, {rate:.1f} MB/s\n")
        self.stream.flush()
        self.last_time, self.last_received = now, received
        if percent is not None:
            self.last_percent = percent - percent % _PROGRESS_STEP_PERCENT


def say(stream: TextIO | None, message: str) -> None:
    """One line of a fetch job's progress on ``stream`` (None: silence)."""
    if stream is not None:
        stream.write(message + "\n")
        stream.flush()


def download(url: str, dest: str | os.PathLike, sha1: str, progress: TextIO | None = sys.stderr,
             timeout: float | None = None) -> Path:
    """Download ``url`` to ``dest``, verifying size and sha1; the file appears only when complete and correct.

    Parameters
    ----------
    url : str
        ``http(s)://`` or ``file://`` URL.
    dest : path
        Final location. Its folder is created. The body goes to a hidden ``.part`` file in the same folder and is
        renamed over ``dest`` at the end (same file system, so the rename is atomic). ``.part`` files that an
        interrupted (killed) download of the same ``dest`` left are removed first.
    sha1 : str
        Expected sha1 hex digest of the body.
    progress : text stream or None
        Where progress lines go (default stderr, i.e. the job's log); None for silence.
    timeout : float, optional
        Seconds to wait for the connection and for each read before giving up; None: :func:`timeout_s`
        (config ``data.timeout_s``, ``$BRAINPIPE_DOWNLOAD_TIMEOUT``, 60 s).

    Returns
    -------
    Path
        ``dest``.

    Raises
    ------
    FetchError
        HTTP error status, unreachable host, timeout, truncated body (fewer bytes than Content-Length, a chunked
        body that ends early, or a connection reset), full disk, or sha1 mismatch. The temporary file is removed
        in every case, so no partial file stays behind.
    """
    dest = Path(dest)
    timeout = timeout_s() if timeout is None else timeout
    created_folder = not dest.parent.exists()
    dest.parent.mkdir(parents=True, exist_ok=True)
    for stale in remove_stale_staging(dest):
        say(progress, f"{dest.name}: removed {stale}, left by an interrupted download")
    handle, temporary = tempfile.mkstemp(prefix=staging_prefix(dest), suffix=".part", dir=dest.parent)
    temporary = Path(temporary)
    hint = _offline_hint(url, dest, sha1)
    got = _Transfer()
    try:
        try:
            with os.fdopen(handle, "wb") as out:
                _stream(url, out, progress, timeout, dest.name, hint, got)
        except OSError as error:
            if is_disk_full(error):
                raise FetchError(disk_full_message(f"Download of {url} (after {got.received} bytes)", dest.parent,
                                                    error)) from None
            raise
        actual = got.digest.hexdigest()
        if got.total is not None and got.received != got.total:
            raise FetchError(f"Download of {url} was truncated: got {got.received} of {got.total} bytes. "
                             f"Rerun to retry. {hint}")
        if got.cut_short and actual != sha1:
            raise FetchError(f"Download of {url} was truncated: the connection ended after {got.received} bytes, "
                             f"before the end of the body ({got.cut_short}). Rerun to retry. {hint}")
        if actual != sha1 and got.total is None:
            # Without Content-Length a body that ends early looks complete, so a short read cannot be told from
            # another file; truncation is by far the likelier cause, and a retry tells them apart.
            raise FetchError(
                f"Download of {url} was probably truncated: the server sent no size (no Content-Length) and the "
                f"{got.received} bytes received have sha1 {actual}, not the expected {sha1}. Rerun to retry; if "
                f"every try gives sha1 {actual}, the server holds a different file than the catalog expects: check "
                f"the base URL (config data.base_url or $BRAINPIPE_DATA_URL). {hint}")
        if actual != sha1:
            raise FetchError(
                f"Download of {url} has the wrong sha1: expected {sha1}, got {actual} ({got.received} bytes, the "
                "full size the server announced). The server holds a different file than the catalog expects; "
                "check the base URL (config data.base_url or $BRAINPIPE_DATA_URL). " + hint)
        os.replace(temporary, dest)
    except BaseException:
        # BaseException too: a Ctrl-C or a SLURM time-out signal must not leave a .part file behind either.
        temporary.unlink(missing_ok=True)
        if created_folder:  # leave the cache as it was: no empty <sha1>/ folder either
            with contextlib.suppress(OSError):
                dest.parent.rmdir()
        raise
    say(progress, f"{dest.name}: saved to {dest} (sha1 ok)")
    return dest


class _Transfer:
    """What a download has received so far; kept outside :func:`_stream` so that errors can report it."""

    def __init__(self):
        self.received = 0
        self.total: int | None = None  # Content-Length, when the server sent one
        self.cut_short = ""  # why the body is known to have ended early, or "" if it is not known to have
        self.digest = hashlib.sha1()


def _stream(url: str, out, progress, timeout, label, hint, got: _Transfer) -> None:
    """Copy the body of ``url`` into ``out``, counting into ``got``.

    Reads use ``read1`` (one system call each), so every byte that arrived is counted before a timeout or a
    reset can interrupt the next read, and the byte count in the error message is exact.
    """
    request = urllib.request.Request(url, headers={"User-Agent": f"brainpipe/{__version__}"})
    raise_it = ("Rerun to retry; on a slow or busy connection raise the limit with config data.timeout_s "
                f"(e.g. data: {{timeout_s: 600}}) or the environment variable {TIMEOUT_ENV}.")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            length = response.headers.get("Content-Length")
            got.total = int(length) if length and length.isdigit() else None
            say(progress, f"{label}: downloading {url}" + (f" ({_megabytes(got.total)})" if got.total else ""))
            meter = _Progress(progress, label, got.total)
            read = getattr(response, "read1", response.read)
            while True:
                try:
                    block = read(CHUNK_BYTES)
                except http.client.IncompleteRead as error:
                    # A chunked body whose last chunk never came: the server or a proxy closed the connection.
                    block = error.partial
                    got.cut_short = "the chunked body ended without its final chunk"
                except ConnectionResetError:
                    block, got.cut_short = b"", "the connection was reset"
                if block:
                    got.digest.update(block)
                    out.write(block)
                    got.received += len(block)
                    meter.update(got.received)
                if not block or got.cut_short:
                    break
            meter.update(got.received, final=True)
    except urllib.error.HTTPError as error:
        advice = ""
        if error.code in (403, 404):
            # S3 answers 403 (not 404) for a missing key when listing is not allowed to anonymous users.
            advice = ("The object does not exist there or is not public (private data need credentials: "
                      "put the file on disk and list it under data.local_files). ")
        raise FetchError(f"Download of {url} failed: HTTP {error.code} {error.reason}. {advice}{hint}") from None
    except (TimeoutError, socket.timeout):
        of_total = f" of {got.total}" if got.total is not None else ""
        raise FetchError(f"Download of {url} stopped: no data for {timeout:g} s (after {got.received}{of_total} "
                         f"bytes). {raise_it} {hint}") from None
    except urllib.error.URLError as error:
        reason = error.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            raise FetchError(f"Download of {url} failed: no answer within {timeout:g} s while connecting. "
                             f"{raise_it} {hint}") from None
        if isinstance(reason, OSError) and is_disk_full(reason):  # file:// URLs read through the same path
            raise reason from None
        raise FetchError(f"Download of {url} failed: host unreachable ({reason}). Check the network, the proxy "
                         f"settings (https_proxy) and the base URL. {hint}") from None
    except (http.client.HTTPException, OSError) as error:  # connection reset, disk full, …
        if is_disk_full(error):
            raise  # download() names the folder that is full
        raise FetchError(f"Download of {url} failed after {got.received} bytes: {error!r}. Rerun to retry. "
                         f"{hint}") from None


def fetch_file(remote: RemoteFile, cache_dir: str | os.PathLike, base_url: str,
               local_overrides: Mapping[str, str | os.PathLike] | None = None,
               progress: TextIO | None = sys.stderr, timeout: float | None = None) -> Path:
    """Path of a verified local copy of ``remote``, downloading it into the cache only if needed.

    Parameters
    ----------
    remote : RemoteFile
        Catalog file (name and sha1).
    cache_dir : path
        Cache root; files live at ``<cache_dir>/<sha1>/<name>``, as brainio lays out ``~/.brainio``.
    base_url : str
        Base URL the name is appended to.
    local_overrides : mapping of object name to path, optional
        Files the user has on disk (see :func:`brainpipe.data.catalog.resolve`); used in place after a sha1 check.
    progress, timeout
        As in :func:`download`.

    Notes
    -----
    A cached file with the right sha1 is returned without any network access. A cached file with a different
    sha1 (corrupted, or left by an interrupted copy made by other tools) is downloaded again, with a message.
    """
    if (remote.sha1 is None and remote.path is None and remote.url is None
            and remote.name not in (local_overrides or {})):  # e.g. images under a data use agreement
        raise FetchError(f"{remote.name} has no public copy (its data set's benchmark module says why): point "
                         f"data.local_files at your own copy: data: {{local_files: {{{remote.name}: PATH}}}}")
    where = resolve(remote, cache_dir, base_url, local_overrides)
    if where.is_local:
        if not where.path.is_file():
            raise FetchError(f"{remote.name} is configured as a local file at {where.path}, but there is no file "
                             "there. Fix the path under data.local_files, or remove the entry to download it.")
        actual = sha1_of(where.path)
        if remote.sha1 is not None and actual != remote.sha1:  # declared local data may come without a sha1
            raise FetchError(f"Local file {where.path} (configured for {remote.name}) has sha1 {actual}, expected "
                             f"{remote.sha1}: it is not the file that name stands for. Point data.local_files at "
                             "the right file; or, if it is a copy you changed on purpose (e.g. cleaned of NaN "
                             f"recording sites), declare its sha1: data: {{local_files: {{{remote.name}: "
                             f"{{path: {where.path}, sha1: {actual}}}}}}} (score JSONs then record that sha1).")
        return where.path
    if where.path.is_file():
        actual = sha1_of(where.path)
        if actual == remote.sha1:
            say(progress, f"{remote.name}: cached at {where.path} (sha1 ok)")
            return where.path
        say(progress, f"{remote.name}: cached copy {where.path} has sha1 {actual}, expected {remote.sha1}; "
                       "downloading it again")
    return download(where.url, where.path, remote.sha1, progress=progress, timeout=timeout)


