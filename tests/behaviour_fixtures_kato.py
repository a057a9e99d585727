"""Small stand-ins for Kato2026's data files, in the real layouts and under the real object names (as
tests/behaviour_fixtures_families.py does for other behavioural families).

Layout (brain-score/vision brainscore_vision/data/kato2026/data_packaging/): per data set ``Kato2026.<dataset>``,
``assy_Kato2026_<dataset>.nc`` — one trial per presentation, value = ``response``; coords ``stimulus_id`` (str),
``subject`` (str), ``correct``, ``condition`` (the data set's name), ``response``, ``truth``
(data_assembly.py) — and ``stimulus_Kato2026_<dataset>.csv/.zip`` with ``stimulus_id``
(``<category>_ILSVRC2012_val_<8 digits>_<condition code>``, rows in sorted file-name order as the packaging's
``sorted(os.listdir)``), ``truth`` (``kato2026_<category>``), ``condition`` and ``filename`` (stimulus_set.py).
Here: 6 of the 48 categories × 2 photographs (12 images per data set; Sparse and Dense show 9 of them, one category
fewer, so their truth labels are a subset as upstream's 171 of 240), 6 subjects in Ori and 4 elsewhere, every
subject naming every image once; about 5 % of the answers are ``'NaN'`` (no answer: both metrics drop them).

**Unverified** (not in the packaging code): the NetCDF variable name (written as a Dataset variable ``data``), the
dtypes of ``correct`` and ``response``, how a missing answer is stored (here the text ``'NaN'``, which the
metrics' code tests for), image sizes and contents, zip member names (``<stimulus_id>.png``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from behaviour_fixtures import _assembly, _image, _write_nc
from brainio_fixtures import _png_bytes, _sha1, write_zip

CATEGORIES = ("acorn", "banana", "cabbage", "mug", "snail", "cat")
PHOTOS = 2
DATASETS = ("Ori", "Fil", "Lin", "SilTex", "Sil", "Tex", "LinFil", "Sparse", "Dense")
#: the packaging's condition codes (file name suffixes)
CODES = {"Ori": "o", "Fil": "f", "Lin": "l", "SilTex": "st", "Sil": "s", "Tex": "t", "LinFil": "lf", "Dense": "cd",
         "Sparse": "cs"}
#: how visible the object is, and the simulated human accuracy, per data set
_STRENGTH = {"Ori": 1.0, "Fil": 0.7, "Lin": 0.55, "SilTex": 0.65, "Sil": 0.6, "Tex": 0.45, "LinFil": 0.45,
             "Sparse": 0.4, "Dense": 0.5}
_ACCURACY = {"Ori": 0.9, "Fil": 0.75, "Lin": 0.6, "SilTex": 0.7, "Sil": 0.7, "Tex": 0.5, "LinFil": 0.55,
             "Sparse": 0.45, "Dense": 0.55}


def _photos(dataset):
    """(category index, photograph number) of the data set's images: all 12, or 9 for Sparse/Dense (no 'cat',
    and the second acorn missing)."""
    photos = [(c, k) for c in range(len(CATEGORIES)) for k in range(PHOTOS)]
    if dataset in ("Sparse", "Dense"):
        photos = [(c, k) for c, k in photos if CATEGORIES[c] != "cat" and (c, k) != (0, 1)]
    return photos


def kato2026(dataset, seed=0):
    """One data set: the trials (assembly), the stimulus table and the images."""
    rng = np.random.default_rng(seed + 40 + DATASETS.index(dataset))
    rows, pngs = [], {}
    for c, k in _photos(dataset):
        category = CATEGORIES[c]
        stimulus_id = f"{category}_ILSVRC2012_val_{1000 * (c + 1) + k:08d}_{CODES[dataset]}"
        pixels = _image(rng, 64, c, _STRENGTH[dataset] * rng.uniform(0.5, 1.0))
        pngs[f"{stimulus_id}.png"] = _png_bytes(pixels)
        rows.append(dict(stimulus_id=stimulus_id, truth=f"kato2026_{category}", condition=dataset,
                         filename=f"{stimulus_id}.png"))
    stimuli = pd.DataFrame(rows).sort_values("filename", kind="stable").reset_index(drop=True)
    labels = [f"kato2026_{c}" for c in CATEGORIES] + ["kato2026_others"]
    trials = []
    ease = rng.uniform(0.3, 1.3, size=len(stimuli))  # shared by the subjects: their errors agree (ceiling > 0)
    for subject in range((6 if dataset == "Ori" else 4)):
        skill = rng.uniform(0.8, 1.1)
        for i in rng.permutation(len(stimuli)):
            row = stimuli.iloc[i]
            if rng.random() < 0.05:
                answer = "NaN"
            elif rng.random() < min(_ACCURACY[dataset] * skill * ease[i], 0.98):
                answer = row.truth
            else:
                answer = labels[int(rng.integers(0, len(labels)))]
            trials.append(dict(stimulus_id=row.stimulus_id, subject=f"{subject + 1}", correct=int(answer == row.truth),
                               condition=dataset, response=answer, truth=row.truth))
    trials = pd.DataFrame(trials)
    coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
    return _assembly(trials["response"].to_numpy(object), coords, f"Kato2026.{dataset}"), stimuli, pngs


def write_store(root, datasets=DATASETS, seed: int = 0) -> dict:
    """Write the fixture files into ``root`` under their real object names; object name → sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for dataset in datasets:
        array, table, images = kato2026(dataset, seed)
        name = f"assy_Kato2026_{dataset}.nc"
        _write_nc(array, root / name, True)
        stem = f"stimulus_Kato2026_{dataset}"
        table.to_csv(root / f"{stem}.csv", index=False)
        write_zip(images, root / f"{stem}.zip")
        written += [name, f"{stem}.csv", f"{stem}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}


def prototypes() -> dict:
    """One picture per fixture category (own seeds, not fixture images), for the prototype alexnet readout."""
    return {f"kato2026_{category}": _image(np.random.default_rng(300 + c), 64, c, 1.0)
            for c, category in enumerate(CATEGORIES)}


def write_torch_home(home) -> Path:
    """A TORCH_HOME with the prototype alexnet for these categories (behaviour_fixtures_families'
    prototype_alexnet_state); the weights file's path."""
    import torch

    from behaviour_fixtures_families import ALEXNET_FILE, prototype_alexnet_state

    path = Path(home) / "hub" / "checkpoints" / ALEXNET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(prototype_alexnet_state(prototypes()), path)
    return path
