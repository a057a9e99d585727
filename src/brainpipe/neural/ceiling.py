"""Internal-consistency ceiling: how well one half of the trials predicts the other.

Source: brain-score/vision metrics/internal_consistency/ceiling.py. 10 ShuffleSplits (train_size 0.5,
random_state 1) of the sorted unique repetition values; each half averaged per stimulus; Pearson r per neuroid
across stimuli; Spearman–Brown 2r/(1+r); median over neuroids per split; mean over splits; error = SEM (ddof 0).

Why it is fast: the presentations are grouped by stimulus once, and each split's two half-sums are one sparse
indicator-matrix product over all neuroids (and time bins) at once. The product adds each stimulus's rows in
presentation order, in float64, as a per-stimulus loop would, so the half-means (float32, as Brain-Score's
assemblies hold them) are bit-for-bit those of averaging each half separately.
"""

import warnings

import numpy as np
import xarray as xr

from .stats import pearson_columns, sem, spearman_brown


def shuffle_split_train(n_samples, n_splits=10, random_state=1):
    """Train indices of scikit-learn's ``ShuffleSplit(n_splits, train_size=0.5, test_size=None, random_state)``.

    Written out (sklearn/model_selection/_split.py, ShuffleSplit._iter_indices with _validate_shuffle_split:
    n_train = floor(0.5 n), n_test = n - n_train, one ``RandomState(random_state).permutation(n)`` per split,
    test = its first n_test entries, train = the rest) so that a ceiling job does not import scikit-learn
    (about a second); tests compare it with sklearn.
    """
    if not isinstance(random_state, (int, np.integer)):
        raise ValueError(f"random_state must be an integer seed, got {random_state!r}")
    n_train = n_samples // 2
    n_test = n_samples - n_train
    rng = np.random.RandomState(random_state)
    for _ in range(n_splits):
        yield rng.permutation(n_samples)[n_test:n_test + n_train]


def split_halves(repetition, n_splits=10, random_state=1):
    """Yield boolean masks (half 1) over presentations, one per split of the unique repetitions."""
    unique = np.unique(repetition)
    if len(unique) < 2:
        raise ValueError(f"a split-half ceiling needs at least 2 repetitions, got {len(unique)}")
    for first in shuffle_split_train(len(unique), n_splits, random_state):
        yield np.isin(repetition, unique[first])


def _half_means(values, valid, stimulus, order, n_stimuli, half):
    """Per-stimulus means of the presentations in ``half`` and in ``~half``, over stimuli present in both.

    values : (presentation, column) float64, NaN already zeroed; valid : same shape bool, or None when NaN-free;
    stimulus : (presentation,) index into the sorted stimulus ids; order : its stable argsort (presentations
    grouped by stimulus, in presentation order inside a group). Returns two (stimulus, column) float32 arrays.
    """
    import scipy.sparse  # imported here: only the ceiling job needs it

    in_first = half[order]
    columns = np.concatenate([order[in_first], order[~in_first]])
    per_row = np.concatenate([np.bincount(stimulus[half], minlength=n_stimuli),
                              np.bincount(stimulus[~half], minlength=n_stimuli)])
    indptr = np.concatenate([[0], np.cumsum(per_row)])
    indicator = scipy.sparse.csr_matrix((np.ones(len(columns)), columns, indptr),
                                        shape=(2 * n_stimuli, len(stimulus)))
    sums = indicator @ values  # row i: its presentations added one by one in presentation order, from 0.0
    counts = (indicator @ valid.astype(np.float64)) if valid is not None else per_row[:, None].astype(np.float64)
    with np.errstate(invalid="ignore"):
        means = (sums / counts).astype(np.float32)  # skipna mean, as Brain-Score's .mean(skipna=True)
    common = (per_row[:n_stimuli] > 0) & (per_row[n_stimuli:] > 0)  # stimuli seen in both halves
    return means[:n_stimuli][common], means[n_stimuli:][common]


