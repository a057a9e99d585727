"""Accuracy and accuracy distance.

Upstream: brain-score/vision brainscore_vision/metrics/accuracy/metric.py and
brainscore_vision/metrics/accuracy_distance/metric.py.
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import xarray as xr

from ._common import Result, as_text, coord, levels, require_coords, responses, source_name, where


def accuracy(source, target) -> Result:
    """Share of ``source == target``; error = ``np.std`` of the booleans (ddof 0, not the SEM, as upstream).

    ``source``: model choices (array-like, or a behavioural DataArray); ``target``: the true labels, same order.
    Brain-Score's ``-top1`` benchmarks pass the stimulus set's ``truth`` column.
    """
    source = responses(source) if isinstance(source, xr.DataArray) else np.asarray(source).ravel()
    target = np.asarray(target).ravel()
    if source.shape != target.shape:
        raise ValueError(f"accuracy: {source.size} choices but {target.size} targets; they must correspond")
    if source.size == 0:
        raise ValueError("accuracy: no choices to score")
    values = source == target
    return Result(float(np.mean(values)), float(np.std(values)),
                  xr.DataArray(values, dims=("presentation",)))


def _single_accuracy_distance(source: xr.DataArray, target: xr.DataArray, name=None, invalid=()) -> float:
    """1 − |acc_source − acc_target| / max(acc_target, 1 − acc_target) (upstream ``compare_single_subject``); with
    ``invalid``, over the stimuli where neither side's choice is one of those values (Kato2026's variant,
    brain-score/vision metrics/kato_accuracy_distance/metric.py: NaN when none is left)."""
    # ids as text on both sides: a stimulus set read from CSV gives '12' where the trials' file holds 12
    # (Lonnqvist2024's numeric ids); the pairing by id is what matters, not the sort order
    source_ids, target_ids = as_text(coord(source, "stimulus_id")), as_text(coord(target, "stimulus_id"))
    s_order = np.argsort(source_ids, kind="stable")
    t_order = np.argsort(target_ids, kind="stable")
    s_ids, t_ids = source_ids[s_order], target_ids[t_order]
    if s_ids.shape != t_ids.shape or not (s_ids == t_ids).all():
        raise ValueError(f"{where(name)}model and subject saw different stimuli (coordinate 'stimulus_id': "
                         f"{len(s_ids)} vs {len(t_ids)} presentations); they must match one to one")
    truth = coord(target, "truth")[t_order]
    source_correct = responses(source)[s_order] == truth  # upstream compares the model to the *subject's* truth
    target_correct = responses(target)[t_order] == truth
    if invalid:
        from .error_consistency import valid_responses
        keep = valid_responses(responses(source)[s_order], responses(target)[t_order], invalid)
        source_correct, target_correct = source_correct[keep], target_correct[keep]
        if not keep.any():
            return float("nan")  # upstream: means of nothing, NaN (skipped by the mean over subjects)
    source_mean, target_mean = source_correct.mean(), target_correct.mean()
    maximum = max(1 - target_mean, target_mean)
    return float(1 - abs(source_mean - target_mean) / maximum)


def _subjects(assembly: xr.DataArray):
    require_coords(assembly, ["subject"], "human data")
    return levels(coord(assembly, "subject"))


def _aggregate_subjects(values: np.ndarray, dim_coords: dict) -> Result:
    """Upstream ``aggregate``: |mean over subjects|, error = std over subjects (ddof 0); NaN skipped, as
    xarray's reductions do by default."""
    per = xr.DataArray(values, dims=("subject",), coords=dim_coords)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return Result(float(abs(np.nanmean(values))), float(np.nanstd(values)), per)


def accuracy_distance(source: xr.DataArray, target: xr.DataArray, variables: tuple = (), invalid=()) -> Result:
    """Accuracy distance per subject, averaged (Scialom2024, Lonnqvist2024, BMD2024).

    Per subject (sorted), the model's and the subject's trials are sorted by ``stimulus_id`` and compared one to
    one. With ``variables`` (e.g. ``('condition',)``), the distance is computed per cell of those coordinates
    (cells missing in either side skipped) and averaged over cells. Aggregate: |mean over subjects|, error std.
    """
    name = source_name(target)
    require_coords(target, ["stimulus_id", "truth", "subject", *variables], "human data", name)
    require_coords(source, ["stimulus_id", *variables], "model choices", source_name(source))
    scores = []
    subjects = _subjects(target)
    for subject in subjects:
        mask = coord(target, "subject") == subject
        subject_data = target.isel(presentation=np.flatnonzero(mask))
        if not variables:
            scores.append(_single_accuracy_distance(source, subject_data, name, invalid))
            continue
        cells = itertools.product(*[sorted(set(coord(subject_data, v))) for v in variables])
        cell_scores = []
        for cell in cells:
            t_mask = np.logical_and.reduce([coord(subject_data, v) == c for v, c in zip(variables, cell)])
            s_mask = np.logical_and.reduce([coord(source, v) == c for v, c in zip(variables, cell)])
            if t_mask.any() and s_mask.any():  # unbalanced designs: skip cells absent on either side
                cell_scores.append(_single_accuracy_distance(source.isel(presentation=np.flatnonzero(s_mask)),
                                                             subject_data.isel(presentation=np.flatnonzero(t_mask)),
                                                             name, invalid))
        scores.append(float(np.mean(cell_scores)))
    return _aggregate_subjects(np.array(scores), {"subject": subjects})


def accuracy_distance_ceiling(assembly: xr.DataArray, invalid=()) -> Result:
    """Every subject pair (sorted, ``itertools.combinations``) compared as model vs subject; same aggregate."""
    name = source_name(assembly)
    require_coords(assembly, ["stimulus_id", "truth", "subject"], "human data", name)
    subjects = _subjects(assembly)
    if len(subjects) < 2:
        raise ValueError(f"{where(name)}the accuracy-distance ceiling needs at least two subjects "
                         f"(coordinate 'subject' has {subjects})")
    pairs, scores = [], []
    for left, right in itertools.combinations(subjects, 2):
        one = assembly.isel(presentation=np.flatnonzero(coord(assembly, "subject") == left))
        two = assembly.isel(presentation=np.flatnonzero(coord(assembly, "subject") == right))
        scores.append(_single_accuracy_distance(one, two, name, invalid))
        pairs.append((left, right))
    return _aggregate_subjects(np.array(scores), {"subject_left": ("subject", [p[0] for p in pairs]),
                                                  "subject_right": ("subject", [p[1] for p in pairs])})
