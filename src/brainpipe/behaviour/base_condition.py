"""Score a perturbed image only where the model recognises its unperturbed original: the model's choices on the
test stimuli are masked (``'NaN'``) wherever its choice on the base image (the same photograph in a base condition)
is wrong, so that the metrics leave those images out.

Upstream: brain-score/vision brainscore_vision/benchmarks/kato2026/benchmark.py ``__call__`` (the base condition
is ``Ori`` for most data sets, ``Sil`` for ``Sparse``/``Dense``). A test and a base image are the same photograph
when their ``stimulus_id`` agree up to the last ``_`` (``acorn_ILSVRC2012_val_00001234_f`` ↔ ``..._o``).
"""

from __future__ import annotations

import warnings

import numpy as np
import xarray as xr

from ._common import as_text, coord, responses

#: what a masked choice reads (upstream ``labels.where(valid, other='NaN')``); the metrics drop it
MASKED = "NaN"


def image_key(stimulus_ids) -> np.ndarray:
    """The photograph an id shows: the id without its last ``_``-separated part (upstream ``s.rsplit('_', 1)[0]``)."""
    return np.array([s.rsplit("_", 1)[0] for s in as_text(stimulus_ids)], dtype=object)


class NoBaseImageCorrect(ValueError):
    """The model labels no base image correctly (upstream's ValueError): nothing is left to compare, which the task
    stage writes as a task output without choices that says why (:func:`unscorable_choices`)."""


def unscorable_choices(choices, reason: str):
    """``choices`` with every choice masked and ``reason`` in its attributes: the score stage writes a null score
    with that reason instead of comparing (an untrained network on Kato2026, where Brain-Score raises)."""
    values = np.full(np.shape(choices.values), MASKED, dtype=object)
    return choices.copy(data=values).assign_attrs(reason=reason)


def mask_by_base(choices: xr.DataArray, base_choices: xr.DataArray, base_truth) -> xr.DataArray:
    """``choices`` (the model's label-task output on the test stimuli, in the test stimulus set's order) with every
    choice whose base image the model labelled wrongly replaced by :data:`MASKED`.

    As upstream: the base choices are restricted to the photographs the test set shows too (in the base set's
    order), and the i-th base verdict masks the i-th test choice, *by position*. Both stimulus sets list the same
    photographs in the same order (Brain-Score's packaging sorts the file names), so position and photograph
    agree; where they do not, this warns (upstream silently pairs by position too). ValueError when the counts
    differ (upstream's arrays do not broadcast) or when the model labels no base image correctly (upstream's
    message).
    """
    base_key, key = image_key(coord(base_choices, "stimulus_id")), image_key(coord(choices, "stimulus_id"))
    keep = np.isin(base_key, np.intersect1d(base_key, key))
    base_values = as_text(responses(base_choices))[keep]
    valid = base_values == as_text(base_truth)[keep]
    if len(valid) != len(key):
        raise ValueError(f"the base condition shows {len(valid)} of the test set's photographs, the test set has "
                         f"{len(key)} images (coordinate 'stimulus_id' up to its last '_'); every test image needs "
                         f"its base image")
    if not valid.any():
        raise NoBaseImageCorrect("Model classified no base-condition images correctly; no images remain to compare "
                                 "against humans.")
    if not (base_key[keep] == key).all():
        warnings.warn("the base and test stimulus sets list their photographs in different orders; the base verdicts "
                      "are applied by position, as Brain-Score does", stacklevel=2)
    values = np.asarray(choices.values).astype(object).copy()
    values[..., ~valid] = MASKED
    return choices.copy(data=values)
