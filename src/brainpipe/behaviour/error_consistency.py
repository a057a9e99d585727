"""Error consistency (Cohen's κ on trial-wise correctness), Geirhos et al. 2020.

Upstream: brain-score/vision brainscore_vision/metrics/error_consistency/metric.py (after bethgelab/model-vs-human
``modelvshuman/plotting/analyses.py``).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import xarray as xr

from ._common import Result, as_text, check_no_missing, coord, levels, require_coords, responses, source_name, where


def cohens_kappa(expected_consistency: float, observed_consistency: float) -> float:
    """κ = (c_obs − c_exp) / (1 − c_exp). With c_exp = 1 (both always right, or both always wrong) this is
    0/0 → NaN or x/0 → ±inf, as upstream's numpy arithmetic gives; it is not special-cased here either."""
    if not (0 <= expected_consistency <= 1 and 0 <= observed_consistency <= 1):
        raise ValueError(f"consistencies must lie in [0, 1], got {expected_consistency}, {observed_consistency}")
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(observed_consistency - expected_consistency) / np.float64(1 - expected_consistency))


def _correct(array: xr.DataArray, order: np.ndarray) -> np.ndarray:
    return (responses(array) == coord(array, "truth"))[order]


def valid_responses(source_choices: np.ndarray, target_choices: np.ndarray, invalid=()) -> np.ndarray:
    """Which pairs of (matched) choices both hold an answer: neither is one of ``invalid`` (e.g. ``('', 'NaN')``:
    brain-score/vision metrics/kato_error_consistency/metric.py and kato_accuracy_distance/metric.py drop a
    stimulus where either side has no answer, or the model's was masked). Compared as text, as upstream compares
    the values with the strings."""
    keep = np.ones(len(source_choices), dtype=bool)
    if invalid:
        invalid = [str(v) for v in invalid]
        keep &= ~np.isin(as_text(source_choices), invalid) & ~np.isin(as_text(target_choices), invalid)
    return keep


def compare_single_subject(source: xr.DataArray, target: xr.DataArray, label: str = "", invalid=()) -> float:
    """κ between two observers on the same stimuli, matched by sorted ``stimulus_id``; with ``invalid``, only the
    stimuli where neither observer's choice is one of those values (:func:`valid_responses`)."""
    # ids as text on both sides: a stimulus set read from CSV gives '12' where the trials' file holds 12
    # (Scialom2024's numeric ids); κ depends on the pairing by id, not on the sort order
    s_ids, t_ids = as_text(coord(source, "stimulus_id")), as_text(coord(target, "stimulus_id"))
    s_order, t_order = np.argsort(s_ids, kind="stable"), np.argsort(t_ids, kind="stable")
    if len(s_ids) != len(t_ids) or not (s_ids[s_order] == t_ids[t_order]).all():
        raise ValueError(f"{label}: the two sides saw different stimuli ({len(s_ids)} vs {len(t_ids)} "
                         f"presentations, coordinate 'stimulus_id'); every subject must see every stimulus of a "
                         f"condition once")
    correct_source, correct_target = _correct(source, s_order), _correct(target, t_order)
    if invalid:
        keep = valid_responses(responses(source)[s_order], responses(target)[t_order], invalid)
        correct_source, correct_target = correct_source[keep], correct_target[keep]
        if not keep.any():  # upstream's means of nothing are NaN and its cohens_kappa asserts
            raise ValueError(f"{label}: no stimulus where both sides answered (choices {list(invalid)} are none)")
    p_source, p_target = correct_source.mean(), correct_target.mean()
    expected = p_source * p_target + (1 - p_source) * (1 - p_target)
    observed = (correct_source == correct_target).sum() / len(correct_source)
    return cohens_kappa(expected, observed)


