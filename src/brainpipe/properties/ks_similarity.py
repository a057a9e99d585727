"""The distribution similarity of Brain-Score's properties benchmarks: 1 − KS/KS_max, bootstrapped over model units.

Source: brain-score/vision brainscore_vision/metrics/distribution_similarity/metric.py (``ks_similarity``,
``BootstrapDistributionSimilarity``). For a property with bin edges ``bins`` (the data file's attribute
``<property>_bins``):

1. model and data values are clipped to [bins[0], bins[-1]] (NaN stays NaN);
2. the data histogram over ``bins`` is normalised to sum 1 (NaN values fall in no bin but count in ``n_neurons``);
3. 1000 times, ``n_neurons`` (= the number of data rows) model values are drawn with replacement, histogrammed the
   same way, and compared with the data: 1 − max|cumsum(p) − cumsum(q)| / KS_max, where KS_max is the larger of the
   KS distances of q to all mass in the first bin and to all mass in the last bin;
4. the score is the mean of the 1000 similarities and the error their standard deviation (ddof 0), both ignoring
   NaN, unless more than 100 of them are NaN: then score and error are 0. (Brain-Score compares with its module
   constant 1000 / 10 whatever the number of samples; so does this.)

A sample whose values are all NaN (or a model whose values all are) has an empty histogram, 0/0 = NaN mass and a
NaN similarity; a data histogram concentrated in the first or last bin the same way gives KS_max = 0 and NaN.
Brain-Score returns what the rule in 4 makes of those, and so does this (numerically fragile, matched on purpose).

Randomness: Brain-Score draws with ``np.random.choice(model_values, n_neurons)`` from numpy's global RNG, unseeded,
so its own scores change from run to run. Here the draws come from a ``numpy.random.RandomState`` (the legacy
generator behind ``np.random.choice``), seeded with :data:`DEFAULT_SEED` unless a seed or a RandomState is given:
all 1000 draws are one ``randint(0, n_units, (1000, n_neurons))``, the very numbers that 1000 successive
``np.random.choice`` calls give after ``np.random.seed(seed)``. So brainpipe's number equals Brain-Score's after
``np.random.seed(DEFAULT_SEED)``; a benchmark that scores the model and then the ceiling passes the same
RandomState to both, as Brain-Score's benchmark draws both from one global stream.

Why it is fast: each model unit's bin is found once (``searchsorted``), and the 1000 histograms are one
``bincount``; the arithmetic after the counts (normalising, cumulative sums, maxima) is Brain-Score's, row by row,
so the similarities are bit-for-bit equal.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: the number of bootstrap samples (Brain-Score's NSAMPLES)
N_SAMPLES = 1000
#: more NaN similarities than this and the score is 0 (Brain-Score: ``NSAMPLES / 10`` with its constant NSAMPLES)
MAX_NAN_SAMPLES = N_SAMPLES / 10
#: the seed of brainpipe's bootstrap draws (Brain-Score's are unseeded; see the module docstring)
DEFAULT_SEED = 0


@dataclass(frozen=True, eq=False)
class Similarity:
    """A bootstrapped similarity: ``score`` (mean), ``error`` (std, ddof 0) and the per-sample ``values``."""

    score: float
    error: float
    values: np.ndarray


def check_bins(bins) -> np.ndarray:
    """Bin edges as float64, checked: one-dimensional, at least two, finite and strictly increasing."""
    edges = np.asarray(bins, dtype=np.float64)
    if edges.ndim != 1 or len(edges) < 2:
        raise ValueError(f"bins must be a 1-D array of at least 2 edges, got shape {edges.shape}")
    if not np.all(np.isfinite(edges)) or np.any(np.diff(edges) <= 0):
        raise ValueError(f"bins must be finite and strictly increasing, got {edges.tolist()}")
    return edges


def clip_to_bins(values, bins) -> np.ndarray:
    """A float64 copy of ``values`` clipped to the outer bin edges; NaN stays NaN."""
    values = np.array(values, dtype=np.float64).reshape(-1)
    values[values < bins[0]] = bins[0]
    values[values > bins[-1]] = bins[-1]
    return values


def bin_index(values, bins) -> np.ndarray:
    """Each value's bin as ``np.histogram(values, bins)`` counts it (last bin closed), -1 for NaN / outside."""
    index = np.searchsorted(bins, values, side="right") - 1
    index[values == bins[-1]] = len(bins) - 2
    index[~((values >= bins[0]) & (values <= bins[-1]))] = -1
    return index


