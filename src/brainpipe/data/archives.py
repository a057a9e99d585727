"""Unpack a stimulus archive safely: no entry written outside its folder, no archive unpacked past a size limit.

A Brain-Score stimulus set is a CSV plus a ZIP of its images (brain-score/core
``brainscore_core/supported_data_standards/brainio/s3.py`` extracts it); the zip is checked before anything is
written (paths, links, declared sizes, compression ratio) and while writing (an entry that holds more than it
declares), and it lands in its folder atomically, so the folder is either complete or untouched.
"""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path, PurePosixPath

from .download import CHUNK_BYTES, FetchError, bad_file_advice, disk_full_message, is_disk_full
from brainpipe.io import atomic_directory

#: Largest total a stimulus zip may unpack to, in GB (config ``data.max_unpacked_gb``). Brain-Score's stimulus
#: archives hold a few thousand PNGs (well under 1 GB; exact sizes are not published), so 20 GB only stops
#: archives that would fill a disk.
DEFAULT_MAX_UNPACKED_GB = 20.0
#: Largest unpacked/packed size ratio accepted for an archive that unpacks to more than :data:`_RATIO_FLOOR`
#: bytes. Images (PNG, JPEG) barely compress, so a stimulus archive is close to 1:1; deflate's best case is about
#: 1032:1, which is what a zip bomb of zeros reaches.
MAX_COMPRESSION_RATIO = 100
_RATIO_FLOOR = 64 << 20  # small archives (a few MB of text or blank images) may compress well and are harmless


def max_unpacked_bytes(configured_gb: float | None = None) -> int:
    """Unpacking limit in bytes from config ``data.max_unpacked_gb`` (GB = 1e9 bytes; None: the default 20)."""
    gb = DEFAULT_MAX_UNPACKED_GB if configured_gb is None else configured_gb
    if isinstance(gb, bool) or not isinstance(gb, (int, float)) or not gb > 0:
        raise ValueError(f"config data.max_unpacked_gb = {configured_gb!r}: expected a positive number of GB")
    return int(gb * 1e9)


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
        while block := source.read(CHUNK_BYTES):
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
    advice = bad_file_advice(zip_path)
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
                raise FetchError(disk_full_message(f"Extracting {zip_path}", dest_dir.parent, error)) from None
            raise
    return sorted(files)


