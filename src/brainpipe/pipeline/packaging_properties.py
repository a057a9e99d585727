"""``brainpipe package --properties``: a property table (neuron × property, CSV or NetCDF) and its stimuli packaged
into the files a properties benchmark declared in ``benchmark_zoo`` reads (README, "Your own benchmark →
properties").

Writes into ``out``: ``stimuli.csv`` + ``stimuli.zip`` (as for a neural benchmark) and ``properties.nc``: a
DataArray (neuroid × neuronal_property) with each property's bin edges in the attribute ``<property>_bins``, the
layout of Brain-Score's PropertyAssembly. Checks: every measured property is a column with bins (strictly
increasing, at least two edges), no neuron row is NaN in every property, the stimuli carry the grating columns a
built-in property set needs. Nothing is written when a check fails.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr
import yaml

from brainpipe.data.download import sha1_of

from .packaging import Package, PackagingError, _make_folder, read_stimuli, remove_made_folders, write_zip

#: the stimulus columns each built-in property set reads (brainpipe.properties.stimulus_grid)
SET_COLUMNS = {"ringach2002": ("spatial_frequency", "orientation", "phase"),
               "devalois1982a": ("spatial_frequency", "orientation", "phase"),
               "devalois1982b": ("radius", "spatial_frequency", "orientation", "phase"),
               "schiller1976": ("radius", "spatial_frequency", "orientation", "phase"),
               "cavanaugh2002": ("radius", "spatial_frequency", "orientation", "phase"),
               "freemanziemba2013": ("type", "family", "sample")}
POSITION = ("position_y", "position_x")


def read_table(path) -> pd.DataFrame:
    """A neuron × property table from a CSV (one row per neuron; an optional neuroid_id column) or a NetCDF."""
    path = Path(path)
    if not path.is_file():
        raise PackagingError(f"{path}: no such file (the property table, --properties)")
    if path.suffix == ".nc":
        try:
            with xr.open_dataarray(path) as opened:
                array = opened.load()
        except Exception as error:
            raise PackagingError(f"{path}: cannot read as a NetCDF DataArray ({error})") from None
        if set(array.dims) != {"neuroid", "neuronal_property"}:
            raise PackagingError(f"{path}: expected dims (neuroid, neuronal_property), got {list(array.dims)}")
        array = array.transpose("neuroid", "neuronal_property")
        table = pd.DataFrame(array.values, columns=[str(n) for n in array["neuronal_property"].values])
        if "neuroid_id" in array.coords:
            table.insert(0, "neuroid_id", array["neuroid_id"].values)
        return table
    try:
        return pd.read_csv(path)
    except Exception as error:
        raise PackagingError(f"{path}: cannot read as a CSV ({error})") from None


def read_bins(path) -> dict:
    """property -> bin edges from a YAML or JSON mapping (edges as a list)."""
    path = Path(path)
    if not path.is_file():
        raise PackagingError(f"{path}: no such file (the bins, --bins)")
    try:
        bins = yaml.safe_load(path.read_text())
    except yaml.YAMLError as error:
        raise PackagingError(f"{path}: not YAML or JSON ({error})") from None
    if not isinstance(bins, dict):
        raise PackagingError(f"{path}: expected a mapping property -> list of bin edges")
    checked = {}
    for name, edges in bins.items():
        values = np.asarray(edges, dtype=float) if isinstance(edges, list) else np.array([])
        if values.ndim != 1 or len(values) < 2 or not np.all(np.isfinite(values)) or np.any(np.diff(values) <= 0):
            raise PackagingError(f"{path}: bins of {name!r} must be at least 2 finite, strictly increasing edges, "
                                 f"got {edges!r}")
        checked[str(name)] = values
    return checked


class PropertiesPackage(Package):
    def examples(self) -> list:
        """A score to compute first: a network's V1 layer on the first measure."""
        return [f"alexnet_untrained/{name}-{next(iter(entry['properties']['measures']))}"
                for name, entry in self.entries.items()]


