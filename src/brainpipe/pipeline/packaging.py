"""Package your own experiment into the standard files (``brainpipe package``): Brain-Score's data packaging
without the upload.

Inputs: a folder of images, a stimulus CSV (``stimulus_id``, ``filename`` relative to the folder, any metadata),
and the responses in one of three layouts:

* ``.nc``: a NetCDF DataArray with dims presentation × neuroid [× time_bin]; coordinates (and dims) whose names
  differ from Brain-Score's are mapped with ``coords`` (e.g. ``{"region": "brain_area", "presentation": "trial"}``);
* ``.csv``: long format, one row per value: ``stimulus_id, neuroid_id, region, repetition, value`` [,
  ``time_bin_start, time_bin_end``]; every (stimulus_id, repetition) needs a value for every neuroid (and bin);
* ``.npy``: an array repetition × stimulus × neuroid, stimuli in the CSV's row order, plus a neuroid table
  (``neuroid_id``, ``region``, any other neuroid metadata) in the array's neuroid order; or, as labs export trials,
  an array trials × neuroids with a trials table (``stimulus_id`` [, ``repetition``] per row, in the array's order).

``coords`` maps Brain-Score's names to yours in every input: the NetCDF's coordinates and dims and the CSVs' columns;
one column may serve two names (``stimulus_id=file,filename=file``: the image's file name is its id).
The humans' choices (a CSV of trial rows) become a BehavioralAssembly and an entry of their own
(:mod:`brainpipe.pipeline.behaviour_packaging`).

Outputs (Brain-Score's names, brain-score/brainio ``brainio/packaging.py``: ``stimulus_<id>.csv``,
``stimulus_<id>.zip``, ``assy_<id>.nc``): the CSV holds ``stimulus_id``, ``filename`` and the metadata; the zip the
images under their ``filename``; the assembly the responses as (presentation, neuroid[, time_bin]) with
``stimulus_id`` and ``repetition`` on presentation, ``neuroid_id`` and ``region`` on neuroid and
``time_bin_start``/``time_bin_end`` on time_bin. As in brainio's ``package_data_assembly``, stimulus metadata is not
copied into the assembly: loading merges it from the CSV by ``stimulus_id``.

Everything is checked before anything is written, the files are written into a hidden folder inside the output
folder and moved into place only when all three exist and read back, so a failure leaves the output folder as it was
(and removes it again when it did not exist before).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np
import pandas as pd
import xarray as xr
import yaml
from PIL import Image

from brainpipe.data.brainio import load_assembly
from brainpipe.data.download import sha1_of

from .package_tables import (PackagingError, _line_numbers, _no_blanks, _read_csv, _require_columns, _some,  # noqa: F401
                             _unknown_stimuli)
from .package_tables import renamed_columns as _renamed_columns

#: File suffixes taken to be images when looking for images that no CSV row names.
IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff", ".webp"}
#: Brain-Score's names; ``coords`` maps them (keys) to the names in a user's NetCDF file (values).
DIMS = ("presentation", "neuroid", "time_bin")
COORDS = ("stimulus_id", "repetition", "neuroid_id", "region", "time_bin_start", "time_bin_end")
LONG_COLUMNS = ("stimulus_id", "neuroid_id", "region", "repetition", "value")
#: rdm and cka compare the stimuli's response patterns across a region's neuroids: one neuroid has no pattern
MIN_NEUROIDS = 2
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # fixed entry dates: the same images give the same zip, hence the same sha1


@dataclass
class Package:
    """What :func:`package` wrote: the files, their sha1s, and the ``benchmark_zoo`` entries (the neural one under
    ``name`` and, with choices, the behavioural one under ``<name>Behaviour``; choices alone: under ``name``)."""

    name: str
    files: dict  # "stimuli_csv" | "stimuli_zip" | "assembly" | "behaviour" -> Path
    sha1s: dict  # same keys -> sha1 hex digest
    entries: dict  # family name -> benchmark_zoo entry (a declared family)
    summary: str
    notes: list = field(default_factory=list)

    @property
    def entry(self) -> dict:
        return self.entries[self.name]

    def config_text(self) -> str:
        """The ``benchmark_zoo:`` block to paste into config/config.yaml."""
        return yaml.safe_dump({"benchmark_zoo": self.entries}, sort_keys=False, default_flow_style=None, width=1000)

    def examples(self) -> list:
        """A score of each entry to compute first (behaviour needs a model with logits or a readout layer)."""
        return [f"alexnet_untrained/{name}-{entry['metrics'][0]}" if "behaviour" in entry
                else f"pixels/{name}.{entry['regions'][0]}-pls" for name, entry in self.entries.items()]

    def report(self) -> str:
        width = max(len(str(path)) for path in self.files.values())
        lines = [self.summary]
        lines += [f"  {str(self.files[key]):<{width}}  sha1 {self.sha1s[key]}" for key in self.files]
        lines += [f"  note: {note}" for note in self.notes]
        lines += ["", "Paste into config/config.yaml (relative paths are relative to where snakemake runs), then "
                      "score with e.g. " + ", ".join(f"`snakemake --cores 2 results/{b}.json`"
                                                     for b in self.examples()) + ":", "", self.config_text().rstrip()]
        return "\n".join(lines)


# ---- stimuli ----

def read_stimuli(csv_path, images, coords=None) -> pd.DataFrame:
    """The stimulus table, checked against the image folder: stimulus_id, filename (POSIX, relative), metadata.

    Every row's image exists and opens as an image; ids and filenames are unique; no image in the folder lacks a
    row. ``image_id`` is taken for ``stimulus_id`` when the latter is absent (brain-score/core
    ``brainscore_core/supported_data_standards/brainio/stimuli.py``).
    """
    csv_path, images = Path(csv_path), Path(images)
    if not images.is_dir():
        raise PackagingError(f"{images}: no such folder (the image folder, --images)")
    table = _renamed_columns(_read_csv(csv_path, "stimulus CSV, --stimuli"), csv_path, coords,
                             ("stimulus_id", "filename", "image_id"))
    for column in ("stimulus_id", "filename"):  # ids are text, whatever the column was called in the file
        if column in table.columns:
            table[column] = table[column].astype(str).where(table[column].notna())
    if "stimulus_id" not in table.columns and "image_id" in table.columns:
        table["stimulus_id"] = table["image_id"]
    _require_columns(table, csv_path, ("stimulus_id", "filename"),
                     " (stimulus_id: your name for each stimulus; filename: its image, relative to the image folder)")
    if table.empty:
        raise PackagingError(f"{csv_path}: no rows; one row per stimulus is needed")
    _no_blanks(table, csv_path, ("stimulus_id", "filename"))
    for column in ("stimulus_id", "filename"):
        repeated = table[column][table[column].duplicated(keep=False)]
        if len(repeated):
            first = repeated.iloc[0]
            raise PackagingError(f"{csv_path}: duplicate {column} {first!r} on lines "
                                 f"{_some(_line_numbers(table[column] == first))} ({repeated.nunique()} duplicated "
                                 f"value(s)); each stimulus needs its own id and its own image")
    names = []
    for line, name in zip(range(2, len(table) + 2), table["filename"]):
        posix = PurePosixPath(name.replace("\\", "/"))
        if posix.is_absolute() or ".." in posix.parts or re.match(r"^[A-Za-z]:", name):
            raise PackagingError(f"{csv_path}, line {line}: filename {name!r} must be a path inside the image "
                                 f"folder {images}, relative to it (no leading '/', no '..')")
        names.append(posix.as_posix())
    table["filename"] = names
    missing = [(sid, name) for sid, name in zip(table["stimulus_id"], names) if not (images / name).is_file()]
    if missing:
        raise PackagingError(f"{csv_path}: {len(missing)} stimulus id(s) have no image in {images}: "
                             + _some(f"{sid!r} -> {name}" for sid, name in missing)
                             + ". Fix the filename column or add the images")
    for name in names:
        try:
            with Image.open(images / name) as image:
                image.verify()
        except Exception as error:  # PIL raises many types for a file that is not an image
            raise PackagingError(f"{images / name}: not a readable image ({type(error).__name__}: {error}); "
                                 f"listed in {csv_path}") from None
    listed = set(names)
    unlisted = sorted(path.relative_to(images).as_posix() for path in images.rglob("*")
                      if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
                      and not any(part.startswith(".") for part in path.relative_to(images).parts)
                      and path.relative_to(images).as_posix() not in listed)
    if unlisted:
        raise PackagingError(f"{images}: {len(unlisted)} image(s) have no row in {csv_path}: {_some(unlisted)}. "
                             "Add a row for each, or move them out of the folder")
    first = ["stimulus_id", "filename"]
    return table[first + [column for column in table.columns if column not in first]].reset_index(drop=True)


def write_zip(table: pd.DataFrame, images: Path, destination: Path) -> None:
    """The images under their ``filename``, stored (images barely compress), with fixed dates so that the same
    images give the same bytes."""
    with zipfile.ZipFile(destination, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in table["filename"]:
            info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
            info.external_attr = 0o644 << 16
            with open(images / name, "rb") as source, archive.open(info, "w") as sink:
                shutil.copyfileobj(source, sink, 1 << 20)


# ---- responses ----

def read_responses(path, table: pd.DataFrame, neuroids=None, coords=None, region=None, trials=None) -> xr.DataArray:
    """The responses as (presentation, neuroid[, time_bin]) with Brain-Score's coordinates, checked (see module
    docstring for the layouts). ``region`` names the region of every neuroid when the input has none; ``coords``
    maps Brain-Score's names to yours, in a NetCDF file and in the CSV tables alike; ``trials``: with a .npy of
    trials × neuroids, the trials table (one row per trial: stimulus_id [, repetition])."""
    path = Path(path)
    if not path.is_file():
        raise PackagingError(f"{path}: no such file (the responses, --responses)")
    suffix = path.suffix.lower()
    if neuroids is not None and suffix != ".npy":
        raise PackagingError(f"--neuroids goes with a .npy array; {path} carries its neuroids itself")
    if trials is not None and suffix != ".npy":
        raise PackagingError(f"--trials goes with a .npy array of trials × neuroids; {path} names its trials itself")
    if suffix == ".nc":
        assembly = _from_netcdf(path, {k: v for k, v in (coords or {}).items() if k in DIMS + COORDS})
    elif suffix == ".csv":
        assembly = _from_long_csv(path, table, region, coords)
        region = None  # used by _from_long_csv
    elif suffix == ".npy":
        if neuroids is None:
            raise PackagingError(f"{path}: a .npy array needs --neuroids NEUROIDS.csv (columns neuroid_id, region, "
                                 "in the array's neuroid order)")
        assembly = _from_numpy(path, table, Path(neuroids), region, coords, trials)
        region = None
    else:
        raise PackagingError(f"{path}: unknown responses format {suffix!r}; expected .nc (NetCDF DataArray), "
                             ".csv (long format) or .npy (repetition × stimulus × neuroid, with --neuroids)")
    return standardise(assembly, path, table, region)


def _from_netcdf(path: Path, coords: dict) -> xr.DataArray:
    try:
        with xr.open_dataarray(path) as opened:
            assembly = opened.load()
    except (OSError, ValueError, RuntimeError, KeyError, TypeError) as error:
        raise PackagingError(f"{path}: cannot be read as a NetCDF DataArray ({type(error).__name__}: {error}); "
                             "save one with xarray's DataArray.to_netcdf") from None
    for ours, theirs in coords.items():
        if ours not in DIMS + COORDS:
            raise PackagingError(f"--coords {ours}={theirs}: {ours!r} is not a name brainpipe reads; known: "
                                 f"{', '.join(DIMS + COORDS)}")
        if theirs not in assembly.coords and theirs not in assembly.dims:
            raise PackagingError(f"{path}: no coordinate or dimension {theirs!r} (named by --coords "
                                 f"{ours}={theirs}); the file has coordinates {sorted(map(str, assembly.coords))} "
                                 f"and dims {list(assembly.dims)}")
        assembly = assembly.rename({theirs: ours})
    if "stimulus_id" not in assembly.coords and "image_id" in assembly.coords:
        assembly = assembly.assign_coords(stimulus_id=assembly["image_id"])  # brainio's legacy name
    return assembly


def _from_long_csv(path: Path, table: pd.DataFrame, region, coords=None) -> xr.DataArray:
    rows = _renamed_columns(_read_csv(path, "responses", raw=True), path, coords)
    required = [c for c in LONG_COLUMNS if not (c == "region" and region)]
    _require_columns(rows, path, required, " (long format: one row per stimulus_id, neuroid_id, region, "
                                           "repetition [, time_bin_start, time_bin_end] with its value)")
    if region:
        if "region" in rows.columns:
            raise PackagingError(f"{path} has a region column; --region is for responses without one")
        rows["region"] = region
    timed = [c for c in ("time_bin_start", "time_bin_end") if c in rows.columns]
    if len(timed) == 1:
        raise PackagingError(f"{path}: has {timed[0]} but not its partner; time bins need both time_bin_start "
                             "and time_bin_end (ms)")
    if rows.empty:
        raise PackagingError(f"{path}: no rows")
    _no_blanks(rows, path, ("stimulus_id", "neuroid_id", "region"))
    for column in ("value", "repetition", *timed):
        numbers = pd.to_numeric(rows[column].str.strip(), errors="coerce")
        bad = numbers.isna() | ~np.isfinite(numbers.to_numpy(dtype=float, na_value=np.nan))
        if bad.any():
            line = _line_numbers(bad)[0]
            raise PackagingError(f"{path}, line {line}: {column} = {rows[column][bad].iloc[0]!r} is not a finite "
                                 f"number ({int(bad.sum())} such row(s)); every {column} must be one")
        rows[column] = numbers
    if not (rows["repetition"] == rows["repetition"].round()).all():
        raise PackagingError(f"{path}: repetition must be whole numbers (0, 1, 2, ...)")
    rows["repetition"] = rows["repetition"].astype(int)
    regions = rows.groupby("neuroid_id", sort=False)["region"].unique()
    clash = regions[regions.map(len) > 1]
    if len(clash):
        raise PackagingError(f"{path}: neuroid_id {clash.index[0]!r} is given regions {list(clash.iloc[0])}; a "
                             "neuroid has one region")
    _unknown_stimuli(rows["stimulus_id"], path, table)
    key = ["stimulus_id", "repetition", "neuroid_id", *timed]
    doubled = rows.duplicated(key, keep=False)
    if doubled.any():
        first = rows[doubled].iloc[0]
        raise PackagingError(f"{path}: lines {_some(_line_numbers(doubled & (rows[key] == first[key]).all(axis=1)))}"
                             f" give a value for the same {', '.join(f'{k} {first[k]!r}' for k in key)}; one value "
                             "each")

    order = {sid: index for index, sid in enumerate(table["stimulus_id"])}
    presentations = (rows[["stimulus_id", "repetition"]].drop_duplicates()
                     .assign(_order=lambda f: f["stimulus_id"].map(order))
                     .sort_values(["_order", "repetition"], kind="stable").drop(columns="_order"))
    neuroid_ids = rows["neuroid_id"].drop_duplicates().to_numpy()
    p_index = pd.MultiIndex.from_frame(presentations).get_indexer(
        pd.MultiIndex.from_frame(rows[["stimulus_id", "repetition"]]))
    n_index = pd.Index(neuroid_ids).get_indexer(rows["neuroid_id"])
    shape, where = [len(presentations), len(neuroid_ids)], [p_index, n_index]
    bins = None
    if timed:
        bins = rows[timed].drop_duplicates().sort_values(timed)
        shape.append(len(bins))
        where.append(pd.MultiIndex.from_frame(bins).get_indexer(pd.MultiIndex.from_frame(rows[timed])))
    values = np.full(shape, np.nan)
    values[tuple(where)] = rows["value"].to_numpy()
    missing = np.isnan(values)
    if missing.any():
        first = np.argwhere(missing)[0]
        sid, rep = presentations.iloc[first[0]]
        cell = f"stimulus_id {sid!r}, repetition {rep}, neuroid_id {neuroid_ids[first[1]]!r}"
        if bins is not None:
            cell += f", time bin {tuple(bins.iloc[first[2]])}"
        raise PackagingError(f"{path}: no row for {cell} ({int(missing.sum())} of {missing.size} values missing). "
                             "Every (stimulus_id, repetition) recorded needs a value for every neuroid"
                             + (" and time bin" if bins is not None else ""))
    neuroid_region = rows.drop_duplicates("neuroid_id").set_index("neuroid_id")["region"]
    coords = {"stimulus_id": ("presentation", presentations["stimulus_id"].to_numpy(dtype=object)),
              "repetition": ("presentation", presentations["repetition"].to_numpy()),
              "neuroid_id": ("neuroid", neuroid_ids.astype(object)),
              "region": ("neuroid", neuroid_region.loc[neuroid_ids].to_numpy(dtype=object))}
    if bins is not None:
        coords.update(time_bin_start=("time_bin", bins["time_bin_start"].to_numpy()),
                      time_bin_end=("time_bin", bins["time_bin_end"].to_numpy()))
    return xr.DataArray(values, dims=DIMS[:len(shape)], coords=coords)


def _from_numpy(path: Path, table: pd.DataFrame, neuroids_path: Path, region, coords=None,
                trials=None) -> xr.DataArray:
    try:
        values = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise PackagingError(f"{path}: cannot be read as a numpy .npy array ({error}); save one with numpy.save")
    neuroids = _renamed_columns(_read_csv(neuroids_path, "neuroid table, --neuroids"), neuroids_path, coords)
    if "neuroid_id" in neuroids.columns:  # ids are text, whatever the column was called in the file
        neuroids["neuroid_id"] = neuroids["neuroid_id"].astype(str)
    _require_columns(neuroids, neuroids_path, ["neuroid_id"] + ([] if region else ["region"]),
                     " (one row per neuroid, in the array's neuroid order; or pass --region for all)")
    if region:
        if "region" in neuroids.columns:
            raise PackagingError(f"{neuroids_path} has a region column; --region is for neuroids without one")
        neuroids["region"] = region
    _no_blanks(neuroids, neuroids_path, ("neuroid_id", "region"))
    neuroids["region"] = neuroids["region"].astype(str)
    if trials is not None:
        return _trial_array(values, path, Path(trials), table, neuroids, neuroids_path, coords)
    expected = f"(repetition, stimulus = {len(table)} rows of the stimulus CSV, neuroid = {len(neuroids)} rows of " \
               f"{neuroids_path})"
    if values.ndim != 3 or values.shape[1:] != (len(table), len(neuroids)):
        raise PackagingError(f"{path}: array of shape {values.shape}; expected 3 dimensions {expected}, i.e. "
                             f"(n_repetitions, {len(table)}, {len(neuroids)})")
    n_repetitions = values.shape[0]
    if n_repetitions == 0:
        raise PackagingError(f"{path}: no repetitions (shape {values.shape})")
    coords = {"stimulus_id": ("presentation", np.tile(table["stimulus_id"].to_numpy(dtype=object), n_repetitions)),
              "repetition": ("presentation", np.repeat(np.arange(n_repetitions), len(table)))}
    for column in neuroids.columns:  # text with blanks becomes "" (NetCDF text cannot hold NaN)
        values_ = neuroids[column]
        if not pd.api.types.is_numeric_dtype(values_):
            values_ = values_.fillna("").astype(str)
        coords[column] = ("neuroid", values_.to_numpy())
    return xr.DataArray(values.reshape(n_repetitions * len(table), len(neuroids)), dims=DIMS[:2], coords=coords)


def _neuroid_coords(neuroids: pd.DataFrame) -> dict:
    coords = {}
    for column in neuroids.columns:  # text with blanks becomes "" (NetCDF text cannot hold NaN)
        values_ = neuroids[column]
        if not pd.api.types.is_numeric_dtype(values_):
            values_ = values_.fillna("").astype(str)
        coords[column] = ("neuroid", values_.to_numpy())
    return coords


def _trial_array(values, path: Path, trials_path: Path, table, neuroids, neuroids_path, coords) -> xr.DataArray:
    """A lab's trial-level export: an array trials × neuroids and a table naming each trial's stimulus (and its
    repetition; numbered by order of appearance when absent), one row per trial in the array's order."""
    trials = _renamed_columns(_read_csv(trials_path, "trials table, --trials"), trials_path, coords)
    _require_columns(trials, trials_path, ["stimulus_id"], " (one row per trial, in the array's trial order; map "
                                                           "yours with --coords stimulus_id=<column>)")
    _no_blanks(trials, trials_path, ["stimulus_id"])
    if values.ndim != 2 or values.shape != (len(trials), len(neuroids)):
        raise PackagingError(f"{path}: array of shape {values.shape}; with --trials expected (trials = "
                             f"{len(trials)} rows of {trials_path}, neuroids = {len(neuroids)} rows of "
                             f"{neuroids_path})")
    coords_ = {"stimulus_id": ("presentation", trials["stimulus_id"].astype(str).to_numpy(dtype=object))}
    if "repetition" in trials.columns:
        coords_["repetition"] = ("presentation", trials["repetition"].to_numpy())
    return xr.DataArray(values, dims=DIMS[:2], coords={**coords_, **_neuroid_coords(neuroids)})


