"""Small statistics shared by metrics and ceilings."""

import numpy as np


def pearson_columns(a, b):
    """Pearson r between matching columns of ``a`` and ``b``.

    a, b : arrays of shape (n_samples, n_columns). Returns shape (n_columns,), float64.
    A constant column gives NaN (scipy.stats.pearsonr does the same, with a warning), so a
    caller's median over neuroids sees it rather than a silent 0.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2:
        raise ValueError(f"pearson_columns needs two 2-D arrays of one shape, got {a.shape} and {b.shape}")
    a = a - a.mean(axis=0)
    b = b - b.mean(axis=0)
    denominator = np.sqrt((a * a).sum(axis=0) * (b * b).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (a * b).sum(axis=0) / denominator
    r[denominator == 0] = np.nan
    return np.clip(r, -1.0, 1.0)


def sem(values):
    """Standard error of the mean as Brain-Score computes it: std with ddof=0 over sqrt(n).

    (brain-score/vision metric_helpers/transformations.py, standard_error_of_the_mean: xarray .std, ddof 0.)
    """
    values = np.asarray(values, dtype=np.float64)
    return float(np.std(values, ddof=0) / np.sqrt(len(values)))


def spearman_brown(r, n=2.0):
    """Spearman-Brown prophecy: reliability of the full data from a split-half correlation."""
    r = np.asarray(r, dtype=np.float64)
    return n * r / (1 + (n - 1) * r)