def package_properties(name, images, stimuli, properties, bins, out, visual_degrees, property_set, measures,
                       neurons="Marques2020", parent=None) -> Package:
    """Check and write the three files; return them with the ``benchmark_zoo`` entry (see module docstring)."""
    from brainpipe.benchmarks import builtin
    from brainpipe.benchmarks.declared_properties import declared_properties_family, neurons_definitions

    if not str(name).isalnum():
        raise PackagingError(f"--name {name!r}: letters and digits only (it becomes '<name>-<measure>')")
    table = read_stimuli(stimuli, images)
    needed = SET_COLUMNS.get(property_set, ()) + POSITION if not str(property_set).endswith(".py") else POSITION
    missing = [c for c in needed if c not in table.columns]
    if missing:
        raise PackagingError(f"{stimuli}: the stimuli lack the column(s) {missing} that property set "
                             f"{property_set} needs (one value per stimulus)")
    data = read_table(properties)
    edges = read_bins(bins)
    if not measures:
        raise PackagingError("--measures: name at least one suffix=property (e.g. or_bandwidth=bandwidth)")
    for suffix, prop in measures.items():
        if prop not in data.columns:
            raise PackagingError(f"{properties}: no column {prop!r} (measure {suffix}); columns: {list(data.columns)}")
        if prop not in edges:
            raise PackagingError(f"{bins}: no bins for {prop!r} (measure {suffix})")
    columns = [c for c in data.columns if c != "neuroid_id"]
    try:
        values = data[columns].to_numpy(dtype=float)
    except ValueError as error:
        raise PackagingError(f"{properties}: property values must be numbers ({error})") from None
    empty = np.flatnonzero(np.isnan(values).all(axis=1))
    if len(empty):
        raise PackagingError(f"{properties}: {len(empty)} neuron row(s) hold no value in any property "
                             f"(CSV lines {(empty[:5] + 2).tolist()}); remove them")
    ids = data["neuroid_id"].astype(str).to_numpy() if "neuroid_id" in data else np.arange(len(data)).astype(str)
    array = xr.DataArray(values, dims=("neuroid", "neuronal_property"), name=f"{name}_properties",
                         coords={"neuroid_id": ("neuroid", ids), "region": ("neuroid", ["V1"] * len(ids)),
                                 "neuronal_property": columns},
                         attrs={f"{p}_bins": e for p, e in edges.items() if p in columns})
    out = Path(out)
    created = _make_folder(out)
    files = {"stimuli_csv": out / "stimuli.csv", "stimuli_zip": out / "stimuli.zip",
             "properties": out / "properties.nc"}
    staging = Path(tempfile.mkdtemp(prefix=".package-", dir=out))
    written = False
    try:
        staged = {key: staging / path.name for key, path in files.items()}
        table.assign(degrees=float(visual_degrees)).to_csv(staged["stimuli_csv"], index=False)
        write_zip(table, Path(images), staged["stimuli_zip"])
        array.to_netcdf(staged["properties"])
        sha1s = {key: sha1_of(path) for key, path in staged.items()}
        entry = {"properties": {"file": str(files["properties"]), "sha1": sha1s["properties"],
                                "property_set": str(property_set), "measures": dict(measures)},
                 "stimuli": {"csv": str(files["stimuli_csv"]), "zip": str(files["stimuli_zip"]),
                             "csv_sha1": sha1s["stimuli_csv"], "zip_sha1": sha1s["stimuli_zip"]},
                 "visual_degrees": float(visual_degrees), "neurons": neurons}
        if parent:
            entry["parent"] = parent
        try:
            declared_properties_family(name, json.loads(json.dumps(entry)), neurons_definitions(builtin().families))
        except ValueError as error:
            raise PackagingError(str(error)) from None
        for key, path in staged.items():
            if not (files[key].is_file() and sha1_of(files[key]) == sha1s[key]):
                shutil.move(str(path), files[key])
        written = True
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if not written:  # a failed package leaves no folder it made behind
            remove_made_folders(created)
    package = PropertiesPackage(name, files, sha1s, {name: entry},
                      f"Packaged {name}: {len(table)} stimuli, {len(ids)} neurons × {len(columns)} properties")
    return package