def _on(assembly: xr.DataArray, name: str, dim: str, path: Path) -> np.ndarray | None:
    """The values of coordinate ``name`` along ``dim``, None if absent; error if it lies along something else."""
    if name not in assembly.coords:
        return None
    if assembly[name].dims != (dim,):
        raise PackagingError(f"{path}: coordinate {name!r} lies along {assembly[name].dims}, expected ({dim!r},)")
    return assembly[name].values


def standardise(assembly: xr.DataArray, path, table: pd.DataFrame, region=None) -> xr.DataArray:
    """Check an assembly with Brain-Score's names and return it as written: dims (presentation, neuroid[,
    time_bin]), ids as text, values float, ``repetition`` derived (order of appearance per stimulus) if absent."""
    path = Path(path)
    extra = [dim for dim in assembly.dims if dim not in DIMS]
    if extra or not {"presentation", "neuroid"} <= set(assembly.dims):
        raise PackagingError(f"{path}: dims {list(assembly.dims)}; expected presentation, neuroid [, time_bin]. "
                             "Map yours with --coords, e.g. --coords presentation=trial,neuroid=unit")
    needed = {"stimulus_id": "presentation", "neuroid_id": "neuroid"}
    if "time_bin" in assembly.dims:
        needed.update(time_bin_start="time_bin", time_bin_end="time_bin")
    for name, dim in needed.items():
        if _on(assembly, name, dim, path) is None:
            raise PackagingError(f"{path}: no coordinate {name!r} along {dim}; it has "
                                 f"{sorted(map(str, assembly.coords))}. Map yours with --coords {name}=<name>")
    if _on(assembly, "region", "neuroid", path) is None:
        if not region:
            raise PackagingError(f"{path}: no coordinate 'region' along neuroid; map yours with --coords "
                                 "region=<name>, or pass --region IT if all neuroids are from one region")
        assembly = assembly.assign_coords(region=("neuroid", [region] * assembly.sizes["neuroid"]))
    elif region:
        raise PackagingError(f"{path} has a region coordinate; --region is for responses without one")

    stimulus_ids = np.array([str(sid) for sid in assembly["stimulus_id"].values], dtype=object)
    neuroid_ids = np.array([str(nid) for nid in assembly["neuroid_id"].values], dtype=object)
    regions = np.array([str(r) for r in assembly["region"].values], dtype=object)
    _unknown_stimuli(stimulus_ids, path, table)
    for name, values in (("neuroid_id", neuroid_ids),):
        repeated = pd.Series(values)[pd.Series(values).duplicated()]
        if len(repeated):
            raise PackagingError(f"{path}: duplicate {name} {repeated.iloc[0]!r}; each neuroid needs its own id")
    for value in dict.fromkeys(regions):
        if not value.isalnum() or not value.isascii():
            raise PackagingError(f"{path}: region {value!r} is not letters and digits only (it becomes part of "
                                 f"benchmark identifiers, '<name>.{value}-pls'); rename it")
    repetition = _on(assembly, "repetition", "presentation", path)
    if repetition is None:  # brainio assemblies carry one; derive it as the occurrence number of each stimulus
        repetition = pd.Series(stimulus_ids).groupby(stimulus_ids, sort=False).cumcount().to_numpy()
    else:
        numbers = pd.to_numeric(pd.Series(repetition), errors="coerce").to_numpy(dtype=float)
        odd = ~np.isfinite(numbers) | (numbers != np.round(numbers))
        if odd.any():
            bad = np.asarray(repetition)[np.flatnonzero(odd)[0]]
            raise PackagingError(f"{path}: repetition must be whole numbers (0, 1, 2, ...), got "
                                 f"{getattr(bad, 'item', lambda: bad)()!r} ({int(odd.sum())} such presentation(s))")
        repetition = numbers.astype(np.int64)
    pairs = pd.DataFrame({"stimulus_id": stimulus_ids, "repetition": repetition})
    doubled = pairs.duplicated(keep=False)
    if doubled.any():
        first = pairs[doubled].iloc[0]
        raise PackagingError(f"{path}: stimulus_id {first['stimulus_id']!r} repetition {first['repetition']} "
                             f"appears {int((pairs == first).all(axis=1).sum())} times; each presentation of a "
                             "stimulus needs its own repetition number")

    if not (np.issubdtype(assembly.dtype, np.integer) or np.issubdtype(assembly.dtype, np.floating)):
        raise PackagingError(f"{path}: values have dtype {assembly.dtype}; expected numbers (float or integer)")
    assembly = assembly.transpose(*[dim for dim in DIMS if dim in assembly.dims])
    if not np.issubdtype(assembly.dtype, np.floating):
        assembly = assembly.astype(np.float64)
    bad = ~np.isfinite(assembly.values)
    if bad.any():
        first = np.argwhere(bad)[0]
        where = f"stimulus_id {stimulus_ids[first[0]]!r}, repetition {repetition[first[0]]}, neuroid_id " \
                f"{neuroid_ids[first[1]]!r}"
        if len(first) == 3:
            where += f", time bin {assembly['time_bin_start'].values[first[2]]}–" \
                     f"{assembly['time_bin_end'].values[first[2]]} ms"
        raise PackagingError(f"{path}: {int(bad.sum())} value(s) are NaN or infinite, first at {where}. Drop or "
                             "fill them before packaging (a benchmark averages and correlates every value)")
    if "time_bin" in assembly.dims:
        starts, ends = assembly["time_bin_start"].values, assembly["time_bin_end"].values
        if not (np.issubdtype(starts.dtype, np.number) and np.issubdtype(ends.dtype, np.number)
                and (starts < ends).all()):
            raise PackagingError(f"{path}: time bins must be numbers (ms) with time_bin_start < time_bin_end")
    return assembly.assign_coords(stimulus_id=("presentation", stimulus_ids),
                                  repetition=("presentation", np.asarray(repetition, dtype=np.int64)),
                                  neuroid_id=("neuroid", neuroid_ids), region=("neuroid", regions))


