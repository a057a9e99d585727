"""Scoring one subject at a time and averaging over subjects, with a data set's published per-voxel noise ceiling.

For fMRI data sets whose subjects have their own voxels (and, in some pools, their own stimuli), Brain-Score fits
and ceils each subject on its own dense slice and then averages (brain-score/vision
brainscore_vision/benchmark_helpers/multi_subject.py ``MultiSubjectNeuralBenchmark``; the LAION-fMRI benchmark
brainscore_vision/benchmarks/laion_fmri/benchmark.py is the one that uses it with the published ``ncsnr`` noise
ceilings). The steps, as plain array functions:

* :func:`ncsnr_correlation`: a published noise ceiling in % explained variance (``nc_12rep``, 0–100) as a
  correlation, ``sqrt(clip(nc, 0, 100) / 100)`` in float32 (Brain-Score's ``_ncsnr_ceiling`` reads the coordinate
  ``astype(np.float32)``);
* :func:`ncsnr_ceiling`: its median over a subject's voxels (the regression ceiling, ``_ncsnr_ceiling``) or its
  NaN-ignoring mean (the RDM ceiling, ``_ncsnr_rsa_ceiler``);
* :func:`split_masks` / :func:`ood_category`: train/test membership of trial labels from a split's image-id lists
  (``laion_fmri.splits.get_split_masks``, ``ood_types`` filter by file-name category);
* :func:`ridgecv_split_subject`: RidgeCV on the train stimuli (one alpha for all voxels, sklearn's LOO choice, which
  Brain-Score's dual form ``DualRidgeCVRegression`` selects on a gram-equivalent design), Pearson r per voxel on
  the test stimuli, median over voxels (metrics/regression_correlation ``dual_ridgecv_split``);
  :func:`ridgecv_train_then_test` the same on one array of the train rows then the test rows;
* :func:`aggregate_subjects`: score = mean over subjects of each subject's ceiled score, raw = NaN-ignoring mean of
  the subjects' raw values, ceiling = mean of their ceilings, ceiling error = their SEM (ddof 1);
* :func:`pairwise_cka_ceiling`: the mean unbiased linear CKA over subject pairs i < j and its SEM over pairs
  (``_intersubject_cka_ceiling``).
"""

from __future__ import annotations

import re

import numpy as np

#: OOD stimulus file names (``shared_4rep_OOD_<category>_<...>.png|jpg``): ``laion_fmri.splits._OOD_FILENAME_RE``
OOD_FILENAME = re.compile(r"^shared_4rep_OOD_([a-zA-Z0-9-]+)_.+\.(png|jpg)$")


def ncsnr_correlation(nc_percent) -> np.ndarray:
    """Per-voxel noise ceiling in % explained variance (0–100) → correlation scale, float32 as Brain-Score."""
    nc = np.asarray(nc_percent).astype(np.float32)
    return np.sqrt(np.clip(nc, 0, 100) / 100.0)


def ncsnr_ceiling(nc_percent, aggregate: str = "median") -> float:
    """The subject's ceiling: the median (regression) or NaN-ignoring mean (RDM) of :func:`ncsnr_correlation`."""
    r = ncsnr_correlation(nc_percent)
    if r.size == 0:
        raise ValueError("no voxels to take a noise ceiling over")
    if aggregate == "median":
        return float(np.nanmedian(r))
    if aggregate == "mean":
        return float(np.nanmean(r))
    raise ValueError(f"aggregate must be 'median' or 'mean', got {aggregate!r}")


def ood_category(image_id) -> str | None:
    """The OOD category of a stimulus file name, or None for a regular image."""
    match = OOD_FILENAME.match(str(image_id))
    return match.group(1) if match else None


def split_masks(labels, train_ids, test_ids, ood_types=None):
    """(train, test) boolean masks over ``labels`` (one per trial or stimulus); ``ood_types`` keeps only test
    images of those OOD categories."""
    labels = np.asarray(labels).astype(str)
    test_ids = [str(i) for i in test_ids]
    if ood_types is not None:
        keep = set(ood_types)
        test_ids = [i for i in test_ids if ood_category(i) in keep]
    train = np.isin(labels, np.asarray([str(i) for i in train_ids]))
    test = np.isin(labels, np.asarray(test_ids))
    return train, test


