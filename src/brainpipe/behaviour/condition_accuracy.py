"""Condition-wise accuracy similarity: per subject, the Pearson r between the subject's and the model's accuracy
over the experiment's conditions (images of below-full visibility, grouped by occluder type and colour), averaged
over subjects; ceiling: each subject's r with the mean of the others (leave one out), averaged.

Upstream: brain-score/vision brainscore_vision/benchmarks/coggan2024_behavior/benchmark.py (``__call__``,
``get_noise_ceiling``, ``ceiler``). The pandas steps are reproduced as there (``groupby(...).mean(numeric_only=True)``;
``np.mean`` of the per-subject r as a pandas Series, which skips NaN; the ceiling's plain mean of a list, which does
not).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ._common import Result, as_text, coord, require_coords, responses, source_name

#: the trial coordinates the comparison reads (from the stimulus set merged onto the trials)
COLUMNS = ("subject", "object_class", "occluder_type", "occluder_color", "visibility", "human_accuracy")
CONDITION = ["occluder_type", "occluder_color"]


def _table(human: xr.DataArray, model_predictions=None) -> pd.DataFrame:
    require_coords(human, list(COLUMNS), "human data", source_name(human))
    data = pd.DataFrame({c: np.asarray(coord(human, c)) for c in COLUMNS})
    data.insert(len(COLUMNS) - 1, "human_prediction", as_text(responses(human)))
    data["human_accuracy"] = pd.to_numeric(data["human_accuracy"])
    data["visibility"] = pd.to_numeric(data["visibility"])
    if model_predictions is not None:
        data["model_prediction"] = as_text(model_predictions)
        data["model_accuracy"] = pd.Series(data.model_prediction == as_text(data.object_class), dtype=int)
    return data


def performance(human: xr.DataArray, model_predictions=None) -> pd.DataFrame:
    """Mean accuracy per subject × occluder type × colour over the trials with visibility < 1 (upstream's
    ``performance`` table; ``model_accuracy`` too when the model's prediction per trial is given)."""
    data = _table(human, model_predictions)
    return data[data.visibility < 1].groupby(["subject"] + CONDITION).mean(numeric_only=True).reset_index()


def condition_wise_accuracy_similarity(model_predictions, human: xr.DataArray) -> Result:
    """Mean over subjects of r(subject's condition accuracies, model's accuracies on that subject's images).

    ``model_predictions``: the model's class per trial, in the trials' order (its images are the trials')."""
    table = performance(human, model_predictions)
    scores = table.groupby("subject").apply(lambda df: np.corrcoef(df.human_accuracy, df.model_accuracy)[0, 1],
                                            include_groups=False)
    values = xr.DataArray(scores.to_numpy(float), dims=("subject",), coords={"subject": scores.index.to_numpy()})
    return Result(float(np.mean(scores)), float("nan"), values)


def condition_wise_accuracy_ceiling(human: xr.DataArray) -> Result:
    """Each subject (in order of appearance) against the mean of the others per condition; mean r, error SEM."""
    from scipy.stats import sem
    table = performance(human)
    nc = []
    for subject in table.subject.unique():
        one = table[table.subject == subject]
        rest = table[table.subject != subject]
        numeric = rest.select_dtypes(include=np.number).columns
        rest = rest.groupby(CONDITION)[numeric].mean()
        merged = one.merge(rest, on=CONDITION)
        nc.append(np.corrcoef(merged.human_accuracy_x, merged.human_accuracy_y)[0, 1])
    return Result(float(np.mean(nc)), float(sem(nc)),
                  xr.DataArray(np.asarray(nc, dtype=float), dims=("subject",),
                               coords={"subject": table.subject.unique()}))
