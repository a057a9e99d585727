"""One fold of a metric: the unit of work the workflow runs as one job.

Regression metrics (brain-score/vision metrics/regression_correlation/metric.py): fit on the fold's train
stimuli, predict the test stimuli, Pearson r per neuroid. Representational metrics (metrics/rdm, metrics/cka):
compare the two representations on the fold's stimuli. Temporal ``spantime_*`` metrics (brain-score/vision
brainscore_vision/metric_helpers/temporal.py): one regression on (time_bin × stimulus) samples, r per neuroid per time bin.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Protocol

import numpy as np

# Regressions that can be fitted from the stimulus Gram matrix X Xᵀ alone (computed once per layer), so a fold job
# never loads the activations: ridge, ridgecv and linear through their dual forms, PLS through its kernel form.
from .gram_fit import GRAM_REGRESSIONS
from .metric_names import MASK_METRICS, REGRESSION_METRICS, FIXED_TRAIN_TEST_METRICS
from .splits import cv_splits, exclude_shared_train
from .stats import pearson_columns

if TYPE_CHECKING:  # xarray is imported where an array is built: a fold job fitted from a Gram never needs it
    import xarray as xr



class FoldBenchmark(Protocol):
    """What a fold reads of a benchmark (a :class:`brainpipe.benchmarks.Benchmark`). Neural code does not import
    the benchmark definitions: imports flow from benchmarks to neural, never back."""

    identifier: str
    kind: str
    metric: str
    n_folds: int
    settings: dict
    family: object


#: the presentation coordinate with 'train' / 'test' (stimuli of the *_split metrics, joined train/test files): the
#: same name as brainpipe.data.train_test.TRAIN_TEST_COORD, which writes it (neural does not import data)
TRAIN_TEST_COORD = "split"


def positions(source: xr.DataArray, target: xr.DataArray, source_name="activations", target_name="target"):
    """Index of each target stimulus (the target is sorted by stimulus_id) among the source's presentations."""
    position = {stimulus: i for i, stimulus in enumerate(source["stimulus_id"].values.astype(str))}
    target_ids = target["stimulus_id"].values.astype(str)
    missing = [s for s in target_ids if s not in position]
    if missing:
        raise ValueError(f"{source_name} lacks {len(missing)} stimuli of {target_name}, e.g. {missing[:3]}")
    return np.array([position[s] for s in target_ids])


def align(source: xr.DataArray, target: xr.DataArray, source_name="activations", target_name="target"):
    """Reorder ``source`` presentations to the target's stimulus order."""
    return source.isel(presentation=positions(source, target, source_name, target_name))


def fold_indices(benchmark: FoldBenchmark, target: xr.DataArray, fold: int, source_rows=None):
    """(train, test) indices into the target's presentations for ``fold``; train is None for test-only splits.

    ``source_rows``: each target stimulus's row in the model's activations (their stimulus-set order), needed by a
    family that drops train stimuli sharing a key with the test stimuli (``Family.selection.train_exclusion``)."""
    n = target.sizes["presentation"]
    if not 0 <= fold < benchmark.n_folds:
        raise ValueError(f"{benchmark.identifier}: fold {fold} out of range 0..{benchmark.n_folds - 1}")
    settings = benchmark.settings
    random_state = settings.get("random_state", 1)
    stratification = benchmark.family.stratification
    if stratification is not None and stratification not in target.coords:
        raise ValueError(f"{benchmark.identifier}: target has no stratification coordinate {stratification!r}")
    labels = target[stratification].values if stratification else None
    # the data's own train/test split (Family.train_test.files, joined by brainpipe.data.train_test): regressions fit once
    train_test = getattr(benchmark.family, "train_test", None)
    if benchmark.metric in FIXED_TRAIN_TEST_METRICS or (train_test and train_test.files
                                                        and benchmark.kind == "regression"):
        if TRAIN_TEST_COORD not in target.coords:
            raise ValueError(f"{benchmark.identifier}: a *_split metric needs a presentation coordinate "
                             f"{TRAIN_TEST_COORD!r} with 'train'/'test' values; the data has none")
        split = target[TRAIN_TEST_COORD].values.astype(str)
        return np.flatnonzero(split == "train"), np.flatnonzero(split == "test")
    if benchmark.metric in ("rdm", "cka", "cka_biased"):
        return None, np.arange(n)
    if benchmark.metric in ("rdm_cv", "cka_cv"):
        # TestOnlyCrossValidation: StratifiedShuffleSplit(test_size=.9); only the test part is compared.
        _, test = cv_splits(n, labels, benchmark.n_folds, train_size=None, test_size=0.9,
                            random_state=random_state, benchmark=benchmark.identifier,
                            stratified_by=stratification)[fold]
        return None, test
    train, test = cv_splits(n, labels, benchmark.n_folds, train_size=settings.get("train_size", 0.9),
                            random_state=random_state, benchmark=benchmark.identifier,
                            stratified_by=stratification)[fold]
    selection = getattr(benchmark.family, "selection", None)
    exclusion = selection.train_exclusion if selection else None
    if exclusion:
        if exclusion not in target.coords:
            raise ValueError(f"{benchmark.identifier}: target has no presentation coordinate {exclusion!r}")
        if source_rows is None:
            raise ValueError(f"{benchmark.identifier}: excluding shared {exclusion} needs the activations' order")
        # Brain-Score (igustibagus2024 _preprocess_indices) reads the key at the split's positions (the target's
        # stimulus_id order) in the *model's* assembly, whose stimuli are in stimulus-set order: the keys of the
        # target's stimuli taken in the activations' order, as it does
        keys = target[exclusion].values[np.argsort(np.asarray(source_rows), kind="stable")]
        train = exclude_shared_train(train, test, keys, benchmark=benchmark.identifier, coordinate=exclusion)
    return train, test


