"""A stand-in for Brain-Score's Kar2019 files, in the real format and under the real object names.

From brain-score/vision brainscore_vision/data/kar2019/__init__.py and data_packaging.py: assembly
``assy_dicarlo_Kar2019.nc``, a DataArray named ``dicarlo.Kar2019`` with dims ``(decoder, presentation)``
(decoders ``svm``, ``logistic``), values the object solution time in ms (NaN where never solved), presentation
coordinates ``image_id``, ``image_label`` and ``i1``; stimulus set ``Kar2019`` (``stimulus_Kar2019.csv`` with
``image_id``, ``filename``, ``image_label``, and the PNGs at the top level of ``stimulus_Kar2019.zip``). As in the
real file (1320 presentations, 1318 unique images), two images appear twice. Sizes, label names and the image
content are stand-ins (unverified: the real images' size); ``n_images`` 1318 gives a real-size fixture.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr
from PIL import Image

from brainio_fixtures import _sha1, write_netcdf, write_stimulus_csv, write_zip

LABELS = ("bear", "elephant", "person", "car", "dog", "apple", "chair", "plane", "bird", "zebra")  # Kar2019's 10


def _image(rng, label_index, difficulty, size):
    """Oriented stripes whose angle says the label, buried in noise that grows with the image's difficulty."""
    y, x = np.mgrid[0:size, 0:size] / size
    angle = np.pi * label_index / 10
    stripes = np.sin(2 * np.pi * 4 * (x * np.cos(angle) + y * np.sin(angle)))
    pixels = 0.5 + 0.4 * (1 - difficulty) * stripes[..., None] + difficulty * 0.5 * rng.standard_normal((size, size, 3))
    data = io.BytesIO()
    Image.fromarray((np.clip(pixels, 0, 1) * 255).astype(np.uint8)).save(data, format="PNG")
    return data.getvalue()


def write_kar2019_store(root, n_images=160, labels=2, size=48, seed=0) -> dict[str, str]:
    """Write the fixture files into ``root``; returns object name → sha1 (for data.checksums_override)."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    names = LABELS[:labels]
    label_index = np.arange(n_images) % labels
    difficulty = rng.uniform(0.1, 0.9, n_images)
    ids = [f"{seed:02d}{k:06d}kar" for k in range(n_images)]
    pngs = {f"{i}.png": _image(rng, label_index[k], difficulty[k], size) for k, i in enumerate(ids)}
    table = pd.DataFrame({"image_id": ids, "filename": [f"{i}.png" for i in ids],
                          "image_label": [names[k] for k in label_index], "difficulty": difficulty})
    stem = "stimulus_Kar2019"
    write_stimulus_csv(table, root / f"{stem}.csv")
    write_zip(pngs, root / f"{stem}.zip")
    order = np.concatenate([rng.permutation(n_images), [3, 7]])  # shuffled, with two ids twice (1320 vs 1318)
    ost = 90 + 140 * difficulty[order] + rng.normal(0, 8, len(order))
    values = np.stack([ost, ost + rng.normal(0, 10, len(order))])  # svm, logistic
    values[:, rng.choice(len(order), max(1, len(order) // 50), replace=False)] = np.nan  # never solved
    assembly = xr.DataArray(values, dims=("decoder", "presentation"), name="dicarlo.Kar2019", coords={
        "decoder": ("decoder", ["svm", "logistic"]),
        "image_id": ("presentation", [ids[k] for k in order]),
        "image_label": ("presentation", [names[label_index[k]] for k in order]),
        "i1": ("presentation", rng.uniform(0.5, 2.5, len(order)))})
    write_netcdf(assembly, root / "assy_dicarlo_Kar2019.nc")
    return {name: _sha1((root / name).read_bytes())
            for name in ("assy_dicarlo_Kar2019.nc", f"{stem}.csv", f"{stem}.zip")}
