"""Object solution times (OST): when a model's read-out reaches the primate's per-image performance.

Kubilius, Schrimpf et al. 2019 (NeurIPS); OST data: Kar et al. 2019 (Nature Neuroscience). Upstream:
brain-score/vision brainscore_vision/metrics/ost/metric.py (``OSTCorrelation``), its I1 d′ from
brainscore_vision/metrics/i1i2/metric.py (``_I``), splits and aggregation from
brainscore_vision/metric_helpers/transformations.py (``CrossValidation``, ``Split``), the static-model check from
brainscore_vision/benchmarks/kar2019/benchmark.py (``temporally_varying``). Steps, exactly as upstream:

1. splits: ``ShuffleSplit(10, test_size=.1, random_state=1)`` over the target's stimuli (in the target's order; the
   train and test parts keep that order);
2. per split, per time bin in ascending ``time_bin_start``: a softmax classifier (:mod:`.ost_classifier`) is fitted
   on the train stimuli's features of that bin with ``image_label`` as labels, and predicts the test stimuli's
   class probabilities;
3. I1 d′ per test image from those probabilities: p(i, c) = P(c) / (P(c) + P(truth_i)), NaN where c = truth_i;
   d′(i, c) = Φ⁻¹(1 − p(i, c)) − Φ⁻¹(FAR), FAR = nanmean of p(j, truth_i) over the *test* images j whose truth is c;
   clipped to ±5; mean over choices skipping NaN;
4. per image: ``hit`` = the first bin whose d′ ≥ the target ``i1``; ``last`` = before the hit, the sub-threshold bin
   with the highest d′ (the earliest of equals); the bins stop once every test image has a hit;
5. OST: NaN without a hit; the hit's bin start without a ``last``; else where the line through (last, hit) crosses
   the threshold (upstream: ``interp1d(..., fill_value='extrapolate')`` + ``fsolve(x0=hit)``; here the line's root
   in closed form — the same number to ~1e-12 ms, tests/test_ost.py);
6. split score: Spearman r over the images whose predicted and target OSTs are both defined; score: mean over
   splits skipping NaN (xarray's ``mean``), error: std (ddof 0, skipping NaN) / sqrt(number of splits).

A model whose responses do not change over time cannot be scored: :func:`static_reason` says why, and upstream
gives NaN (it checks the first stimulus only; :func:`ost_correlation` does the same).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import scipy.stats

from .ost_classifier import RECIPE, Recipe, fit_predict
from .splits import cv_splits

DPRIME_CAP = 5
N_SPLITS = 10
TEST_SIZE = 0.1
RANDOM_STATE = 1


@dataclass
class OSTResult:
    """The metric's outcome. ``score`` is the raw (unceiled) value; NaN with ``reason`` for a static model."""

    score: float
    error: float
    per_split: list[float] = field(default_factory=list)
    #: per split: the test stimuli (indices into the target order) and their predicted OSTs (ms; NaN = never hit)
    test_indices: list[np.ndarray] = field(default_factory=list)
    predicted_osts: list[np.ndarray] = field(default_factory=list)
    #: per split: the time bins that were computed before every test image had a hit
    bins_used: list[int] = field(default_factory=list)
    reason: str | None = None


# ---------------------------------------------------------------------------------------------------------------
# the deterministic parts


def ost_splits(n_stimuli: int, n_splits: int = N_SPLITS, test_size: float = TEST_SIZE,
               random_state: int = RANDOM_STATE):
    """Upstream ``CrossValidation(stratification_coord=None, splits=10, test_size=0.1)``: ShuffleSplit train/test
    indices into the target order, each sorted (``subset`` keeps the assembly's order)."""
    return cv_splits(n_stimuli, None, n_splits=n_splits, train_size=None, test_size=test_size,
                     random_state=random_state)