def _regression_name(metric):
    name = metric.removesuffix("_split").removeprefix("spantime_").removeprefix("reverse_")
    if name not in REGRESSION_METRICS:
        raise ValueError(f"metric {metric!r} is not a regression metric")
    return name


def _regression_params(benchmark):
    name = _regression_name(benchmark.metric)
    params = {}
    if name == "pls":
        params["n_components"] = int(benchmark.settings.get("pls_components", 25))
    if name == "ridge":
        params["alpha"] = float(benchmark.settings.get("ridge_alpha", 1.0))
    return name, params


def spantime_sample_space_bytes(benchmark: FoldBenchmark, n_stimuli: int, n_bins: int, n_features: int) -> int:
    """Memory a spantime fold fit needs beyond its inputs where it solves in sample space: its samples are the
    (bin × training stimulus) pairs, and PLS's kernel path (only for ``features >= 2 × samples``) or ridge's dual
    (``samples <= features``) hold about four samples × samples float64 matrices at once (the Gram, its
    symmetrised copy, the deflated or factorised copy, a temporary). Zero where the fit stays in feature space."""
    name, _ = _regression_params(benchmark)
    samples = n_bins * math.ceil(n_stimuli * float(benchmark.settings.get("train_size", 0.9)))
    in_sample_space = {"pls": n_features >= 2 * samples, "ridge": samples <= n_features}.get(name, False)
    return 4 * 8 * samples * samples if in_sample_space else 0


def pls_cap(benchmark: FoldBenchmark, n_train: int, n_features: int, rank_floor_at: int | None = None):
    """What a fold's PLS fit does with more components than the data allow, or None when it fits them all.

    The fit clamps ``pls_components`` to ``min(pls_components, n_train - 1, n_features)`` (the rank of the centred
    training activations); Brain-Score's scikit-learn PLSRegression refuses such a request instead. The cap is kept,
    but written into the fold's JSON (and so into the score JSON) and the job's log, so that a score is never
    silently computed with fewer components than the config asks for.

    ``rank_floor_at``: the component where a fit from the Gram stopped because the layer's numerical rank was used
    up (``gram_fit.pls_kernel``); recorded the same way, with why."""
    if _regression_name(benchmark.metric) != "pls":
        return None
    requested = int(benchmark.settings.get("pls_components", 25))
    used = min(requested, n_train - 1, n_features)
    if rank_floor_at is not None and rank_floor_at < used:
        return {"requested": requested, "used": int(rank_floor_at),
                "why": f"{benchmark.identifier}: the layer's activations have numerical rank {rank_floor_at} on this "
                       f"fold's {n_train} training stimuli ({n_features} features): PLS fitted {rank_floor_at} of "
                       f"the {requested} pls_components (Brain-Score's scikit-learn PLSRegression fits the remaining "
                       f"components to the activations' float rounding, numbers set by rounding alone). Commit a "
                       f"layer of higher rank, or set "
                       f"benchmark_settings.{benchmark.identifier}.pls_components to at most {rank_floor_at}."}
    if used == requested:
        return None
    limit = f"{n_train} training samples - 1" if n_train - 1 <= n_features else f"{n_features} features"
    return {"requested": requested, "used": int(used),
            "why": f"{benchmark.identifier}: pls_components {requested} is more than this fold's data allow "
                   f"({limit}); fitted with {used} components (scikit-learn's PLSRegression, as Brain-Score uses "
                   f"it, would refuse). Set benchmark_settings.{benchmark.identifier}.pls_components to at most "
                   f"{used} to fit what you ask for."}


