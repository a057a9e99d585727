"""Accuracy delta (Baker & Elder 2022): how much accuracy drops from whole silhouettes to configurally disrupted ones
(frankenstein ``f`` or fragmented ``o``), model vs humans.

Upstream: brain-score/vision brainscore_vision/metrics/baker_accuracy_delta/metric.py (``BakerAccuracyDelta``,
``get_model_delta``, ``get_human_delta``, ``compute_ceiling``) and brainscore_vision/benchmarks/baker2022/benchmark.py
(``SplitHalvesConsistencyBaker``, the orientation filter). Definitions, for ``image_types = (w, x)``:

* model delta = mean over the model's categories (``animal``, sorted) of its accuracy on type ``w`` minus the same
  on type ``x`` (accuracy of a category = share of its images the model labels with that category);
* human delta of a group of subjects = mean over subjects (sorted) of (accuracy on ``w`` − accuracy on ``x``),
  accuracy = share of nonzero values (the values are the trials' ``correct`` 0/1);
* score: for i in 0..99, ``RandomState(i).choice(range(1, n_subjects), n_subjects // 2, replace=False)`` draws
  subject *numbers*; the subjects whose ``subject`` value is among them form the half whose human delta d_i gives
  max(1 − |d_i − model delta| / d_i, 0); the mean over the 100, error their std (ddof 0);
* ceiling: one ``RandomState(0)`` draws 100 such halves (the other subjects form the second half); per split
  c = max(1 − |d_1 − d_2| / d_2, 0), Spearman–Brown 2c / (1 + c), median over splits (no error).

Upstream draws from ``range(1, n_subjects)``: with subjects numbered 1..n (Baker2022's ``Subj``) subject n is never in
the drawn half, and a subject numbered 0 never either. That is Brain-Score's definition and is kept here so the
numbers agree; it means the halves are not uniformly random over subjects.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import Result, as_text, coord, require_coords, responses, source_name, where

HUMAN_SPLITS = 100   # metric.py HUMAN_SPLITS
CEILING_SPLITS = 100  # benchmark.py SplitHalvesConsistencyBaker(num_splits=100)


def _of_orientation(array: xr.DataArray, orientation: str, what: str) -> xr.DataArray:
    name = source_name(array)
    require_coords(array, ["orientation"], what, name)
    keep = as_text(coord(array, "orientation")) == orientation
    if not keep.any():
        raise ValueError(f"{where(name)}{what}: no presentation has orientation {orientation!r} (coordinate "
                         f"'orientation' holds {sorted(set(as_text(coord(array, 'orientation'))))})")
    return array.isel(presentation=np.flatnonzero(keep))


def model_delta(model: xr.DataArray, image_types) -> float:
    """Whole minus disrupted accuracy of the model, each the mean over its categories (``animal``)."""
    name = source_name(model)
    require_coords(model, ["animal", "image_type"], "model labels", name)
    labels = as_text(responses(model))
    animals, types = as_text(coord(model, "animal")), as_text(coord(model, "image_type"))
    accuracies = []
    for image_type in image_types:
        per_category = []
        for category in sorted(set(animals)):
            cell = (animals == category) & (types == image_type)
            if not cell.any():
                raise ValueError(f"{where(name)}no image of category {category!r} has image_type {image_type!r}; "
                                 f"the accuracy delta needs every category in every image type")
            per_category.append(np.sum(labels[cell] == category) / cell.sum())
        accuracies.append(np.mean(per_category))
    return float(accuracies[0] - accuracies[1])


def human_delta(human: xr.DataArray, image_types) -> float:
    """Mean over subjects of whole minus disrupted accuracy (share of nonzero ``correct`` values)."""
    name = source_name(human)
    require_coords(human, ["subject", "image_type"], "human data", name)
    subjects, types = coord(human, "subject"), as_text(coord(human, "image_type"))
    values = np.asarray(human.values)
    per_type = {}
    for image_type in image_types:
        scores = []
        for subject in sorted(set(subjects.tolist())):
            cell = (subjects == subject) & (types == image_type)
            if not cell.any():
                raise ValueError(f"{where(name)}subject {subject!r} has no trial of image_type {image_type!r}")
            scores.append(np.count_nonzero(values[cell]) / cell.sum())
        per_type[image_type] = scores
    whole, disrupted = per_type[image_types[0]], per_type[image_types[1]]
    return float(np.mean([a - b for a, b in zip(whole, disrupted)]))


def _drawn_half(human: xr.DataArray, random_state: np.random.RandomState) -> np.ndarray:
    """Which presentations belong to the subjects whose numbers upstream draws (see the module docstring)."""
    subjects = coord(human, "subject")
    if subjects.dtype.kind not in "iu":
        raise ValueError(f"{where(source_name(human))}Baker2022's subject halves draw subject numbers "
                         f"(range(1, n_subjects)); coordinate 'subject' must hold integers, has dtype {subjects.dtype}")
    n = len(set(subjects.tolist()))
    half = random_state.choice(range(1, n), n // 2, replace=False)
    return np.isin(subjects, half)


def _similarity(delta: float, reference: float) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        return float(max(1 - np.abs(reference - delta) / np.float64(reference), 0))


def accuracy_delta(model: xr.DataArray, human: xr.DataArray, image_types=("w", "f"),
                   orientation: str = "normal") -> Result:
    """The model's accuracy delta against 100 seeded subject halves' (model restricted to ``orientation``)."""
    if len(image_types) != 2:
        raise ValueError(f"image_types must be (whole, disrupted), got {image_types!r}")
    model = _of_orientation(model, orientation, "model labels")
    human = _of_orientation(human, orientation, "human data")
    delta = model_delta(model, image_types)
    scores = []
    for i in range(HUMAN_SPLITS):
        half = human.isel(presentation=np.flatnonzero(_drawn_half(human, np.random.RandomState(i))))
        scores.append(_similarity(delta, human_delta(half, image_types)))
    values = xr.DataArray(np.asarray(scores), dims=("split",), coords={"split": np.arange(HUMAN_SPLITS)})
    return Result(float(np.mean(scores)), float(np.std(scores)), values,
                  {"details": {"model_delta": delta, "orientation": orientation, "image_types": list(image_types)}})


def accuracy_delta_ceiling(human: xr.DataArray, image_types=("w", "f"), orientation: str = "normal") -> Result:
    """Median over 100 seeded subject splits of the Spearman–Brown-corrected half-vs-half similarity."""
    human = _of_orientation(human, orientation, "human data")
    random_state = np.random.RandomState(0)
    corrected = []
    for _ in range(CEILING_SPLITS):
        first = _drawn_half(human, random_state)
        one = human.isel(presentation=np.flatnonzero(first))
        two = human.isel(presentation=np.flatnonzero(~first))
        consistency = _similarity(human_delta(one, image_types), human_delta(two, image_types))
        corrected.append(2 * consistency / (1 + consistency))
    return Result(float(np.median(corrected)), float("nan"),
                  xr.DataArray(np.asarray(corrected), dims=("split",), coords={"split": np.arange(CEILING_SPLITS)}))
