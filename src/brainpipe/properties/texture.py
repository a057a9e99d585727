"""Texture modulation, selectivity and sparseness: the property set of FreemanZiemba2013 (V1).

Sources: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py (``calc_texture_modulation``,
``calc_sparseness``, ``calc_variance_ratio``, ``calc_variance``) and
benchmarks/marques2020/benchmarks/freemanZiemba2013_benchmark.py (``freemanziemba2013_properties``).

Stimuli: columns type (two levels; sorted, the first is noise, the second texture), family and sample; sorted by
(type, family, sample) and required to be that full grid.

Numerical notes, matched on purpose: the modulation index (t − n)/(t + n) per family is NaN where t + n = 0 and is
averaged ignoring NaN (all-NaN gives NaN, with a numpy warning silenced); sparseness of an all-zero response is
0/0 = NaN; the variance ratio is computed on the response transformed to √(r/10) + √(r/10 + 1) (NaN for negative
responses), before the baseline is subtracted; every other measure is on the baseline-subtracted response.
Float32 responses stay float32 where Brain-Score's do, and sums become float64 where numpy 1 (which Brain-Score
2.4.2 runs on) promotes a float32 scalar meeting a Python number.
"""

from __future__ import annotations

import warnings

import numpy as np

from .stimulus_grid import check_responses, texture_order
from .table import RESPONSE_THRESHOLD, PropertyTable, table

FREEMANZIEMBA2013_PROPERTIES = (
    "texture_modulation_index", "absolute_texture_modulation_index", "texture_selectivity", "noise_selectivity",
    "texture_sparseness", "noise_sparseness", "variance_ratio", "sample_variance", "family_variance", "max_texture",
    "max_noise")


def texture_modulation(response):
    """(mean over families ignoring NaN, per-family index) of (texture − noise)/(texture + noise);
    ``response``: (2, n_families), noise first."""
    per_family = (response[1, :] - response[0, :]) / (response[1, :] + response[0, :])
    return np.nanmean(per_family), per_family


def sparseness(response) -> float:
    """Treves–Rolls sparseness, normalised: (1 − (mean r)² / mean r²) / (1 − 1/n) over all values."""
    response = np.asarray(response).reshape(-1)
    n = response.shape[0]
    # float64(...) where a float32 sum meets a Python number: numpy 1 (Brain-Score's) promotes there, numpy 2 not
    return (1 - ((np.float64(response.sum()) / n) ** 2) / (np.float64((response ** 2).sum()) / n)) / (1 - 1 / n)


def variance_components(response):
    """Mean squares (residual, sample, family) of a nested ANOVA of families × samples [× trials].

    ``response``: (families, samples) or (families, samples, trials); the residual is NaN without trials.
    """
    response = np.asarray(response)
    if response.ndim == 3:
        a, b, n = response.shape
        sample_mean = response.mean(axis=2)
        family_mean = sample_mean.mean(axis=1)
        all_mean = family_mean.mean()
        residual = np.float64(np.sum((response - sample_mean.reshape(a, b, 1)) ** 2)) / (a * b * (n - 1))
        sample = n * np.float64(np.sum((sample_mean - family_mean.reshape(a, 1)) ** 2)) / (a * (b - 1))
        family = b * n * np.float64(np.sum((family_mean - all_mean) ** 2)) / (a - 1)
    else:
        a, b = response.shape
        family_mean = response.mean(axis=1)
        all_mean = family_mean.mean()
        residual = np.nan
        sample = np.float64(np.sum((response - family_mean.reshape(a, 1)) ** 2)) / (a * (b - 1))
        family = b * np.float64(np.sum((family_mean - all_mean) ** 2)) / (a - 1)
    return residual, sample, family


def variance_ratio(response):
    """(family-to-sample variance ratio with 0.02 added to both fractions, sample fraction, family fraction)."""
    residual_ms, sample_ms, family_ms = variance_components(response)
    shape = np.shape(response)
    if len(shape) == 3:
        residual = residual_ms
        sample = (sample_ms - residual_ms) / shape[2]
        family = (family_ms - sample_ms) / (shape[2] * shape[1])
    else:
        residual = 0
        sample = sample_ms
        family = (family_ms - sample_ms) / shape[1]
    total = residual + sample + family
    ratio = (family / total + 0.02) / (sample / total + 0.02)
    return ratio, sample / total, family / total


def freemanziemba2013_properties(responses, baseline, stimuli) -> PropertyTable:
    """FreemanZiemba2013's 11 properties per unit. Threshold: the maximal response − baseline > 5."""
    responses, baseline = check_responses(responses, baseline)
    order, grid = texture_order(stimuli, responses.shape[1])
    if len(grid.levels["type"]) != 2:
        raise ValueError(f"the texture stimuli need exactly 2 types (noise, texture); they have "
                         f"{grid.levels['type'].tolist()}")
    n_units = responses.shape[0]
    responses = responses[:, order].reshape((n_units,) + grid.shape[1:])
    with np.errstate(invalid="ignore", divide="ignore"):
        spikes = responses / 10
        spikes = np.sqrt(spikes) + np.sqrt(spikes + 1)
    responses -= baseline.reshape((-1, 1, 1, 1))
    max_texture = np.max(responses.reshape((n_units, 2, -1))[:, 1, :], axis=1)
    max_noise = np.max(responses.reshape((n_units, 2, -1))[:, 0, :], axis=1)
    max_response = np.max(responses.reshape((n_units, -1)), axis=1)
    family_responses = responses.mean(axis=3)

    values = np.zeros((n_units, 8))
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # nanmean of an all-NaN family index
        for unit in range(n_units):
            values[unit, 0] = texture_modulation(family_responses[unit])[0]
            values[unit, 1] = sparseness(family_responses[unit, 1])
            values[unit, 2] = sparseness(family_responses[unit, 0])
            values[unit, 3] = sparseness(responses[unit, 1])
            values[unit, 4] = sparseness(responses[unit, 0])
            values[unit, 5:8] = variance_ratio(spikes[unit, 1])
    modulation, texture_selectivity, noise_selectivity, texture_sparse, noise_sparse, ratio, sample, family = values.T
    return table({"texture_modulation_index": modulation, "absolute_texture_modulation_index": np.abs(modulation),
                  "texture_selectivity": texture_selectivity, "noise_selectivity": noise_selectivity,
                  "texture_sparseness": texture_sparse, "noise_sparseness": noise_sparse, "variance_ratio": ratio,
                  "sample_variance": sample, "family_variance": family, "max_texture": max_texture,
                  "max_noise": max_noise},
                 max_response > RESPONSE_THRESHOLD, f"max response − baseline > {RESPONSE_THRESHOLD}")
