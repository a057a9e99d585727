"""SIMULATED object solution times for the SyntheticShapes images (the offline OST demo), not a recording.

Each image gets a primate-like object solution time that grows with how hard the image is (shifted or rotated
views, small objects, as in Kar et al. 2019's "challenge" images), plus noise, and an I1 d′ threshold the model's
read-out must reach. Written in the format of Brain-Score's Kar2019 assembly (:mod:`brainpipe.data.ost_data`):
decoder × presentation, values OST in ms, coordinates ``image_id``, ``stimulus_id``, ``image_label`` (the shape
category) and ``i1``, so the demo runs through the very stages Kar2019-ost does.
"""

from __future__ import annotations

import numpy as np

DATASET = "SyntheticShapesOST"


def simulate_ost(table, seed=0):
    """table: the SyntheticShapes stimulus table (stimulus_id, category_name, variation, size)."""
    import xarray as xr

    rng = np.random.default_rng(seed + 7)
    size = table["size"].to_numpy(float)
    small = (size.max() - size) / (size.max() - size.min() + 1e-9)  # 0: the largest object, 1: the smallest
    difficulty = 0.5 * table["variation"].to_numpy(float) + 0.5 * small
    ost = 100 + 100 * difficulty + rng.normal(0, 10, len(table))
    i1 = rng.uniform(0.2, 1.2, len(table))  # thresholds an untrained network can reach (the demo has a curve)
    values = np.stack([ost, ost + rng.normal(0, 8, len(table))])  # svm, logistic (as Kar2019 ships two decoders)
    ids = table["stimulus_id"].to_numpy(str)
    return xr.DataArray(values, dims=("decoder", "presentation"), name=f"brainpipe.{DATASET}", coords={
        "decoder": ("decoder", ["svm", "logistic"]), "stimulus_id": ("presentation", ids),
        "image_id": ("presentation", ids), "image_label": ("presentation", table["category_name"].to_numpy(str)),
        "i1": ("presentation", i1)}, attrs={"description": "SIMULATED object solution times (brainpipe demo)",
                                             "seed": seed})