def uses_gram(benchmark: FoldBenchmark) -> bool:
    """Whether the benchmark's folds are fitted from the layer's Gram matrix rather than its activations."""
    return (benchmark.kind == "regression" and benchmark.metric not in MASK_METRICS
            and _regression_name(benchmark.metric) in GRAM_REGRESSIONS)


def gram_matrix(source: xr.DataArray, device="cpu") -> xr.DataArray:
    """The uncentred stimulus Gram matrix X Xᵀ of a (presentation, neuroid) layer, float64, with its stimulus ids."""
    if device == "cpu":
        from .gram_fit import cpu_gram

        values = cpu_gram(source.values)
    else:  # torch only where a GPU computes it
        from .regression import gram

        values = gram(source.values, device=device)
    import xarray as xr

    stimulus_ids = source["stimulus_id"].values.astype(str)
    return xr.DataArray(values, dims=("presentation", "presentation_other"),
                        coords={"stimulus_id": ("presentation", stimulus_ids)},
                        attrs={**source.attrs, "n_features": int(source.sizes["neuroid"])})


def run_fold_gram(benchmark: FoldBenchmark, gram: xr.DataArray, target: xr.DataArray, fold: int, device="cpu"):
    """Score one fold of a regression metric from the layer's Gram matrix (see GRAM_REGRESSIONS): numpy on the
    CPU whatever the device (gram_fit explains why)."""
    from .gram_fit import fit_predict_gram

    index = positions(gram, target, "Gram matrix")  # the target's stimuli among the Gram's rows
    train, test = fold_indices(benchmark, target, fold, source_rows=index)
    name, params = _regression_params(benchmark)
    Y = target.values
    # The fit indexes the Gram's own rows (index[train], index[test]) and the targets are placed on those rows:
    # the same numbers as reordering the whole (n, n) Gram to the target's order first, without that copy.
    Y_on_gram_rows = np.zeros((gram.shape[0],) + Y.shape[1:], dtype=Y.dtype)
    Y_on_gram_rows[index] = Y
    info = {}
    prediction = fit_predict_gram(name, gram.values, index[train], index[test], Y_on_gram_rows, device=device,
                                  n_features=gram.attrs.get("n_features"), info=info, **params)
    result = {"fold": fold, "n_test": int(len(test)), "n_train": int(len(train)),
              "test_stimulus_ids": target["stimulus_id"].values[test].astype(str).tolist(),
              "values": pearson_columns(prediction, Y[test]).tolist(),
              "neuroid_id": target["neuroid_id"].values.astype(str).tolist(), "fitted_from": "gram", **info}
    _add_groups(benchmark, target, result)
    n_features = gram.attrs.get("n_features")
    capped = pls_cap(benchmark, len(train), len(train) if n_features is None else int(n_features),
                     rank_floor_at=info.get("rank_floor_at"))
    if capped:
        result["pls_components_capped"] = capped
    return result