def internal_consistency(repetitions: xr.DataArray, n_splits=10, random_state=1, groups=None):
    """Ceiling of a (presentation, neuroid) per-trial assembly. Returns a dict with ceiling, error, per-split values.

    With a time_bin dimension the ceiling is computed per bin (Brain-Score's internal_consistency_temporal).
    ``groups``: a neuroid coordinate (e.g. 'subject'): also the ceiling of each of its values, ``per_group``, the
    mean over splits of the median over the value's neuroids (brain-score/vision benchmark_helpers/
    neural_common.py TrainTestNeuralBenchmark with ``alpha_coord``: ``np.mean(np.median(raw_ceilings_slice,
    axis=1))``, a plain median: a NaN consistency makes the value's ceiling NaN there too).
    """
    temporal = "time_bin" in repetitions.dims
    ordered = repetitions.transpose("presentation", "neuroid", *(("time_bin",) if temporal else ()))
    n_presentations, n_neuroids = ordered.shape[:2]
    values = ordered.values.reshape(n_presentations, -1).astype(np.float64)  # columns: neuroid × time bin
    nan = np.isnan(values)
    valid = None
    if nan.any():
        valid = ~nan
        values[nan] = 0.0
    del nan
    unique_ids, stimulus = np.unique(ordered["stimulus_id"].values.astype(str), return_inverse=True)
    stimulus = stimulus.ravel()
    order = np.argsort(stimulus, kind="stable")
    per_split = []  # per split: the median over neuroids, one per time bin
    labels = None if groups is None else ordered[groups].values.astype(str)
    per_group = {label: [] for label in ([] if labels is None else np.unique(labels))}
    for half in split_halves(ordered["repetition"].values, n_splits, random_state):
        first, second = _half_means(values, valid, stimulus, order, len(unique_ids), half)
        r = spearman_brown(pearson_columns(first, second)).reshape(n_neuroids, -1)
        per_split.append([float(m) for m in np.nanmedian(r, axis=0)])
        for label in per_group:
            per_group[label].append(float(np.median(r[labels == label, 0])))
    if temporal:
        per_bin = np.array(per_split).T  # (time_bin, split)
        return {"ceiling": [float(np.mean(b)) for b in per_bin], "error": [sem(b) for b in per_bin],
                "per_split": [[float(v) for v in b] for b in per_bin], "method": "internal_consistency_temporal"}
    per_split = [s[0] for s in per_split]
    result = {"ceiling": float(np.mean(per_split)), "error": sem(per_split), "per_split": per_split,
              "method": "internal_consistency", "n_splits": n_splits, "random_state": random_state}
    if groups is not None:
        result.update(groups=groups, per_group={label: float(np.mean(v)) for label, v in per_group.items()})
    return result


def coordinate_median(values, n_bootstraps=1000, seed=0):
    """A ceiling read from a per-neuroid reliability: its median over the neuroids (NaN skipped) and, as error,
    the standard deviation of the medians of ``n_bootstraps`` resamples of its finite values drawn with
    ``numpy.random.RandomState(seed)`` (brain-score/vision brainscore_vision/benchmarks/li2026/benchmark.py
    ``_reliability_ceiling``: the same draws in the same order, hence the same error)."""
    values = np.asarray(values, dtype=np.float64)
    finite = values[np.isfinite(values)]
    if not finite.size:
        raise ValueError("no finite reliability to take the median of")
    rng = np.random.RandomState(seed)
    boot = [np.median(rng.choice(finite, size=finite.size, replace=True)) for _ in range(n_bootstraps)]
    return {"ceiling": float(np.nanmedian(values)), "error": float(np.std(boot))}


def split_half_predictor_consistency(values, stimulus, repetition, n_splits=10, seed=0, min_stimuli=10):
    """Split-half consistency of each neuroid as a predictor (the ceiling of reverse predictivity): brain-score/vision
    brainscore_vision/metrics/predictor_consistency/ceiling.py ``SplitHalfPredictorConsistency`` step for step.

    ``values``: (presentation × neuroid) trials; ``stimulus``, ``repetition``: per presentation. For each of
    ``n_splits`` splits and each stimulus in sorted order that has at least two distinct repetitions, those
    repetitions (sorted) are permuted by one ``numpy.random.default_rng(seed)`` shared by all splits and stimuli, the
    first half (floor) of them averaged against the rest; Pearson r per neuroid across stimuli (NaN where a half
    is constant), Spearman-Brown ``2r / (1 + r)``, median over neuroids (NaN skipped) per split, mean over splits;
    error = std (ddof 0) over splits / sqrt(splits). A split with fewer than ``min_stimuli`` usable stimuli is NaN.
    """
    values = np.asarray(values, dtype=np.float64)
    stimulus = np.asarray(stimulus).astype(str)
    repetition = np.asarray(repetition).astype(int)
    names, inverse = np.unique(stimulus, return_inverse=True)
    groups = np.split(np.argsort(inverse, kind="stable"), np.cumsum(np.bincount(inverse, minlength=len(names)))[:-1])
    rng = np.random.default_rng(seed)
    per_neuroid = []
    for _ in range(n_splits):
        first, second = [], []
        for index in groups:  # presentation indices of one stimulus, in presentation order
            if index.size < 2:
                continue
            reps = repetition[index]
            distinct = np.unique(reps)
            if distinct.size < 2:
                continue
            permuted = rng.permutation(distinct)
            half = distinct.size // 2
            first.append(values[index[np.isin(reps, permuted[:half])]].mean(axis=0))
            second.append(values[index[np.isin(reps, permuted[half:])]].mean(axis=0))
        if len(first) < min_stimuli:
            per_neuroid.append(np.full(values.shape[1], np.nan))
            continue
        per_neuroid.append(spearman_brown(pearson_columns(np.array(first), np.array(second))))
    per_neuroid = np.array(per_neuroid)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN split stays NaN
        per_split = np.nanmedian(per_neuroid, axis=1)
    finite = np.isfinite(per_split)
    if not finite.any():
        raise ValueError("no split has enough stimuli with two or more repetitions for a predictor consistency")
    return {"ceiling": float(np.nanmean(per_split)), "error": float(np.nanstd(per_split) / np.sqrt(finite.sum())),
            "per_split": [float(v) for v in per_split], "method": "predictor_consistency_split_half",
            "n_splits": n_splits, "seed": seed}
