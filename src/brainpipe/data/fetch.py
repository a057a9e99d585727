"""Download Brain-Score's data files, check them, and turn them into brainpipe's formats.

Standard library only for the network (``urllib``), so no new dependency and no boto3: the public objects are
plain HTTPS downloads. Every step writes beside its destination and renames into place, so an interrupted run
never leaves a file that a later run would take for a good one, and every failure raises :class:`FetchError`
with one message that names the URL or file, says what went wrong and what to do.

Brain-Score behaviour this mirrors (brain-score/core
``brainscore_core/supported_data_standards/brainio/{s3,fetch,stimuli,assemblies}.py``):

* cache layout ``<cache>/<sha1>/<file>`` and sha1 verification of every download;
* a stimulus set is a CSV plus a ZIP whose extracted files must equal the CSV's ``filename`` paths;
* ``image_id`` is copied to ``stimulus_id`` when the latter is absent (CSV and assembly alike);
* the stimulus-set columns are merged onto the assembly's ``presentation`` by a left join on ``stimulus_id``
  (``StimulusMergeAssemblyLoader``), but coordinates stay plain (no MultiIndex), so the result can be written
  back with ``to_netcdf``.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import http.client
import os
import shutil
import socket
import stat
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, TextIO

import numpy as np
import pandas as pd

from brainpipe._version import __version__
from .catalog import Catalog, RemoteFile, resolve
from brainpipe.io import atomic_directory, remove_stale_staging, staging_prefix

if TYPE_CHECKING:  # xarray is imported where an assembly is read: a stimulus set's fetch job needs none of it
    import xarray as xr

#: Name of the stimulus table in a brainpipe stimulus-set folder (same as ``brainpipe.data.stimuli.CSV_NAME``).
STIMULI_CSV = "stimuli.csv"
#: Sub-folder of a brainpipe stimulus-set folder that holds the images.
IMAGES_DIR = "images"

_CHUNK = 1 << 20  # 1 MiB reads: few syscalls, and progress granularity fine enough for files of any size
_PROGRESS_STEP_PERCENT = 5
_PROGRESS_STEP_SECONDS = 5.0
_ID_COLUMNS = {"stimulus_id": str, "image_id": str, "filename": str}  # never let pandas parse ids as numbers

#: Seconds a download may wait for the connection or for the next block of data (config ``data.timeout_s``).
DEFAULT_TIMEOUT_S = 60.0
#: Environment variable that sets the download timeout when config ``data.timeout_s`` is null.
TIMEOUT_ENV = "BRAINPIPE_DOWNLOAD_TIMEOUT"
#: Largest total a stimulus zip may unpack to, in GB (config ``data.max_unpacked_gb``). Brain-Score's stimulus
#: archives hold a few thousand PNGs (well under 1 GB; exact sizes are not published), so 20 GB only stops
#: archives that would fill a disk.
DEFAULT_MAX_UNPACKED_GB = 20.0
#: Largest unpacked/packed size ratio accepted for an archive that unpacks to more than :data:`_RATIO_FLOOR`
#: bytes. Images (PNG, JPEG) barely compress, so a stimulus archive is close to 1:1; deflate's best case is about
#: 1032:1, which is what a zip bomb of zeros reaches.
MAX_COMPRESSION_RATIO = 100
_RATIO_FLOOR = 64 << 20  # small archives (a few MB of text or blank images) may compress well and are harmless
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


def max_unpacked_bytes(configured_gb: float | None = None) -> int:
    """Unpacking limit in bytes from config ``data.max_unpacked_gb`` (GB = 1e9 bytes; None: the default 20)."""
    gb = DEFAULT_MAX_UNPACKED_GB if configured_gb is None else configured_gb
    if isinstance(gb, bool) or not isinstance(gb, (int, float)) or not gb > 0:
        raise ValueError(f"config data.max_unpacked_gb = {configured_gb!r}: expected a positive number of GB")
    return int(gb * 1e9)


def is_disk_full(error: BaseException) -> bool:
    """Whether an OSError means that the file system (or the process's file-size limit) is full."""
    return isinstance(error, OSError) and error.errno in _DISK_FULL


def _disk_full_message(what: str, folder: Path, error: OSError) -> str:
    return (f"{what} failed: the disk is full ({os.strerror(error.errno)}) in {folder}. Nothing was kept. "
            "Free space on that file system (or point config data.cache_dir at one with room), then rerun.")


def _in_cache(path: Path) -> bool:
    """Whether ``path`` is a download in brainpipe's cache (``<cache>/<sha1>/<file>``), i.e. brainpipe's to delete.

    Anything else came from the user (config ``data.local_files``), and the advice must never be to delete it.
    """
    folder = path.parent.name
    return len(folder) == 40 and all(c in "0123456789abcdef" for c in folder)


def _bad_file_advice(path: Path) -> str:
    if _in_cache(path):
        return f"Delete {path} and rerun to download it again."
    return (f"{path} is not in brainpipe's download cache (a file listed under config data.local_files, or one "
            "you passed in), so brainpipe leaves it alone: replace it with a good copy, or remove its "
            "data.local_files entry to download the file instead.")


def sha1_of(path: str | os.PathLike) -> str:
    """sha1 hex digest of a file, read in 1 MiB blocks (constant memory for multi-GB assemblies)."""
    digest = hashlib.sha1()
    with open(path, "rb") as handle:
        while block := handle.read(_CHUNK):
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


def _say(stream: TextIO | None, message: str) -> None:
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
        _say(progress, f"{dest.name}: removed {stale}, left by an interrupted download")
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
                raise FetchError(_disk_full_message(f"Download of {url} (after {got.received} bytes)", dest.parent,
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
    _say(progress, f"{dest.name}: saved to {dest} (sha1 ok)")
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
            _say(progress, f"{label}: downloading {url}" + (f" ({_megabytes(got.total)})" if got.total else ""))
            meter = _Progress(progress, label, got.total)
            read = getattr(response, "read1", response.read)
            while True:
                try:
                    block = read(_CHUNK)
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
            _say(progress, f"{remote.name}: cached at {where.path} (sha1 ok)")
            return where.path
        _say(progress, f"{remote.name}: cached copy {where.path} has sha1 {actual}, expected {remote.sha1}; "
                       "downloading it again")
    return download(where.url, where.path, remote.sha1, progress=progress, timeout=timeout)


def _unsafe_reason(info: zipfile.ZipInfo) -> str | None:
    """Why a zip entry must not be extracted, or None if it is safe."""
    name = info.filename.replace("\\", "/")  # zips made on Windows may use backslashes
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        return "absolute path"
    if ".." in PurePosixPath(name).parts:
        return "'..' path component"
    mode = info.external_attr >> 16  # Unix mode bits, when the zip was made on Unix
    if stat.S_ISLNK(mode):
        return "symbolic link"
    return None


def _check_sizes(zip_path: Path, members: list[zipfile.ZipInfo], max_bytes: int, advice: str) -> None:
    """Refuse, before anything is written, an archive whose declared sizes exceed the limit or that expands far
    more than image archives do (a zip bomb)."""
    total = sum(info.file_size for info in members if not info.is_dir())
    gigabytes = f"{total / 1e9:.2f} GB"
    if total > max_bytes:
        raise FetchError(
            f"Refusing to extract {zip_path}: its entries declare {total} bytes ({gigabytes}) unpacked, more than the "
            f"limit of {max_bytes} bytes ({max_bytes / 1e9:g} GB, config data.max_unpacked_gb). Nothing was "
            "extracted. If the archive is genuine and the disk has room, raise data.max_unpacked_gb; otherwise "
            + advice)
    packed = zip_path.stat().st_size
    if total > _RATIO_FLOOR and total > MAX_COMPRESSION_RATIO * packed:
        raise FetchError(
            f"Refusing to extract {zip_path}: {packed} bytes would unpack to {total} bytes ({gigabytes}), "
            f"{total / max(packed, 1):.0f} times larger; image archives barely compress (limit "
            f"{MAX_COMPRESSION_RATIO}x), so this is a zip bomb or not a stimulus archive. Nothing was extracted. "
            + advice)


def _copy_entry(zip_path: Path, archive: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path,
                budget: int, max_bytes: int) -> int:
    """Write one entry, stopping as soon as it exceeds its declared size or the archive's budget; bytes written."""
    written = 0
    with archive.open(info) as source, open(target, "wb") as sink:
        while block := source.read(_CHUNK):
            written += len(block)
            # zipfile itself stops at the declared size today; counting here keeps the guarantee whatever the
            # library does with an entry whose header lies about its size.
            if written > info.file_size:
                raise FetchError(f"Refusing to extract {zip_path}: entry {info.filename!r} holds more than the "
                                 f"{info.file_size} bytes it declares. Nothing was extracted.")
            if written > budget:
                raise FetchError(f"Refusing to extract {zip_path}: it unpacks to more than the limit of {max_bytes}"
                                 " bytes (config data.max_unpacked_gb). Nothing was extracted.")
            sink.write(block)
    return written


def extract_zip_safely(zip_path: str | os.PathLike, dest_dir: str | os.PathLike,
                       max_bytes: int | None = None) -> list[str]:
    """Extract a zip into ``dest_dir``, refusing entries that could write outside it and archives that are too big.

    Every entry is checked before anything is written: absolute paths, ``..`` components, symbolic links and
    any name that would resolve outside the destination raise :class:`FetchError` naming the entry and the zip;
    so do declared sizes that add up to more than ``max_bytes`` and archives that expand more than
    :data:`MAX_COMPRESSION_RATIO` times (zip bombs). While writing, an entry that produces more bytes than it
    declared stops the extraction. A full disk raises FetchError naming the folder.
    Files go to a temporary folder beside ``dest_dir`` that replaces ``dest_dir`` only when all of them are
    written (and their CRCs checked), so ``dest_dir`` is either complete or untouched.

    Parameters
    ----------
    max_bytes : int, optional
        Largest total unpacked size; None: :func:`max_unpacked_bytes` (20 GB).

    Returns
    -------
    list of str
        Relative POSIX paths of the extracted files (not folders), sorted.
    """
    zip_path, dest_dir = Path(zip_path), Path(dest_dir)
    max_bytes = max_unpacked_bytes() if max_bytes is None else max_bytes
    advice = _bad_file_advice(zip_path)
    try:
        archive = zipfile.ZipFile(zip_path)
    except (zipfile.BadZipFile, OSError) as error:
        raise FetchError(f"{zip_path} is not a readable zip file ({error}). {advice}") from None
    with archive:
        members = archive.infolist()
        for info in members:
            reason = _unsafe_reason(info)
            if reason:
                raise FetchError(f"Refusing to extract {zip_path}: entry {info.filename!r} has a {reason}. "
                                 "Nothing was extracted. The zip is not a Brain-Score stimulus archive.")
        _check_sizes(zip_path, members, max_bytes, advice)
        files = []
        budget = max_bytes
        try:
            with atomic_directory(dest_dir) as staging:
                root = staging.resolve()
                for info in members:
                    name = info.filename.replace("\\", "/")
                    target = (staging / name).resolve()
                    if target != root and root not in target.parents:  # belt and braces after _unsafe_reason
                        raise FetchError(f"Refusing to extract {zip_path}: entry {info.filename!r} escapes the "
                                         "destination folder. Nothing was extracted.")
                    if info.is_dir():
                        target.mkdir(parents=True, exist_ok=True)
                        continue
                    target.parent.mkdir(parents=True, exist_ok=True)
                    budget -= _copy_entry(zip_path, archive, info, target, budget, max_bytes)
                    files.append(PurePosixPath(name).as_posix())
        except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as error:
            raise FetchError(f"{zip_path} is corrupt ({error}). {advice}") from None
        except OSError as error:
            if is_disk_full(error):
                raise FetchError(_disk_full_message(f"Extracting {zip_path}", dest_dir.parent, error)) from None
            raise
    return sorted(files)


def _some(items, limit=5) -> str:
    items = sorted(items)
    more = f" … and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _read_brainio_csv(csv_path: Path, require_filename: bool = True) -> pd.DataFrame:
    """Read a brainio stimulus CSV; copy ``image_id`` to ``stimulus_id`` if absent (core ``stimuli.py``)."""
    try:
        table = pd.read_csv(csv_path, dtype=_ID_COLUMNS)
    except (OSError, ValueError, pd.errors.ParserError) as error:
        raise FetchError(f"{csv_path} is not a readable CSV ({error}). {_bad_file_advice(csv_path)}") from None
    if "stimulus_id" not in table.columns:
        if "image_id" not in table.columns:
            raise ValueError(f"{csv_path}: stimulus CSV has neither stimulus_id nor image_id; "
                             f"columns: {list(table.columns)}")
        table["stimulus_id"] = table["image_id"]
    if require_filename and "filename" not in table.columns:
        raise ValueError(f"{csv_path}: stimulus CSV has no filename column; columns: {list(table.columns)}")
    duplicated = table["stimulus_id"][table["stimulus_id"].duplicated()]
    if len(duplicated):
        raise ValueError(f"{csv_path}: duplicate stimulus ids, e.g. {_some(set(duplicated), 3)}")
    return table


def _match_layout(expected: set[str], extracted: set[str]) -> str | None:
    """The folder prefix under which the zip holds the CSV's files: ``""``, ``"<folder>/"``, or None if neither.

    brainio's loader (core ``s3.py``) compares ``os.listdir`` of the extraction folder with the CSV's
    ``filename`` column, which implies a flat zip; a zip whose files all sit in one top-level folder is
    accepted too, in case an archive was packed from its folder.
    """
    if expected == extracted:
        return ""
    tops = {name.split("/", 1)[0] for name in extracted}
    if len(tops) == 1 and all("/" in name for name in extracted):
        prefix = tops.pop() + "/"
        if {prefix + name for name in expected} == extracted:
            return prefix
    return None


def fetch_stimulus_set(entry_id: str, cache_dir: str | os.PathLike, base_url: str, out_dir: str | os.PathLike,
                       catalog: Catalog, local_overrides: Mapping[str, str | os.PathLike] | None = None,
                       progress: TextIO | None = sys.stderr, timeout: float | None = None,
                       max_unpacked: int | None = None) -> Path:
    """Fetch a Brain-Score stimulus set and write it as a brainpipe stimulus-set folder.

    Parameters
    ----------
    entry_id : str
        Stimulus-set id in the catalog (e.g. ``hvm-public``; ``brainpipe list`` shows them).
    cache_dir, base_url, local_overrides, progress, timeout
        As in :func:`fetch_file`.
    out_dir : path
        Output folder; replaced as a whole, atomically. Holds ``stimuli.csv`` with columns ``stimulus_id``,
        ``filename`` (relative to ``out_dir``, e.g. ``images/<brainio filename>``), then every other column of
        the brainio CSV in its order; and the images under ``out_dir/images/``.
    catalog : Catalog
        The stimulus sets and their checksums (:func:`brainpipe.benchmarks.default_catalog` for the built-in
        ones; tests pass one from :meth:`Catalog.with_checksums`).
    max_unpacked : int, optional
        Largest size in bytes the zip may unpack to (see :func:`extract_zip_safely`; None: 20 GB).

    Returns
    -------
    Path
        ``out_dir / "stimuli.csv"``.

    Raises
    ------
    FetchError
        Download or extraction failed.
    ValueError
        The CSV lacks ids or filenames, or its ``filename`` paths differ from the zip's files (up to five
        missing and five extra names are listed).
    """
    entry = catalog.stimulus_set(entry_id)
    out_dir = Path(out_dir)
    csv_path = fetch_file(entry.csv, cache_dir, base_url, local_overrides, progress, timeout)
    zip_path = fetch_file(entry.zip, cache_dir, base_url, local_overrides, progress, timeout)
    table = _read_brainio_csv(csv_path)
    expected = {PurePosixPath(name.replace("\\", "/")).as_posix() for name in table["filename"]}

    with atomic_directory(out_dir) as staging:
        images = staging / IMAGES_DIR
        extracted = extract_zip_safely(zip_path, images, max_unpacked)
        # macOS archivers add resource forks; they are not stimuli and brainio would not list them either.
        extracted = {name for name in extracted if not name.startswith("__MACOSX/")}
        shutil.rmtree(images / "__MACOSX", ignore_errors=True)
        prefix = _match_layout(expected, extracted)
        if prefix is None:
            missing, extra = expected - extracted, extracted - expected
            raise ValueError(
                f"Stimulus set {entry_id}: the files in {zip_path} do not match the filename column of {csv_path}"
                f" ({len(missing)} listed but not in the zip: {_some(missing) or 'none'}; "
                f"{len(extra)} in the zip but not listed: {_some(extra) or 'none'}). "
                f"{_bad_file_advice(csv_path)} {_bad_file_advice(zip_path)} If it persists, the catalog entry is "
                "wrong.")
        if prefix:  # one top-level folder: move its content up so that images/<filename> is the layout
            inner = staging / "_inner"
            os.replace(images / prefix.rstrip("/"), inner)
            shutil.rmtree(images)
            os.replace(inner, images)
        table["filename"] = [f"{IMAGES_DIR}/{PurePosixPath(name.replace(chr(92), '/')).as_posix()}"
                             for name in table["filename"]]
        first = ["stimulus_id", "filename"]
        table = table[first + [column for column in table.columns if column not in first]]
        table.to_csv(staging / STIMULI_CSV, index=False)
    _say(progress, f"{entry_id}: {len(table)} stimuli written to {out_dir}")
    return out_dir / STIMULI_CSV


def _coords_on(assembly: xr.DataArray, dim: str) -> set[str]:
    return {name for name, coord in assembly.coords.items() if coord.dims == (dim,)}


def _column_values(column: pd.Series) -> np.ndarray:
    """A merged column as a NetCDF-writable array: numbers stay numeric (NaN where missing), text becomes
    an object array of ``str`` with ``""`` where missing (NetCDF strings cannot hold NaN)."""
    if pd.api.types.is_bool_dtype(column) or pd.api.types.is_numeric_dtype(column):
        return column.to_numpy()
    return np.array(["" if pd.isna(value) else str(value) for value in column], dtype=object)


def load_assembly(nc_path: str | os.PathLike, stimuli_csv: str | os.PathLike | None = None,
                  stimulus_set_identifier: str | None = None, coords: Mapping[str, str] | None = None,
                  reindex: str | None = None, parts: Mapping[str, str | os.PathLike] | None = None) -> xr.DataArray:
    """Load a Brain-Score NetCDF assembly into memory, with ``stimulus_id`` and the stimulus metadata.

    Parameters
    ----------
    nc_path : path
        Assembly file (brainio NetCDF DataArray).
    stimuli_csv : path, optional
        brainpipe ``stimuli.csv`` (or a brainio stimulus CSV). Each of its columns that is not already a
        coordinate is added along ``presentation`` by a left join on ``stimulus_id``, as brainio's
        ``StimulusMergeAssemblyLoader`` does. Presentations without a row get NaN (numbers) or ``""`` (text).
    stimulus_set_identifier : str, optional
        Stored as ``attrs['stimulus_set_identifier']`` (brainio sets the same attribute).
    coords : mapping, optional
        brainpipe coordinate name -> the name it has in the file (a declared data set whose file says e.g.
        ``brain_area`` for ``region``); renamed on load, before the checks. A name ``=<value>`` adds a neuroid
        coordinate with that one value where the file has none (Cadena2017: ``region`` ``=V1``).
    reindex : str, optional
        A function of :mod:`brainpipe.data.reindex` applied first, for files without brainpipe's coordinates
        (Bracci2019's ``roi`` codes become ``region``).
    parts : mapping, optional
        Object name -> path of the further files the data set is read from (``AssemblyEntry.parts``: the other
        subjects' assemblies, split lists), handed to the reindex function, which combines them.

    Returns
    -------
    xarray.DataArray
        Dimensions as in the file. All coordinates are plain (no MultiIndex), so ``to_netcdf`` works.

    Raises
    ------
    FetchError
        The file cannot be read as a NetCDF DataArray (the message says what to do, and never to delete a
        file of the user's own: see :func:`_bad_file_advice`).
    ValueError
        A required coordinate is missing: along ``presentation`` ``stimulus_id`` or ``image_id``; along
        ``neuroid`` ``neuroid_id`` and ``region``; along ``time_bin`` (if present) ``time_bin_start`` and
        ``time_bin_end``; or the stimulus CSV has duplicate ids.
    """
    import xarray as xr

    nc_path = Path(nc_path)
    try:
        with xr.open_dataarray(nc_path) as opened:
            assembly = opened.load()
    except (OSError, ValueError, RuntimeError, KeyError, TypeError) as error:
        raise FetchError(f"{nc_path} cannot be read as a NetCDF assembly ({type(error).__name__}: {error}). "
                         f"The file is probably corrupt or incomplete. {_bad_file_advice(nc_path)}") from None

    if reindex is not None:
        from brainpipe.data import reindex as reindexing

        try:
            assembly = reindexing.apply(reindex, assembly, parts)
        except ValueError as error:
            raise ValueError(f"{nc_path}: {error}") from None
    for ours, theirs in (coords or {}).items():
        if theirs.startswith("=") and ours not in assembly.coords and "neuroid" in assembly.dims:
            # '=V1': the file has no such neuroid coordinate and every neuroid has this value (Brain-Score's
            # Cadena2017 data plugin adds region 'V1' on load: brain-score/vision data/cadena2017/__init__.py)
            assembly = assembly.assign_coords({ours: ("neuroid", np.full(assembly.sizes["neuroid"], theirs[1:]))})
            continue
        if ours in assembly.coords:
            # the file already has the standard name (alone, or beside the declared one): that is what is read,
            # as Brain-Score reads it (Sanghavi2020 files with time_bin_end instead of time_bin_stop)
            continue
        if theirs not in assembly.coords:
            raise ValueError(f"{nc_path}: no coordinate {theirs!r} (declared as the file's name for {ours!r} "
                             f"under assembly.coords), nor {ours!r}; the file has {sorted(map(str, assembly.coords))}")
        assembly = assembly.rename({theirs: ours})
    required = {"presentation": None, "neuroid": ("neuroid_id", "region")}
    if "time_bin" in assembly.dims:
        required["time_bin"] = ("time_bin_start", "time_bin_end")
    for dim, names in required.items():
        if dim not in assembly.dims:
            raise ValueError(f"{nc_path}: assembly has no {dim!r} dimension (dims: {assembly.dims})")
        present = _coords_on(assembly, dim)
        if names is None:
            if not {"stimulus_id", "image_id"} & present:
                raise ValueError(f"{nc_path}: missing coordinate 'stimulus_id' (or 'image_id') along presentation")
            continue
        for name in names:
            if name not in present:
                raise ValueError(f"{nc_path}: missing coordinate {name!r} along {dim}")
    from brainpipe.data.assembly import check_time_bins

    check_time_bins(assembly, nc_path)  # NaN, reversed or repeated bins: refused when fetched, naming the bin

    if "stimulus_id" not in assembly.coords:  # core assemblies.py: image_id is the legacy name of stimulus_id
        assembly = assembly.assign_coords(stimulus_id=("presentation", assembly["image_id"].values.astype(str)))

    if stimuli_csv is not None:
        stimuli_csv = Path(stimuli_csv)
        stimuli = _read_brainio_csv(stimuli_csv, require_filename=False)
        new = [column for column in stimuli.columns if column not in assembly.coords and column != "path"]
        if new:
            left = pd.DataFrame({"stimulus_id": assembly["stimulus_id"].values.astype(str)})
            merged = left.merge(stimuli[["stimulus_id"] + new], on="stimulus_id", how="left", sort=False)
            assembly = assembly.assign_coords(
                {column: ("presentation", _column_values(merged[column])) for column in new})
    if stimulus_set_identifier is not None:
        assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
    return assembly
