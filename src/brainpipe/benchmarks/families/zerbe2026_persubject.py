"""Zerbe2026 (LAION-fMRI), per-subject pools: each of the five subjects (sub-01, 03, 05, 06, 07) scored on its own
stimuli, 5,833 natural images (the 1,121 shared ones and 4,712 of its own) and the 371 OOD images.

As brain-score/vision brainscore_vision/benchmarks/laion_fmri/benchmark.py and __init__.py compute it
(``LAIONfMRI(region, split, dataset_prefix='Zerbe2026_fmri_persubject')``): exactly the shared pool's ridge
benchmarks (:mod:`brainpipe.benchmarks.families.zerbe2026`: voxels with ``nc_12rep > 30``, 9.2 degrees, one trial,
``dual_ridgecv_split`` with alphas 1e-10 … 1e10, median Pearson r over voxels, r² / ceiling per subject, the mean
over subjects; the ceiling the median of ``sqrt(nc_12rep / 100)``, sub-01's for every subject as Brain-Score runs
it with its result cache on: :data:`~brainpipe.benchmarks.families.zerbe2026.RIDGE_CEILING_OF_FIRST_SUBJECT`) except:

* the data: ``LAION_fMRI_persubject_<subject>_Assembly`` (data/laion_fmri/_helpers/assemblies.py
  ``_S3_ASSEMBLIES_PERSUBJECT``; ``make_persubject_loader`` strips the trial bookkeeping ``session``, ``run``,
  ``beta_index`` so that the trials of a stimulus are averaged);
* the split lists: each subject's own pool (``get_split_masks(trials, split, pool=<subject>)``: the laion_fmri
  package's ``splits/data/<subject>/{tau,ood}.json``; ``tau``: ~4,666 train / ~1,167 test natural images,
  ``ood``: the 5,833 natural images train, the 371 OOD images test), applied to the trials the subject's file
  holds (a listed stimulus without trials is absent);
* only the ``tau`` and ``ood`` ridge benchmarks (no RSA or CKA: the subjects' stimuli differ); parent the region.

brainpipe reads the five files and the ten split lists as one data set (:func:`brainpipe.data.reindex.
zerbe2026_persubject`: the union of the subjects' stimuli, each subject's voxels filled only where it saw the
stimulus, ``split_<split>_<subject>`` per stimulus) and fits each subject on its own train rows. The model sees
every stimulus of the union once (Brain-Score extracts per subject under a per-subject stimulus-set identifier; the
activations of an image do not depend on which subject saw it).

Data: the assemblies as for the shared pool, folder ``brainscore-vision/benchmarks/LAION_fMRI/`` of Brain-Score's
bucket; the images (the same DUA-gated ``Zerbe2026_fmri_stim_full``, Brain-Score registers it under both names) via
``data.local_files``; the split lists ViCCo-Group/LAION-fMRI laion_fmri/splits/data/<subject>/{tau,ood}.json at
commit eee8400 (Brain-Score installs the package unpinned). **Memory**: the data set is (all subjects' stimuli,
~25,000) × (all subjects' voxels) float32, about five times the subjects' own responses; the fold reads the layer
one subject's rows at a time.
"""

import time

import numpy as np

from ..base import Family
from .zerbe2026 import (BIBTEX, FOLDER, LAION_ALPHA_LIST, NOISE_CEILING_COORD, NOISE_CEILING_THRESHOLD, REGIONS,
                        SPLITS_COMMIT, SUBJECTS, VISUAL_DEGREES, Zerbe2026, _subject_columns)
from brainpipe.data.catalog import AssemblyEntry, RemoteFile

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/laion_fmri/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/laion_fmri/__init__.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/multi_subject.py",
           "brain-score/vision brainscore_vision/data/laion_fmri/_helpers/assemblies.py",
           "ViCCo-Group/LAION-fMRI laion_fmri/splits/__init__.py")

METRICS = ("tau-ridgecv", "ood-ridgecv")
#: subject -> (S3 version id, sha1) of ``LAION_fMRI_persubject_<subject>_Assembly`` (_S3_ASSEMBLIES_PERSUBJECT)
PERSUBJECT_FILES = {
    "sub-01": ("ZMebfDS6bT7DjDqKcuHmOu9DlRbPstk6", "827781fe183ee1744f968517c1ea5afbe7860d4b"),
    "sub-03": ("KFwyIrU_1hqbPY64iKxE1CWvAHRmLaL2", "f699b3aeb168a5a6f57a48704bdb03b0103d34d3"),
    "sub-05": ("As0uxDjHTzjtnGSjEVxBqnIEdK0zHq0d", "73a1ee4f85c41c1c30f771a46396a91c73a85b6c"),
    "sub-06": ("rCLfMcMoYoyeVu.6meVUzfNEzWkfV8yJ", "1d7a43878a05787c048696c023575850e0b2ba3b"),
    "sub-07": ("z1fAn.bLXyrw_PSoFz458m19hN8vOfW_", "5c2d025d41f4befa449eca2b390dff1ab2f29821"),
}
#: (subject, split) -> sha1 of laion_fmri/splits/data/<subject>/<split>.json at SPLITS_COMMIT
SPLIT_FILES = {
    ("sub-01", "tau"): "ef92052add71df70876e8c623b442e31996d9dc2",
    ("sub-01", "ood"): "b8dc7443d7b41f3f0c3bf8aface6ceff5ab13f9c",
    ("sub-03", "tau"): "15c03d4df5a3dfd25d725f926523d3ba161dd269",
    ("sub-03", "ood"): "bdc1371ace0f3d4b7b0de7d753cea7793d4507f2",
    ("sub-05", "tau"): "5ab50db914d9e0c93998d98f41dca361b17f1c06",
    ("sub-05", "ood"): "5bffbe9a22f58a35856fe3f9e1d547ce52cafb9a",
    ("sub-06", "tau"): "e6fc48907a0d90febf7c8d8aa59a56fdb9c29404",
    ("sub-06", "ood"): "7bc7289dbe6b9639afc663fe8171edd85c6e1ecb",
    ("sub-07", "tau"): "063a02964cbcb3c798cd99854fc996931d0ce3bf",
    ("sub-07", "ood"): "34ec5bccb50a233cca251fa6c4812d5356fbcd83",
}


