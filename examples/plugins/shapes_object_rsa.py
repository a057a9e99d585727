"""A custom benchmark (pattern "custom"): object-level RSA on the simulated SyntheticShapes IT recordings.

The worked example of README "Your own benchmark". Its custom preprocessing: responses are averaged over the ten
images of each object before the representational dissimilarity matrices are compared, so the benchmark asks
whether a model separates *objects* the way IT does, whatever the position and size of each image. The metric is
brainpipe's RDM comparison (1 − Pearson RDMs, Spearman r of the upper triangles, as brain-score/vision
brainscore_vision/metrics/rdm/metric.py); the ceiling is the split-half consistency of the object RDM over trials,
Spearman–Brown corrected. Score = raw / ceiling.

Use it with, in config/config.yaml:

    benchmark_plugins: [examples/plugins]
    benchmarks: [ShapesObjectRSA.IT-objectrdm]
"""

import numpy as np

from brainpipe.benchmarks import CustomBenchmark
from brainpipe.neural.representational import rdm, rdm_similarity

OBJECT = "object_name"


def object_means(data):
    """(object × neuroid) means of a (presentation × neuroid) DataArray, objects in sorted order."""
    objects = data[OBJECT].values.astype(str)
    names, index = np.unique(objects, return_inverse=True)
    values = data.transpose("presentation", "neuroid").values.astype(np.float64)
    sums = np.zeros((len(names), values.shape[1]))
    np.add.at(sums, index, values)
    return sums / np.bincount(index)[:, None]


class ShapesObjectRSA(CustomBenchmark):
    """Object-level RSA of SyntheticShapes IT (custom example: objects averaged before the RDMs)."""

    family = "ShapesObjectRSA"
    data = "SyntheticShapes"
    regions = ("IT",)
    metric = "objectrdm"
    version = 1
    parent = "IT"
    bibtex = "@misc{brainpipe_shapes_object_rsa, title={Object-level RSA on SyntheticShapes (brainpipe example)}}"
    normalisation = "raw_over_ceiling"

    def ceiling(self, trials):
        """Mean over 10 random halves of the repetitions of the Spearman–Brown corrected half-RDM similarity."""
        repetitions = np.unique(trials["repetition"].values)
        rng = np.random.RandomState(1)
        values = []
        for _ in range(10):
            half = rng.permutation(repetitions)[: len(repetitions) // 2]
            first = np.isin(trials["repetition"].values, half)
            a = rdm(object_means(trials.isel(presentation=np.flatnonzero(first))))
            b = rdm(object_means(trials.isel(presentation=np.flatnonzero(~first))))
            r = rdm_similarity(a, b)
            values.append(2 * r / (1 + r))
        return {"ceiling": float(np.mean(values)), "error": float(np.std(values) / np.sqrt(len(values)))}

    def compare(self, activations, target):
        """Spearman r between the object RDMs of the model layer and of the recordings."""
        activations = activations.assign_coords({OBJECT: ("presentation", target[OBJECT].values)})
        return {"raw": rdm_similarity(rdm(object_means(activations)), rdm(object_means(target)))}
