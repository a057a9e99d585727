"""Model and human accuracy per condition of a behavioural benchmark, for the report's figures (not a score).

Two kinds of tables, from a model's task output and the prepared human data (the files a fold job compares):

* :func:`label_accuracy_table` — labelling benchmarks scored by the accuracy distance (e.g. one data set per
  degradation level: Scialom2024's phosphenes-12 … -100): per ``condition`` of the human data, the model's share of
  correct labels on the human data's stimuli (one label per stimulus) and the subjects' (mean ± std, ddof 0, over
  subjects), as :func:`brainpipe.behaviour.error_consistency.per_condition` computes them without the consistency;
* :func:`image_type_accuracy_table` — the accuracy delta (Baker & Elder 2022): per image type (whole, then the
  disrupted type) the model's accuracy as the metric defines it (mean over categories of the share of a category's
  images labelled with it, brainpipe.behaviour.accuracy_delta.model_delta) and the subjects' (per subject the share of
  correct trials, mean ± std over subjects); the differences of the two rows are the metric's model and human deltas.

Both return a JSON-ready dict whose ``rows`` hold one dict per condition with ``condition``, ``model_accuracy``,
``human_accuracy``, ``human_accuracy_std``, ``n_subjects`` and ``n_stimuli``. These numbers are computed apart from the
score (they change no score and no cache key of the scoring stages).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import as_text, coord, require_coords, responses, source_name, where

#: the metrics whose benchmarks get a table, and so a figure (brainpipe.pipeline.figures)
TABLE_METRICS = ("accuracy_distance", "accuracy_delta")
#: accuracy_delta's image types as Baker & Elder 2022 name them
IMAGE_TYPE_NAMES = {"w": "whole", "f": "frankenstein", "o": "fragmented"}


def _mean_std(values):
    values = np.asarray(values, dtype=float)
    values = values[np.isfinite(values)]
    if not values.size:
        return None, None
    return float(values.mean()), float(values.std())


def label_accuracy_table(model: xr.DataArray, human: xr.DataArray) -> list[dict]:
    """Per condition of the human data (``condition``, in plotting order): the model's and the subjects' accuracy.

    ``model``: the model's labels (values) with ``stimulus_id``; restricted to the human data's stimuli.
    ``human``: one trial per presentation, values = the subject's label, coords ``stimulus_id``, ``subject``,
    ``condition``, ``truth``."""
    from .error_consistency import per_condition
    from .stages import _subset

    model = _subset(model, coord(human, "stimulus_id"), human.attrs.get("source"))
    return [{k: row[k] for k in ("condition", "model_accuracy", "human_accuracy", "human_accuracy_std",
                                 "n_subjects", "n_stimuli")}
            for row in per_condition(model, human, consistency=False)]


def image_type_accuracy_table(model: xr.DataArray, human: xr.DataArray, image_types=("w", "f"),
                              orientation: str = "normal") -> list[dict]:
    """Per image type (``image_types`` order) of ``orientation``: the model's accuracy (mean over categories) and
    the subjects' (share of nonzero values per subject, mean ± std over subjects)."""
    from .accuracy_delta import _of_orientation

    model = _of_orientation(model, orientation, "model labels")
    human = _of_orientation(human, orientation, "human data")
    name = source_name(model)
    require_coords(model, ["animal", "image_type"], "model labels", name)
    require_coords(human, ["subject", "image_type"], "human data", source_name(human))
    labels, animals = as_text(responses(model)), as_text(coord(model, "animal"))
    model_types, human_types = as_text(coord(model, "image_type")), as_text(coord(human, "image_type"))
    subjects, values = coord(human, "subject"), np.asarray(human.values)
    rows = []
    for image_type in image_types:
        per_category = []
        for category in sorted(set(animals)):
            cell = (animals == category) & (model_types == image_type)
            if cell.any():
                per_category.append(np.sum(labels[cell] == category) / cell.sum())
        if not per_category:
            raise ValueError(f"{where(name)}no model label on an image of image_type {image_type!r}")
        per_subject = []
        for subject in sorted(set(subjects.tolist())):
            cell = (subjects == subject) & (human_types == image_type)
            if cell.any():
                per_subject.append(np.count_nonzero(values[cell]) / cell.sum())
        mean, std = _mean_std(per_subject)
        rows.append({"condition": IMAGE_TYPE_NAMES.get(image_type, image_type), "image_type": image_type,
                     "model_accuracy": float(np.mean(per_category)), "human_accuracy": mean,
                     "human_accuracy_std": std, "n_subjects": len(per_subject),
                     "n_stimuli": int(np.count_nonzero(model_types == image_type))})
    return rows


def condition_table(benchmark, model: xr.DataArray, human: xr.DataArray) -> dict:
    """The table of one benchmark (``benchmark``: a loaded brainpipe Benchmark of ``TABLE_METRICS``), as JSON:
    ``benchmark``, ``metric``, ``parent``, ``dataset``, ``rows`` (+ ``image_types``, ``orientation`` for the
    accuracy delta). ``rows`` is empty where the human data has no per-condition coordinates."""
    from .stages import options

    behaviour = benchmark.behaviour
    if behaviour.metric not in TABLE_METRICS:
        raise ValueError(f"{benchmark.identifier}: no per-condition table for metric {behaviour.metric!r} "
                         f"(tables: {', '.join(TABLE_METRICS)})")
    opts = options(behaviour)
    out = {"benchmark": benchmark.identifier, "metric": behaviour.metric, "parent": benchmark.parent,
           "dataset": benchmark.family.dataset}
    if behaviour.metric == "accuracy_delta":
        image_types, orientation = tuple(opts["image_types"]), str(opts["orientation"])
        out.update(image_types=list(image_types), orientation=orientation,
                   rows=image_type_accuracy_table(model, human, image_types, orientation))
    elif opts.get("invalid_responses") or not {"condition", "subject", "truth"} <= set(human.coords):
        out["rows"] = []  # trials without an answer (Kato2026) or no conditions: no table
    else:
        out["rows"] = label_accuracy_table(model, human)
    return out