def _subject_file(subject):
    version, sha1 = PERSUBJECT_FILES[subject]
    name = f"assy_LAION_fMRI_persubject_{subject}_Assembly.nc"
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version}")


def _split_file(subject, split):
    # the name brainpipe.data.reindex.zerbe2026_persubject reads the pool from: laion_fmri_splits_<subject>_<split>
    return RemoteFile(f"laion_fmri_splits_{subject}_{split}.json", SPLIT_FILES[subject, split],
                      url=f"https://raw.githubusercontent.com/ViCCo-Group/LAION-fMRI/{SPLITS_COMMIT}/"
                          f"laion_fmri/splits/data/{subject}/{split}.json")


ASSEMBLIES = {
    "Zerbe2026_fmri_persubject": AssemblyEntry(
        "LAION_fMRI_persubject_sub-01_Assembly", _subject_file(SUBJECTS[0]), "Zerbe2026_fmri_stim_full",
        parts=tuple(_subject_file(s) for s in SUBJECTS[1:]) + tuple(_split_file(*key) for key in SPLIT_FILES)),
}


class Zerbe2026PerSubject(Zerbe2026):
    """The per-subject-pool ridge benchmarks of LAION-fMRI (see the module docstring): the shared pool's ridge
    scoring and ceilings, each subject on its own split rows."""

    family = "Zerbe2026_fmri_persubject"
    data = "Zerbe2026_fmri_persubject"
    metric = METRICS[0]
    metrics = METRICS

    def parent_of(self, region):
        return region

    def compare(self, activations, target):
        from brainpipe.neural.subjects import aggregate_subjects, ridgecv_train_then_test

        names, columns = _subject_columns(target)
        Y = self._values(target)
        split = self.metric.split("-")[0]
        sides = [_subject_sides(target, split, name) for name in names]
        for name, side in zip(names, sides):
            for wanted in ("train", "test"):
                if not (side == wanted).any():  # Brain-Score: "Empty {side} slice for {sub_id} ..."
                    raise ValueError(f"{name}: no {wanted} stimuli in split {split!r}")
        fits = []
        for name, side, column in zip(names, sides, columns):
            started = time.perf_counter()
            train, test = np.flatnonzero(side == "train"), np.flatnonzero(side == "test")
            X = _layer_rows(activations, np.concatenate([train, test]))
            fits.append(ridgecv_train_then_test(X, len(train), Y[train][:, column], Y[test][:, column],
                                                LAION_ALPHA_LIST))
            # progress in the fold's log: at real size a subject takes minutes
            print(f"{name}: {len(train)} train / {len(test)} test stimuli x {X.shape[1]} features, "
                  f"{int(column.sum())} voxels: alpha {fits[-1]['alpha']:g}, median r {fits[-1]['raw']:.4f} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)
            del X  # before the next subject's rows are read, not after: one subject's rows in memory at a time
        result = aggregate_subjects([f["raw"] for f in fits], self._ceilings(target, columns))
        result["alpha_per_subject"] = [f["alpha"] for f in fits]
        result["stimuli_per_subject"] = {name: [int((side == "train").sum()), int((side == "test").sum())]
                                         for name, side in zip(names, sides)}
        result["subjects"] = names
        return result


def _layer_rows(activations, rows):
    """The layer's values at presentations ``rows``, one row per presentation. Read one subject at a time: the
    fold job opens the layer without reading it (brainpipe.io.open_netcdf), and the union's layer is about five
    times a subject's rows (alexnet's features.2 on the real pools: 4.7 GB against 1.2 GB)."""
    values = activations.isel(presentation=rows).transpose("presentation", ...).values
    return values.reshape(len(values), -1)


def _subject_sides(data, split, subject):
    """'train' / 'test' / '' per presentation: the subject's split list, on the stimuli it was shown."""
    column = f"split_{split}_{subject}"
    if column not in data.coords:
        raise ValueError(f"no presentation coordinate {column!r} (the split list of {split!r} for {subject})")
    return data[column].values.astype(str)


FAMILIES = [
    Family(name="Zerbe2026_fmri_persubject", dataset="Zerbe2026_fmri_persubject",
           stimulus_set="Zerbe2026_fmri_stim_full", regions=REGIONS, visual_degrees=VISUAL_DEGREES,
           stratification=None, number_of_trials=1,
           neuroid_filter=((NOISE_CEILING_COORD, NOISE_CEILING_THRESHOLD),), single_response=True,
           reindex="zerbe2026_persubject", ceiling="custom", plugin=Zerbe2026PerSubject(),
           notes="LAION-fMRI per-subject pools (each subject's 5,833 natural + 371 OOD images, 5 subjects), "
                 "scored per subject on its own re:vision tau / ood splits; voxels with nc_12rep > 30; images "
                 "under a Data Use Agreement: use data.local_files",
           version=1, bibtex=BIBTEX, sources=SOURCES),
]
