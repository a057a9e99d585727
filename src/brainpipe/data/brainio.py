"""Brain-Score's BrainIO files as brainpipe reads them: a stimulus set (CSV + ZIP) written as a brainpipe
stimulus-set folder, and a NetCDF assembly loaded with ``stimulus_id`` and its stimulus metadata.

Brain-Score behaviour this mirrors (brain-score/core
``brainscore_core/supported_data_standards/brainio/{s3,stimuli,assemblies}.py``):

* a stimulus set is a CSV plus a ZIP whose extracted files must equal the CSV's ``filename`` paths;
* ``image_id`` is copied to ``stimulus_id`` when the latter is absent (CSV and assembly alike);
* the stimulus-set columns are merged onto the assembly's ``presentation`` by a left join on ``stimulus_id``
  (``StimulusMergeAssemblyLoader``), but coordinates stay plain (no MultiIndex), so the result can be written
  back with ``to_netcdf``.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, TextIO

import numpy as np
import pandas as pd

from .archives import extract_zip_safely
from .catalog import Catalog
from .download import FetchError, bad_file_advice, fetch_file, say
from brainpipe.io import atomic_directory

if TYPE_CHECKING:  # xarray is imported where an assembly is read: a stimulus set's fetch job needs none of it
    import xarray as xr

#: Name of the stimulus table in a brainpipe stimulus-set folder (same as ``brainpipe.data.stimuli.CSV_NAME``).
STIMULI_CSV = "stimuli.csv"
#: Sub-folder of a brainpipe stimulus-set folder that holds the images.
IMAGES_DIR = "images"

_ID_COLUMNS = {"stimulus_id": str, "image_id": str, "filename": str}  # never let pandas parse ids as numbers


def _some(items, limit=5) -> str:
    items = sorted(items)
    more = f" … and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def read_brainio_csv(csv_path: Path, require_filename: bool = True) -> pd.DataFrame:
    """Read a brainio stimulus CSV; copy ``image_id`` to ``stimulus_id`` if absent (core ``stimuli.py``)."""
    try:
        table = pd.read_csv(csv_path, dtype=_ID_COLUMNS)
    except (OSError, ValueError, pd.errors.ParserError) as error:
        raise FetchError(f"{csv_path} is not a readable CSV ({error}). {bad_file_advice(csv_path)}") from None
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
    table = read_brainio_csv(csv_path)
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
                f"{bad_file_advice(csv_path)} {bad_file_advice(zip_path)} If it persists, the catalog entry is "
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
    say(progress, f"{entry_id}: {len(table)} stimuli written to {out_dir}")
    return out_dir / STIMULI_CSV


def _coords_on(assembly: xr.DataArray, dim: str) -> set[str]:
    return {name for name, coord in assembly.coords.items() if coord.dims == (dim,)}


def column_values(column: pd.Series) -> np.ndarray:
    """A stimulus-table column as a NetCDF-writable coordinate (merged onto an assembly, or a target's own): numbers
    stay numeric (NaN where missing), text becomes an object array of ``str`` with ``""`` where missing (NetCDF
    strings cannot hold NaN)."""
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
        file of the user's own: see :func:`bad_file_advice`).
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
                         f"The file is probably corrupt or incomplete. {bad_file_advice(nc_path)}") from None

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
        stimuli = read_brainio_csv(stimuli_csv, require_filename=False)
        new = [column for column in stimuli.columns if column not in assembly.coords and column != "path"]
        if new:
            left = pd.DataFrame({"stimulus_id": assembly["stimulus_id"].values.astype(str)})
            merged = left.merge(stimuli[["stimulus_id"] + new], on="stimulus_id", how="left", sort=False)
            assembly = assembly.assign_coords(
                {column: ("presentation", column_values(merged[column])) for column in new})
    if stimulus_set_identifier is not None:
        assembly.attrs["stimulus_set_identifier"] = stimulus_set_identifier
    return assembly