# ---- the whole step ----

def _time_window(assembly: xr.DataArray, window, path: Path):
    """The entry's time_window: the one given, else Brain-Score's 70–170 ms if bins lie inside it, else the
    span of all bins (a window no bin lies in would fail when the benchmark is prepared)."""
    starts, ends = assembly["time_bin_start"].values, assembly["time_bin_end"].values
    candidates = [list(window)] if window else [[70, 170], [float(starts.min()), float(ends.max())]]
    for start, end in candidates:
        if ((starts >= start) & (ends <= end)).any():
            return [int(v) if float(v).is_integer() else float(v) for v in (start, end)]
    raise PackagingError(f"--time-window {window[0]} {window[1]}: no time bin of {path} lies inside it (bins span "
                         f"{starts.min()}–{ends.max()} ms)")


def package(name, images, stimuli, responses, out, visual_degrees, neuroids=None, coords=None, region=None,
            stratification=None, time_window=None, choices=None, task=None, labels=None, ceiling=None,
            trials=None, min_neuroids=MIN_NEUROIDS) -> Package:
    """Check the inputs, write ``stimulus_<name>.csv``, ``stimulus_<name>.zip``, ``assy_<name>.nc`` (responses)
    and the human choices' assembly into ``out``, and return what was written with the ``benchmark_zoo`` entries.
    PackagingError for bad input, before anything is written."""
    from brainpipe.behaviour.data import load_behaviour
    from brainpipe.benchmarks import builtin
    from brainpipe.benchmarks.declared import declared_family
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    from .behaviour_packaging import behaviour_entry, checked_labels, read_choices

    if not re.fullmatch(r"[A-Za-z0-9]+", name or ""):
        raise PackagingError(f"--name {name!r}: letters and digits only, e.g. MyExperiment2024 (it becomes "
                             "'<name>.<region>-<metric>')")
    behaviour_name = f"{name}Behaviour" if responses is not None else name
    for family in {name, behaviour_name}:
        if family in builtin().families:
            raise PackagingError(f"--name {name}: a built-in benchmark family is named {family}; choose another")
    if responses is None and choices is None:
        raise PackagingError("nothing to package: pass --responses (recordings), --choices (human trials) or both")
    if isinstance(visual_degrees, bool) or not isinstance(visual_degrees, (int, float)) or not visual_degrees > 0:
        raise PackagingError(f"--visual-degrees {visual_degrees!r}: expected a positive number of degrees, e.g. 8")
    if time_window is not None and not (len(time_window) == 2 and time_window[0] < time_window[1]):
        raise PackagingError(f"--time-window {time_window}: expected START END in ms with START < END")
    _check_coords(coords or {})
    visual_degrees = int(visual_degrees) if float(visual_degrees).is_integer() else float(visual_degrees)
    images, stimuli, out = Path(images), Path(stimuli), Path(out)
    table = read_stimuli(stimuli, images, coords)
    if stratification is not None and stratification not in table.columns:
        raise PackagingError(f"--stratification {stratification}: not a column of {stimuli}; it has "
                             f"{list(table.columns)}")
    files = {"stimuli_csv": out / f"stimulus_{name}.csv", "stimuli_zip": out / f"stimulus_{name}.zip"}
    notes, summary = [], []
    assembly = human = None
    if responses is not None:
        assembly, repetitions, neural_summary = _neural(name, responses, table, neuroids, coords, region, trials,
                                                        notes, min_neuroids)
        files["assembly"] = out / f"assy_{name}.nc"
        summary.append(neural_summary)
    if choices is not None:
        human, task = read_choices(choices, table, coords, task)
        if task == "label":  # the label set the run will hold the choices to, checked now
            labels, _ = checked_labels(labels, human, choices)
        files["behaviour"] = out / f"assy_{behaviour_name}.nc"
        human.name = behaviour_name
        human.attrs["stimulus_set_identifier"] = name
        summary.append(f"{human.sizes['presentation']} human trials ({task} task, "
                       f"{len(set(human['subject'].values))} subjects)")

    created = _make_folder(out)
    staging = Path(tempfile.mkdtemp(prefix=f".package-{name}~", suffix=".tmp", dir=out))
    written = False
    try:
        staged = {key: staging / path.name for key, path in files.items()}
        table.to_csv(staged["stimuli_csv"], index=False)
        write_zip(table, images, staged["stimuli_zip"])
        # Read back as the workflow will, so that what is printed is known to load.
        with zipfile.ZipFile(staged["stimuli_zip"]) as archive:
            if sorted(archive.namelist()) != sorted(table["filename"]):
                raise RuntimeError(f"{staged['stimuli_zip']}: written zip does not hold the CSV's files")
        if assembly is not None:
            assembly.to_netcdf(staged["assembly"])
            load_assembly(staged["assembly"], staged["stimuli_csv"])
        if human is not None:
            human.to_netcdf(staged["behaviour"])
            load_behaviour(staged["behaviour"], staged["stimuli_csv"])
        sha1s = {key: sha1_of(path) for key, path in staged.items()}
        entries = {}
        if assembly is not None:
            entries[name] = _neural_entry(assembly, files, sha1s, repetitions, visual_degrees, stratification,
                                          time_window, responses)
            declared_family(name, entries[name])  # the entry must be one the config accepts
        if human is not None:
            entries[behaviour_name] = behaviour_entry(human, task, labels, files, sha1s, visual_degrees,
                                                      name if behaviour_name != name else None, ceiling, table,
                                                      choices)
            try:
                declared_behaviour_family(behaviour_name, entries[behaviour_name])
            except ValueError as error:
                raise PackagingError(f"{choices}: {error}") from None
        for key, path in staged.items():
            # the same content again keeps the file as it was: a new modification time on an identical file would
            # rerun its fetch and everything after it (activations, Grams, scores)
            if not (files[key].is_file() and sha1_of(files[key]) == sha1s[key]):
                os.replace(path, files[key])
        written = True
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if not written:  # a failed package leaves no folder it made behind
            remove_made_folders(created)
    return Package(name, files, sha1s, entries, f"Packaged {name}: {len(table)} stimuli, " + "; ".join(summary),
                   notes)


