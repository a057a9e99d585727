"""Internal-consistency ceiling: how well one half of the trials predicts the other.

Source: brain-score/vision metrics/internal_consistency/ceiling.py. 10 ShuffleSplits (train_size 0.5,
random_state 1) of the sorted unique repetition values; each half averaged per stimulus; Pearson r per neuroid
across stimuli; Spearman–Brown 2r/(1+r); median over neuroids per split; mean over splits; error = SEM (ddof 0).
"""

import numpy as np
import xarray as xr
from sklearn.model_selection import ShuffleSplit

from .assembly import average_repetitions
from .stats import pearson_columns, sem, spearman_brown


def split_halves(repetition, n_splits=10, random_state=1):
    """Yield boolean masks (half 1) over presentations, one per split of the unique repetitions."""
    unique = np.unique(repetition)
    if len(unique) < 2:
        raise ValueError(f"a split-half ceiling needs at least 2 repetitions, got {len(unique)}")
    splitter = ShuffleSplit(n_splits=n_splits, train_size=0.5, test_size=None, random_state=random_state)
    for first, _ in splitter.split(unique):
        yield np.isin(repetition, unique[first])


def internal_consistency(repetitions: xr.DataArray, n_splits=10, random_state=1):
    """Ceiling of a (presentation, neuroid) per-trial assembly. Returns a dict with ceiling, error, per-split values.

    With a time_bin dimension the ceiling is computed per bin (Brain-Score's internal_consistency_temporal).
    """
    if "time_bin" in repetitions.dims:
        per_bin = [internal_consistency(repetitions.isel(time_bin=i), n_splits, random_state)
                   for i in range(repetitions.sizes["time_bin"])]
        return {"ceiling": [b["ceiling"] for b in per_bin], "error": [b["error"] for b in per_bin],
                "per_split": [b["per_split"] for b in per_bin], "method": "internal_consistency_temporal"}
    repetition = repetitions["repetition"].values
    per_split, per_neuroid = [], []
    for half in split_halves(repetition, n_splits, random_state):
        first = average_repetitions(repetitions.isel(presentation=np.flatnonzero(half)))
        second = average_repetitions(repetitions.isel(presentation=np.flatnonzero(~half)))
        common = np.intersect1d(first["stimulus_id"].values, second["stimulus_id"].values)
        first = first.isel(presentation=np.searchsorted(first["stimulus_id"].values, common))
        second = second.isel(presentation=np.searchsorted(second["stimulus_id"].values, common))
        r = spearman_brown(pearson_columns(first.values, second.values))
        per_neuroid.append(r)
        per_split.append(float(np.nanmedian(r)))
    return {"ceiling": float(np.mean(per_split)), "error": sem(per_split), "per_split": per_split,
            "method": "internal_consistency", "n_splits": n_splits, "random_state": random_state}
