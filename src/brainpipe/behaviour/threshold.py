"""Psychometric thresholds and threshold elevations (Malania2007's vernier benchmarks), as Brain-Score 2.4.2
computes them.

Upstream: brain-score/vision brainscore_vision/metrics/threshold/metric.py (``psychometric_cum_gauss``,
``grid_search``, ``Threshold``, ``ThresholdElevation``). The model's responses are (presentation × choice)
probabilities of a probabilities task; each presentation is correct when its most probable choice equals its
label, and the threshold is read off a cumulative-Gaussian psychometric function fitted by maximum likelihood
(a grid of starting points, each refined by scipy's L-BFGS-B, as upstream calls it) to the proportion correct per
value of the independent variable. Scores compare one threshold (or elevation) with each human's:
``max(1 - |human - model| / human, 0)`` averaged over humans.

Upstream's own behaviour, kept here on purpose (each says where it matters):

* a fit that fails returns the tag ``'fit_fail'`` (``FIT_FAIL``) and the benchmark then scores 0: mean accuracy
  below the required accuracy (0.6), fewer than a third of the x values left once the data after the asymptote
  are removed, an R² of the best fit below 0.4, or a threshold beyond the largest measured x (or NaN, e.g. a lapse
  rate above 0.25 makes the 75 % point unreachable);
* the grid search keeps the first of equally good fits (strict ``<``) and skips a start point only when scipy
  raises ``RuntimeError`` (anything else propagates, as upstream);
* R² is scikit-learn's ``r2_score`` (constant y: 1 for a perfect prediction, else 0);
* threshold elevations pair the condition's and the baseline's human thresholds by position, not by subject;
* the leave-one-out ceilings draw the left-out value with ``RandomState(i).choice`` from a list that is rotated
  by each draw (removed, then appended at the end), so the i-th draw depends on the earlier ones.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

FIT_FAIL = "fit_fail"

#: upstream grid_search defaults: slopes, bounds (slope, mean free; lapse rate 0.03..0.5)
ALPHA_VALUES = np.logspace(-3, 1, 50)
FIT_BOUNDS = ((None, None), (None, None), (0.03, 0.5))
REQUIRED_ACCURACY = 0.6
MIN_R2 = 0.4


def psychometric_cum_gauss(x, alpha, beta, lambda_, gamma=0.5):
    """Wichmann & Hill (2001) eq. 1: gamma + (1 - gamma - lambda) Φ(alpha (x - beta)).

    Φ is scipy.special.ndtr, the function scipy.stats.norm.cdf evaluates (standard normal, finite arguments), without
    norm.cdf's per-call argument handling: the grid search calls this tens of thousands of times (same values,
    tests/test_threshold.py checks)."""
    from scipy.special import ndtr
    return gamma + (1 - gamma - lambda_) * ndtr(alpha * (np.asarray(x, dtype=float) - beta))


def inverse_psychometric_cum_gauss(y, alpha, beta, lambda_, gamma=0.5):
    from scipy.stats import norm
    return beta + (norm.ppf((y - gamma) / (1 - gamma - lambda_)) / alpha)


def cum_gauss_neg_log_likelihood(params, x, y):
    alpha, beta, lambda_ = params
    p = psychometric_cum_gauss(x, alpha, beta, lambda_)
    return -np.sum(y * np.log(p) + (1 - y) * np.log(1 - p))


def r2(y, y_pred) -> float:
    """scikit-learn's r2_score (force_finite): 1 - SS_res / SS_tot; constant y gives 1 if predicted exactly, else 0."""
    y, y_pred = np.asarray(y, dtype=float), np.asarray(y_pred, dtype=float)
    numerator = float(((y - y_pred) ** 2).sum())
    denominator = float(((y - y.mean()) ** 2).sum())
    if denominator == 0:
        return 1.0 if numerator == 0 else 0.0
    return 1 - numerator / denominator


