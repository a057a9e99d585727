"""Where Brain-Score's public data live: object names and sha1 checksums of the assemblies and stimulus sets.

Sources (brain-score/vision and brain-score/core):

* each family module in :mod:`brainpipe.benchmarks` declares its data (``ASSEMBLIES``, ``STIMULUS_SETS``) and
  cites the brain-score/vision ``brainscore_vision/data/<family>/__init__.py`` it took them from;
* object-name rule and URL: brain-score/core ``brainscore_core/supported_data_standards/brainio/s3.py``
  (``get_path``): ``{assy_|stimulus_}{identifier.replace('.', '_')}.{nc|csv|zip}`` in bucket ``brainscore-storage``,
  folder ``brainio-brainscore/``. The same sha1s were used by the pre-2.0 catalogs, so they identify the content.

Three ways to change where files come from, in order of precedence for one file:

1. **Local files** (``local_overrides``): a mapping from object name to a path on disk, for example
   ``{"assy_dicarlo_<Family>_private.nc": "/data/brainscore/assy_dicarlo_<Family>_private.nc"}``.
   This is how users with a family's (non-public) private files use them: nothing is downloaded or copied,
   the file is used where it is, after its sha1 is checked. Stimulus sets need two entries (``.csv`` and ``.zip``).
2. **Another server** (``base_url``): a mirror with the same object names. :func:`base_url` picks the configured
   value, else the environment variable ``BRAINPIPE_DATA_URL``, else :data:`DEFAULT_BASE_URL`.
   A ``file:///path/to/folder/`` URL works too (urllib reads it), which is handy for a shared folder on a cluster.
3. **Other checksums** (:meth:`Catalog.with_checksums`, :func:`read_checksums`): a JSON object
   ``{"<object name>": "<sha1>", ...}`` replacing the sha1 of the named files. This exists for tests, whose
   fixture files (``tests/brainio_fixtures.py``) have the real names but not the real contents; the workflow
   passes it through config key ``data.checksums_override``. It should never be needed with real data: a sha1
   mismatch against the real server means the file changed and the results would not be comparable.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

#: Brain-Score's public bucket and folder (core ``s3.py``: ``https://{bucket}.s3.amazonaws.com/{folder}/{file}``).
DEFAULT_BASE_URL = "https://brainscore-storage.s3.amazonaws.com/brainio-brainscore/"

#: Environment variable that replaces :data:`DEFAULT_BASE_URL` (a config value still wins over it).
BASE_URL_ENV = "BRAINPIPE_DATA_URL"


@dataclass(frozen=True)
class RemoteFile:
    """One object in the store: its file name (also its key under the base URL) and its sha1 hex digest."""

    name: str
    sha1: str | None
    url: str | None = None    # a full URL (declared data); None: the store's base URL + name
    path: str | None = None   # a file on disk (declared data): used in place, sha1 checked when given


@dataclass(frozen=True)
class StimulusSetEntry:
    """A stimulus set: metadata CSV plus a ZIP of the images, named ``stimulus_<id with . → _>.{csv,zip}``."""

    identifier: str
    csv: RemoteFile
    zip: RemoteFile


@dataclass(frozen=True)
class AssemblyEntry:
    """A data assembly (NetCDF DataArray) and the id of the stimulus set its presentations refer to.

    ``identifier`` is Brain-Score's full identifier (e.g. ``dicarlo.<Family>.public``), which is also the
    DataArray's name in the file; the key in :data:`ASSEMBLIES` is the shorter registry key.
    """

    identifier: str
    file: RemoteFile
    stimulus_set: str
    # Further files the data set is read from together with ``file`` (one assembly per subject, split lists):
    # fetched beside it and handed to the family's reindex function, which makes the one assembly of them
    parts: tuple = ()

    @property
    def all_files(self) -> tuple:
        """``file`` and the ``parts``."""
        return (self.file,) + tuple(self.parts)


def object_name(identifier: str, extension: str) -> str:
    """Store file name of an identifier, by core ``get_path``'s rule.

    >>> object_name("dicarlo.Shapes2024.public", "nc")
    'assy_dicarlo_Shapes2024_public.nc'
    >>> object_name("hvm-public", "zip")
    'stimulus_hvm-public.zip'
    """
    prefix = "assy_" if extension == "nc" else "stimulus_"
    return f"{prefix}{identifier.replace('.', '_')}.{extension}"


def brainio_assembly(identifier: str, sha1: str, stimulus_set: str) -> AssemblyEntry:
    """An assembly in Brain-Score's store, named by core ``get_path``'s rule."""
    return AssemblyEntry(identifier, RemoteFile(object_name(identifier, "nc"), sha1), stimulus_set)


def brainio_stimuli(identifier: str, csv_sha1: str, zip_sha1: str) -> StimulusSetEntry:
    """A stimulus set (CSV + ZIP) in Brain-Score's store."""
    return StimulusSetEntry(
        identifier,
        RemoteFile(object_name(identifier, "csv"), csv_sha1),
        RemoteFile(object_name(identifier, "zip"), zip_sha1),
    )


