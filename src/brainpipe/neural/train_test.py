"""A regression fitted on one data set (train) and scored on another (test), per subject, and the ceiling of the
test recordings per subject: Brain-Score's ``TrainTestNeuralBenchmark`` with ``alpha_coord``
(brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py) and its ``*_split`` metrics
(brainscore_vision/metrics/regression_correlation/metric.py ``TrainTestSplitCorrelation``).

As Brain-Score computes it, for each value of the subject coordinate (sorted, ``np.unique``):

* fit the regression on the model's activations to the train stimuli and the subject's train responses (ridge:
  ``Ridge(alpha=1)``; ridgecv: ``RidgeCV(alphas)``, one alpha for all of the subject's neuroids by efficient
  leave-one-out error), predict the test stimuli, Pearson r per neuroid against the repetition-averaged test
  responses; the subject's raw score is the median over its neuroids (NaN skipped: xarray's ``median``);
* the subject's ceiling: the split-half internal consistency of its test trials (Spearman-Brown corrected r per
  neuroid per split), ``np.mean(np.median(per_split_per_neuroid, axis=1))`` (median over the subject's neuroids,
  NaN propagating as ``np.median`` does, then mean over the 10 splits);
* ceiled: raw² / ceiling per subject; the score is the mean over subjects, raw the mean of the subjects' raws,
  and the reported ceiling the internal consistency over all neuroids (the ordinary ceiling stage).

The fit runs on the Gram matrix of the train and test activations stacked (:func:`gram_fit.fit_predict_gram`,
numpy), which gives scikit-learn's predictions up to rounding.
"""

from __future__ import annotations

import numpy as np

from .gram_fit import ALPHA_LIST, cpu_gram, fit_predict_gram
from .neuroid_consistency import neuroid_consistency
from .stats import pearson_columns


def _subjects(groups):
    groups = np.asarray(groups)
    return np.unique(groups), groups


def fit_train_test(name: str, X_train, Y_train, X_test, Y_test, groups=None, alphas=None, alpha: float = 1.0):
    """Fit ``name`` ('ridge' or 'ridgecv') on (X_train, Y_train), predict X_test, correlate with Y_test.

    X_*: (stimuli, features) activations in the same stimulus order as Y_* (stimuli, neuroids). ``groups``:
    (neuroids,) subject of each neuroid (None: one group). Returns {'values': r per neuroid, 'per_subject':
    {subject: {'raw': median r, 'alpha': alpha, 'n_neuroids': n}}}."""
    if name not in ("ridge", "ridgecv"):
        raise ValueError(f"a train/test fit supports ridge and ridgecv, not {name!r}")
    X_train, X_test = np.asarray(X_train), np.asarray(X_test)
    Y_train, Y_test = np.asarray(Y_train, dtype=np.float64), np.asarray(Y_test, dtype=np.float64)
    if X_train.shape[1] != X_test.shape[1]:
        raise ValueError(f"train and test activations differ in features: {X_train.shape[1]} vs {X_test.shape[1]}")
    if Y_train.shape[1] != Y_test.shape[1]:
        raise ValueError(f"train and test recordings differ in neuroids: {Y_train.shape[1]} vs {Y_test.shape[1]}")
    n_train, n_test = len(X_train), len(X_test)
    gram = cpu_gram(np.concatenate([X_train, X_test]))
    train, test = np.arange(n_train), np.arange(n_train, n_train + n_test)
    subjects, groups = _subjects(np.full(Y_train.shape[1], "all") if groups is None else np.asarray(groups).astype(str))
    values = np.full(Y_train.shape[1], np.nan)
    per_subject = {}
    params = {"alphas": tuple(alphas or ALPHA_LIST)} if name == "ridgecv" else {"alpha": float(alpha)}
    for subject in subjects:
        columns = np.flatnonzero(groups == subject)
        Y = np.concatenate([Y_train[:, columns], np.zeros((n_test, len(columns)))])
        info = {}
        prediction = fit_predict_gram(name, gram, train, test, Y, n_features=X_train.shape[1],
                                      x_dtype=X_train.dtype, info=info, **dict(params))
        r = pearson_columns(prediction, Y_test[:, columns])
        values[columns] = r
        per_subject[str(subject)] = {"raw": float(np.nanmedian(r)), "alpha": info.get("alpha"),
                                     "n_neuroids": int(len(columns))}
    return {"values": values.tolist(), "per_subject": per_subject}


def subject_ceilings(trials, groups, n_splits=10, random_state=1):
    """Per subject, the internal-consistency ceiling of its neuroids in ``trials`` (a (presentation, neuroid)
    DataArray with ``stimulus_id`` and ``repetition``): {subject: {'ceiling', 'per_split'}}, as Brain-Score's
    ``TrainTestNeuralBenchmark`` slices its ceiling's per-neuroid values (see the module docstring)."""
    r = neuroid_consistency(trials, n_splits, random_state)  # (split, neuroid)
    subjects, groups = _subjects(np.asarray(groups).astype(str))
    per_split = {str(s): [float(np.median(row[groups == s])) for row in r] for s in subjects}
    return {s: {"ceiling": float(np.mean(v)), "per_split": v} for s, v in per_split.items()}


def subject_scores(per_subject: dict, ceilings: dict):
    """Brain-Score's aggregate over subjects: {'score': mean raw²/ceiling, 'raw': mean raw, 'per_subject'}."""
    missing = sorted(set(per_subject) - set(ceilings))
    if missing:
        raise ValueError(f"no ceiling for subject(s) {missing}; ceilings cover {sorted(ceilings)}")
    rows = {s: dict(v, ceiling=ceilings[s]["ceiling"],
                    score=v["raw"] ** 2 / ceilings[s]["ceiling"]) for s, v in sorted(per_subject.items())}
    return {"score": float(np.mean([r["score"] for r in rows.values()])),
            "raw": float(np.mean([r["raw"] for r in rows.values()])), "per_subject": rows}