def run_fold(benchmark: FoldBenchmark, source: xr.DataArray, target: xr.DataArray, fold: int, device="cpu"):
    """Score one fold. Returns a dict with the fold's values (per neuroid, or one similarity)."""
    if benchmark.kind == "reverse":
        return run_reverse_fold(benchmark, source, target, fold, device)
    rows = positions(source, target)
    source = source.isel(presentation=rows)
    train, test = fold_indices(benchmark, target, fold, source_rows=rows)
    X = source.values
    Y = target.values
    result = {"fold": fold, "n_test": int(len(test)), "n_train": 0 if train is None else int(len(train)),
              "test_stimulus_ids": target["stimulus_id"].values[test].astype(str).tolist()}
    if benchmark.kind == "representational":
        from .representational import similarity, subject_rdm_similarity

        name = benchmark.metric.removesuffix("_cv")
        subject = getattr(benchmark.family, "subject_coord", None)
        if name == "rdm" and subject:  # one RDM per subject, similarities averaged (Brain-Score's RSABenchmark)
            if subject not in target.coords:
                raise ValueError(f"{benchmark.identifier}: target has no neuroid coordinate {subject!r} "
                                 f"(one RDM per subject)")
            per_subject = subject_rdm_similarity(X[test], Y[test], target[subject].values)
            result["value"] = float(np.mean(list(per_subject.values())))
            result["subject_values"] = per_subject
            return result
        result["value"] = float(similarity(name, X[test], Y[test]))
        return result
    if benchmark.metric in MASK_METRICS:  # a readout on the layer's (channel, x, y) grid, not a flat regression
        return _run_mask_fold(source, Y, train, test, target, result, fold)
    from .regression import UndefinedCorrelationError

    try:
        return _run_regression_fold(benchmark, X, Y, train, test, target, result, device)
    except UndefinedCorrelationError as error:
        raise _undefined_correlation_message(error, benchmark, target, fold, len(train)) from None


def _run_mask_fold(source, Y, train, test, target, result, fold):
    """One fold of Brain-Score's mask regression (brainpipe.neural.mask_regression), seeded by the fold's index."""
    from .mask_regression import GRID_COORDS, MaskRegression, fold_random_state, to_grid

    missing = [c for c in GRID_COORDS if c not in source.coords]
    if missing:
        raise ValueError(f"mask regression needs the layer's unit coordinates {list(GRID_COORDS)}; missing {missing}")
    X = to_grid(source.values, *(source[c].values for c in GRID_COORDS))
    regression = MaskRegression(fold_random_state(fold)).fit(X[train], Y[train])
    result["values"] = pearson_columns(regression.predict(X[test]), Y[test]).tolist()
    result["epochs"] = regression.epochs_run
    result["neuroid_id"] = target["neuroid_id"].values.astype(str).tolist()
    return result


def _undefined_correlation_message(error, benchmark: FoldBenchmark, target: xr.DataArray, fold: int, n_train: int):
    """A ValueError for ``neuron_to_neuron`` targets without a defined Pearson r, naming the neuroid ids, the
    fold and the target file. Brain-Score (brain-score/vision metrics/regression_correlation/metric.py,
    SingleRegression: ``np.nanargmax`` of all-NaN r) raises here too; a number for such a neuroid would be made up."""
    where = target.encoding.get("source", "the target assembly")
    ids = target["neuroid_id"].values.astype(str)[error.constant_targets].tolist()
    lines = [f"{benchmark.identifier}, fold {fold}: neuron_to_neuron has no defined Pearson r"]
    if ids:
        lines.append(f"{len(ids)} target neuroid(s) in {where} are constant over the fold's {n_train} training "
                     f"stimuli: {', '.join(ids[:20])}{' ...' if len(ids) > 20 else ''}. Such a neuroid carries no "
                     f"response to predict: remove it from the recordings (or check why its responses are constant)")
    if error.source_constant:
        lines.append("every unit of the model layer is constant over the training stimuli: "
                     "check the layer's activations (e.g. a dead ReLU layer) or choose another layer")
    return ValueError("; ".join(lines))