def _unknown(kind: str, key: str, known) -> ValueError:
    return ValueError(f"unknown {kind} {key!r}; known: {', '.join(sorted(known))}")


@dataclass(frozen=True)
class Catalog:
    """The assemblies and stimulus sets brainpipe can fetch, with their checksums.

    Immutable: :meth:`with_checksums` returns a new catalog, so the default one
    (:func:`brainpipe.benchmarks.default_catalog`, gathered from the family modules) never changes.
    """

    assemblies: Mapping[str, AssemblyEntry]
    stimulus_sets: Mapping[str, StimulusSetEntry]

    def assembly(self, key: str) -> AssemblyEntry:
        """Entry of an assembly by registry key (``<Family>.public``); ValueError listing the known keys."""
        try:
            return self.assemblies[key]
        except KeyError:
            raise _unknown("assembly", key, self.assemblies) from None

    def stimulus_set(self, key: str) -> StimulusSetEntry:
        """Entry of a stimulus set by id (``hvm-public``); ValueError listing the known ids."""
        try:
            return self.stimulus_sets[key]
        except KeyError:
            raise _unknown("stimulus set", key, self.stimulus_sets) from None

    def files(self) -> dict[str, RemoteFile]:
        """Every file of the catalog by object name."""
        found = {remote.name: remote for entry in self.assemblies.values() for remote in entry.all_files}
        for entry in self.stimulus_sets.values():
            found[entry.csv.name] = entry.csv
            found[entry.zip.name] = entry.zip
        return found

    def with_checksums(self, overrides: Mapping[str, str] | None) -> "Catalog":
        """A copy whose files named in ``overrides`` (object name → sha1) carry the given sha1 instead.

        Meant for tests with fixture files under the real names. An unknown name raises ValueError rather
        than being ignored, so a typo cannot silently leave the real checksum in place.
        """
        if not overrides:
            return self
        known = self.files()
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            raise ValueError(f"checksum override for unknown file(s) {unknown}; known: {', '.join(sorted(known))}")
        for name, sha1 in overrides.items():
            if not (isinstance(sha1, str) and len(sha1) == 40 and all(c in "0123456789abcdef" for c in sha1)):
                raise ValueError(f"checksum override for {name!r} is not a 40-digit lowercase sha1 hex: {sha1!r}")

        def swap(remote: RemoteFile) -> RemoteFile:
            return replace(remote, sha1=overrides[remote.name]) if remote.name in overrides else remote

        return Catalog(
            assemblies={key: replace(entry, file=swap(entry.file), parts=tuple(swap(p) for p in entry.parts))
                        for key, entry in self.assemblies.items()},
            stimulus_sets={key: replace(entry, csv=swap(entry.csv), zip=swap(entry.zip))
                           for key, entry in self.stimulus_sets.items()},
        )


def read_checksums(path: str | os.PathLike | None) -> dict[str, str]:
    """Read a checksum-override JSON file ``{"<object name>": "<sha1>"}``; ``None`` or ``""`` gives ``{}``."""
    if not path:
        return {}
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot read checksum overrides ({error})") from None
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{path}: checksum overrides must be a JSON object of file name → sha1 strings")
    return data


def load_catalog(checksums_override: str | os.PathLike | None = None, registry=None) -> Catalog:
    """The catalog of ``registry``'s data (a :class:`brainpipe.benchmarks.Registry`: the built-in families plus
    declared ones), with the checksums of ``checksums_override`` (a JSON file path) if given. Data code does not
    import the benchmark families (they import it), so the caller passes them."""
    if registry is None:
        raise TypeError("load_catalog needs the registry whose data it lists, e.g. brainpipe.benchmarks.builtin()")
    return Catalog(registry.assemblies, registry.stimulus_sets).with_checksums(read_checksums(checksums_override))


def local_paths(local_files: Mapping | None) -> dict[str, str]:
    """Object name -> path of config ``data.local_files``, whose entries are a path or ``{path: ..., sha1: ...}``
    (a file of your own under a catalog name, e.g. a copy cleaned of NaN recording sites, with its own sha1)."""
    return {name: entry["path"] if isinstance(entry, Mapping) else entry
            for name, entry in (local_files or {}).items()}


def local_checksums(local_files: Mapping | None) -> dict[str, str]:
    """Object name -> sha1 of the ``data.local_files`` entries that declare their own sha1 (they replace the
    catalog's: the file is knowingly not the one Brain-Score publishes, and score JSONs record its sha1)."""
    return {name: entry["sha1"] for name, entry in (local_files or {}).items()
            if isinstance(entry, Mapping) and entry.get("sha1")}


