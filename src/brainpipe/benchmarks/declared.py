"""Pattern "declared": a neural benchmark family from a ``benchmark_zoo:`` entry in the config, no code.

Example (README, "Your own benchmark")::

    benchmark_zoo:
      MyExperiment2024:
        stimuli: {csv: data/my/stimuli.csv, zip: data/my/stimuli.zip}     # or https:// URLs + csv_sha1/zip_sha1
        assembly: {file: data/my/assembly.nc, coords: {region: brain_area, repetition: trial}}
        regions: [IT]
        visual_degrees: 8
        stratification: category
        ceiling: internal_consistency        # or a number, or none

The entry becomes a :class:`~brainpipe.benchmarks.base.Family` plus catalog entries for its files, so it is fetched,
prepared, ceiled and scored by the same rules and caches as the built-in families.
"""

from __future__ import annotations

import hashlib
import json

from .base import METRICS, Family, Temporal, closest
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

KEYS = {"stimuli", "assembly", "regions", "metrics", "visual_degrees", "number_of_trials", "time_window",
        "temporal_window", "temporal_bin", "stratification", "ceiling", "version", "parent", "bibtex", "notes",
        "fixed_train_test", "fixed_split"}  # fixed_split: fixed_train_test's name before brainpipe 0.3, still read
REQUIRED = ("stimuli", "assembly", "regions", "visual_degrees")
STIMULI_KEYS = {"csv", "zip", "csv_sha1", "zip_sha1"}
ASSEMBLY_KEYS = {"file", "sha1", "coords"}
#: Coordinates brainpipe reads, by the name Brain-Score gives them; ``coords`` maps them to the file's names.
COORDS = ("region", "repetition", "stimulus_id", "neuroid_id", "time_bin_start", "time_bin_end")


def _fail(name, key, message):
    raise ValueError(f"config benchmark_zoo.{name}{'.' + key if key else ''}: {message}")


def _unknown_keys(name, where, entry, allowed):
    for key in entry:
        if key not in allowed:
            _fail(name, where, f"unknown key {key!r}{closest(key, allowed)}; allowed: {sorted(allowed)}")


def _checked_coords(name, where, block, known):
    """``block['coords']`` (brainpipe name -> name in the file), a mapping of known names; ValueError otherwise."""
    coords = block.get("coords") or {}
    if not isinstance(coords, dict):
        _fail(name, f"{where}.coords", f"expected a mapping brainpipe name -> name in the file, got {coords!r}")
    _unknown_keys(name, f"{where}.coords", coords, set(known))
    return coords


def _remote(name, key, location, sha1, object_name):
    """A declared file: a URL (sha1 required: downloads are checked) or a local path (sha1 checked if given)."""
    if not isinstance(location, str) or not location:
        _fail(name, key, f"expected a file path or an https:// URL, got {location!r}")
    if sha1 is not None and not (isinstance(sha1, str) and len(sha1) == 40
                                 and all(c in "0123456789abcdef" for c in sha1)):
        _fail(name, key, f"sha1 must be 40 lowercase hex digits, got {sha1!r}")
    if "://" in location:
        if sha1 is None:
            _fail(name, key, f"a URL ({location}) needs its sha1 (run `sha1sum` on the file), so that what is "
                             "downloaded is known to be the file you mean")
        return RemoteFile(object_name, sha1, url=location)
    return RemoteFile(object_name, sha1, path=location)


def sha1_key(key: str) -> str:
    """The entry key holding a declared file's sha1: ``assembly.file`` → ``assembly.sha1``, ``stimuli.csv`` →
    ``stimuli.csv_sha1``."""
    return key.removesuffix(".file") + ".sha1" if key.endswith(".file") else key + "_sha1"


def local_files(entry: dict) -> list:
    """(path, declared sha1, key of the sha1) of every local file a benchmark_zoo entry declares with a sha1."""
    found = []
    for group, names in (("stimuli", ("csv", "zip")), ("fitting_stimuli", ("csv", "zip")), ("assembly", ("file",)),
                         ("behaviour", ("file",)), ("properties", ("file",))):
        files = entry.get(group) if isinstance(entry, dict) else None
        for name in names if isinstance(files, dict) else ():
            location, key = files.get(name), sha1_key(f"{group}.{name}")
            sha1 = files.get(key.split(".", 1)[1])
            if isinstance(location, str) and "://" not in location and isinstance(sha1, str):
                found.append((location, sha1, key))
    return found


