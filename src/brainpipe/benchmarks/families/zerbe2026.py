"""Zerbe2026 (LAION-fMRI): 7T fMRI of five subjects (sub-01, 03, 05, 06, 07) viewing natural LAION images and 371
out-of-distribution images; the shared pool (1,492 images every subject saw), scored subject by subject.

As brain-score/vision brainscore_vision/benchmarks/laion_fmri/benchmark.py and __init__.py compute it
(``LAIONfMRI``, ``LAIONfMRIRSA``, ``LAIONfMRICKA`` on the shared pool ``Zerbe2026_fmri``):

* per subject: the voxels of the region with ``nc_12rep > 30`` (NOISE_CEILING_THRESHOLD, % explained variance),
  trials averaged per stimulus; the images shown at 9.2 degrees (VISUAL_DEGREES), one trial;
* ``<region>-tau-ridgecv`` / ``<region>-ood-ridgecv``: the re:vision split lists of the laion_fmri package (pool
  ``shared``; ``tau``: 897 train / 224 test natural images, ``ood``: the 1,121 natural images train, the 371 OOD
  images test), ``dual_ridgecv_split`` with alphas 1e-10 … 1e10 (LAION_ALPHA_LIST: RidgeCV's choice, dual-form
  prediction), Pearson r per voxel on the test images, median over voxels; the subject's ceiling the median of
  ``sqrt(nc_12rep / 100)`` (``_ncsnr_ceiling``), its score r² / ceiling; averaged over subjects
  (``MultiSubjectNeuralBenchmark``: score and ceiling the means, raw the mean of the subjects' raw). As Brain-Score
  runs it (its result cache on, the default and its servers' setting), every subject is ceiled by the **first**
  subject's ceiling: ``BenchmarkBase.ceiling`` is stored by the benchmark's identifier, and the per-subject
  children share one identifier (``Zerbe2026_fmri.V1-tau-ridgecv``, no subject in it), so sub-01's ceiling is
  reused for the other four (:data:`RIDGE_CEILING_OF_FIRST_SUBJECT`); the reported ceiling is then sub-01's;
* ``<region>-rdm-pearson``: RSABenchmark per subject on the tau train + test images (Spearman r of the RDMs'
  upper triangles, despite the name), ceiling the mean of ``sqrt(nc_12rep / 100)`` (``_ncsnr_rsa_ceiler``),
  score raw / ceiling, averaged over subjects;
* ``<region>-cka``: unbiased linear CKA per subject on the same images, averaged, divided by the mean CKA over
  subject pairs (``_intersubject_cka_ceiling``); parent ``Zerbe2026_fmri.<region>``.

brainpipe reads the five subject files and the two split lists as one data set (:func:`brainpipe.data.reindex.
zerbe2026`: per-subject repetition means side by side, ``split_tau`` / ``split_ood`` per stimulus) and scores it
with the per-subject functions of :mod:`brainpipe.neural.subjects`.

Data: brain-score/vision brainscore_vision/data/laion_fmri/_helpers/assemblies.py (object names, S3 versions,
sha1s; the folder ``brainscore-vision/benchmarks/LAION_fMRI/`` of Brain-Score's bucket) and stimuli.py: the images
are under the LAION-fMRI Data Use Agreement and not downloadable: with access, point ``data.local_files`` at the
manifest (``stimulus_Zerbe2026_fmri_stim_full.csv``: stimulus_id, filename) and a zip of the images
(``stimulus_Zerbe2026_fmri_stim_full.zip``). The split lists: ViCCo-Group/LAION-fMRI laion_fmri/splits/data/shared/
{tau,ood}.json at commit eee8400 (Brain-Score installs the package from its main branch, unpinned).

The per-subject pools (``Zerbe2026_fmri_persubject.*``, each subject's own 5,833 images) are
:mod:`brainpipe.benchmarks.families.zerbe2026_persubject`.
"""

import numpy as np

from ..base import Family
from ..custom import CustomBenchmark
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/laion_fmri/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/laion_fmri/__init__.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/multi_subject.py",
           "brain-score/vision brainscore_vision/data/laion_fmri/_helpers/assemblies.py",
           "brain-score/vision brainscore_vision/data/laion_fmri/_helpers/stimuli.py",
           "ViCCo-Group/LAION-fMRI laion_fmri/splits/__init__.py")

BIBTEX = """@inproceedings{zerbe_laion-fmri_2026,
    title = {{LAION}-{fMRI}: A densely sampled 7T-fMRI dataset providing broad coverage of natural image diversity},
    author = {Zerbe, Josefine and Roth, Johannes and Mell, Maggie Mae and Herholz, Peer and Knapen, Tomas and Hebart, Martin N.},
    year = {2026},
    booktitle = {Vision Sciences Society Annual Meeting},
}"""