def _make_folder(folder: Path) -> list:
    """Create ``folder`` (and missing parents); the folders made, innermost first."""
    made = [path for path in (folder, *folder.parents) if not path.exists()]
    folder.mkdir(parents=True, exist_ok=True)
    return made


def remove_made_folders(made) -> None:
    """Remove the folders :func:`_make_folder` made, innermost first, each only if still empty."""
    for path in made:
        try:
            path.rmdir()
        except OSError:
            return  # not empty (something else wrote there) or already gone: keep it and what holds it


_CHOICE_NAMES = ("subject", "choice", "truth", "condition", "distractor", "image_1", "image_2", "image_3", "filename")


def _check_coords(coords: dict) -> None:
    known = DIMS + COORDS + _CHOICE_NAMES
    for ours, theirs in coords.items():
        if ours not in known:
            raise PackagingError(f"--coords {ours}={theirs}: {ours!r} is not a name brainpipe reads; known: "
                                 f"{', '.join(known)}")


def _check_region_sizes(assembly: xr.DataArray, path, min_neuroids: int) -> None:
    """Refuse a region with fewer neuroids than the metrics need: one odd neuroid (``Ti`` among 167 ``IT``) is
    usually a typo that would otherwise become a benchmark of its own, silently."""
    counts = pd.Series(assembly["region"].values).value_counts(sort=False)
    small = counts[counts < min_neuroids]
    if len(small):
        listed = ", ".join(f"{region}: {int(n)}" for region, n in counts.items())
        raise PackagingError(f"{path}: region {small.index[0]!r} has {int(small.iloc[0])} neuroid(s) (regions: "
                             f"{listed}); rdm and cka compare stimuli's response patterns across a region's "
                             f"neuroids and need at least {MIN_NEUROIDS}. A region with one odd neuroid is usually a "
                             "typo: fix the region name in your data, or pass --min-neuroids 1 to keep it as it is")