def ridgecv_split_subject(X_train, Y_train, X_test, Y_test, alphas) -> dict:
    """RidgeCV fitted on (X_train, Y_train), Pearson r per target column on the test rows; the median over columns
    (NaN-ignoring, xarray's default) as ``raw``, the per-voxel r and the chosen alpha. Fitted from the Gram matrix
    of the stimuli (:func:`brainpipe.neural.gram_fit.fit_predict_gram`: Brain-Score's dual form, numpy only)."""
    X_train, X_test = np.asarray(X_train), np.asarray(X_test)
    X = np.concatenate([X_train, X_test]).reshape(len(X_train) + len(X_test), -1)
    return ridgecv_train_then_test(X, len(X_train), Y_train, Y_test, alphas)


def ridgecv_train_then_test(X, n_train: int, Y_train, Y_test, alphas) -> dict:
    """:func:`ridgecv_split_subject` of ``X``'s first ``n_train`` rows (train) and the rest (test), as one (n,
    features) array: a caller that reads the rows in that order needs no second copy of them."""
    from brainpipe.neural.gram_fit import cpu_gram, fit_predict_gram
    from brainpipe.neural.stats import pearson_columns

    info = {}
    prediction = fit_predict_gram("ridgecv", cpu_gram(X), np.arange(n_train), np.arange(n_train, len(X)),
                                  np.concatenate([np.asarray(Y_train), np.asarray(Y_test)]),
                                  n_features=X.shape[1], x_dtype=X.dtype, info=info, alphas=tuple(alphas))
    r = pearson_columns(prediction, np.asarray(Y_test, dtype=np.float64))
    return {"raw": float(np.nanmedian(r)), "per_voxel": r, "alpha": float(info["alpha"])}


def aggregate_subjects(raws, ceilings, normalisation: str = "raw2_over_ceiling") -> dict:
    """Average over subjects: each subject ceiled on its own (raw²/ceiling for a regression, raw/ceiling for an
    RDM or CKA), the mean of those the score; the raw and ceiling means and the ceiling's SEM beside it."""
    raws = np.asarray(raws, dtype=np.float64)
    ceilings = np.asarray(ceilings, dtype=np.float64)
    if raws.shape != ceilings.shape or raws.ndim != 1 or raws.size == 0:
        raise ValueError(f"one raw and one ceiling per subject, got {raws.shape} and {ceilings.shape}")
    if normalisation == "raw2_over_ceiling":
        ceiled = raws ** 2 / ceilings
    elif normalisation == "raw_over_ceiling":
        ceiled = raws / ceilings
    else:
        raise ValueError(f"unknown normalisation {normalisation!r}")
    n = len(raws)
    return {"score": float(ceiled.mean()), "raw": float(np.nanmean(raws)), "ceiling": float(ceilings.mean()),
            "ceiling_error": float(ceilings.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0,
            "per_subject": ceiled.tolist(), "raw_per_subject": raws.tolist(),
            "ceiling_per_subject": ceilings.tolist()}


def pairwise_cka_ceiling(representations, unbiased: bool = True) -> dict:
    """Mean linear CKA over subject pairs i < j of (stimulus × voxel) arrays in one stimulus order; SEM over
    pairs (ddof 1) as the error."""
    from brainpipe.neural.representational import cka

    if len(representations) < 2:
        raise ValueError("the inter-subject CKA ceiling needs at least two subjects")
    pairs = [cka(representations[i], representations[j], unbiased=unbiased)
             for i in range(len(representations)) for j in range(i + 1, len(representations))]
    pairs = np.asarray(pairs, dtype=np.float64)
    error = float(pairs.std(ddof=1) / np.sqrt(pairs.size)) if pairs.size > 1 else 0.0
    return {"ceiling": float(pairs.mean()), "error": error, "pairs": pairs.tolist()}