VISUAL_DEGREES = 9.2
NOISE_CEILING_THRESHOLD = 0.3 * 100   # nc_12rep, % explained variance; kept: above it
NOISE_CEILING_COORD = "nc_12rep"
LAION_ALPHA_LIST = tuple(10.0 ** i for i in range(-10, 11))
SUBJECTS = ("sub-01", "sub-03", "sub-05", "sub-06", "sub-07")
REGIONS = ("V1", "V2", "V4", "IT")
METRICS = ("tau-ridgecv", "ood-ridgecv", "rdm-pearson", "cka")
#: Brain-Score's ridge children share one result-cache key for their ceiling (see the module docstring): every
#: subject is ceiled by the first subject's. True matches what Brain-Score returns with its cache on; False is
#: the per-subject ceiling its code means (what it returns with RESULTCACHING_DISABLE=1).
RIDGE_CEILING_OF_FIRST_SUBJECT = True

#: Brain-Score's bucket folder for LAION-fMRI (``_BUCKET``), as an HTTPS URL (core s3.py).
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/LAION_fMRI/"
#: subject -> (S3 version id, sha1) of ``LAION_fMRI_full_<subject>_Assembly`` (_S3_ASSEMBLIES_SHARED)
SHARED_FILES = {
    "sub-01": ("ZN0QBmAbna8F1mqabGMEWNlhSHqclRkj", "5d928ad1b170fa2fa58bcf1215ba60c4dd389ef4"),
    "sub-03": ("vq6BErgrj2e6SMQdfxfwh0XVLd.FsxCX", "ecff27ddc4dc0a75cfbcc719b91c3739c1ba2bb1"),
    "sub-05": ("Tzl5F826dIUNG7jGY8soR07zJ0DC3ffZ", "c446c8a6c67de21e749469a092fd02994d2be01e"),
    "sub-06": ("2FaJ3bLhgR_XDDERM38RwzTFfc8e3YqM", "912aec9934c7b2daafb4d3927db895363b9eb0c1"),
    "sub-07": ("HGT8RP0IbkFFeG7KI.oifhOSm3YlD1yD", "e16a456229427eb876b7ee85e0019570130fc4f0"),
}
#: The laion_fmri package's shared-pool split lists at a fixed commit, and their sha1s
SPLITS_COMMIT = "eee8400aa3214f310b840397f9f043b9c2da79b0"
SPLIT_FILES = {"tau": "ba7be06454aeda22077a0975813902c838cb5fc1", "ood": "52e436a47d5175de79612b6802796796ea9eae86"}


def _subject_file(subject):
    version, sha1 = SHARED_FILES[subject]
    name = f"assy_LAION_fMRI_full_{subject}_Assembly.nc"
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version}")


def _split_file(split):
    return RemoteFile(f"laion_fmri_splits_shared_{split}.json", SPLIT_FILES[split],
                      url=f"https://raw.githubusercontent.com/ViCCo-Group/LAION-fMRI/{SPLITS_COMMIT}/"
                          f"laion_fmri/splits/data/shared/{split}.json")


ASSEMBLIES = {
    "Zerbe2026_fmri": AssemblyEntry(
        "LAION_fMRI_full_sub-01_Assembly", _subject_file(SUBJECTS[0]), "Zerbe2026_fmri_stim_full",
        parts=tuple(_subject_file(s) for s in SUBJECTS[1:]) + tuple(_split_file(s) for s in SPLIT_FILES)),
}
STIMULUS_SETS = {  # under the Data Use Agreement: no public copy, no published checksum (data.local_files)
    "Zerbe2026_fmri_stim_full": StimulusSetEntry(
        "Zerbe2026_fmri_stim_full", RemoteFile("stimulus_Zerbe2026_fmri_stim_full.csv", None),
        RemoteFile("stimulus_Zerbe2026_fmri_stim_full.zip", None)),
}


def _subject_columns(data):
    """(subject names in Brain-Score's order, one boolean neuroid mask per subject) of a prepared assembly."""
    subjects = data["subject"].values.astype(str)
    names = [s for s in SUBJECTS if s in set(subjects)] + sorted(set(subjects) - set(SUBJECTS))
    return names, [subjects == s for s in names]


def _rows(data, split, sides=("train", "test")):
    column = f"split_{split}"
    if column not in data.coords:
        raise ValueError(f"no presentation coordinate {column!r} (the split list of {split!r})")
    return np.isin(data[column].values.astype(str), sides)


