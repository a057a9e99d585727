"""Simulated human behaviour on SyntheticShapes, for the offline demo. SIMULATED, not data.

Two assemblies in the layouts of the real behavioural data, from one model of the simulated observers:

* :func:`simulate_match_to_sample`: pooled 2AFC trials as in Brain-Score's i2n data (value = chosen object; coords
  ``stimulus_id``, ``truth`` = ``sample_obj``, ``dist_obj``, ``choice``, ``subject``) → ``i2n`` / ``i2n_ceiling``;
* :func:`simulate_labelling`: every subject labels every image once among all categories, as in Brain-Score's
  error-consistency data (coords ``stimulus_id``, ``truth``, ``choice``, ``category``, ``condition``, ``subject``,
  ``session``, ``trial``, ``response_time``) → ``error_consistency`` / ``error_consistency_ceiling``.

The observer: each image has a difficulty (smaller and more displaced/rotated objects are harder, plus an
image-specific random part); each category pair has a confusability (some shapes look alike: disk/ring,
square/cross, star/cross, bar/cross, …); each subject has a skill. P(correct) falls with difficulty and rises
with skill; errors go to confusable categories. Image-level difficulty shared by all subjects makes the
human-human consistency (the ceilings) clearly above zero, so model scores are informative.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from scipy.special import expit

# Shapes that look alike get a higher confusability (symmetric); the rest share a base value.
_SIMILAR = {("disk", "ring"): 3.0, ("disk", "crescent"): 2.0, ("ring", "crescent"): 1.5, ("square", "cross"): 1.5,
            ("star", "cross"): 2.0, ("bar", "cross"): 2.0, ("triangle", "star"): 1.5, ("square", "disk"): 1.2}


def _confusability(categories) -> np.ndarray:
    k = len(categories)
    matrix = np.ones((k, k))
    for (a, b), value in _SIMILAR.items():
        if a in categories and b in categories:
            i, j = categories.index(a), categories.index(b)
            matrix[i, j] = matrix[j, i] = value
    np.fill_diagonal(matrix, 0.0)
    return matrix


def _difficulty(table: pd.DataFrame, rng: np.random.Generator) -> np.ndarray:
    """Per image: small objects, variation 1 and far-from-centre positions are harder; plus image noise."""
    size = table["size"].to_numpy(float) if "size" in table else np.full(len(table), 0.3)
    offset = (np.hypot(table["pos_x"].to_numpy(float) - 0.5, table["pos_y"].to_numpy(float) - 0.5)
              if {"pos_x", "pos_y"} <= set(table.columns) else np.zeros(len(table)))
    variation = table["variation"].to_numpy(float) if "variation" in table else np.zeros(len(table))
    return (1.5 * (0.34 - size) / 0.18 + 3.0 * offset + 0.8 * variation + 2.0 * rng.normal(size=len(table)))


def _check_table(table: pd.DataFrame):
    missing = [c for c in ("stimulus_id", "category_name") if c not in table.columns]
    if missing:
        raise ValueError(f"stimulus table lacks column(s) {missing} (a SyntheticShapes table from "
                         f"brainpipe.data.demo.generate_stimuli has them)")


def simulate_labelling(table: pd.DataFrame, subjects: int = 4, skill: float = 1.2, seed: int = 0) -> xr.DataArray:
    """Labelling as in the error-consistency data: each subject labels each image once, choosing among all categories.

    ``condition`` = the image's ``variation`` as str (0: centred/large, 1: shifted/rotated), so error consistency
    is computed per condition as upstream. Trials are in a per-subject random order.
    """
    _check_table(table)
    rng = np.random.default_rng(seed)
    categories = sorted(table["category_name"].unique())
    confusable = _confusability(categories)
    difficulty = _difficulty(table, rng)
    truth = table["category_name"].to_numpy()
    truth_index = np.array([categories.index(t) for t in truth])
    rows = []
    for s in range(subjects):
        subject_skill = skill + 0.4 * rng.normal()
        p_correct = 1 / len(categories) + (1 - 1 / len(categories)) * expit(subject_skill * 2 - difficulty)
        order = rng.permutation(len(table))
        for trial, i in enumerate(order):
            if rng.random() < p_correct[i]:
                choice = truth[i]
            else:
                weights = confusable[truth_index[i]]
                choice = categories[rng.choice(len(categories), p=weights / weights.sum())]
            rows.append(dict(stimulus_id=table["stimulus_id"].iloc[i], truth=truth[i], choice=choice,
                             category=truth[i], condition=str(table["variation"].iloc[i]) if "variation" in table
                             else "0", subject=f"subject-{s + 1:02d}", session=1, trial=trial + 1,
                             response_time=float(np.round(450 + 120 * difficulty[i] + 60 * rng.normal(), 1))))
    return _assembly(pd.DataFrame(rows), "brainpipe.SyntheticShapes.labelling", seed)


def simulate_match_to_sample(table: pd.DataFrame, subjects: int = 6, trials_per_distractor: int = 2,
                             skill: float = 1.5, seed: int = 0) -> xr.DataArray:
    """Match-to-sample 2AFC as in the i2n data: sample image, then its category vs one distractor category; pooled trials.

    Each subject sees each image ``trials_per_distractor`` times against every other category. P(correct)
    falls with the image's difficulty and with the confusability of the pair; value = the chosen category.
    """
    _check_table(table)
    rng = np.random.default_rng(seed)
    categories = sorted(table["category_name"].unique())
    confusable = _confusability(categories)
    difficulty = _difficulty(table, rng)
    truth = table["category_name"].to_numpy()
    rows = []
    for s in range(subjects):
        subject_skill = skill + 0.3 * rng.normal()
        for i in range(len(table)):
            t = categories.index(truth[i])
            for d, distractor in enumerate(categories):
                if d == t:
                    continue
                p = 0.5 + 0.5 * expit(2 * subject_skill - difficulty[i] - 0.8 * confusable[t, d])
                for _ in range(trials_per_distractor):
                    correct = rng.random() < p
                    rows.append(dict(stimulus_id=table["stimulus_id"].iloc[i], sample_obj=truth[i],
                                     dist_obj=distractor, truth=truth[i], choice=truth[i] if correct else distractor,
                                     subject=f"subject-{s + 1:02d}"))
    frame = pd.DataFrame(rows).sample(frac=1.0, random_state=seed).reset_index(drop=True)  # pooled, shuffled
    return _assembly(frame, "brainpipe.SyntheticShapes.match_to_sample", seed)


def _assembly(frame: pd.DataFrame, name: str, seed: int) -> xr.DataArray:
    coords = {}
    for column in frame.columns:
        values = frame[column].to_numpy()
        if values.dtype.kind in "OUT" or str(frame[column].dtype) in ("str", "string"):
            values = values.astype(str).astype(object)  # plain str objects: NetCDF-safe under pandas 3
        coords[column] = ("presentation", values)
    coords["image_id"] = coords["stimulus_id"]
    return xr.DataArray(coords["choice"][1], dims=("presentation",), coords=coords, name=name,
                        attrs={"description": "SIMULATED behaviour (brainpipe demo), not human data", "seed": seed})