def grid_search(x, y, alpha_values=ALPHA_VALUES, beta_values=None, fit_bounds=FIT_BOUNDS):
    """((alpha, beta, lambda), R²) of the best maximum-likelihood fit over the start grid (beta: the x values)."""
    from scipy.optimize import minimize
    x, y = np.asarray(x), np.asarray(y)
    assert len(x) == len(y)
    beta_values = x if beta_values is None else beta_values
    best, best_nll = (None, None, None), np.inf
    for alpha_guess in alpha_values:
        for beta_guess in beta_values:
            start = np.array([alpha_guess, beta_guess, 1 - np.max(y)])  # lapse-rate guess: 1 - the best accuracy
            try:
                result = minimize(cum_gauss_neg_log_likelihood, start, args=(x, y), method="L-BFGS-B",
                                  bounds=fit_bounds)
            except RuntimeError:  # upstream skips only this
                continue
            alpha_hat, beta_hat, lambda_hat = result.x
            nll = cum_gauss_neg_log_likelihood([alpha_hat, beta_hat, lambda_hat], x, y)
            if nll < best_nll:
                best_nll, best = nll, (alpha_hat, beta_hat, lambda_hat)
    if None in best:  # upstream evaluates the fit with None and raises; say why instead
        raise ValueError("psychometric fit: every start point of the grid search failed")
    return best, r2(y, psychometric_cum_gauss(x, *best))


def aggregate(x_points, correct):
    """(unique sorted x, proportion correct at each)."""
    x_points, correct = np.asarray(x_points), np.asarray(correct)
    unique_x = np.unique(x_points)
    rate = np.zeros(len(unique_x))
    for i, value in enumerate(unique_x):
        rate[i] = np.sum((x_points == value) & (correct == 1)) / np.sum(x_points == value)
    return unique_x, rate


def remove_data_after_asymptote(x_values, y_values):
    """Drop everything from the first point after the maximum from which on every value is at least one standard
    deviation (ddof 0) below the maximum; (x, y, whether at least a third of the points remain)."""
    std_dev = np.std(y_values)
    max_index = int(np.argmax(y_values))
    cut = None
    for index in range(max_index + 1, len(y_values)):
        if all(abs(value - y_values[max_index]) >= std_dev for value in y_values[index:]):
            cut = index
            break
    before = len(y_values)
    if cut is not None:
        x_values, y_values = x_values[:cut], y_values[:cut]
    return x_values, y_values, len(y_values) / before >= 1 / 3


def fit_threshold_function(x_points, correct, alpha_values=ALPHA_VALUES):
    """(fit parameters or FIT_FAIL, largest x kept)."""
    x, y = aggregate(x_points, correct)
    x, y, enough = remove_data_after_asymptote(x, y)
    measurement_max = np.max(x)
    if not enough:
        return FIT_FAIL, measurement_max
    params, fit_r2 = grid_search(x, y, alpha_values)
    if fit_r2 < MIN_R2:  # a fit to random responses
        return FIT_FAIL, measurement_max
    return params, measurement_max


def inflection_accuracy(x_points, params) -> float:
    high = psychometric_cum_gauss(np.max(x_points), *params)
    low = psychometric_cum_gauss(np.min(x_points), *params)
    return low + (high - low) / 2


def compute_threshold(x_points, correct, threshold_accuracy=0.75, required_accuracy=REQUIRED_ACCURACY,
                      alpha_values=ALPHA_VALUES):
    """The model's threshold (a float) or FIT_FAIL, from each presentation's x value and whether it was correct.

    ``threshold_accuracy``: a proportion correct, or 'inflection' (midway between the fit at the smallest and the
    largest x). Returns ``(threshold, accuracy used)``: the accuracy is what an 'inflection' threshold resolved to
    (upstream stores it on the metric, and the threshold-elevation test condition reuses the baseline's).
    ``alpha_values``: the grid's start slopes (upstream's 50; fewer only for tests)."""
    x_points = np.asarray(x_points, dtype=float)
    correct = np.asarray(correct)
    if np.mean(correct) < required_accuracy:
        return FIT_FAIL, threshold_accuracy
    params, measurement_max = fit_threshold_function(x_points, correct, alpha_values)
    if isinstance(params, str):
        return FIT_FAIL, threshold_accuracy
    if threshold_accuracy == "inflection":
        threshold_accuracy = inflection_accuracy(x_points, params)
    threshold = inverse_psychometric_cum_gauss(threshold_accuracy, *params)
    if threshold > measurement_max or np.isnan(threshold):  # outside the measured range: spurious
        return FIT_FAIL, threshold_accuracy
    return float(threshold), threshold_accuracy


