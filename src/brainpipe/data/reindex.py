"""Load-time fixes for recording files that lack the coordinates brainpipe reads, as Brain-Score's data plugins
make them on load. A family names its function (``Family.reindex``); the fetch stage applies it before the checks.
"""

import re
from pathlib import Path

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


def zerbe2026(assembly: xr.DataArray, parts: dict) -> xr.DataArray:
    """LAION-fMRI's shared pool (Zerbe2026_fmri): one file per subject (``assembly`` the first, the others among
    ``parts`` as ``assy_*.nc``) and the pool's split lists (``parts`` ``*_<split>.json``, the laion_fmri package's
    layout) become one (stimulus × voxel) assembly, as brain-score/vision brainscore_vision/benchmarks/laion_fmri/
    benchmark.py ``load_assembly`` reads them per subject:

    * each subject's trials averaged per stimulus (``average_repetition``: a NaN-ignoring mean, float32), its
      voxels kept with ``subject`` (= ``subject_id``), ``neuroid_id`` ``<subject>_<voxel_index_in_brain_mask>``
      and the file's other voxel coordinates (region, roi, nc_4rep, nc_12rep, nc_allrep);
    * the subjects side by side on the neuroid dimension, one row per stimulus (every subject saw every stimulus
      of the shared pool: a stimulus missing for a subject stays NaN there and the prepare stage names it);
    * per split list a presentation coordinate ``split_<name>``: 'train', 'test' or '' (in neither list).
    """
    files, splits = _laion_files(assembly, parts)
    splits = {content["name"]: _laion_split(content) for _, content in splits}
    blocks, columns = zip(*(_laion_subject_means(data) for data in files))
    stimuli, values = _laion_side_by_side(blocks, np.nan)
    coords = _laion_coords(columns, stimuli)
    for name, (train, test) in sorted(splits.items()):
        coords[f"split_{name}"] = ("presentation", np.array(
            ["train" if s in train else "test" if s in test else "" for s in stimuli], dtype=object))
    return xr.DataArray(values, dims=("presentation", "neuroid"), coords=coords, name=assembly.name)


#: A per-subject pool's split list among the parts: ``laion_fmri_splits_<pool>_<split>.json``
#: (brainpipe.benchmarks.families.zerbe2026_persubject names them so; the pool a subject, e.g. sub-01)
LAION_SUBJECT_SPLIT = re.compile(r"_(sub-[0-9]+)_([A-Za-z0-9_]+?)\.json$")
#: What a per-subject pool's matrix holds where a subject was not shown a stimulus (never read: see below)
NOT_SHOWN = 0.0


def zerbe2026_persubject(assembly: xr.DataArray, parts: dict) -> xr.DataArray:
    """LAION-fMRI's per-subject pools (Zerbe2026_fmri_persubject): each subject saw its own stimuli (the 1,121
    shared natural images, 4,712 of its own, the 371 OOD images), and each has its own split lists
    (``laion_fmri_splits_<subject>_<split>.json``: pool ``<subject>`` of the laion_fmri package). As
    brain-score/vision brainscore_vision/benchmarks/laion_fmri/benchmark.py ``_load_one_subject`` reads a subject
    (the loader ``make_persubject_loader`` drops the trial bookkeeping ``session``/``run``/``beta_index`` so that
    ``average_repetition`` averages the trials of a stimulus), one (stimulus × voxel) assembly:

    * each subject's trials averaged per stimulus and its voxels side by side, as :func:`zerbe2026`, on the union
      of all subjects' stimuli;
    * per split list and subject a presentation coordinate ``split_<name>_<subject>`` ('train', 'test' or ''):
      a stimulus is in the subject's train or test side only where its list says so **and** its file holds trials
      of it (Brain-Score masks the trials the file has: a listed stimulus without trials is simply absent);
    * where a subject was not shown a stimulus (another subject's own images, or a gap in its file) its voxels
      hold :data:`NOT_SHOWN` (a finite placeholder, not NaN: the prepare stage refuses NaN targets); every such
      cell has '' in all of that subject's split coordinates, and the benchmark reads only a subject's train and
      test rows, so no placeholder is ever scored.
    """
    files, split_files = _laion_files(assembly, parts)
    blocks, columns = zip(*(_laion_subject_means(data) for data in files))
    stimuli, values = _laion_side_by_side(blocks, NOT_SHOWN)
    coords = _laion_coords(columns, stimuli)
    shown = {str(column["subject"][0]): set(names) for column, (names, _) in zip(columns, blocks) if len(names)}
    for name, content in split_files:
        match = LAION_SUBJECT_SPLIT.search(name)
        if match is None:
            raise ValueError(f"LAION-fMRI per-subject split list {name!r}: expected a name ending "
                             f"'_<subject>_<split>.json'")
        subject, split = match.groups()
        if subject not in shown:
            raise ValueError(f"LAION-fMRI split list {name!r} is for {subject}, whose recordings are not among the "
                             f"files ({sorted(shown)})")
        train, test = _laion_split(content)
        seen = shown[subject]
        coords[f"split_{split}_{subject}"] = ("presentation", np.array(
            ["" if s not in seen else "train" if s in train else "test" if s in test else "" for s in stimuli],
            dtype=object))
    return xr.DataArray(values, dims=("presentation", "neuroid"), coords=coords, name=assembly.name)


