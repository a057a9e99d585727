"""Speed, fidelity and memory of brainpipe.neural.representational against a plain numpy transcription of Brain-Score.

Usage::

    .venv/bin/python perf/bench_representational.py --quick            # < 3 min: 1600 stimuli × 4096
    .venv/bin/python perf/bench_representational.py                    # MajajHong-shaped: 3200 × 9216, 64896
    .venv/bin/python perf/bench_representational.py --features 9216 --metrics rdm_cv cka_cv

Data: MajajHong-shaped structured synthetic data. 64 objects × 50 images (``object_name``, 3200 stimuli); each
stimulus has 40 latent factors = its object's centroid + image-specific variation. Model activations: ReLU of a
random mixture of the latents plus noise, float32 (as the model stage writes them). Neural data: 256 neuroids,
a different random mixture of the same latents plus noise, float64.

Implementations, each metric run in its own subprocess so its peak RSS is its own:

* ``ours``: ``brainpipe.neural.representational.similarity`` (rdm, cka, cka_biased) or ``cross_validated_similarity``
  (rdm_cv, cka_cv: 10 test-only splits, test_size .9, stratified on object_name, seed 1).
* ``ref``: Brain-Score's formulas written out in numpy/scipy, float64 throughout:
  RDM = ``1 - np.corrcoef(X)``, similarity = ``scipy.stats.spearmanr`` of the ``np.triu_indices(n, k=1)`` entries;
  biased CKA = ``sum(HKH * HLH)`` with the centring matrix ``H = I - 11'/n`` (Brain-Score ``linear_HSIC``);
  unbiased CKA = Song et al. HSIC on diagonal-zeroed Grams (Brain-Score ``unbiased_linear_HSIC``), 0 if
  ``hsic_xx * hsic_yy <= 0``, eps 1e-12. The *_cv variants recompute everything on each split's test rows, as
  Brain-Score's ``TestOnlyCrossValidation`` does. Each Gram matrix is built once per call (Brain-Score's own
  ``linear_CKA`` / ``unbiased_linear_CKA`` rebuild X's Gram in each of their three HSIC calls, which this
  reference does not copy).

``RSS/X`` = (peak RSS during the metric − RSS just before it, with X and Y already loaded) / X.nbytes (float32).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np

from peak_memory import reset_peak_rss, run_worker, status_bytes  # perf/peak_memory.py

OUT = Path(__file__).resolve().parent / "out"
METRICS = ("rdm", "rdm_cv", "cka", "cka_biased", "cka_cv")
N_OBJECTS = 64
N_NEUROIDS = 256
CV = dict(n_splits=10, test_size=0.9, random_state=1)


# ----------------------------------------------------------------------------------------------------------------
# data


def make_data(n: int, p: int, m: int = N_NEUROIDS, seed: int = 0, rank: int = 40):
    """X (n, p) float32 activations, Y (n, m) float64 neuroids, object_names (n,); latents shared by X and Y."""
    rng = np.random.default_rng(seed)
    per_object = n // N_OBJECTS
    objects = np.repeat(np.arange(N_OBJECTS), per_object)
    objects = np.concatenate([objects, np.arange(n - len(objects)) % N_OBJECTS])  # n not a multiple of 64
    object_names = np.array([f"object{o:02d}" for o in objects])
    centroids = rng.standard_normal((N_OBJECTS, rank))
    latents = (centroids[objects] + 0.8 * rng.standard_normal((n, rank))).astype(np.float32)
    X = np.empty((n, p), dtype=np.float32)
    mixing = rng.standard_normal((rank, p), dtype=np.float32) / np.sqrt(rank)
    for start in range(0, n, 256):  # blockwise: no float64 temp of X
        block = latents[start:start + 256] @ mixing
        block += 0.7 * rng.standard_normal(block.shape, dtype=np.float32)
        X[start:start + 256] = np.maximum(block, 0)
    weights = rng.standard_normal((rank, m)) * rng.uniform(0.2, 1.0, m)
    Y = latents.astype(np.float64) @ weights + 1.5 * rng.standard_normal((n, m))
    return X, Y, object_names


# ----------------------------------------------------------------------------------------------------------------
# reference: Brain-Score's formulas, transcribed


def ref_rdm(X):
    return 1 - np.corrcoef(np.asarray(X, dtype=np.float64))


def ref_rdm_similarity(X, Y):
    import scipy.stats

    rdm_x, rdm_y = ref_rdm(X), ref_rdm(Y)
    upper = np.triu_indices(rdm_x.shape[0], k=1)
    return float(scipy.stats.spearmanr(rdm_x[upper], rdm_y[upper]).statistic)


def ref_centering(K):
    n = K.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    return H @ K @ H


def ref_cka_biased(X, Y):
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    Kc = ref_centering(X @ X.T)
    Lc = ref_centering(Y @ Y.T)
    hsic_xy = np.sum(Kc * Lc)
    return float(hsic_xy / (np.sqrt(np.sum(Kc * Kc)) * np.sqrt(np.sum(Lc * Lc))))


def ref_unbiased_hsic(K, L):
    """Song et al. unbiased HSIC from linear Gram matrices (diagonals zeroed here)."""
    n = K.shape[0]
    K = K.copy()
    L = L.copy()
    np.fill_diagonal(K, 0.0)
    np.fill_diagonal(L, 0.0)
    term1 = float((K * L).sum())
    K1, L1 = K.sum(axis=1), L.sum(axis=1)
    term2 = float(K1.sum() * L1.sum())
    term3 = float(K1 @ L1)
    return (term1 + term2 / ((n - 1.0) * (n - 2.0)) - 2.0 * term3 / (n - 2.0)) / (n * (n - 3.0))


def ref_cka(X, Y, eps=1e-12):
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    K, L = X @ X.T, Y @ Y.T
    hsic_xy, hsic_xx, hsic_yy = ref_unbiased_hsic(K, L), ref_unbiased_hsic(K, K), ref_unbiased_hsic(L, L)
    product = hsic_xx * hsic_yy
    if product <= 0:
        return 0.0
    return float(hsic_xy / (np.sqrt(product) + eps))


REF_SIMILARITY = {"rdm": ref_rdm_similarity, "cka": ref_cka, "cka_biased": ref_cka_biased}


def ref_splits(object_names):
    """TestOnlyCrossValidation's test sets: StratifiedShuffleSplit(10, test_size=.9, random_state=1) on object_name."""
    from sklearn.model_selection import StratifiedShuffleSplit

    splitter = StratifiedShuffleSplit(n_splits=CV["n_splits"], train_size=None, test_size=CV["test_size"],
                                      random_state=CV["random_state"])
    return [test for _, test in splitter.split(np.zeros(len(object_names)), object_names)]