def correct_choices(probabilities: np.ndarray, choices: Sequence, labels: Sequence) -> np.ndarray:
    """1 where the most probable choice (first on ties) equals the presentation's label, else 0 (upstream
    ``convert_proba_to_correct``). Labels and choices compare as numbers where both are numbers (a label column
    read as integers against choices read as floats), else as text."""
    decisions = np.argmax(np.asarray(probabilities), axis=1)
    chosen = [choices[d] for d in decisions]
    return np.array([1 if _same(c, label) else 0 for c, label in zip(chosen, labels)])


def _same(a, b) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def scoring_function(source: float, targets: Sequence[float]) -> dict:
    """{'score': mean, 'error': std (ddof 0), 'per_target': [...]}: max(1 - |t - s| / t, 0) per target t.
    A NaN target makes its term NaN (Python's max(nan, 0) is nan), as upstream."""
    terms = []
    for target in targets:
        term = 1 - (np.abs(target - source)) / target
        terms.append(term if not (0 > term) else 0)  # Python max(term, 0): nan stays nan
    return {"score": float(np.mean(terms)), "error": float(np.std(terms)), "per_target": [float(t) for t in terms]}


def leave_one_out_ceiling(values: Sequence[float]) -> dict:
    """Upstream's ceiling: for i in range(n), draw one value with RandomState(i).choice (no replacement) from the
    list, remove it, score it against the rest, append it back at the end; mean and std (ddof 0) of the scores."""
    pool = [float(v) for v in values]
    scores = []
    for i in range(len(pool)):
        drawn = np.random.RandomState(i).choice(pool, replace=False)
        pool.remove(drawn)
        scores.append(scoring_function(float(drawn), pool)["score"])
        pool.append(drawn)
    return {"ceiling": float(np.mean(scores)), "error": float(np.std(scores)), "per_draw": scores}


def threshold_elevations(condition: Sequence[float], baseline: Sequence[float]) -> list:
    """condition[i] / baseline[i] for every baseline position (upstream pairs the two files by position)."""
    condition = np.asarray(condition, dtype=float)
    return [condition[i] / b for i, b in enumerate(np.asarray(baseline, dtype=float))]


def filter_baseline_subjects(condition_subjects, condition_values, baseline_subjects, baseline_values):
    """Upstream ``filter_baseline_subjects``: the subjects measured (non-NaN) in the condition; the baseline keeps
    those (its order), the condition keeps its subjects that the kept baseline holds (xarray's inner join on the
    subject index, the condition's order). Returns (condition values, baseline values, their subjects)."""
    condition_subjects = [str(s) for s in condition_subjects]
    baseline_subjects = [str(s) for s in baseline_subjects]
    condition_values = np.asarray(condition_values, dtype=float)
    baseline_values = np.asarray(baseline_values, dtype=float)
    measured = {s for s, v in zip(condition_subjects, condition_values) if not np.isnan(v)}
    kept_baseline = [i for i, s in enumerate(baseline_subjects) if s in measured]
    kept_names = {baseline_subjects[i] for i in kept_baseline}
    kept_condition = [i for i, s in enumerate(condition_subjects) if s in kept_names]
    return (condition_values[kept_condition], baseline_values[kept_baseline],
            ([condition_subjects[i] for i in kept_condition], [baseline_subjects[i] for i in kept_baseline]))


def threshold_score(threshold, human_thresholds) -> dict:
    """Raw score of one model threshold (or FIT_FAIL → 0, error 0) against the human thresholds."""
    if isinstance(threshold, str):
        return {"score": 0.0, "error": 0.0, "fit_fail": True}
    return {**scoring_function(threshold, human_thresholds), "fit_fail": False}


def elevation_score(baseline_threshold, condition_threshold, human_elevations) -> dict:
    """Raw score of the model's threshold elevation (condition / baseline) against the humans'; either fit failing
    gives 0 (upstream ``Score(0.)``)."""
    if isinstance(baseline_threshold, str) or isinstance(condition_threshold, str):
        return {"score": 0.0, "error": 0.0, "fit_fail": True}
    elevation = condition_threshold / baseline_threshold
    return {**scoring_function(elevation, human_elevations), "fit_fail": False, "elevation": float(elevation)}

