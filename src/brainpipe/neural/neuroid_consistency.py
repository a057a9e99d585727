"""Each neuroid's own split-half consistency, for selecting reliable neuroids before scoring.

Brain-Score selects neuroids this way in some benchmarks (brain-score/vision brainscore_vision/benchmarks/
igustibagus2024/domain_transfer_neural.py ``filter_neuroids``): it runs the internal-consistency ceiling
(metrics/internal_consistency/ceiling.py) on the per-trial recordings, reads its per-split, per-neuroid values
(``ceiling.attrs['raw']``: Spearman–Brown corrected split-half Pearson r) and keeps the neuroids whose mean over the
splits (xarray's mean, NaN skipped) exceeds a threshold. The splits and half-means are those of
:func:`brainpipe.neural.ceiling.internal_consistency` (same random state, same float32 half-means), so the values
are the ones whose median over neuroids that ceiling reports.
"""

import numpy as np

from .ceiling import _half_means, split_halves
from .stats import pearson_columns, spearman_brown


def neuroid_consistency(repetitions, n_splits=10, random_state=1) -> np.ndarray:
    """(split, neuroid) Spearman–Brown corrected split-half r of a (presentation, neuroid) per-trial DataArray."""
    ordered = repetitions.transpose("presentation", "neuroid")
    values = ordered.values.astype(np.float64)
    nan = np.isnan(values)
    valid = None
    if nan.any():
        valid = ~nan
        values[nan] = 0.0
    unique_ids, stimulus = np.unique(ordered["stimulus_id"].values.astype(str), return_inverse=True)
    stimulus = stimulus.ravel()
    order = np.argsort(stimulus, kind="stable")
    per_split = []
    for half in split_halves(ordered["repetition"].values, n_splits, random_state):
        first, second = _half_means(values, valid, stimulus, order, len(unique_ids), half)
        per_split.append(spearman_brown(pearson_columns(first, second)))
    return np.array(per_split)


def consistent_neuroids(repetitions, threshold, n_splits=10, random_state=1) -> np.ndarray:
    """Boolean mask of the neuroids whose mean split-half consistency (NaN splits skipped) exceeds ``threshold``;
    a neuroid without any finite value is dropped (NaN is not above the threshold)."""
    r = neuroid_consistency(repetitions, n_splits, random_state)
    finite = np.isfinite(r)
    counts = finite.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(finite, r, 0.0).sum(axis=0) / counts
    return np.where(counts > 0, mean, np.nan) > threshold
