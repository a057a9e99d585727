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


def coggan2024_fmri(assembly: xr.DataArray) -> xr.DataArray:
    """Coggan2024's fMRI file holds one 24 × 24 representational similarity matrix per subject and region: dims
    (presentation, presentation, neuroid), ``subject`` and ``region`` per neuroid (brain-score/vision
    brainscore_vision/data/coggan2024_fMRI/data_packaging.py). As (presentation × neuroid): each (region, subject)
    matrix's columns become neuroids (``rsm_column`` the column's condition index, ``subject``, ``region``,
    ``neuroid_id`` ``<region>_<subject>_c<column>``), so that selecting a region keeps its subjects' matrices."""
    dims = assembly.dims
    if len(dims) != 3 or dims[0] != dims[1] or "neuroid" not in dims:
        raise ValueError(f"Coggan2024 fMRI file: expected dims (presentation, presentation, neuroid), got {dims}")
    for name in ("subject", "region"):
        if name not in assembly.coords or assembly[name].dims != ("neuroid",):
            raise ValueError(f"Coggan2024 fMRI file: no neuroid coordinate {name!r}; it has "
                             f"{sorted(map(str, assembly.coords))}")
    values = np.asarray(assembly.values)
    n_conditions, n_matrices = values.shape[0], values.shape[2]
    if values.shape[1] != n_conditions:
        raise ValueError(f"Coggan2024 fMRI file: matrices of shape {values.shape[:2]}, not square")
    flat = values.transpose(0, 2, 1).reshape(n_conditions, n_matrices * n_conditions)  # matrix-major columns
    subjects = np.repeat(assembly["subject"].values.astype(str), n_conditions)
    regions = np.repeat(assembly["region"].values.astype(str), n_conditions)
    columns = np.tile(np.arange(n_conditions), n_matrices)
    presentation = {name: ("presentation", np.asarray(coord.values)) for name, coord in assembly.coords.items()
                    if coord.dims and set(coord.dims) == {dims[0]}}
    return xr.DataArray(flat, dims=("presentation", "neuroid"), name=assembly.name, attrs=dict(assembly.attrs),
                        coords={**presentation, "subject": ("neuroid", subjects), "region": ("neuroid", regions),
                                "rsm_column": ("neuroid", columns),
                                "neuroid_id": ("neuroid", np.array([f"{r}_{s}_c{c}" for r, s, c in
                                                                    zip(regions, subjects, columns)]))})


REINDEX = {"bracci2019": bracci2019, "coggan2024_fmri": coggan2024_fmri}


def apply(name, assembly: xr.DataArray) -> xr.DataArray:
    """``assembly`` through the reindex function ``name`` (None: unchanged); ValueError for an unknown name."""
    if name is None:
        return assembly
    if name not in REINDEX:
        raise ValueError(f"unknown reindex function {name!r}; known: {sorted(REINDEX)}")
    return REINDEX[name](assembly)
