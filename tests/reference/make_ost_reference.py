"""Brain-Score's own OST metric, run on synthetic temporal features, stored for tests/test_ost.py.

Run with the reference venv, which has Brain-Score and TensorFlow (never brainpipe's .venv)::

    make reference-venv
    BS_INSTALL_DEPENDENCIES=no .venv-reference/bin/python tests/reference/make_ost_reference.py

(``BS_INSTALL_DEPENDENCIES=no``: Brain-Score's plugin loader otherwise pip-installs each plugin's requirements,
including a CUDA torch.) Versions used for the stored file: tensorflow-cpu 2.21.0 (Keras 3.15.1),
brainscore-vision 2.4.2, brainscore-core 2.5.0, numpy 1.26.4, scikit-learn 1.5.2, scipy (see the stored ``versions``).

What it writes, ``tests/data/ost_reference.npz`` (+ ``ost_reference.json``, the summary):

* ``end_to_end``: synthetic features (presentation × neuroid × time_bin, float32) and an OST target (``i1``,
  ``image_label``, OST in ms), scored by ``brainscore_vision.metrics.ost.metric.OSTCorrelation`` with its TensorFlow
  classifier: per split the test stimulus ids, the predicted OSTs, the score; the mean and error; and per split and
  computed bin the classifier's test probabilities and the I1 d′ upstream derived from them;
* ``fixed``: the same metric with the classifier replaced by a stub that returns *given* probabilities (chosen to
  hit the edge cases: hits in the first bin, never, ties of d′, probabilities of exactly 0 and 1), so the
  deterministic parts (splits, d′, hit/last, interpolation with ``fsolve``, Spearman, aggregation) can be compared
  exactly.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("BS_INSTALL_DEPENDENCIES", "no")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "data"
LABELS = np.array(["bear", "car", "dog", "plane", "zebra"])
TIME_BIN_STARTS = np.arange(70, 150, 10)  # 8 bins of 10 ms
INIT_SHAPES = [(200, 5), (7, 3), (4096, 10)]


def synthetic(n_images=300, n_neuroids=200, seed=7, label_names=LABELS, time_bin_starts=TIME_BIN_STARTS):
    """Features in which each image's class emerges at its own latency, and a target whose OSTs follow those
    latencies (with noise) and whose i1 thresholds are reachable for most images (perf/bench_ost.py uses it at
    the real size too)."""
    rng = np.random.RandomState(seed)
    labels = label_names[np.arange(n_images) % len(label_names)]
    rng.shuffle(labels)
    prototypes = rng.randn(len(label_names), n_neuroids)
    code = {label: k for k, label in enumerate(label_names)}
    latency = rng.uniform(0.0, len(time_bin_starts), n_images)  # in bins
    strength = rng.uniform(1.0, 3.0, n_images)
    steps = np.arange(len(time_bin_starts))
    ramp = 1 / (1 + np.exp(-(steps[None, :] - latency[:, None]) * 1.5))  # image × bin
    rows = prototypes[[code[label] for label in labels]]
    features = np.empty((n_images, n_neuroids, len(steps)), dtype=np.float32)
    for start in range(0, n_images, 64):  # in chunks: the same draws as one call, without float64 copies of all
        chunk = slice(start, start + 64)
        signal = rows[chunk][:, :, None] * (strength[chunk, None] * ramp[chunk])[:, None, :]
        features[chunk] = signal + 1.0 * rng.randn(*signal.shape)
    target_ost = float(time_bin_starts[0]) + 10 * latency + rng.normal(0, 15, n_images)
    target_i1 = rng.uniform(0.3, 2.0, n_images)
    target_i1[rng.choice(n_images, 6, replace=False)] = 6.0  # unreachable: never hit (d' is clipped at 5)
    stimulus_ids = np.array([f"img{i:04d}" for i in range(n_images)])
    return stimulus_ids, labels, features, target_i1, target_ost


def fixed_probabilities(n_images, n_bins, seed=11):
    """Per bin, class probabilities for every image with some exact 0s and 1s and repeated rows."""
    rng = np.random.RandomState(seed)
    logits = rng.randn(n_bins, n_images, len(LABELS)) * np.linspace(0.5, 4, n_bins)[:, None, None]
    probabilities = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    probabilities[:, :5] = probabilities[:1, :5]  # the same d' in every bin: ties for ``last``
    probabilities[3, 10:14] = 0.0
    probabilities[3, 10:14, 0] = 1.0  # exact one-hot rows: p = 0 or 1, d' = ±inf before the clip
    probabilities[5, 20:22] = 0.0  # all zero: 0 / 0 = NaN ratios
    return probabilities.astype(np.float32)


def assemblies(stimulus_ids, labels, features, target_i1, target_ost, time_bin_starts=TIME_BIN_STARTS):
    from brainscore_core.supported_data_standards.brainio.assemblies import DataAssembly, NeuroidAssembly

    source = NeuroidAssembly(features, coords={
        "stimulus_id": ("presentation", stimulus_ids), "image_label": ("presentation", labels),
        "truth": ("presentation", labels), "neuroid_id": ("neuroid", np.arange(features.shape[1])),
        "time_bin_start": ("time_bin", time_bin_starts), "time_bin_end": ("time_bin", time_bin_starts + 10)},
        dims=["presentation", "neuroid", "time_bin"])
    target = DataAssembly(target_ost, coords={
        "stimulus_id": ("presentation", stimulus_ids), "image_label": ("presentation", labels),
        "truth": ("presentation", labels), "i1": ("presentation", target_i1)}, dims=["presentation"])
    return source, target


def run_upstream(source, target, classifier_factory=None, time_bin_starts=TIME_BIN_STARTS, splits=10):
    """OSTCorrelation with recording hooks; ``classifier_factory(bin_start)`` replaces the TF classifier; fewer
    ``splits`` than its 10 give the first of its splits (ShuffleSplit draws them one after the other)."""
    from brainscore_vision.metrics.ost import metric as ost_metric

    records = {"test_ids": [], "osts": [], "scores": [], "bins": [], "probabilities": [], "choices": [],
               "i1": []}
    real_classifier = ost_metric.TFProbabilitiesClassifier

    class Recording(ost_metric.OSTCorrelation):
        def compute_osts(self, train_source, test_source, test_osts):
            records["bins"].append([])
            records["probabilities"].append([])
            records["choices"].append([])
            records["i1"].append([])
            osts = super().compute_osts(train_source, test_source, test_osts)
            records["test_ids"].append(test_osts["stimulus_id"].values.copy())
            records["osts"].append(osts.copy())
            return osts

        def correlate(self, predicted_osts, target_osts):
            score = super().correlate(predicted_osts, target_osts)
            records["scores"].append(float(score))
            return score

        def i1(self, prediction_probabilities):
            result = super().i1(prediction_probabilities)
            records["probabilities"][-1].append(prediction_probabilities.values.copy())
            records["choices"][-1].append(prediction_probabilities["choice"].values.astype(str).copy())
            records["i1"][-1].append(result.values.copy())
            return result

    class Classifier(real_classifier):
        """Records the bin; with a factory, answers fixed probabilities instead of training."""

        def fit(self, X, Y):
            self._bin = int(np.sort(time_bin_starts)[len(records["bins"][-1])])  # upstream visits them ascending
            records["bins"][-1].append(self._bin)
            if classifier_factory is None:
                return super().fit(X, Y)
            self._labels = list(dict.fromkeys(Y.values))

        def predict_proba(self, X):
            if classifier_factory is None:
                return super().predict_proba(X)
            from brainscore_core.supported_data_standards.brainio.assemblies import BehavioralAssembly
            values = classifier_factory(self._bin, X["stimulus_id"].values, self._labels)
            return BehavioralAssembly(values, coords={
                "stimulus_id": ("presentation", X["stimulus_id"].values),
                "truth": ("presentation", X["truth"].values), "choice": ("choice", self._labels)},
                dims=["presentation", "choice"])

        def close(self):
            if classifier_factory is None:
                super().close()

    ost_metric.TFProbabilitiesClassifier = Classifier
    try:
        start = time.perf_counter()
        metric = Recording()
        if splits != 10:
            from brainscore_vision.metric_helpers.transformations import CrossValidation
            metric._cross_validation = CrossValidation(stratification_coord=None, splits=splits, test_size=0.1)
        score = metric(source, target)
        seconds = time.perf_counter() - start
    finally:
        ost_metric.TFProbabilitiesClassifier = real_classifier
    return score, records, seconds


def flatten(prefix, records, store):
    """Ragged per-split / per-bin records as flat arrays with offsets."""
    store[f"{prefix}_test_ids"] = np.stack(records["test_ids"]).astype(str)
    store[f"{prefix}_osts"] = np.stack(records["osts"])
    store[f"{prefix}_split_scores"] = np.array(records["scores"])
    store[f"{prefix}_n_bins"] = np.array([len(b) for b in records["bins"]])
    store[f"{prefix}_bins"] = np.concatenate(records["bins"])
    store[f"{prefix}_probabilities"] = np.concatenate([np.stack(p) for p in records["probabilities"]])
    store[f"{prefix}_choices"] = np.concatenate([np.stack(c) for c in records["choices"]])
    store[f"{prefix}_i1"] = np.concatenate([np.stack(i) for i in records["i1"]])


def main():
    import brainscore_vision
    import scipy
    import sklearn
    import tensorflow as tf

    stimulus_ids, labels, features, target_i1, target_ost = synthetic()
    source, target = assemblies(stimulus_ids, labels, features, target_i1, target_ost)
    store = {"stimulus_ids": stimulus_ids, "labels": labels, "features": features, "target_i1": target_i1,
             "target_ost": target_ost, "time_bin_starts": TIME_BIN_STARTS}

    score, records, seconds = run_upstream(source, target)
    flatten("tf", records, store)
    store["tf_score"] = np.array([float(score.values), float(score.attrs["error"])])

    probabilities = fixed_probabilities(len(stimulus_ids), len(TIME_BIN_STARTS))
    position = {s: i for i, s in enumerate(stimulus_ids)}

    def factory(bin_start, ids, choices):
        b = int(np.where(TIME_BIN_STARTS == bin_start)[0][0])
        rows = probabilities[b, [position[s] for s in ids]]
        order = [int(np.where(LABELS == c)[0][0]) for c in choices]  # columns in the classifier's choice order
        return rows[:, order]

    fixed_score, fixed_records, _ = run_upstream(source, target, factory)
    flatten("fixed", fixed_records, store)
    store["fixed_given_probabilities"] = probabilities
    store["fixed_score"] = np.array([float(fixed_score.values), float(fixed_score.attrs["error"])])

    # the classifier's initial weights, as Keras builds them inside TFProbabilitiesClassifier.fc
    from brainscore_vision.metrics.ost.metric import TFProbabilitiesClassifier
    for shape in INIT_SHAPES:
        init = TFProbabilitiesClassifier().initializer("xavier")
        store[f"init_{shape[0]}x{shape[1]}"] = np.asarray(init(shape, dtype=tf.float32))

    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT / "ost_reference.npz", **store)
    summary = {
        "what": "Brain-Score's OSTCorrelation (TensorFlow classifier) on tests/reference/make_ost_reference.py's "
                "synthetic features; 'fixed': the same metric with given probabilities instead of the classifier",
        "command": "BS_INSTALL_DEPENDENCIES=no .venv-reference/bin/python tests/reference/make_ost_reference.py",
        "shape": list(features.shape), "tf_score": store["tf_score"].tolist(),
        "tf_split_scores": store["tf_split_scores"].tolist(), "tf_bins_per_split": store["tf_n_bins"].tolist(),
        "tf_seconds": round(seconds, 1), "fixed_score": store["fixed_score"].tolist(),
        "fixed_split_scores": store["fixed_split_scores"].tolist(),
        "versions": {"tensorflow": tf.__version__, "keras": tf.keras.__version__ if hasattr(tf.keras, "__version__")
                     else None, "brainscore_vision": getattr(brainscore_vision, "__version__", "2.4.2"),
                     "numpy": np.__version__, "scipy": scipy.__version__, "scikit-learn": sklearn.__version__,
                     "python": sys.version.split()[0]},
    }
    (OUT / "ost_reference.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