def cleaned_copy_advice(remote: RemoteFile, local_files: Mapping | None = None, cache_dir="resources/cache") -> str:
    """How to make the workflow read a corrected copy of the data file ``remote`` (e.g. without NaN recording
    sites) instead of it: the file to start from and the config key to set, such that the next run of the same
    command redoes the fetch and everything after it (local files' paths and sha1s are inputs of the fetch)."""
    original = resolve(remote, cache_dir, DEFAULT_BASE_URL, local_files).path
    declared = remote.name not in (local_files or {}) and (remote.path is not None or remote.url is not None)
    start = f"(the recordings are {original}; never edit that file in place) "
    if declared:  # a benchmark_zoo entry's own file (object name assy_<name>.nc, see benchmarks/declared.py)
        name = remote.name.removeprefix("assy_").removesuffix(".nc")
        sha1 = " and its assembly.sha1 to the copy's sha1 (sha1sum cleaned.nc)" if remote.sha1 else ""
        return (f"{start}save the cleaned copy under a new name (a.to_netcdf('cleaned.nc')), set config "
                f"benchmark_zoo.{name}.assembly.file to it{sha1}, and rerun the same command")
    return (f"{start}save the cleaned copy under a new name (a.to_netcdf('cleaned.nc')), declare it in the config as "
            f"data: {{local_files: {{{remote.name}: {{path: cleaned.nc, sha1: <sha1sum cleaned.nc>}}}}}} (its own "
            f"sha1: it is knowingly not the published file), and rerun the same command")


def file_sha1(path: str | os.PathLike, cache_file: str | os.PathLike | None = None) -> str | None:
    """sha1 of a file on disk; None where there is no file. With ``cache_file`` (a JSON file), a digest is
    reused while the file's path, size, mtime, ctime and inode are unchanged, so that a multi-GB local file is read once
    rather than at every workflow start. The key holds the ctime too, which a write always moves on (an mtime can be
    put back, e.g. by ``cp -p`` or ``touch -r``)."""
    import hashlib

    path = Path(path).expanduser()
    try:
        info = path.stat()
    except OSError:
        return None
    key = f"{path.resolve()}|{info.st_size}|{info.st_mtime_ns}|{info.st_ctime_ns}|{info.st_ino}"
    cache = {}
    if cache_file is not None:
        try:
            cache = json.loads(Path(cache_file).read_text())
        except (OSError, ValueError):
            cache = {}
        if isinstance(cache, dict) and key in cache:
            return cache[key]
    digest = hashlib.sha1()
    with open(path, "rb") as handle:
        while block := handle.read(1 << 20):
            digest.update(block)
    if cache_file is not None:
        from brainpipe.io import write_json  # atomic: concurrent workflow starts never read half a file

        stale = f"{path.resolve()}|"  # older digests of this path
        cache = {k: v for k, v in cache.items() if not k.startswith(stale)} if isinstance(cache, dict) else {}
        cache[key] = digest.hexdigest()
        Path(cache_file).parent.mkdir(parents=True, exist_ok=True)
        write_json(cache, cache_file)
    return digest.hexdigest()


def base_url(configured: str | None = None) -> str:
    """Base URL of the store: ``configured`` if set, else ``$BRAINPIPE_DATA_URL``, else :data:`DEFAULT_BASE_URL`.

    Empty strings count as unset. The result always ends with ``/`` so that ``base_url + name`` is the
    object's URL (``urljoin`` would drop the last path component of a base without the slash).
    """
    url = configured or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL
    return url if url.endswith("/") else url + "/"


def url_of(remote: RemoteFile, base: str) -> str:
    """Download URL of a file under a base URL (with or without trailing slash)."""
    return (base if base.endswith("/") else base + "/") + remote.name


def cache_path(remote: RemoteFile, cache_dir: str | os.PathLike) -> Path:
    """Where a file is cached: ``<cache_dir>/<sha1>/<name>`` (brainio's ``~/.brainio/<sha1>/<file>`` layout).

    Keying the folder by sha1 means a changed checksum never reuses a stale file, and two versions can coexist.
    """
    return Path(cache_dir) / remote.sha1 / remote.name


@dataclass(frozen=True)
class Resolved:
    """Where one file will be read from: a user's local copy (``url is None``) or a download into the cache."""

    remote: RemoteFile
    path: Path
    url: str | None

    @property
    def is_local(self) -> bool:
        return self.url is None


def resolve(remote: RemoteFile, cache_dir: str | os.PathLike, base: str,
            local_overrides: Mapping[str, str | os.PathLike] | None = None) -> Resolved:
    """Decide where ``remote`` comes from, without touching the network or the disk.

    Parameters
    ----------
    remote : RemoteFile
        The catalog file.
    cache_dir : path
        Download cache root; the file goes to :func:`cache_path`.
    base : str
        Base URL (see :func:`base_url`).
    local_overrides : mapping of object name to path (or to ``{path: ..., sha1: ...}``), optional
        Files the user already has (e.g. a family's private assembly). A listed file is used in place:
        ``Resolved.path`` is that path (``~`` expanded) and ``Resolved.url`` is None.
    """
    if local_overrides and remote.name in local_overrides:
        return Resolved(remote, Path(local_paths(local_overrides)[remote.name]).expanduser(), None)
    if remote.path is not None:  # declared data on disk
        return Resolved(remote, Path(remote.path).expanduser(), None)
    if remote.url is not None:   # declared data at its own URL: cached like the store's files
        return Resolved(remote, cache_path(remote, cache_dir), remote.url)
    return Resolved(remote, cache_path(remote, cache_dir), url_of(remote, base))