def _laion_files(assembly, parts):
    """(the subject files: ``assembly`` then the ``.nc`` parts by name, [(name, split list JSON), ...] by name)."""
    import json

    files = [assembly] + [xr.open_dataarray(parts[name]).load() for name in sorted(parts) if name.endswith(".nc")]
    splits = [(name, json.loads(Path(parts[name]).read_text())) for name in sorted(parts) if name.endswith(".json")]
    return files, splits


def _laion_split(content):
    """(train ids, test ids) of a split list's variant 0."""
    variant = next(v for v in content["variants"] if int(v["variant_id"]) == 0)
    return set(map(str, variant["train_ids"])), set(map(str, variant["test_ids"]))


def _laion_subject_means(data):
    """((stimulus ids sorted, their NaN-ignoring trial means float32), the voxel coordinates) of a subject file."""
    for name in ("stimulus_id", "subject_id", "voxel_index_in_brain_mask", "region"):
        if name not in data.coords:
            raise ValueError(f"LAION-fMRI file: no coordinate {name!r}; it has {sorted(map(str, data.coords))}")
    stimuli = data["stimulus_id"].values.astype(str)
    names, index = np.unique(stimuli, return_inverse=True)
    values = data.transpose("presentation", "neuroid").values
    finite = np.isfinite(values)
    sums = np.zeros((len(names), values.shape[1]), dtype=np.float64)
    counts = np.zeros((len(names), values.shape[1]), dtype=np.int64)
    np.add.at(sums, index, np.where(finite, values, 0))
    np.add.at(counts, index, finite)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = (sums / counts).astype(np.float32)
    voxel = {name: data[name].values for name in data.coords if data[name].dims == ("neuroid",)
             and name != "neuroid"}
    subject = voxel["subject_id"].astype(str)
    voxel["subject"] = subject
    voxel["neuroid_id"] = np.array([f"{s}_{v}" for s, v in zip(subject, voxel["voxel_index_in_brain_mask"])])
    return (names, mean), voxel


def _laion_side_by_side(blocks, missing):
    """(the union of the stimuli sorted, the subjects' means side by side; ``missing`` where one lacks one)."""
    stimuli = np.unique(np.concatenate([names for names, _ in blocks]))
    values = np.full((len(stimuli), sum(mean.shape[1] for _, mean in blocks)), missing, dtype=np.float32)
    start = 0
    for names, mean in blocks:
        values[np.searchsorted(stimuli, names), start:start + mean.shape[1]] = mean
        start += mean.shape[1]
    return stimuli, values


def _laion_coords(columns, stimuli):
    """The voxel coordinates all subject files have, concatenated; ``stimulus_id`` per presentation."""
    coords = {name: ("neuroid", np.concatenate([c[name] for c in columns]))
              for name in columns[0] if all(name in c for c in columns)}
    for name, value in coords.items():
        if value[1].dtype.kind in "OU":
            coords[name] = ("neuroid", value[1].astype(str).astype(object))
    coords["stimulus_id"] = ("presentation", stimuli.astype(object))
    return coords


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


def alternate_repetition_halves(assembly: xr.DataArray) -> xr.DataArray:
    """Every trial's ``repetition`` relabelled to its parity (``repetition % 2``: 0, 1), so that a split-half
    ceiling over the repetition values puts the even trials of every stimulus in one half and the odd in the
    other, whatever the number of trials per stimulus (brain-score/vision brainscore_vision/benchmarks/cowley2026/
    benchmark.py ``alternate_repetition_halves``: "so the split-half ceiling balances per image"). The
    repetition-averaged responses are unchanged (every trial of a stimulus is averaged, whatever its label)."""
    if "repetition" not in assembly.coords or assembly["repetition"].dims != ("presentation",):
        raise ValueError(f"no presentation coordinate 'repetition' to split into halves; the file has "
                         f"{sorted(map(str, assembly.coords))}")
    half = (np.asarray(assembly["repetition"].values) % 2).astype(int)
    return assembly.assign_coords(repetition=("presentation", half))


REINDEX = {"bracci2019": bracci2019, "zerbe2026": zerbe2026, "zerbe2026_persubject": zerbe2026_persubject,
           "coggan2024_fmri": coggan2024_fmri, "alternate_repetition_halves": alternate_repetition_halves}
#: The reindex functions that combine the data set's further files (AssemblyEntry.parts) with the first
COMBINE = {"zerbe2026", "zerbe2026_persubject"}


def apply(name, assembly: xr.DataArray, parts=None) -> xr.DataArray:
    """``assembly`` through the reindex function ``name`` (None: unchanged); ValueError for an unknown name.
    ``parts`` (object name -> path: the data set's further files) go to the functions that combine files."""
    if name is None:
        return assembly
    if name not in REINDEX:
        raise ValueError(f"unknown reindex function {name!r}; known: {sorted(REINDEX)}")
    if name in COMBINE:
        return REINDEX[name](assembly, dict(parts or {}))
    if parts:
        raise ValueError(f"reindex function {name!r} reads one file, got further files {sorted(parts)}")
    return REINDEX[name](assembly)
