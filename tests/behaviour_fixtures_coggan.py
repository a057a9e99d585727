"""Small stand-ins for Coggan2024_behavior's data files, in the real layouts and under the real object names.

Layout (brain-score/vision brainscore_vision/data/coggan2024_behavior/data_packaging.py): stimulus set
``tong.Coggan2024_behavior`` (``stimulus_tong_Coggan2024_behavior.csv/.zip``), one image per trial, with
``stimulus_id`` (``<row:05>_sub-<ss>_trial-<ttt>``), ``subject``, ``trial``, ``object_class``,
``imagenet_class_index_1K``, ``imagenet_class_name``, ``imagenet_class_description``, ``occluder_type``,
``occluder_color``, ``visibility``, ``repetition``, ``filename``; fitting set ``tong.Coggan2024_behavior_fitting``
with ``stimulus_id``, ``image_label``, ``imagenet_path``, ``filename``; ``assy_tong_Coggan2024_behavior.nc``: value
= the human's prediction, coords ``stimulus_id``, ``human_accuracy`` (the stimulus columns merge on load).

Here: 4 of the 8 classes, 3 occluder types × 2 colours × visibilities 0.2 / 0.6 (+ unoccluded 1.0 trials, left out
by the metric), 4 subjects × 56 trials; 8 fitting images per class. Difficulty depends on the condition (shared by
subjects: the ceiling is positive).

**Unverified**: the NetCDF variable name, dtypes, occluder names, image contents, zip member names.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from behaviour_fixtures import _assembly, _image, _write_nc
from brainio_fixtures import _png_bytes, _sha1, write_zip

CLASSES = {"bear": (294, "n02132136", "brown bear, bruin, Ursus arctos"), "bison": (347, "n02410509", "bison"),
           "jeep": (609, "n03594945", "jeep, landrover"), "teapot": (849, "n04398044", "teapot")}
OCCLUDERS = ("barHorz04", "mudSplash", "polkadot")
COLOURS = ("black", "white")
DATASET, FITTING = "tong.Coggan2024_behavior", "tong.Coggan2024_behavior_fitting"


def coggan2024(seed=0, subjects=4):
    rng = np.random.default_rng(seed + 80)
    classes = list(CLASSES)
    ease = {(o, c): rng.uniform(0.3, 1.0) for o in OCCLUDERS for c in COLOURS}
    rows, pngs, trials = [], {}, []
    for s in range(subjects):
        conditions = [(o, c, v) for o in OCCLUDERS for c in COLOURS for v in (0.2, 0.6) for _ in range(4)]
        conditions += [("unoccluded", "none", 1.0)] * 8
        for t, k in enumerate(rng.permutation(len(conditions))):
            occluder, colour, visibility = conditions[k]
            cls = classes[int(rng.integers(0, 4))]
            stimulus_id = f"{len(rows):05}_sub-{s:02}_trial-{t:03}"
            strength = visibility * (ease.get((occluder, colour), 1.0) + 0.3)
            pngs[f"{stimulus_id}.png"] = _png_bytes(_image(rng, 64, 3 * classes.index(cls) + 2, min(strength, 1.0)))
            index, name, description = CLASSES[cls]
            rows.append(dict(stimulus_id=stimulus_id, subject=f"sub-{s:02}", trial=t, object_class=cls,
                             imagenet_class_index_1K=index, imagenet_class_name=name,
                             imagenet_class_description=description, occluder_type=occluder, occluder_color=colour,
                             visibility=visibility, repetition=int(rng.integers(0, 3)), filename=f"{stimulus_id}.png"))
            p = 0.95 if visibility == 1 else min(0.25 + 0.7 * ease[(occluder, colour)] * (visibility + 0.4), 0.97)
            prediction = cls if rng.random() < p else classes[int(rng.integers(0, 4))]
            trials.append((stimulus_id, prediction, int(prediction == cls)))
    stimuli = pd.DataFrame(rows)
    fitting_rows, fitting_pngs = [], {}
    for cls in classes:
        for k in range(8):
            stimulus_id = f"{len(fitting_rows):04}_ILSVRC2012_val_{k:08}"
            fitting_pngs[f"{stimulus_id}.png"] = _png_bytes(_image(rng, 64, 3 * classes.index(cls) + 2,
                                                                   rng.uniform(0.6, 1.0)))
            fitting_rows.append(dict(stimulus_id=stimulus_id, image_label=cls,
                                     imagenet_path=f"val/{stimulus_id}.JPEG", filename=f"{stimulus_id}.png"))
    ids, predictions, accuracy = zip(*trials)
    assembly = _assembly(np.array(predictions, dtype=object),
                         {"stimulus_id": ("presentation", np.array(ids, dtype=object)),
                          "human_accuracy": ("presentation", np.array(accuracy, dtype=np.int64))}, DATASET)
    return (stimuli, pngs), (pd.DataFrame(fitting_rows), fitting_pngs), assembly


def write_store(root, seed: int = 0) -> dict:
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    test, fitting, assembly = coggan2024(seed)
    written = ["assy_tong_Coggan2024_behavior.nc"]
    _write_nc(assembly, root / written[0], True)
    for name, (table, images) in ((DATASET, test), (FITTING, fitting)):
        stem = "stimulus_" + name.replace(".", "_")
        table.to_csv(root / f"{stem}.csv", index=False)
        write_zip(images, root / f"{stem}.zip")
        written += [f"{stem}.csv", f"{stem}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}
