"""Small stand-ins for Maniquet2024's data files, in the real layouts and under the real object names.

Layout (brain-score/vision brainscore_vision/data/maniquet2024/data_packaging.py): stimulus sets
``Maniquet2024-train`` / ``Maniquet2024-test`` (``stimulus_Maniquet2024-train.csv/.zip``) with ``stimulus_id``
(``<exemplar>_<manipulation>_<details>_<category>``), ``manipulation``, ``manipulation_details``, ``image_label``,
``exemplar_number`` and ``filename``; ``assy_Maniquet2024.nc`` — one human trial per presentation, value ``acc``
(0/1), coords ``stimulus_id``, ``manipulation``, ``manipulation_details``, ``mask``, ``image_label``,
``prediction``, ``response``, ``reaction_time``, ``subject_id``, ``task``. The humans' own images (stimulus set
``Maniquet2024``) are not read by either benchmark and are not written.

Here: 4 classes; 7 conditions (control, clutter light/heavy, occluder fewlarge-high / manysmall-low, phase
scrambling highpass/lowpass); training images 4 classes × 7 conditions × 2 exemplars, test images × 2 other
exemplars; 5 subjects × 8 tasks (two occlusion tasks map to one test condition, as upstream's table) × 8 trials.

**Unverified** (not in the packaging code): the task names' spelling in the real file (``task_long``; here names
upstream's mapping table understands), the NetCDF variable name (a Dataset variable ``data``), dtypes, the
``mask`` and ``response`` values, image contents, zip member names (``<stimulus_id>.png``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from behaviour_fixtures import _assembly, _image, _write_nc
from brainio_fixtures import _png_bytes, _sha1, write_zip

CLASSES = ("bear", "car", "chair", "plane")
CONDITIONS = (("control", "control"), ("clutter", "light"), ("clutter", "heavy"), ("occluder", "fewlarge-high"),
              ("occluder", "manysmall-low"), ("phasescrambling", "highpass"), ("phasescrambling", "lowpass"))
_STRENGTH = {"control": 1.0, "light": 0.8, "heavy": 0.45, "fewlarge-high": 0.5, "manysmall-low": 0.75,
             "highpass": 0.35, "lowpass": 0.6}
#: human task -> simulated accuracy (task names as upstream's mapping reads them)
TASKS = {"control": 0.95, "clutter_light": 0.85, "clutter_heavy": 0.55, "occlusion_few_large_blobs_high": 0.5,
         "occlusion_few_large_partial_viewing_high": 0.45, "occlusion_many_small_deletion_low": 0.8,
         "scrambling_highpass": 0.35, "scrambling_lowpass": 0.65}


def _images(rng, exemplars):
    rows, pngs = [], {}
    for manipulation, details in CONDITIONS:
        for c, label in enumerate(CLASSES):
            for exemplar in exemplars:
                stimulus_id = f"{exemplar}_{manipulation}_{details}_{label}"
                pngs[f"{stimulus_id}.png"] = _png_bytes(_image(rng, 64, 2 * c + 1,
                                                               _STRENGTH[details] * rng.uniform(0.6, 1.0)))
                rows.append(dict(stimulus_id=stimulus_id, manipulation=manipulation, manipulation_details=details,
                                 image_label=label, exemplar_number=exemplar, filename=f"{stimulus_id}.png"))
    return pd.DataFrame(rows), pngs


def maniquet2024(seed=0, subjects=5, trials_per_task=8):
    """(train table, train images), (test table, test images), the human trials."""
    rng = np.random.default_rng(seed + 60)
    train, test = _images(rng, (1, 2)), _images(rng, (3, 4))
    trials = []
    confusable = {"bear": "chair", "chair": "bear", "car": "plane", "plane": "car"}  # structured human confusions
    for subject in range(1, subjects + 1):
        skill = rng.uniform(0.85, 1.1)
        for task, accuracy in TASKS.items():
            for k in range(trials_per_task):
                label = CLASSES[int(rng.integers(0, 4))]
                if rng.random() < min(accuracy * skill, 0.99):
                    prediction = label
                else:
                    prediction = confusable[label] if rng.random() < 0.7 else CLASSES[int(rng.integers(0, 4))]
                trials.append(dict(stimulus_id=f"h{k}_{task}_{label}", manipulation=task.split("_")[0],
                                   manipulation_details="_".join(task.split("_")[1:]) or "control",
                                   mask=int(rng.integers(0, 2)), image_label=label, prediction=prediction,
                                   response=int(CLASSES.index(prediction) + 1),
                                   reaction_time=float(rng.uniform(0.4, 1.5)), subject_id=subject, task=task,
                                   acc=int(prediction == label)))
    trials = pd.DataFrame(trials)
    coords = {c: ("presentation", trials[c].to_numpy()) for c in trials.columns if c != "acc"}
    return train, test, _assembly(trials["acc"].to_numpy(np.int64), coords, "Maniquet2024")


def write_store(root, seed: int = 0) -> dict:
    """Write the fixture files into ``root`` under their real object names; object name → sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    train, test, assembly = maniquet2024(seed)
    written = ["assy_Maniquet2024.nc"]
    _write_nc(assembly, root / written[0], True)
    for name, (table, images) in (("Maniquet2024-train", train), ("Maniquet2024-test", test)):
        table.to_csv(root / f"stimulus_{name}.csv", index=False)
        write_zip(images, root / f"stimulus_{name}.zip")
        written += [f"stimulus_{name}.csv", f"stimulus_{name}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}