def normalised_histogram(values, bins) -> np.ndarray:
    """``np.histogram(values, bins)[0]`` divided by its sum (NaN everywhere when no value falls in a bin)."""
    counts = np.histogram(values, bins=bins)[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        return counts / counts.sum()


def ks_similarity(p, q):
    """1 − KS(p, q) / KS_max(q) for normalised histograms; ``p`` may hold one histogram per row.

    KS is the largest absolute difference of the cumulative sums; KS_max is the larger of q's KS distances to a
    histogram with all mass in the first bin and to one with all mass in the last. Brain-Score's function (its
    first argument is the model's histogram, its second the data's).
    """
    p = np.asarray(p, dtype=np.float64)
    q = np.asarray(q, dtype=np.float64)
    first = np.zeros_like(q)
    last = np.zeros_like(q)
    first[0] = 1
    last[-1] = 1
    cumulative_q = np.cumsum(q)
    ks_max = max(np.max(np.abs(np.cumsum(first) - cumulative_q)), np.max(np.abs(np.cumsum(last) - cumulative_q)))
    ks = np.max(np.abs(np.cumsum(p, axis=-1) - cumulative_q), axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 1 - ks / ks_max


def as_random_state(rng) -> np.random.RandomState:
    """``None`` → RandomState(DEFAULT_SEED); an int → RandomState(int); a RandomState is used (and advanced)."""
    if rng is None:
        return np.random.RandomState(DEFAULT_SEED)
    if isinstance(rng, np.random.RandomState):
        return rng
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, bool):
        return np.random.RandomState(int(rng))
    raise TypeError(f"rng must be None, an integer seed or a numpy.random.RandomState, got {rng!r}")


def bootstrap_similarity(model_values, data_values, bins, *, n_samples: int = N_SAMPLES, rng=None,
                         property_name: str = "property") -> Similarity:
    """Brain-Score's ``BootstrapDistributionSimilarity`` of one property.

    model_values : array of shape (n_units,), the model's property (units that passed the response threshold).
    data_values : array of shape (n_neurons,), the recorded property (NaN rows count in n_neurons).
    bins : the property's bin edges. rng : see :func:`as_random_state`.
    """
    edges = check_bins(bins)
    model = clip_to_bins(model_values, edges)
    data = clip_to_bins(data_values, edges)
    if model.size == 0:
        raise ValueError(f"no model unit to sample for {property_name!r}: the model has no unit left after the "
                         f"response threshold")
    if data.size == 0:
        raise ValueError(f"the data hold no neuron for {property_name!r}")
    if n_samples < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}")
    data_histogram = normalised_histogram(data, edges)
    n_bins = len(edges) - 1

    draws = as_random_state(rng).randint(0, model.size, size=(n_samples, data.size))
    unit_bins = bin_index(model, edges)[draws]
    rows = np.broadcast_to(np.arange(n_samples)[:, None], unit_bins.shape)
    counted = unit_bins >= 0
    counts = np.bincount(rows[counted] * n_bins + unit_bins[counted], minlength=n_samples * n_bins)
    counts = counts.reshape(n_samples, n_bins).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        model_histograms = counts / counts.sum(axis=1, keepdims=True)
    values = ks_similarity(model_histograms, data_histogram)

    if np.isnan(values).sum() > MAX_NAN_SAMPLES:
        return Similarity(score=0.0, error=0.0, values=values)
    return Similarity(score=float(np.nanmean(values)), error=float(np.nanstd(values)), values=values)
