"""I1 and I2n: image-level behavioural consistency (Rajalingham, Issa et al. 2018), as Brain-Score computes them.

Upstream: brain-score/vision brainscore_vision/metrics/i1i2/metric.py (``_Behavior_Metric``, ``_I``), ceiling use in
brainscore_vision/benchmarks/rajalingham2018/benchmarks/benchmark.py. Steps, exactly as upstream:

* model side: p(i, c) = P(c) / (P(c) + P(truth_i)) from the model's class probabilities; NaN where c = truth_i;
* human side, per split: the trials are shuffled with one ``RandomState(0)`` shared by both splits (a fresh one for
  the score and for the ceiling, so split k of both uses the same shuffle) and halved at ``int(n / 2)``; p(i, c) =
  #answers c on image i / #trials on image i that offered c (as sample or distractor); NaN if none or c = truth_i;
  the choices are the sorted unique answers of the half;
* d′(i, c) = Φ⁻¹(1 − p(i, c)) − Φ⁻¹(FAR), FAR = nanmean of p(j, truth_i) over the images j whose truth is c; clipped
  to ±5; I2n subtracts the nanmean within each (truth, choice) group; I1 averages over choices (skipping NaN);
* correlation: both sides sorted by stimulus id (and choice), entries kept where the target is not NaN (and the
  source too with ``skipna``), Pearson r;
* score: model vs the first half, per split; ceiling: first half vs second half, per split, **no Spearman–Brown**;
  aggregate mean over the 2 splits, error std (ddof 0).
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr
from numpy.random import RandomState

from ._common import Result, check_no_missing, coord, levels, require_coords, source_name, where

DPRIME_CAP = 5
REPETITIONS = 2
HUMAN_COORDS = ("stimulus_id", "truth", "sample_obj", "dist_obj")


class _Matrix:
    """An image × choice matrix with its sorted-able labels (a light stand-in for upstream's DataAssembly)."""

    def __init__(self, ids, truths, choices, values):
        self.ids, self.truths, self.choices = np.asarray(ids), np.asarray(truths), np.asarray(choices)
        self.values = np.asarray(values, dtype=float)


def model_matrix(probabilities: xr.DataArray, target: xr.DataArray) -> _Matrix:
    """Upstream ``add_source_meta`` + ``target_distractor_scores``: p(i, c) = P(c) / (P(c) + P(truth_i))."""
    name = source_name(probabilities)
    if set(probabilities.dims) != {"presentation", "choice"}:
        raise ValueError(f"{where(name)}model probabilities must have dims ('presentation', 'choice'), "
                         f"got {probabilities.dims}")
    require_coords(probabilities, ["stimulus_id", "choice"], "model probabilities", name)
    probabilities = probabilities.transpose("presentation", "choice")
    ids = coord(probabilities, "stimulus_id")
    if len(set(ids)) != len(ids):
        raise ValueError(f"{where(name)}model probabilities repeat stimuli (coordinate 'stimulus_id'); "
                         f"expected one row per stimulus")
    choices = np.asarray(probabilities["choice"].values)
    truth_of = dict(zip(coord(target, "stimulus_id"), coord(target, "truth")))
    unknown = levels([i for i in ids if i not in truth_of])
    if unknown:
        raise ValueError(f"{where(name)}{len(unknown)} model stimuli are not in the human data (coordinate "
                         f"'stimulus_id'), e.g. {unknown[:3]}")
    truths = np.array([truth_of[i] for i in ids])
    column = {c: k for k, c in enumerate(choices)}
    missing = levels(set(truths) - set(column))
    if missing:
        raise ValueError(f"{where(name)}true objects {missing} are not among the model's choices (coordinate "
                         f"'choice': {levels(choices)})")
    values = probabilities.values.astype(float)
    p_truth = values[np.arange(len(ids)), [column[t] for t in truths]][:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        p = values / (values + p_truth)
    p[truths[:, None] == choices[None, :]] = np.nan
    return _Matrix(ids, truths, choices, p)


def response_matrix(half: xr.DataArray) -> _Matrix:
    """Upstream ``build_response_matrix_from_responses`` on one half of the human trials."""
    answers = np.asarray(half.values)
    ids, truth = coord(half, "stimulus_id"), coord(half, "truth")
    choices = np.unique(answers)
    image_ids, first = np.unique(ids, return_index=True)
    truths = truth[first]
    row = np.searchsorted(image_ids, ids)
    k = len(choices)
    chosen = np.zeros((len(image_ids), k))
    offered = np.zeros((len(image_ids), k))
    np.add.at(chosen, (row, np.searchsorted(choices, answers)), 1)
    for objects in (coord(half, "sample_obj"), coord(half, "dist_obj")):
        position = np.searchsorted(choices, objects).clip(0, k - 1)
        known = choices[position] == objects  # objects never answered are never looked up upstream
        np.add.at(offered, (row[known], position[known]), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(offered > 0, chosen / np.where(offered > 0, offered, 1), np.nan)
    p[truths[:, None] == choices[None, :]] = np.nan
    return _Matrix(image_ids, truths, choices, p)


def dprimes(matrix: _Matrix, normalize: bool = True, cap: float = DPRIME_CAP, label: str = "") -> _Matrix:
    """Upstream ``_I.dprime`` → clip ±cap → (I2n) subtract the nanmean per (truth, choice) group."""
    column = {c: k for k, c in enumerate(matrix.choices)}
    missing_columns = levels(set(matrix.truths) - set(column))
    groups = {t: matrix.truths == t for t in set(matrix.truths)}
    missing_groups = levels(set(matrix.choices) - set(groups))
    if missing_columns or missing_groups:
        raise ValueError(f"{label}d′ needs every choice to be some image's truth and every truth to be a choice; "
                         f"truths without a choice column: {missing_columns}, choices that are no image's truth: "
                         f"{missing_groups} (coordinates 'truth', 'choice')")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nanmean of all-NaN groups is NaN, as upstream
        # far[c][k]: mean false-alarm rate of column k over the images whose truth is c
        far = {c: np.nanmean(matrix.values[groups[c]], axis=0) for c in matrix.choices}
        truth_columns = np.array([column[t] for t in matrix.truths])
        false_alarms = np.array([[far[c][truth_columns[i]] for c in matrix.choices]
                                 for i in range(len(matrix.ids))]).reshape(matrix.values.shape)
        import scipy.stats  # here: every behavioural metric job imports this module (scipy.stats ~1 s)

        dprime = scipy.stats.norm.ppf(1 - matrix.values) - scipy.stats.norm.ppf(false_alarms)
        dprime = np.clip(dprime, -cap, cap)
        if normalize:
            for t, rows in groups.items():
                dprime[rows] = dprime[rows] - np.nanmean(dprime[rows], axis=0)
    return _Matrix(matrix.ids, matrix.truths, matrix.choices, dprime)


def _collapse(matrix: _Matrix) -> _Matrix:
    """I1: mean over choices, skipping NaN (upstream ``collapse_distractors``)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _Matrix(matrix.ids, matrix.truths, np.array(["*"]), np.nanmean(matrix.values, axis=1)[:, None])


def correlate(source: _Matrix, target: _Matrix, skipna: bool = False, label: str = "") -> float:
    """Align by sorted stimulus id and choice; keep entries where the target (and with skipna the source) is
    not NaN; Pearson r. A NaN left in the source is an error, as upstream's assertion."""
    s_rows, t_rows = np.argsort(source.ids, kind="stable"), np.argsort(target.ids, kind="stable")
    s_cols, t_cols = np.argsort(source.choices, kind="stable"), np.argsort(target.choices, kind="stable")
    if len(s_rows) != len(t_rows) or not (source.ids[s_rows] == target.ids[t_rows]).all():
        raise ValueError(f"{label}the two sides cover different stimuli (coordinate 'stimulus_id': "
                         f"{len(s_rows)} vs {len(t_rows)}; only in one: "
                         f"{levels(set(source.ids) ^ set(target.ids))[:5]})")
    if len(s_cols) != len(t_cols) or not (source.choices[s_cols] == target.choices[t_cols]).all():
        raise ValueError(f"{label}the two sides have different choices (coordinate 'choice': "
                         f"{levels(source.choices)} vs {levels(target.choices)})")
    s = source.values[s_rows][:, s_cols].ravel()
    t = target.values[t_rows][:, t_cols].ravel()
    keep = ~np.isnan(t)
    if skipna:
        keep &= ~np.isnan(s)
    s, t = s[keep], t[keep]
    if np.isnan(s).any():
        raise ValueError(f"{label}{int(np.isnan(s).sum())} entries of the first side (model, or first half) are NaN "
                         f"where the second side's are not; for two halves of human data pass skipna=True")
    if len(s) < 2:
        raise ValueError(f"{label}fewer than two entries left to correlate")
    import scipy.stats

    return float(scipy.stats.pearsonr(s, t)[0])


def halves(assembly: xr.DataArray, random_state: RandomState):
    """Upstream ``generate_halves``: shuffle a list of indices in place, split at int(n / 2)."""
    indices = list(range(assembly.sizes["presentation"]))
    random_state.shuffle(indices)
    middle = int(len(indices) / 2)
    return (assembly.isel(presentation=indices[:middle]), assembly.isel(presentation=indices[middle:]))


def _human_matrix(half, collapse, normalize, label):
    matrix = dprimes(response_matrix(half), normalize=normalize, label=label)
    return _collapse(matrix) if collapse else matrix


def _check_human(target: xr.DataArray):
    name = source_name(target)
    if target.dims != ("presentation",):
        raise ValueError(f"{where(name)}human data must be one choice per trial along 'presentation', "
                         f"got dims {target.dims}")
    require_coords(target, HUMAN_COORDS, "human data", name)
    check_no_missing(target, HUMAN_COORDS, "human data", name)
    return name


def _aggregate(values: list[float]) -> Result:
    values = np.asarray(values, dtype=float)
    with warnings.catch_warnings():  # upstream aggregates with xarray, which skips NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        score, error = float(np.nanmean(values)), float(np.nanstd(values))
    return Result(score, error,
                  xr.DataArray(values, dims=("split",), coords={"split": np.arange(len(values))}))


def _score(probabilities, target, collapse, normalize, repetitions=REPETITIONS) -> Result:
    name = _check_human(target)
    source = dprimes(model_matrix(probabilities, target), normalize=normalize, label=f"{where(name)}model: ")
    if collapse:
        source = _collapse(source)
    random_state = RandomState(seed=0)  # upstream fixes the seed so that score and ceiling share the halves
    values = []
    for split in range(repetitions):
        first, _ = halves(target, random_state)
        label = f"{where(name)}split {split}: "
        values.append(correlate(source, _human_matrix(first, collapse, normalize, label), label=label))
    return _aggregate(values)


def _ceiling(target, collapse, normalize, skipna=False, repetitions=REPETITIONS) -> Result:
    name = _check_human(target)
    random_state = RandomState(seed=0)
    values = []
    for split in range(repetitions):
        label = f"{where(name)}ceiling split {split}: "
        one, two = (_human_matrix(h, collapse, normalize, label) for h in halves(target, random_state))
        values.append(correlate(one, two, skipna=skipna, label=label))
    return _aggregate(values)


def i2n(probabilities: xr.DataArray, target: xr.DataArray) -> Result:
    """I2n consistency of model class probabilities (presentation × choice) with human 2AFC trials.

    ``target``: one trial per presentation, value = the chosen object, coords ``stimulus_id``, ``truth``,
    ``sample_obj``, ``dist_obj``. Returns the mean Pearson r over 2 splits; ``values`` has the per-split r.
    """
    return _score(probabilities, target, collapse=False, normalize=True)


def i2n_ceiling(target: xr.DataArray, skipna: bool = False) -> Result:
    """Split-half consistency of the human I2n (per split, no Spearman–Brown); ``skipna=True`` where
    Brain-Score's benchmark skips missing cells (its public i2n benchmark does)."""
    return _ceiling(target, collapse=False, normalize=True, skipna=skipna)


def i1(probabilities: xr.DataArray, target: xr.DataArray) -> Result:
    """I1 (registered upstream as ``i1``: collapse over choices, no normalisation)."""
    return _score(probabilities, target, collapse=True, normalize=False)


def i1_ceiling(target: xr.DataArray, skipna: bool = False) -> Result:
    return _ceiling(target, collapse=True, normalize=False, skipna=skipna)
