"""Comparisons of a model's probabilities readout with human categorisation as a whole rather than image by image:
the similarity of the two confusion matrices, and the correlation of the two accuracy profiles over the
experiment's tasks (image manipulations). The model and the humans may see different images of the same classes.

Upstream: brain-score/vision brainscore_vision/metrics/maniquet2024_metrics/metric.py (``ConfusionSimilarity``,
``TasksConsistency``); their ``_ceiling`` methods are not used upstream (the benchmarks declare precomputed
ceilings) and are not reproduced here.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import Result, as_text, coord, require_coords, source_name, where


def _model_labels(probabilities: xr.DataArray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(classes in the readout's order, true label and most probable class per presentation; first on ties)."""
    require_coords(probabilities, ["choice", "image_label"], "model probabilities", source_name(probabilities))
    probabilities = probabilities.transpose("presentation", "choice")
    classes = np.asarray(probabilities["choice"].values)
    return classes, np.asarray(coord(probabilities, "image_label")), classes[np.argmax(probabilities.values, axis=1)]


def _check_classes(classes, human: xr.DataArray):
    name = source_name(human)
    require_coords(human, ["image_label", "prediction"], "human data", name)
    ours, theirs = sorted(as_text(classes)), sorted(set(as_text(coord(human, "image_label"))))
    if ours != theirs:
        raise ValueError(f"{where(name)}the model's readout classes {ours} are not the human data's classes "
                         f"(coordinate 'image_label': {theirs})")


def off_diagonal(matrix: np.ndarray) -> np.ndarray:
    """A square matrix's entries without its diagonal, row by row (upstream ``_rollout_matrix``)."""
    return matrix[~np.eye(matrix.shape[0], dtype=bool)].ravel()


def _pearson(x, y) -> float:
    from scipy.stats import pearsonr
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if not (np.isfinite(x).all() and np.isfinite(y).all()) or x.std() == 0 or y.std() == 0:
        return float("nan")  # upstream's pearsonr: NaN (with a warning) for constant or NaN input
    return float(pearsonr(x, y)[0])


def confusion_similarity(probabilities: xr.DataArray, human: xr.DataArray) -> Result:
    """Pearson r between the off-diagonal entries of the human and the model confusion matrices (counts; rows:
    true class, columns: chosen class, classes in the readout's order).

    ``probabilities``: (presentation × choice) with the test images' ``image_label``; ``human``: one trial per
    presentation with ``image_label`` and ``prediction``. The two must cover the same classes.
    """
    from sklearn.metrics import confusion_matrix
    classes, truth, predicted = _model_labels(probabilities)
    _check_classes(classes, human)
    model = confusion_matrix(y_true=truth, y_pred=predicted, labels=classes)
    people = confusion_matrix(y_true=np.asarray(coord(human, "image_label")),
                              y_pred=np.asarray(coord(human, "prediction")), labels=classes)
    return Result(_pearson(off_diagonal(people), off_diagonal(model)), float("nan"))


def task_condition(task: str, manipulations: dict, details: dict) -> tuple[str | None, str]:
    """The test images' (manipulation, manipulation_details) of a human task name (upstream
    ``_map_human_to_dnn_categories``): a task naming 'control' is ('control', 'control'); else the first key of
    ``manipulations`` among the name's '_'-separated parts gives the manipulation (None if none), and the other
    parts, joined by '_', are looked up in ``details`` ('control' if absent)."""
    parts = task.split("_")
    if "control" in parts:
        return "control", "control"
    manipulation = next((manipulations[key] for key in manipulations if key in parts), None)
    detail = "_".join(part for part in parts if part not in manipulations)
    return manipulation, details.get(detail, "control")


def tasks_consistency(probabilities: xr.DataArray, human: xr.DataArray, manipulations: dict,
                      details: dict) -> Result:
    """Pearson r, over the human tasks (sorted), between the model's accuracy on the test images of the task's
    condition (:func:`task_condition`, read from the images' ``manipulation`` / ``manipulation_details``) and the
    humans' accuracy in that task (``prediction == image_label``). A condition without test images gives a NaN
    accuracy (and so a NaN r), as upstream's mean of nothing."""
    classes, truth, predicted = _model_labels(probabilities)
    _check_classes(classes, human)
    require_coords(probabilities, ["manipulation", "manipulation_details"], "model probabilities",
                   source_name(probabilities))
    require_coords(human, ["task"], "human data", source_name(human))
    manipulation = as_text(coord(probabilities, "manipulation"))
    detail = as_text(coord(probabilities, "manipulation_details"))
    human_tasks = as_text(coord(human, "task"))
    human_correct = as_text(coord(human, "image_label")) == as_text(coord(human, "prediction"))
    model_correct = as_text(truth) == as_text(predicted)
    model_acc, human_acc = [], []
    for task in sorted(set(human_tasks)):
        condition = task_condition(task, manipulations, details)
        chosen = (manipulation == str(condition[0])) & (detail == condition[1])
        model_acc.append(model_correct[chosen].mean() if chosen.any() else np.nan)
        human_acc.append(human_correct[human_tasks == task].mean())
    values = xr.DataArray(np.array([model_acc, human_acc]).T, dims=("task", "observer"),
                          coords={"task": sorted(set(human_tasks)), "observer": ["model", "human"]})
    return Result(_pearson(model_acc, human_acc), float("nan"), values)