def _aggregate(values: np.ndarray) -> tuple[float, float]:
    """Upstream ``aggregate``: |mean over condition, then subject|; error = std over both (ddof 0).

    xarray's reductions skip NaN by default, so NaN κ (c_exp = 1: e.g. both observers always right in a
    condition) are left out of the means and the std, as upstream."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices give NaN, as xarray does
        return float(abs(np.nanmean(np.nanmean(values, axis=1), axis=0))), float(np.nanstd(values))


def _select(array, **criteria):
    mask = np.logical_and.reduce([coord(array, key) == value for key, value in criteria.items()])
    return array.isel(presentation=np.flatnonzero(mask))


def _check_human(target: xr.DataArray, name):
    require_coords(target, ["stimulus_id", "truth", "subject", "condition"], "human data", name)
    check_no_missing(target, ("stimulus_id", "truth", "subject", "condition"), "human data", name)


def _model_with_meta(source: xr.DataArray, target: xr.DataArray, name) -> xr.DataArray:
    """The model's choices with ``truth`` and ``condition``; taken from the human data by ``stimulus_id`` where
    the model output lacks them (upstream has them from the stimulus set merged onto the model's output)."""
    require_coords(source, ["stimulus_id"], "model choices", source_name(source))
    missing = [c for c in ("truth", "condition") if c not in source.coords]
    if not missing:
        return source
    lookup = {c: dict(zip(as_text(coord(target, "stimulus_id")), coord(target, c))) for c in missing}
    ids = as_text(coord(source, "stimulus_id"))
    unknown = levels(set(ids) - set(lookup[missing[0]]))
    if unknown:
        raise ValueError(f"{where(name)}model stimuli not in the human data (coordinate 'stimulus_id'): "
                         f"{unknown[:5]}")
    return source.assign_coords({c: ("presentation", np.array([lookup[c][i] for i in ids], dtype=object))
                                 for c in missing})


def error_consistency(source: xr.DataArray, target: xr.DataArray, invalid=()) -> Result:
    """Mean κ between the model and each subject, per condition (both sorted); |mean|, error std.

    ``source``: the model's choices (``label`` task output) with ``stimulus_id`` (and ``truth``/``condition``,
    else copied from ``target``); ``target``: human trials with ``stimulus_id``, ``truth``, ``subject``,
    ``condition``. Every subject must have seen each of the model's stimuli of a condition exactly once.
    ``invalid``: choices that are no answer (:func:`valid_responses`; Kato2026's ``('', 'NaN')``).
    """
    name = source_name(target)
    _check_human(target, name)
    source = _model_with_meta(source, target, name)
    if len(set(coord(source, "stimulus_id"))) != len(set(coord(target, "stimulus_id"))):
        raise ValueError(f"{where(name)}model and human data cover different numbers of stimuli (coordinate "
                         f"'stimulus_id': {len(set(coord(source, 'stimulus_id')))} vs "
                         f"{len(set(coord(target, 'stimulus_id')))})")
    subjects = levels(coord(target, "subject"))
    conditions = levels(coord(target, "condition"))
    values = np.empty((len(subjects), len(conditions)))
    for s, subject in enumerate(subjects):
        for c, condition in enumerate(conditions):
            human = _select(target, subject=subject, condition=condition)
            if human.sizes["presentation"] == 0:
                raise ValueError(f"{where(name)}subject {subject!r} has no trials in condition {condition!r} "
                                 f"(coordinates 'subject', 'condition'); error consistency needs every subject "
                                 f"in every condition")
            values[s, c] = compare_single_subject(_select(source, condition=condition), human,
                                                  f"{where(name)}subject {subject!r}, condition {condition!r}",
                                                  invalid)
    score, error = _aggregate(values)
    per = xr.DataArray(values, dims=("subject", "condition"), coords={"subject": subjects, "condition": conditions})
    return Result(score, error, per)


def error_consistency_ceiling(assembly: xr.DataArray, invalid=()) -> Result:
    """Every subject pair (sorted, ``itertools.combinations``) × condition, compared like model vs subject."""
    name = source_name(assembly)
    _check_human(assembly, name)
    subjects = levels(coord(assembly, "subject"))
    conditions = levels(coord(assembly, "condition"))
    pairs = list(itertools.combinations(subjects, 2))
    if not pairs:
        raise ValueError(f"{where(name)}the error-consistency ceiling needs at least two subjects "
                         f"(coordinate 'subject' has {subjects})")
    values = np.empty((len(pairs), len(conditions)))
    for p, (left, right) in enumerate(pairs):
        for c, condition in enumerate(conditions):
            one = _select(assembly, subject=left, condition=condition)
            two = _select(assembly, subject=right, condition=condition)
            if one.sizes["presentation"] == 0 or two.sizes["presentation"] == 0:
                empty = left if one.sizes["presentation"] == 0 else right
                raise ValueError(f"{where(name)}subject {empty!r} has no trials in condition {condition!r} "
                                 f"(coordinates 'subject', 'condition'); subjects share no such condition")
            values[p, c] = compare_single_subject(one, two, f"{where(name)}subjects {left!r} and {right!r}, "
                                                            f"condition {condition!r}", invalid)
    score, error = _aggregate(values)
    per = xr.DataArray(values, dims=("subject", "condition"),
                       coords={"subject_left": ("subject", [p[0] for p in pairs]),
                               "subject_right": ("subject", [p[1] for p in pairs]), "condition": conditions})
    return Result(score, error, per)


def _condition_order(conditions) -> list:
    """Conditions in plotting order: numerically when every one parses as a number (contrast '0.01' < '0.1' <
    '1'), else as sorted text."""
    conditions = levels(conditions)
    try:
        return sorted(conditions, key=lambda c: (float(c), str(c)))
    except (TypeError, ValueError):
        return conditions


def _mean_std(values) -> tuple[float | None, float | None]:
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not values.size:
        return None, None
    return float(values.mean()), float(values.std())


def per_condition(source: xr.DataArray, target: xr.DataArray, consistency: bool = True) -> list[dict]:
    """The comparison condition by condition (model-vs-human's per-condition plots, Geirhos et al. 2021 Fig. 2-3):
    one row per condition, in :func:`_condition_order`, with

    * ``model_accuracy``: share of the model's stimuli of the condition it labels correctly (one choice each);
    * ``human_accuracy`` (``_std``): per subject the share of correct trials, mean (std, ddof 0) over subjects;
    * with ``consistency``: ``error_consistency`` (``_std``): κ model vs each subject (as :func:`error_consistency`
      computes it), mean (std) over subjects, NaN κ left out (upstream's xarray means skip NaN) and signed (the
      headline's |·| is taken after averaging over conditions); ``human_error_consistency``: κ of every subject
      pair, averaged (the per-condition share of :func:`error_consistency_ceiling`). None where every κ is NaN.

    ``source``/``target`` as for :func:`error_consistency`.
    """
    name = source_name(target)
    _check_human(target, name)
    source = _model_with_meta(source, target, name)
    subjects = levels(coord(target, "subject"))
    rows = []
    for condition in _condition_order(coord(target, "condition")):
        model = _select(source, condition=condition)
        humans = [_select(target, subject=subject, condition=condition) for subject in subjects]
        humans = [h for h in humans if h.sizes["presentation"]]
        row = {"condition": str(condition), "n_stimuli": int(len(set(coord(model, "stimulus_id")))),
               "n_subjects": len(humans),
               "model_accuracy": float(np.mean(responses(model) == coord(model, "truth")))
               if model.sizes["presentation"] else None}
        row["human_accuracy"], row["human_accuracy_std"] = _mean_std(
            [np.mean(responses(h) == coord(h, "truth")) for h in humans])
        if consistency:
            label = f"{where(name)}condition {condition!r}"
            row["error_consistency"], row["error_consistency_std"] = _mean_std(
                [compare_single_subject(model, h, label) for h in humans])
            row["human_error_consistency"], _ = _mean_std(
                [compare_single_subject(one, two, label) for one, two in itertools.combinations(humans, 2)])
        rows.append(row)
    return rows