def i1_dprimes(probabilities: np.ndarray, choices, truths, cap: float = DPRIME_CAP) -> np.ndarray:
    """Upstream ``OSTCorrelation.i1``: I1 d′ per image from class probabilities (images × choices).

    Upstream reads each float32 probability as a Python float (``multi_dim_apply``'s ``.item()``), so the ratio and
    all that follows are float64.
    """
    probabilities = np.asarray(probabilities, dtype=np.float64)
    choices, truths = np.asarray(choices, dtype=object), np.asarray(truths, dtype=object)
    column = {c: k for k, c in enumerate(choices)}
    unknown = sorted({str(t) for t in truths if t not in column})
    if unknown:
        raise ValueError(f"OST: true labels {unknown} are not among the classifier's choices {list(choices)} "
                         f"(coordinate 'image_label'): every test label must occur in the train stimuli")
    absent = [str(c) for c in choices if not np.any(truths == c)]
    if absent:
        raise ValueError(f"OST: no test image has the label(s) {absent} (coordinate 'image_label'), so their "
                         f"false-alarm rate is undefined (Brain-Score fails here too)")
    truth_column = np.array([column[t] for t in truths])
    p_truth = probabilities[np.arange(len(truths)), truth_column][:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        p = probabilities / (probabilities + p_truth)
    p[truth_column[:, None] == np.arange(len(choices))[None, :]] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        # far[c, k]: mean over the images whose truth is c of p(j, choice k)
        far = np.stack([np.nanmean(p[truths == c], axis=0) for c in choices])
        false_alarms = far[:, truth_column].T  # (image, choice c): far[c, truth_i]
        with np.errstate(invalid="ignore"):
            dprime = scipy.stats.norm.ppf(1 - p) - scipy.stats.norm.ppf(false_alarms)
        dprime = np.clip(dprime, -cap, cap)
        return np.nanmean(dprime, axis=1)


def update_hits(hit, last, dprime, threshold, time_bin_start):
    """Upstream's per-bin bookkeeping, in place. ``hit``: (n, 2) [time, d′] NaN until hit; ``last``: likewise for
    the best sub-threshold bin before the hit. Comparisons with NaN are false, as in upstream's Python loop."""
    open_ = np.isnan(hit[:, 0])
    with np.errstate(invalid="ignore"):
        below = open_ & (dprime < threshold) & (np.isnan(last[:, 0]) | (last[:, 1] < dprime))
        reached = open_ & (dprime >= threshold)
    last[below] = np.column_stack([np.full(below.sum(), time_bin_start, dtype=float), dprime[below]])
    hit[reached] = np.column_stack([np.full(reached.sum(), time_bin_start, dtype=float), dprime[reached]])


def interpolate_osts(hit: np.ndarray, last: np.ndarray, threshold: np.ndarray) -> np.ndarray:
    """OST per image: NaN (no hit), the hit time (no last), or the threshold crossing of the line through last and
    hit, written as interp1d writes the line (slope · (x − x_last) + d′_last)."""
    osts = hit[:, 0].copy()
    both = ~np.isnan(hit[:, 0]) & ~np.isnan(last[:, 0])
    (t0, d0), (t1, d1) = last[both].T, hit[both].T
    slope = (d1 - d0) / (t1 - t0)
    osts[both] = t0 + (threshold[both] - d0) / slope
    return osts


def correlate(predicted: np.ndarray, target: np.ndarray) -> float:
    """Upstream ``OSTCorrelation.correlate``: Spearman r over the images where both OSTs are defined."""
    keep = ~np.isnan(predicted) & ~np.isnan(target)
    if keep.sum() < 2:
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a constant input: NaN, as scipy gives with its warning
        return float(scipy.stats.spearmanr(predicted[keep], target[keep])[0])


def aggregate(per_split) -> tuple[float, float]:
    """Upstream ``Split.aggregate``: mean over splits and std (ddof 0) / sqrt(n), both skipping NaN as xarray does."""
    values = np.asarray(per_split, dtype=np.float64)
    if np.isnan(values).all():
        return float("nan"), float("nan")
    return float(np.nanmean(values)), float(np.nanstd(values) / np.sqrt(len(values)))


def static_reason(features: np.ndarray, stimulus: int = 0) -> str | None:
    """Upstream ``temporally_varying`` on one stimulus (the first): None if any neuroid's response changes across
    time bins, else why the model cannot be scored. features: (presentation, neuroid, time_bin)."""
    responses = np.asarray(features)[stimulus]
    if responses.shape[-1] > 1 and np.any(responses != responses[:, :1]):
        return None
    return (f"static model: no neuroid's response changes across the {responses.shape[-1]} time bin(s) "
            f"(checked on the first stimulus, as Brain-Score does), so it has no object solution time; "
            f"the OST metric is NaN for it")


# ---------------------------------------------------------------------------------------------------------------
# the metric


def _check(features, time_bin_starts, labels, target_i1, target_ost):
    features = np.asarray(features)
    if features.ndim != 3:
        raise ValueError(f"OST: features must be (presentation, neuroid, time_bin), got shape {features.shape}")
    n, _, n_bins = features.shape
    for name, values in (("image_label", labels), ("i1", target_i1), ("ost", target_ost)):
        if len(values) != n:
            raise ValueError(f"OST: the target's {name!r} has {len(values)} values for {n} presentations")
    if len(time_bin_starts) != n_bins:
        raise ValueError(f"OST: {len(time_bin_starts)} time_bin_start values for {n_bins} time bins")
    if len(set(np.asarray(time_bin_starts).tolist())) != n_bins:
        raise ValueError(f"OST: repeated time_bin_start values {list(time_bin_starts)}")
    if not all(np.isfinite(features[:, :, b]).all() for b in range(n_bins)):  # bin by bin: no copy of it all
        raise ValueError("OST: the features contain NaN or infinite values")
    return features


def ost_correlation(features, time_bin_starts, labels, target_i1, target_ost, *, truths=None,
                    n_splits: int = N_SPLITS, test_size: float = TEST_SIZE, random_state: int = RANDOM_STATE,
                    recipe: Recipe = RECIPE, stack_batch_bytes: int = 2 * 2 ** 20,
                    reuse_identical_bins: bool = True) -> OSTResult:
    """The OST metric (raw score; Kar2019-ost ceils it by dividing by .79 elsewhere).

    features: (presentation, neuroid, time_bin), rows in the target's order; time_bin_starts: one per bin (any
    order: bins are visited ascending); labels: ``image_label`` per presentation (the classifier's labels);
    truths: the labels d′ is measured against (default: ``labels``, as Kar2019 sets ``truth = image_label``);
    target_i1: the primate d′ threshold per image; target_ost: the primate OST per image (ms).
    Splits train side by side in stacks whose batches together hold at most ``stack_batch_bytes`` (small feature
    counts: several splits per numpy call; large ones: one split at a time, its batch still in cache for the
    backward pass). The numbers do not depend on it.
    A time bin whose features equal an earlier bin's (a model with fewer steps than requested bins: CORnet-S IT
    answers 18 bins with 2 steps) gets that bin's d′ without training again: the classifier is deterministic
    (same initial weights, same batch order), so its output is the same; Brain-Score trains it again.
    ``reuse_identical_bins=False`` trains every bin (the test that the reuse changes no number uses it).
    """
    features = _check(features, time_bin_starts, labels, target_i1, target_ost)
    labels = np.asarray(labels, dtype=object)
    truths = labels if truths is None else np.asarray(truths, dtype=object)
    target_i1, target_ost = np.asarray(target_i1, dtype=float), np.asarray(target_ost, dtype=float)
    reason = static_reason(features)
    if reason:
        return OSTResult(float("nan"), float("nan"), reason=reason)
    order = np.argsort(np.asarray(time_bin_starts), kind="stable")
    splits = ost_splits(len(features), n_splits, test_size, random_state)
    hits = [np.full((len(test), 2), np.nan) for _, test in splits]
    lasts = [np.full((len(test), 2), np.nan) for _, test in splits]
    bins_used = [0] * len(splits)
    stack = max(1, int(stack_batch_bytes // (recipe.batch_size * features.shape[1] * 4)))
    trained: dict[int, dict[int, np.ndarray]] = {}  # distinct bin → split → test d′ (for identical later bins)
    for b in order:
        open_splits = [k for k in range(len(splits)) if np.isnan(hits[k][:, 0]).any()]
        if not open_splits:
            break  # every image of every split has its hit: upstream stops a split's bins here
        bin_features = features[:, :, b]
        same = next((earlier for earlier in trained if reuse_identical_bins
                     and np.array_equal(features[:, :, earlier], bin_features)), None)
        dprimes = trained.setdefault(b if same is None else same, {})
        to_train = [k for k in open_splits if k not in dprimes]  # an open split was open at the earlier bin too
        for start in range(0, len(to_train), stack):
            group = to_train[start:start + stack]
            probabilities, choices = fit_predict([bin_features[splits[k][0]] for k in group],
                                                 [labels[splits[k][0]] for k in group],
                                                 [bin_features[splits[k][1]] for k in group], recipe)
            for k, p, c in zip(group, probabilities, choices):
                dprimes[k] = i1_dprimes(p, c, truths[splits[k][1]])
        for k in open_splits:
            test = splits[k][1]
            update_hits(hits[k], lasts[k], dprimes[k], target_i1[test], float(time_bin_starts[b]))
            bins_used[k] += 1
    predicted = [interpolate_osts(hits[k], lasts[k], target_i1[test]) for k, (_, test) in enumerate(splits)]
    per_split = [correlate(p, target_ost[test]) for p, (_, test) in zip(predicted, splits)]
    score, error = aggregate(per_split)
    return OSTResult(score, error, per_split, [test for _, test in splits], predicted, bins_used)