def ref_metric(metric, X, Y, object_names):
    if metric.endswith("_cv"):
        base = metric[:-3]
        values = [REF_SIMILARITY[base](X[test], Y[test]) for test in ref_splits(object_names)]
        return float(np.mean(values))
    return REF_SIMILARITY[metric](X, Y)


def ours_metric(metric, X, Y, object_names):
    from brainpipe.neural.representational import cross_validated_similarity, similarity

    if metric.endswith("_cv"):
        return cross_validated_similarity(metric, X, Y, object_names, **CV)["score"]
    return similarity(metric, X, Y)


# ----------------------------------------------------------------------------------------------------------------
# subprocess worker


def worker(metric, impl, x_path, y_path, names_path) -> None:
    import brainpipe.neural.representational  # noqa: F401  (imports outside the timed region, for both impls)
    import scipy.stats  # noqa: F401
    import sklearn.model_selection  # noqa: F401

    X = np.load(x_path)
    Y = np.load(y_path)
    object_names = np.load(names_path)
    reset_peak_rss()
    rss_before = status_bytes("VmRSS")
    start, cpu_start = time.perf_counter(), time.process_time()
    score = (ours_metric if impl == "ours" else ref_metric)(metric, X, Y, object_names)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    peak = status_bytes("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "extra_peak": max(0, peak - rss_before),
                      "x_bytes": X.nbytes, "score": score}))


def run_one(metric, impl, x_path, y_path, names_path, timeout):
    return run_worker(__file__, (metric, impl, x_path, y_path, names_path), f"{metric}/{impl}", timeout)


# ----------------------------------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1600 stimuli × 4096 features, < 3 min")
    parser.add_argument("--features", type=int, nargs="+", default=None, help="feature counts (default 9216 64896)")
    parser.add_argument("--stimuli", type=int, default=None, help="default 3200 (1600 with --quick)")
    parser.add_argument("--metrics", nargs="+", default=list(METRICS), choices=METRICS)
    parser.add_argument("--no-reference", action="store_true", help="time only ours")
    parser.add_argument("--reference-timeout", type=float, default=1800,
                        help="seconds before a reference run is abandoned (default 1800)")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(*args.worker)
        return

    n = args.stimuli or (1600 if args.quick else 3200)
    features = args.features or ([4096] if args.quick else [9216, 64896])
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} cores; {CV['n_splits']} test-only splits (test_size {CV['test_size']}) "
          f"stratified on {N_OBJECTS} objects; Y: {n}×{N_NEUROIDS} float64")
    header = (f"{'metric':<12}{'n×p':>12}{'ours s':>9}{'(cpu)':>8}{'ref s':>9}{'(cpu)':>8}{'speed-up':>10}"
              f"{'score':>9}{'|Δ score|':>11}{'ours RSS/X':>12}{'ref RSS/X':>11}")
    print(header)
    print("-" * len(header))
    for p in features:
        X, Y, object_names = make_data(n, p)
        x_path, y_path = OUT / f"repr_X_{n}x{p}.npy", OUT / f"repr_Y_{n}x{N_NEUROIDS}.npy"
        names_path = OUT / f"repr_objects_{n}.npy"
        np.save(x_path, X)
        np.save(y_path, Y)
        np.save(names_path, object_names)
        del X, Y
        for metric in args.metrics:
            ours = run_one(metric, "ours", x_path, y_path, names_path, None)
            ref = None if args.no_reference else run_one(metric, "ref", x_path, y_path, names_path,
                                                        args.reference_timeout)
            line = f"{metric:<12}{f'{n}×{p}':>12}{ours['seconds']:>9.2f}{ours['cpu_seconds']:>8.2f}"
            if ref is None:
                line += f"{'-' if args.no_reference else 'timeout':>9}{'':>8}{'':>10}{ours['score']:>9.4f}{'':>11}"
                line += f"{ours['extra_peak'] / ours['x_bytes']:>12.2f}{'':>11}"
            else:
                line += (f"{ref['seconds']:>9.2f}{ref['cpu_seconds']:>8.2f}{ref['seconds'] / ours['seconds']:>9.1f}×"
                         f"{ours['score']:>9.4f}{abs(ours['score'] - ref['score']):>11.1e}"
                         f"{ours['extra_peak'] / ours['x_bytes']:>12.2f}{ref['extra_peak'] / ref['x_bytes']:>11.2f}")
            print(line, flush=True)
        x_path.unlink()
    print("s: wall seconds of the metric call (data already loaded); (cpu): process CPU seconds.")
    print("RSS/X: peak RSS growth during the metric call over the size of the float32 activations X.")
    print("Targets: speed-up ≥ 10× at equal scores; ours RSS/X ≤ 2.")


if __name__ == "__main__":
    main()