class Zerbe2026(CustomBenchmark):
    """The shared-pool benchmarks of LAION-fMRI, one subject at a time (see the module docstring)."""

    family = "Zerbe2026_fmri"
    data = "Zerbe2026_fmri"
    regions = REGIONS
    metric = METRICS[0]
    metrics = METRICS
    version = 1
    bibtex = BIBTEX
    normalisation = "own"

    def parent_of(self, region):
        """Brain-Score's leaderboard parent: the region, or ``Zerbe2026_fmri.<region>`` for CKA."""
        return f"Zerbe2026_fmri.{region}" if self.metric == "cka" else region

    def _values(self, data):
        return data.transpose("presentation", "neuroid").values

    def _ceilings(self, data, columns):
        """Each subject's ceiling: the mean (RDM) or median (ridge) of its voxels' sqrt(nc_12rep / 100); for the
        ridge metrics the first subject's for all (RIDGE_CEILING_OF_FIRST_SUBJECT)."""
        from brainpipe.neural.subjects import ncsnr_ceiling

        nc = data[NOISE_CEILING_COORD].values
        if self.metric == "rdm-pearson":
            return np.array([ncsnr_ceiling(nc[c], "mean") for c in columns])
        if RIDGE_CEILING_OF_FIRST_SUBJECT:
            return np.full(len(columns), ncsnr_ceiling(nc[columns[0]]))
        return np.array([ncsnr_ceiling(nc[c]) for c in columns])

    def ceiling(self, trials):
        from brainpipe.neural.subjects import pairwise_cka_ceiling

        names, columns = _subject_columns(trials)
        if self.metric == "cka":
            rows = _rows(trials, "tau")
            values = self._values(trials)[rows]
            result = pairwise_cka_ceiling([values[:, c] for c in columns])
            return {"ceiling": result["ceiling"], "error": result["error"], "pairs": result["pairs"]}
        ceilings = self._ceilings(trials, columns)
        error = float(ceilings.std(ddof=1) / np.sqrt(len(ceilings))) if len(ceilings) > 1 else 0.0
        return {"ceiling": float(ceilings.mean()), "error": error, "per_subject": ceilings.tolist(),
                "subjects": names}

    def compare(self, activations, target):
        from brainpipe.neural.representational import cka, rdm, rdm_similarity
        from brainpipe.neural.subjects import aggregate_subjects, pairwise_cka_ceiling, ridgecv_split_subject

        names, columns = _subject_columns(target)
        X = activations.transpose("presentation", ...).values
        X = X.reshape(len(X), -1)
        Y = self._values(target)
        if self.metric.endswith("-ridgecv"):
            split = self.metric.split("-")[0]
            train, test = _rows(target, split, ("train",)), _rows(target, split, ("test",))
            fits = [ridgecv_split_subject(X[train], Y[train][:, c], X[test], Y[test][:, c], LAION_ALPHA_LIST)
                    for c in columns]
            result = aggregate_subjects([f["raw"] for f in fits], self._ceilings(target, columns))
            result["alpha_per_subject"] = [f["alpha"] for f in fits]
        else:
            rows = _rows(target, "tau")
            X, Y = X[rows], Y[rows]
            if self.metric == "rdm-pearson":
                model = rdm(X)
                raws = [rdm_similarity(model, rdm(Y[:, c])) for c in columns]
                result = aggregate_subjects(raws, self._ceilings(target, columns), "raw_over_ceiling")
            else:  # cka: the subjects' mean over the pairwise inter-subject CKA
                raws = np.array([cka(X, Y[:, c]) for c in columns])
                ceiling = pairwise_cka_ceiling([Y[:, c] for c in columns])
                result = {"score": float(raws.mean() / ceiling["ceiling"]), "raw": float(np.nanmean(raws)),
                          "ceiling": ceiling["ceiling"], "raw_per_subject": raws.tolist()}
        result["subjects"] = names
        return result


FAMILIES = [
    Family(name="Zerbe2026_fmri", dataset="Zerbe2026_fmri", stimulus_set="Zerbe2026_fmri_stim_full",
           regions=REGIONS, visual_degrees=VISUAL_DEGREES, stratification=None, number_of_trials=1,
           neuroid_filter=((NOISE_CEILING_COORD, NOISE_CEILING_THRESHOLD),), single_response=True,
           reindex="zerbe2026", ceiling="custom", plugin=Zerbe2026(),
           notes="LAION-fMRI shared pool (1,492 images, 5 subjects), scored per subject on the re:vision tau / "
                 "ood splits; voxels with nc_12rep > 30; images under a Data Use Agreement: use data.local_files",
           version=1, bibtex=BIBTEX, sources=SOURCES),
]