def _neural(name, responses, table, neuroids, coords, region, trials, notes, min_neuroids=MIN_NEUROIDS):
    """(assembly, fewest repetitions of a stimulus, summary) of the recordings."""
    assembly = read_responses(responses, table, neuroids, coords, region, trials)
    _check_region_sizes(assembly, responses, min_neuroids)
    assembly.name = name
    assembly.attrs = {key: value for key, value in assembly.attrs.items()
                      if isinstance(value, (str, int, float, np.number))}
    assembly.attrs["stimulus_set_identifier"] = name
    per_stimulus = pd.Series(assembly["stimulus_id"].values).value_counts()
    repetitions = int(per_stimulus.min())
    unrecorded = len(table) - len(per_stimulus)
    if unrecorded:
        notes.append(f"{unrecorded} of {len(table)} stimuli have no responses (kept in the stimulus set)")
    if repetitions < 2:
        notes.append("some stimuli were shown once, so the entry has no internal-consistency ceiling (ceiling: "
                     "none, score = raw); set a fixed ceiling if you know one")
    regions = list(dict.fromkeys(assembly["region"].values))
    bins = f", {assembly.sizes['time_bin']} time bins" if "time_bin" in assembly.dims else ""
    counts = ", ".join(f"{r}: {int((assembly['region'].values == r).sum())}" for r in regions)
    summary = (f"{assembly.sizes['presentation']} presentations "
               f"({repetitions}{'' if per_stimulus.max() == repetitions else f'–{int(per_stimulus.max())}'} "
               f"repetition(s) per stimulus), {assembly.sizes['neuroid']} neuroids ({counts}){bins}")
    return assembly, repetitions, summary


def _neural_entry(assembly, files, sha1s, repetitions, visual_degrees, stratification, time_window, responses):
    entry = {"stimuli": {"csv": str(files["stimuli_csv"]), "zip": str(files["stimuli_zip"]),
                         "csv_sha1": sha1s["stimuli_csv"], "zip_sha1": sha1s["stimuli_zip"]},
             "assembly": {"file": str(files["assembly"]), "sha1": sha1s["assembly"]},
             "regions": list(dict.fromkeys(assembly["region"].values)), "visual_degrees": visual_degrees}
    if "time_bin" in assembly.dims:
        entry["time_window"] = _time_window(assembly, time_window, Path(responses))
    if stratification is not None:
        entry["stratification"] = stratification
    entry["ceiling"] = "internal_consistency" if repetitions >= 2 else "none"
    return entry
