"""Shape match, texture match and shape bias on cue-conflict images (Hermann2020, after Geirhos et al. 2019).

Upstream: brain-score/vision brainscore_vision/benchmarks/hermann2020/benchmark.py (``_Hermann2020Match``,
``Hermann2020cueconflictShapeBias``) with brainscore_vision/metrics/accuracy/metric.py. A cue-conflict image shows
the shape of one category (``original_image_category``) with the texture of another (``conflict_image_category``);
images whose two categories agree carry no conflict and are left out. On the others:

* shape match = share of the model's labels equal to the shape category (upstream ``Accuracy``: error = std of the
  booleans, ddof 0);
* texture match = the same with the texture category;
* shape bias = shape match / (shape match + texture match): of the conflict images the model labels by either cue,
  the share labelled by shape (NaN when it never answers with either, as upstream's 0 / 0).

There is no human data: the target is the stimulus set's own columns, and the ceiling is 1 (upstream
``ceiling_func=lambda: Score(1)``, which ``__call__`` never applies: the score is the raw value).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import Result, as_text, coord, require_coords, responses, source_name, where

#: the stimulus-set columns the metrics read (Geirhos2021_cue-conflict's packaging: brain-score/vision
#: brainscore_vision/data/geirhos2021/data_packaging/cue-conflict/cue-conflict_stimulus_set.py)
SHAPE, TEXTURE = "original_image_category", "conflict_image_category"


def _conflict_labels(model: xr.DataArray, target: xr.DataArray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(model label, shape category, texture category) per cue-conflict image, in the target's order."""
    name = source_name(target)
    require_coords(target, ["stimulus_id", SHAPE, TEXTURE], "cue-conflict stimuli", name)
    ids = as_text(coord(target, "stimulus_id"))
    if len(set(ids)) != len(ids):
        raise ValueError(f"{where(name)}each cue-conflict image must appear once (coordinate 'stimulus_id' repeats)")
    labels = dict(zip(as_text(coord(model, "stimulus_id")), as_text(responses(model))))
    missing = [s for s in ids if s not in labels]
    if missing:
        raise ValueError(f"{where(name)}{len(missing)} cue-conflict images have no model label (coordinate "
                         f"'stimulus_id'), e.g. {missing[:3]}")
    shape, texture = as_text(coord(target, SHAPE)), as_text(coord(target, TEXTURE))
    conflict = shape != texture
    if not conflict.any():
        raise ValueError(f"{where(name)}no image has a cue conflict ({SHAPE!r} equals {TEXTURE!r} everywhere)")
    chosen = np.array([labels[s] for s in ids[conflict]], dtype=object)
    return chosen, shape[conflict], texture[conflict]


def _accuracy(chosen: np.ndarray, wanted: np.ndarray) -> Result:
    values = chosen == wanted
    return Result(float(np.mean(values)), float(np.std(values)))


def shape_match(model: xr.DataArray, target: xr.DataArray) -> Result:
    """Share of cue-conflict images the model labels by their shape category."""
    chosen, shape, _ = _conflict_labels(model, target)
    return _accuracy(chosen, shape)


def texture_match(model: xr.DataArray, target: xr.DataArray) -> Result:
    """Share of cue-conflict images the model labels by their texture category."""
    chosen, _, texture = _conflict_labels(model, target)
    return _accuracy(chosen, texture)


def shape_bias(model: xr.DataArray, target: xr.DataArray) -> Result:
    """shape match / (shape match + texture match); no error (upstream's Score arithmetic keeps none)."""
    chosen, shape, texture = _conflict_labels(model, target)
    by_shape, by_texture = _accuracy(chosen, shape).score, _accuracy(chosen, texture).score
    with np.errstate(invalid="ignore", divide="ignore"):
        bias = float(np.float64(by_shape) / np.float64(by_shape + by_texture))
    return Result(bias, attrs={"details": {"shape_match": by_shape, "texture_match": by_texture,
                                           "conflict_images": int(len(chosen))}})