def _run_regression_fold(benchmark, X, Y, train, test, target, result, device):
    from .regression import StackedBins, make_regression, resolve_device

    name, params = _regression_params(benchmark)
    if benchmark.kind == "temporal":
        if Y.ndim != 3:
            raise ValueError(f"{benchmark.identifier}: a spantime metric needs a target with a time_bin dimension")
        n_bins = Y.shape[2]
        # A static model's output holds for every bin (Brain-Score's TemporalAligned): index it, don't copy it.
        source_bin = (lambda b: X[:, :, b]) if X.ndim == 3 else (lambda b: X)
        # One fit on the (bin × stimulus) samples. The design is never stacked (time × presentation × features at
        # once, GBs for a wide layer): StackedBins hands the regression the blocks it reads; the targets are small.
        samples = StackedBins(X, train, n_bins, device=resolve_device(device))
        targets = np.concatenate([Y[train, :, b] for b in range(n_bins)])
        regression = make_regression(name, device=device, **params).fit(samples, targets)
        static_prediction = regression.predict(X[test]) if X.ndim == 2 else None
        per_bin = [pearson_columns(static_prediction if static_prediction is not None
                                   else regression.predict(source_bin(b)[test]), Y[test, :, b])
                   for b in range(n_bins)]
        result["values"] = [r.tolist() for r in per_bin]
        result["time_bin_start"] = target["time_bin_start"].values.tolist()
        result["time_bin_end"] = target["time_bin_end"].values.tolist()
        capped = pls_cap(benchmark, n_bins * len(train), X.shape[1],  # one sample per (time bin, stimulus)
                         getattr(regression, "rank_floor_at_", None))
    else:
        regression = make_regression(name, device=device, **params).fit(X[train], Y[train])
        result["values"] = pearson_columns(regression.predict(X[test]), Y[test]).tolist()
        if hasattr(regression, "alpha_"):
            result["alpha"] = float(regression.alpha_)
        capped = pls_cap(benchmark, len(train), X.shape[1], getattr(regression, "rank_floor_at_", None))
    if capped:
        result["pls_components_capped"] = capped
    result["neuroid_id"] = target["neuroid_id"].values.astype(str).tolist()
    _add_groups(benchmark, target, result)
    return result


def _add_groups(benchmark, target, result):
    """Each neuroid's value of the family's ``train_test.score_per`` coordinate (subject), for scores aggregated per
    value."""
    train_test = getattr(benchmark.family, "train_test", None)
    coord = train_test.score_per if train_test else None
    if coord:
        if coord not in target.coords:
            raise ValueError(f"{benchmark.identifier}: target has no neuroid coordinate {coord!r} to score per")
        result["groups"] = target[coord].values.astype(str).tolist()


def run_reverse_fold(benchmark: FoldBenchmark, source: xr.DataArray, target: xr.DataArray, fold: int, device="cpu"):
    """One fold of reverse predictivity (``reverse_pls``): the recordings predict the model's units.

    As brain-score/vision metrics/regression_correlation/metric.py ``ReverseCrossRegressedCorrelation`` computes it
    (``CrossRegressedCorrelation`` with source and target swapped): the cross-validation splits are drawn over the
    *model's* presentations (the stimulus set's order, which the layer's activations keep) stratified by the
    recordings' stratification coordinate, PLS (``pls_components``, unscaled) is fitted from the trial-averaged
    recordings to the layer's units, and the fold's value is the median over units of the Pearson r on the test
    stimuli (units whose r is undefined, e.g. constant over the stimuli, are left out as xarray's median skips NaN).
    """
    from .regression import make_regression

    index = positions(source, target)  # the target's stimuli among the activations' presentations
    order = np.argsort(index, kind="stable")  # the target's stimuli in the model's order
    target = target.isel(presentation=order)
    model = source.values[index[order]]
    if model.ndim != 2:
        raise ValueError(f"{benchmark.identifier}: reverse predictivity needs one response per unit and stimulus, "
                         f"got activations of shape {model.shape}")
    train, test = fold_indices(benchmark, target, fold)
    name, params = _regression_params(benchmark)
    recordings = np.asarray(target.values, dtype=np.float64)
    if name == "pls" and recordings.shape[1] < params["n_components"]:
        raise ValueError(f"{benchmark.identifier}: {recordings.shape[1]} neuroids predict the model's units, fewer "
                         f"than pls_components = {params['n_components']}; Brain-Score's PLS (sklearn "
                         f"PLSRegression) refuses this. Set benchmark_settings.{benchmark.identifier}.pls_components "
                         f"to at most {recordings.shape[1]}")
    regression = make_regression(name, device=device, **params).fit(recordings[train], model[train])
    r = pearson_columns(regression.predict(recordings[test]), model[test])
    defined = np.isfinite(r)
    return {"fold": fold, "n_test": int(len(test)), "n_train": int(len(train)),
            "test_stimulus_ids": target["stimulus_id"].values[test].astype(str).tolist(),
            "value": float(np.median(r[defined])) if defined.any() else float("nan"),
            "n_units": int(r.size), "n_units_undefined": int((~defined).sum())}