def declared_family(name: str, entry: dict) -> tuple[Family, dict, dict]:
    """(family, {dataset: AssemblyEntry}, {stimulus set: StimulusSetEntry}) of one benchmark_zoo entry;
    ValueError naming the key for anything malformed."""
    if not name.isalnum():
        _fail(name, "", "a family name is letters and digits only (it becomes '<name>.<region>-<metric>')")
    if not isinstance(entry, dict):
        _fail(name, "", f"expected a mapping of settings, got {entry!r}")
    _unknown_keys(name, "", entry, KEYS)
    for key in REQUIRED:
        if key not in entry:
            _fail(name, key, "missing (required: " + ", ".join(REQUIRED) + ")")
    stimuli, assembly = entry["stimuli"], entry["assembly"]
    if not isinstance(stimuli, dict) or "csv" not in stimuli or "zip" not in stimuli:
        _fail(name, "stimuli", "expected {csv: <path or URL>, zip: <path or URL>} (a folder of images: make the "
                               "zip with `brainpipe package`)")
    _unknown_keys(name, "stimuli", stimuli, STIMULI_KEYS)
    if not isinstance(assembly, dict) or "file" not in assembly:
        _fail(name, "assembly", "expected {file: <NetCDF path or URL>, sha1: ..., coords: {...}}")
    _unknown_keys(name, "assembly", assembly, ASSEMBLY_KEYS)
    coords = _checked_coords(name, "assembly", assembly, COORDS)

    regions = entry["regions"]
    if not isinstance(regions, list) or not regions or not all(isinstance(r, str) and r.isalnum() for r in regions):
        _fail(name, "regions", f"expected a list of region names (e.g. [IT]), got {regions!r}")
    metrics = entry.get("metrics")
    if metrics is not None:
        if not isinstance(metrics, list) or not metrics:
            _fail(name, "metrics", f"expected a list of metric names, got {metrics!r}")
        for metric in metrics:
            if metric not in METRICS:
                _fail(name, "metrics", f"unknown metric {metric!r}{closest(metric, METRICS)}; known: {list(METRICS)}")
    ceiling = entry.get("ceiling", "internal_consistency")
    if isinstance(ceiling, bool) or not (ceiling in ("internal_consistency", "none")
                                         or isinstance(ceiling, (int, float)) and 0 < ceiling <= 1):
        _fail(name, "ceiling", f"expected internal_consistency, none or a number in (0, 1], got {ceiling!r}")

    def window(key, default):
        value = entry.get(key, default)
        if value is None:
            return None
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value)
                and value[0] < value[1]):
            _fail(name, key, f"expected [start, end] in ms, got {value!r}")
        return tuple(value)

    csv = _remote(name, "stimuli.csv", stimuli["csv"], stimuli.get("csv_sha1"), f"stimulus_{name}.csv")
    zip_ = _remote(name, "stimuli.zip", stimuli["zip"], stimuli.get("zip_sha1"), f"stimulus_{name}.zip")
    nc = _remote(name, "assembly.file", assembly["file"], assembly.get("sha1"), f"assy_{name}.nc")
    fingerprint = hashlib.sha1(json.dumps(entry, sort_keys=True, default=str).encode()).hexdigest()[:12]
    try:
        # config keys temporal_window / temporal_bin: the family's Temporal part (the bin is read only with a window)
        temporal_window, temporal_bin = window("temporal_window", None), int(entry.get("temporal_bin", 10))
        temporal = Temporal(temporal_window, bin=temporal_bin) if temporal_window else None
        family = Family(
            name=name, dataset=name, stimulus_set=name, regions=tuple(regions),
            visual_degrees=float(entry["visual_degrees"]), stratification=entry.get("stratification"),
            time_window=window("time_window", [70, 170]), temporal=temporal,
            number_of_trials=int(entry.get("number_of_trials", 1)),
            source="brainio", notes=str(entry.get("notes", "")),
            fixed_train_test=bool(entry.get("fixed_train_test", entry.get("fixed_split", False))),
            allowed_metrics=tuple(metrics) if metrics else None,
            ceiling=float(ceiling) if isinstance(ceiling, (int, float)) else ceiling,
            version=int(entry.get("version", 1)), parent=entry.get("parent"), bibtex=str(entry.get("bibtex", "")),
            coords=tuple(sorted(coords.items())), origin=f"config benchmark_zoo.{name}", fingerprint=fingerprint)
    except (TypeError, ValueError) as error:
        _fail(name, "", f"a value has the wrong type ({error})")
    return family, {name: AssemblyEntry(name, nc, name)}, {name: StimulusSetEntry(name, csv, zip_)}
