"""Bracci2019: human fMRI (12 subjects) of V1, posterior and anterior ventral temporal cortex (VTC) to 27 images
of animals, objects that look like animals (lookalikes) and objects: ``Bracci2019.anteriorVTC-rdm``, a benchmark with
its own logic (brainpipe's custom pattern, :mod:`brainpipe.benchmarks.custom`).

As brain-score/vision brainscore_vision/benchmarks/bracci2019/benchmark.py computes it (``_Bracci2019RSA``):

* the ROI's voxels (``roi`` 0 V1, 1 posteriorVTC, 2 anteriorVTC in the file; the model region that stands for it is
  V1 for V1 and IT for both VTC ROIs: ``model_regions``), each voxel centred over the 27 conditions within its
  subject;
* the human RDM: the centred data averaged over subjects voxel by voxel (``voxels``, the voxel's index within its
  subject, shared across subjects) and ``1 - corrcoef`` over the conditions;
* raw: Spearman r between the upper triangles of the model's and the human RDM (metrics/rdm/metric.py);
* ceiling: for each subject, Spearman r between the lower triangles of its own RDM and of the mean of the other
  subjects' RDMs, averaged over subjects (leave-one-out); score = raw / ceiling, not clipped.

Constants: VISUAL_DEGREES 8, one trial, 70–170 ms, version 1, parent ``Bracci2019``, the benchmark's BIBTEX.
Data: brain-score/vision brainscore_vision/data/bracci2019/__init__.py (sha1s) and data_packaging.py (the
assembly: presentation × neuroid, ``roi``/``subject``/``voxels`` per neuroid; no region, neuroid id or
repetition: :func:`brainpipe.data.reindex.bracci2019` adds them on load). Brain-Score marks the data not public
(metadata.yaml): with access, point ``data.local_files`` at the files.

Not here: ``Bracci2019_RSA-V1`` and ``Bracci2019_RSA-posteriorVTC``. Brain-Score 2.4.2 lists them, but its plugin
registers only the anterior VTC benchmark (the other two lines are commented out in benchmarks/bracci2019/
__init__.py), so no Brain-Score number exists to match; the logic here serves them unchanged once they are named.
"""

import numpy as np

from ..base import Family
from ..custom import CustomBenchmark
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/bracci2019/benchmark.py",
           "brain-score/vision brainscore_vision/data/bracci2019/__init__.py",
           "brain-score/vision brainscore_vision/data/bracci2019/data_packaging.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{bracci2019ventral,
  title={The ventral visual pathway represents animal appearance over animacy, unlike human behavior and deep neural networks},
  author={Bracci, Stefania and Ritchie, J Brendan and Kalfas, Ioannis and de Beeck, Hans P Op},
  journal={Journal of Neuroscience},
  volume={39},
  number={33},
  pages={6513--6525},
  year={2019},
  publisher={Soc Neuroscience}
}"""

#: The file's ``roi`` codes (data_packaging.py: V1, postVTC, antVTC concatenated in that order).
ROIS = ("V1", "posteriorVTC", "anteriorVTC")

ASSEMBLIES = {
    "Bracci2019": brainio_assembly("Bracci2019", "cbec165bb20f09d0527fddba7cfbf115a396a2f3", "Bracci2019"),
}
STIMULUS_SETS = {
    "Bracci2019": brainio_stimuli(
        "Bracci2019", "05b1af9b8e6ed478ea49339e11b0024c2da8c35f", "a79b249e758421f46ec781301cd4b498f64853ce"),
}


def centred_by_subject(data):
    """(presentation × neuroid) float64 values, each voxel minus its mean over the conditions."""
    values = data.transpose("presentation", "neuroid").values.astype(np.float64)
    return values - values.mean(axis=0, keepdims=True)


def subject_mean(values, voxels):
    """The centred data averaged over subjects voxel by voxel: (presentation × voxel), voxels in sorted order
    (xarray's ``groupby('voxels').mean()``)."""
    names, index = np.unique(voxels, return_inverse=True)
    sums = np.zeros((values.shape[0], len(names)))
    np.add.at(sums.T, index, values.T)
    return sums / np.bincount(index)[None, :]


def leave_one_out_ceiling(values, subjects):
    """Mean over subjects (sorted) of Spearman r between the lower triangles of the subject's RDM and of the mean
    of the other subjects' RDMs; the spread over subjects as the error."""
    from scipy.stats import spearmanr  # here: the registry imports this module in every job (scipy.stats ~1 s)

    from brainpipe.neural.representational import rdm  # here: parsing a benchmark imports no scikit-learn

    names = np.unique(subjects)
    if len(names) < 2:
        raise ValueError(f"the ceiling needs at least two subjects, got {list(names)}")
    rdms = {s: rdm(values[:, subjects == s]) for s in names}
    lower = np.tril_indices(values.shape[0], -1)
    correlations = []
    for subject in names:
        others = np.mean([rdms[s] for s in names if s != subject], axis=0)
        correlations.append(spearmanr(rdms[subject][lower], others[lower])[0])
    return float(np.mean(correlations)), float(np.std(correlations))


class Bracci2019RSA(CustomBenchmark):
    """RSA of one Bracci2019 ROI: the model's RDM against the subject-averaged, subject-centred voxel RDM."""

    family = "Bracci2019"
    data = "Bracci2019"
    regions = ("anteriorVTC",)
    metric = "rdm"
    version = 1
    parent = "Bracci2019"
    bibtex = BIBTEX
    normalisation = "raw_over_ceiling"

    def ceiling(self, trials):
        ceiling, error = leave_one_out_ceiling(centred_by_subject(trials), trials["subject"].values)
        return {"ceiling": ceiling, "error": error}

    def compare(self, activations, target):
        from brainpipe.neural.representational import rdm, rdm_similarity

        human = subject_mean(centred_by_subject(target), target["voxels"].values)
        model = activations.transpose("presentation", ...).values
        return {"raw": float(rdm_similarity(rdm(model.reshape(len(model), -1)), rdm(human)))}


FAMILIES = [
    Family(name="Bracci2019", dataset="Bracci2019", stimulus_set="Bracci2019", regions=("anteriorVTC",),
           visual_degrees=8, stratification=None, time_window=(70, 170), number_of_trials=1, single_response=True,
           reindex="bracci2019", model_regions=(("V1", "V1"), ("posteriorVTC", "IT"), ("anteriorVTC", "IT")),
           ceiling="custom", plugin=Bracci2019RSA(), parent="Bracci2019",
           notes="27 images, fMRI of 12 subjects; subject-centred voxels averaged over subjects, leave-one-subject-"
                 "out RDM ceiling; not public (Brain-Score): use data.local_files",
           version=1, bibtex=BIBTEX, sources=SOURCES),
]
