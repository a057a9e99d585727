"""The regions of the config's ``benchmark_zoo`` entries, checked against their local recordings when the workflow
starts.

A region name mistyped the same way everywhere (``regions: [Ti]`` in the entry, ``Ti`` in the benchmark
identifiers and the model's ``layers``) passes every check of the config itself, and fails only in the job that
prepares the recordings ("no neuroids in region 'Ti'"), after the advice to commit a layer for ``Ti`` (which cannot
help). Where the assembly file is local, its region coordinate says which names exist, so the run stops before any
job, naming the entry's key, the file and the regions it holds. A file's regions are cached by its path, size and
modification time (reading even one coordinate of a large NetCDF file at every start would cost time); remote
and unreadable files are left to the fetch job, which names them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from brainpipe.pipeline.declared_files import load_cache, save_cache
from brainpipe.pipeline.workflow_config import ConfigError, _nearest


def check_declared_regions(config: dict, registry, cache_path: str | os.PathLike | None = None) -> None:
    """ConfigError naming ``benchmark_zoo.<name>.regions`` for the first region of a declared neural entry, scored
    in this run (a benchmark of ``config['benchmarks']``), that its local assembly file does not hold."""
    cache_path = Path(cache_path) if cache_path else None
    cache = load_cache(cache_path)
    try:
        for name, entry in _scored_entries(config, registry):
            assembly = entry.get("assembly")
            location = assembly.get("file") if isinstance(assembly, dict) else None
            if not isinstance(location, str) or "://" in location or not Path(location).is_file():
                continue
            coordinate = (assembly.get("coords") or {}).get("region", "region")
            if coordinate.startswith("="):  # one region for every neuroid, given in the entry itself
                present = [coordinate[1:]]
            else:
                present = _regions(Path(location), coordinate, cache)
            if present is None:
                continue
            for region in entry.get("regions") or []:
                if region not in present:
                    raise ConfigError(
                        f"config benchmark_zoo.{name}.regions: region {region!r} is not in {location} (its "
                        f"{coordinate!r} coordinate holds {present}); {_nearest(region, present)}"
                        f"fix the entry's regions, and the region in the benchmark identifiers and the models' layers")
    finally:
        save_cache(cache_path, cache)


def _scored_entries(config, registry):
    """(name, entry) of the benchmark_zoo entries that a benchmark of the grid belongs to, each once."""
    zoo = config.get("benchmark_zoo") or {}
    names = []
    for identifier in config.get("benchmarks") or []:
        try:
            family = registry.benchmark(identifier).family
        except ValueError:
            continue  # reported with its own message where the benchmark is built
        name = getattr(family, "name", None)
        if name in zoo and isinstance(zoo[name], dict) and name not in names:
            names.append(name)
    return [(name, zoo[name]) for name in names]


def _regions(path: Path, coordinate: str, cache: dict):
    """The sorted distinct values of ``coordinate`` in the NetCDF file, or None where the file cannot be read or
    has no such coordinate (the fetch job then names the problem)."""
    stat = path.stat()
    key = json.dumps([str(path.resolve()), coordinate])
    stamp = [stat.st_size, stat.st_mtime_ns]
    if key in cache and cache[key][:2] == stamp:
        return cache[key][2]
    import numpy as np
    import xarray as xr

    try:
        with xr.open_dataarray(path) as opened:  # lazily: only the coordinate is read
            present = sorted(map(str, np.unique(opened[coordinate].values.astype(str)))) \
                if coordinate in opened.coords else None
    except Exception:  # noqa: BLE001  unreadable: the fetch job says why, with its own advice
        present = None
    cache[key] = stamp + [present]
    return present
