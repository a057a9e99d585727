"""Coggan2024 fMRI: human V1, V2, V4 and IT representational similarity matrices (RSMs) for 24 images of 8 objects
under 3 occlusion conditions (``tong.Coggan2024_fMRI.<region>-rdm``), a benchmark with its own logic (brainpipe's
custom pattern, :mod:`brainpipe.benchmarks.custom`).

As brain-score/vision brainscore_vision/benchmarks/coggan2024_fMRI/benchmark.py computes it:

* the model's RSM (``RSA``): the layer's units constant over the 24 images dropped, then the units whose mean
  response exceeds 3.1 times the standard deviation (over units) of those means in absolute value kept, z-scored
  per unit (population std), and Pearson correlation between the images' patterns;
* raw (``get_score``): the mean over subjects of Pearson r between the off-diagonal entries of the subject's RSM and
  of the model's;
* ceiling (``get_ceiling``): the mean over subjects of Pearson r between the off-diagonal entries of the subject's
  RSM and of the mean RSM of the other subjects;
* score (``ceiler`` then ``bound_score``): (raw / ceiling)², bounded to [0, 1].

Constants: VISUAL_DEGREES 9, one trial, the model recorded at (0, 250) ms (one static bin), version 1, parent the
region, the benchmark's BIBTEX. Data: brain-score/vision brainscore_vision/data/coggan2024_fMRI/__init__.py (object
names, sha1s, S3 versions) and data_packaging.py (dims (presentation, presentation, neuroid), one RSM per region ×
subject: :func:`brainpipe.data.reindex.coggan2024_fmri` lays them out as presentation × neuroid on load).
"""

import numpy as np

from ..base import Family
from ..custom import CustomBenchmark
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/coggan2024_fMRI/benchmark.py",
           "brain-score/vision brainscore_vision/data/coggan2024_fMRI/__init__.py",
           "brain-score/vision brainscore_vision/data/coggan2024_fMRI/data_packaging.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article {
    Tong.Coggan2024.fMRI,
    author = {David D. Coggan and Frank Tong},
    title = {Evidence of strong amodal completion in both early and 
    high-level visual cortices},
    year = {2024},
    url = {},
    journal = {under review}}"""

REGIONS = ("V1", "V2", "V4", "IT")
# In Brain-Score's store (bucket brainio-brainscore) under core get_path's names; its data plugin pins the S3 versions
# (assembly LRYpTHYG7IoNCexbzZdQM4_LjML_M3CS, csv kAS9zqRPf7zmLCN73I2VB5gBvhrZoU0p, zip jmiuKdlsh6.1suR_5FvLFDyg.PCzEZTn),
# whose contents the sha1s here pin as well.
ASSEMBLIES = {
    "Coggan2024_fMRI": brainio_assembly("tong.Coggan2024_fMRI", "da3adbca5247d0491d366f94e8431fb3e4e58db2",
                                        "Coggan2024_fMRI"),
}
STIMULUS_SETS = {
    "Coggan2024_fMRI": brainio_stimuli("tong.Coggan2024_fMRI", "0089f5f8fd3f2de14de12ed736a0f88575f8e1ee",
                                       "e26fdea4d866799526dea183f5bfb9792718822a"),
}


def model_rsm(patterns):
    """Brain-Score's ``RSA``: (conditions × units) activations -> (conditions × conditions) RSM."""
    patterns = np.asarray(patterns, dtype=np.float64)
    patterns = patterns[:, patterns.std(axis=0) != 0]
    means = patterns.mean(axis=0)
    selected = np.abs(means) > means.std() * 3.1
    if not selected.any():
        raise ValueError("No units with mean response > 3.1 * std over all units (Brain-Score's RSA refuses too)")
    patterns = patterns[:, selected]
    patterns = (patterns - patterns.mean(axis=0)) / patterns.std(axis=0)
    return np.corrcoef(patterns)


def subject_rsms(target):
    """{subject: its (conditions × conditions) RSM} from the reindexed (presentation × neuroid) recordings of one
    region, subjects in file order; column ``rsm_column`` of each matrix is its neuroid."""
    values = target.transpose("presentation", "neuroid").values.astype(np.float64)
    subjects = target["subject"].values.astype(str)
    columns = target["rsm_column"].values.astype(int)
    order = list(dict.fromkeys(subjects))
    rsms = {}
    for subject in order:
        mine = np.flatnonzero(subjects == subject)
        rsm = np.full((values.shape[0], values.shape[0]), np.nan)
        rsm[:, columns[mine]] = values[:, mine]
        if np.isnan(rsm).any():
            raise ValueError(f"Coggan2024 fMRI: subject {subject}'s RSM lacks columns")
        rsms[subject] = rsm
    return rsms


def _off_diagonal(matrix):
    return matrix.flatten()[~np.eye(len(matrix), dtype=bool).flatten()]


class Coggan2024fMRIRSA(CustomBenchmark):
    """RSA of one Coggan2024 fMRI region: the model's RSM of selected, z-scored units against each subject's RSM."""

    family = "Coggan2024_fMRI"
    data = "Coggan2024_fMRI"
    regions = REGIONS
    metric = "rdm"
    version = 1
    bibtex = BIBTEX
    normalisation = "squared_ratio_bounded"

    def ceiling(self, trials):
        rsms = list(subject_rsms(trials).values())
        if len(rsms) < 2:
            raise ValueError("the ceiling needs at least two subjects")
        correlations = [np.corrcoef(_off_diagonal(rsm), _off_diagonal(np.mean(
            [other for j, other in enumerate(rsms) if j != i], axis=0)))[0, 1] for i, rsm in enumerate(rsms)]
        return {"ceiling": float(np.mean(correlations)), "error": float(np.std(correlations))}

    def compare(self, activations, target):
        model = _off_diagonal(model_rsm(activations.transpose("presentation", ...).values.reshape(
            activations.sizes["presentation"], -1)))
        scores = [np.corrcoef(_off_diagonal(rsm), model)[0, 1] for rsm in subject_rsms(target).values()]
        return {"raw": float(np.mean(scores))}


FAMILIES = [
    Family(name="Coggan2024_fMRI", dataset="Coggan2024_fMRI", stimulus_set="Coggan2024_fMRI", regions=REGIONS,
           visual_degrees=9, stratification=None, time_window=(0, 250), number_of_trials=1, single_response=True,
           reindex="coggan2024_fmri", ceiling="custom", plugin=Coggan2024fMRIRSA(),
           identifiers=tuple((f"tong.Coggan2024_fMRI.{region}-rdm", region, "rdm") for region in REGIONS),
           notes="24 images (8 objects × 3 occlusion conditions), one fMRI RSM per subject and region; model RSM of "
                 "selected z-scored units; score (raw / leave-one-subject-out ceiling)², bounded",
           version=1, bibtex=BIBTEX, sources=SOURCES),
]
