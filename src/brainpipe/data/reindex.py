"""Load-time fixes for recording files that lack the coordinates brainpipe reads, as Brain-Score's data plugins
make them on load. A family names its function (``Family.reindex``); the fetch stage applies it before the checks.
"""

import numpy as np
import xarray as xr


def bracci2019(assembly: xr.DataArray, rois=("V1", "posteriorVTC", "anteriorVTC")) -> xr.DataArray:
    """Bracci2019's fMRI file: ``region`` from the ``roi`` code (0, 1, 2: brain-score/vision brainscore_vision/
    data/bracci2019/data_packaging.py concatenates V1, postVTC, antVTC in that order) and ``neuroid_id``
    ``s<subject>_v<voxel>`` (the file's neuroids are subject × voxel index, no id)."""
    for name in ("roi", "subject", "voxels"):
        if name not in assembly.coords or assembly[name].dims != ("neuroid",):
            raise ValueError(f"Bracci2019 file: no neuroid coordinate {name!r}; it has {sorted(map(str, assembly.coords))}")
    codes = assembly["roi"].values.astype(int)
    unknown = sorted(set(codes.tolist()) - set(range(len(rois))))
    if unknown:
        raise ValueError(f"Bracci2019 file: unknown roi code(s) {unknown}; expected 0..{len(rois) - 1} ({', '.join(rois)})")
    ids = [f"s{s}_v{v}" for s, v in zip(assembly["subject"].values, assembly["voxels"].values)]
    return assembly.assign_coords(region=("neuroid", np.array(rois)[codes]), neuroid_id=("neuroid", np.array(ids)))


REINDEX = {"bracci2019": bracci2019}


def apply(name, assembly: xr.DataArray) -> xr.DataArray:
    """``assembly`` through the reindex function ``name`` (None: unchanged); ValueError for an unknown name."""
    if name is None:
        return assembly
    if name not in REINDEX:
        raise ValueError(f"unknown reindex function {name!r}; known: {sorted(REINDEX)}")
    return REINDEX[name](assembly)
