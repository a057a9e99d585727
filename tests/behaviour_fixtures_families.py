"""Small stand-ins for more of Brain-Score's behavioural data files (issue 26), in the real layouts and under the real
object names, as tests/behaviour_fixtures.py does for the first four families.

* Hermann2020 (``Hermann2020``): no human data; the stimulus set ``Geirhos2021_cue-conflict``
  (``stimulus_Geirhos2021_cue-conflict.csv/.zip``) with the columns of brain-score/vision
  brainscore_vision/data/geirhos2021/data_packaging/cue-conflict/cue-conflict_stimulus_set.py: ``image_id``
  (``<shape><n>-<texture><m>``), ``original_image``, ``conflict_image``, ``truth`` (= shape category), ``category``,
  ``original_image_category``, ``original_image_variation``, ``conflict_image_category``,
  ``conflict_image_variation``, ``condition`` (0), ``filename``. Some images have no conflict (both categories equal),
  as in the real set.
* ObjectNet (``ObjectNet``): no human data; the stimulus set ``BarbuMayo2019`` with the columns of
  brainscore_vision/data/barbumayo2019/BarbuMayo2019.py (``image_id``, ``synset``, ``filepath``) and ``filename``;
  the images resemble Baker2022's animal stand-ins, labelled with the WordNet id of the animal's first ImageNet
  class (or, for every third image, another class), so the prototype readout below gets some of them right.
* BMD2024 (``BMD2024``, experiments texture_1 and dotted_2): ``assy_BMD_2024_<experiment>.nc`` — one trial per
  presentation, value = ``subject_answer``; coords ``subject``, ``subject_answer``, ``stimulus_id``, ``truth``,
  ``condition`` (brainscore_vision/data/bmd2024/data_packaging/BMD_2024_data_assembly.py); stimuli with
  ``stimulus_id``, ``truth``, ``condition`` (data_packaging/stim_meta.csv) and ``filename``.
* Lonnqvist2024 (``Lonnqvist2024``): stimuli ``Lonnqvist2024_train`` / ``_test`` with ``curve_length``,
  ``n_cross``, ``image_path``, ``stimulus_id``, ``truth``, ``image_label`` (data_packaging/lonnqvist_stimulus_set.py)
  and ``filename`` (``stimulus_id`` numbers, as the packaging's ``idx``; integers in the assembly too, as its
  CSV-read ``stimulus_id``); ``assy_Lonnqvist2024_<experiment>.nc`` (the two in-lab experiments), value = ``subject_answer``,
  coords ``subject``, ``visual_degrees``, ``image_duration``, ``is_correct``, ``subject_answer``, ``curve_length``,
  ``n_cross``, ``image_path``, ``stimulus_id``, ``truth``, ``image_label`` (lonnqvist_data_assembly.py). The answer
  labels ('same' / 'diff') are a guess: the packaging copies them from the lab's ``correct_response_key``.
* Baker2022 (``Baker2022``): ``assy_Baker2022_{normal,inverted}_distortion.nc`` — one trial per presentation, value =
  ``Correct?`` (0/1); coords ``stimulus_id``, ``subject`` (``Subj``: integers 1..n), ``condition``, ``truth``
  (animal), ``correct``, ``orientation`` (brainscore_vision/data/baker2022/data_packaging/*_data_assembly.py); stimuli
  with ``stimulus_id``, ``animal``, ``image_type`` (w/f/o), ``image_type_entire``, ``image_number``,
  ``orientation`` (*_stimulus_set.py), inverted ids carrying ``inv``.

**Unverified** (not in the packaging code): the NetCDF variable name (written as a Dataset variable ``data``, as
core's current ``write_netcdf``), dtypes of metadata coordinates, the ``condition`` values of Baker2022, image sizes
and contents, zip member names (flat ``<stimulus id>.png``). Behaviour is simulated (accuracy by image type and
subject skill), so every ceiling is > 0.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from behaviour_fixtures import GEIRHOS_CATEGORIES, _assembly, _image, _write_nc
from brainio_fixtures import _png_bytes, _sha1, write_zip

FAMILIES = ("Hermann2020", "Baker2022", "ObjectNet", "BMD2024", "Lonnqvist2024", "Scialom2024")
BMD_LABELS = ("airplane", "bear", "bicycle", "bird", "bottle", "car", "cat", "chair", "elephant", "knife")
BAKER_ANIMALS = ("bear", "bunny", "cat", "elephant", "frog", "lizard", "tiger", "turtle", "wolf")


def hermann2020_cue_conflict(seed=0, images=48):
    """The cue-conflict stimulus set: shape of one category, texture of another (every 6th image: the same)."""
    rng = np.random.default_rng(seed)
    rows, pngs = [], {}
    for k in range(images):
        shape = GEIRHOS_CATEGORIES[k % 16]
        texture = shape if k % 6 == 0 else GEIRHOS_CATEGORIES[int(rng.integers(0, 16))]
        shape_n, texture_n = k // 16 + 1, int(rng.integers(1, 11))
        image_id = f"{shape}{shape_n}-{texture}{texture_n}"
        if image_id in pngs:
            continue
        pixels = _image(rng, 64, GEIRHOS_CATEGORIES.index(shape), 0.8)
        pixels = (0.6 * pixels + 0.4 * _image(rng, 64, GEIRHOS_CATEGORIES.index(texture), 1.0)).astype(np.uint8)
        pngs[image_id] = _png_bytes(pixels)
        rows.append(dict(image_id=image_id, original_image=f"{shape}{shape_n}", conflict_image=f"{texture}{texture_n}",
                         truth=shape, category=shape, original_image_category=shape,
                         original_image_variation=shape_n, conflict_image_category=texture,
                         conflict_image_variation=texture_n, condition=0, filename=f"{image_id}.png"))
    return pd.DataFrame(rows), {f"{key}.png": data for key, data in pngs.items()}


#: simulated human accuracy per image type (whole, frankenstein, fragmented)
_BAKER_ACCURACY = {"w": 0.85, "f": 0.45, "o": 0.35}
#: how visible the animal blob is per image type (whole, frankenstein, fragmented)
_BAKER_STRENGTH = {"w": 1.0, "f": 0.6, "o": 0.4}


def baker2022(dataset="normal", seed=0, per_animal=3, subjects=8):
    """One Baker2022 data set: stimuli (9 animals × image types × ``per_animal``) and every subject's trials."""
    rng = np.random.default_rng(seed + (dataset == "inverted"))
    types = ("w", "f", "o") if dataset == "normal" else ("w", "f")
    entire = {"w": "whole", "f": "frankenstein", "o": "fragmented"}
    rows, pngs = [], {}
    for a, animal in enumerate(BAKER_ANIMALS):
        for image_type in types:
            for number in range(1, per_animal + 1):
                prefix = "" if image_type == "w" else image_type
                stimulus_id = f"{prefix}{animal}{'inv' if dataset == 'inverted' else ''}{number}"
                pixels = _image(rng, 64, a, _BAKER_STRENGTH[image_type])
                if dataset == "inverted":
                    pixels = pixels[::-1].copy()
                pngs[f"{stimulus_id}.png"] = _png_bytes(pixels)
                rows.append(dict(stimulus_id=stimulus_id, animal=animal, image_type=image_type,
                                 image_type_entire=entire[image_type], image_number=number, orientation=dataset,
                                 filename=f"{stimulus_id}.png"))
    stimuli = pd.DataFrame(rows)
    trials = []
    for subject in range(1, subjects + 1):
        skill = rng.uniform(0.8, 1.1)
        for i in rng.permutation(len(stimuli)):
            row = stimuli.iloc[i]
            correct = int(rng.random() < min(_BAKER_ACCURACY[row.image_type] * skill, 0.98))
            trials.append(dict(stimulus_id=row.stimulus_id, subject=subject, condition=row.image_type_entire,
                               truth=row.animal, correct=correct, orientation=dataset))
    trials = pd.DataFrame(trials)
    coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
    assembly = _assembly(trials["correct"].to_numpy(np.int64), coords, f"Baker2022_{dataset}_distortion")
    return assembly, stimuli, pngs


def bmd2024(experiment="texture_1", seed=0, per_category=3, subjects=6):
    """One BMD2024 experiment: 10 categories × ``per_category`` images, every subject names every image."""
    rng = np.random.default_rng(seed + 10 + ("texture_1", "texture_2", "dotted_1", "dotted_2").index(experiment))
    suffix = {"texture_1": "t1", "texture_2": "t2", "dotted_1": "d1", "dotted_2": "d2"}[experiment]
    rows, pngs = [], {}
    for c, category in enumerate(BMD_LABELS):
        for k in range(per_category):
            stimulus_id = f"{category.capitalize()}_{k + 1}_{suffix}"
            pngs[f"{stimulus_id}.png"] = _png_bytes(_image(rng, 64, c, rng.uniform(0.4, 1.0)))
            rows.append(dict(stimulus_id=stimulus_id, truth=category, condition=experiment,
                             filename=f"{stimulus_id}.png"))
    stimuli = pd.DataFrame(rows)
    trials = []
    for subject in range(subjects):
        skill = rng.uniform(0.5, 0.95)
        for i in rng.permutation(len(stimuli)):
            row = stimuli.iloc[i]
            answer = row.truth if rng.random() < skill else BMD_LABELS[int(rng.integers(0, 10))]
            trials.append(dict(subject=f"participant_{subject:03d}", subject_answer=answer,
                               stimulus_id=row.stimulus_id, truth=row.truth, condition=experiment))
    trials = pd.DataFrame(trials)
    coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
    return _assembly(trials["subject_answer"].to_numpy(object), coords, f"BMD_2024_{experiment}"), stimuli, pngs


def _curves(rng, n, first):
    """Curve stand-ins numbered from ``first`` (the packaging's ``idx``: numbers, read back as integers)."""
    rows, pngs = [], {}
    for k in range(n):
        truth = ("same", "diff")[k % 2]
        stimulus_id = first + k
        pixels = _image(rng, 64, 3 if truth == "same" else 11, rng.uniform(0.3, 1.0))
        pngs[f"{stimulus_id}.png"] = _png_bytes(pixels)
        rows.append(dict(curve_length=int(rng.integers(2, 21)) * 10, n_cross=int(rng.integers(1, 8)),
                         image_path=f"stimuli/images/{stimulus_id}.png", stimulus_id=stimulus_id, truth=truth,
                         image_label=truth, filename=f"{stimulus_id}.png"))
    return pd.DataFrame(rows), pngs


def lonnqvist2024(seed=0, n_train=20, n_test=24, subjects=5):
    """Lonnqvist2024 stand-ins: fitting and test images and two in-lab experiments' trials (each subject answers
    every test image once)."""
    rng = np.random.default_rng(seed + 20)
    train, test = _curves(rng, n_train, 1000), _curves(rng, n_test, 0)
    assemblies = {}
    for experiment in ("inlab-instructions", "inlab-no-instructions"):
        trials = []
        for subject in range(subjects):
            skill = rng.uniform(0.55, 0.95)
            for row in test[0].itertuples():
                right = rng.random() < skill
                answer = row.truth if right else ("diff" if row.truth == "same" else "same")
                trials.append(dict(subject=f"s{subject:02d}", visual_degrees=17.70753, image_duration=200.0,
                                   is_correct=bool(right), subject_answer=answer, curve_length=row.curve_length,
                                   n_cross=row.n_cross, image_path=row.image_path, stimulus_id=row.stimulus_id,
                                   truth=row.truth, image_label=row.truth))
        trials = pd.DataFrame(trials)
        coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
        assemblies[experiment] = _assembly(trials["subject_answer"].to_numpy(object), coords,
                                           f"Lonnqvist2024_{experiment}")
    return train, test, assemblies


def objectnet(seed=0, per_animal=3):
    """ObjectNet stand-in: animal pictures labelled by ImageNet WordNet id."""
    from brainpipe.behaviour._synsets import SYNSETS
    from brainpipe.behaviour.tasks import label_indices

    rng = np.random.default_rng(seed + 7)
    rows, pngs = [], {}
    for a, animal in enumerate(BAKER_ANIMALS):
        for k in range(per_animal):
            number = len(rows)
            synset = SYNSETS[label_indices(animal)[0]] if k % 3 else SYNSETS[int(rng.integers(0, 1000))]
            name = f"{number:05d}.png"
            pngs[name] = _png_bytes(_image(rng, 64, a, 1.0 if k % 2 == 0 else 0.7))
            rows.append(dict(image_id=str(number), synset=synset, filepath=f"images_no_border/{name}", filename=name))
    return pd.DataFrame(rows), pngs


SCIALOM_LABELS = ("Banana", "Beanie", "Binoculars", "Boot", "Bowl", "Cup", "Glasses", "Lamp", "Pan", "Sewing machine",
                  "Shovel", "Truck")
#: fixture data sets: two conditions and the phosphene composite (here of rgb, contours and phosphenes-12 only)
SCIALOM_DATASETS = ("rgb", "phosphenes-12", "phosphenes-all")
#: all 22 of Brain-Score's (perf/bench_families.py's whole family): those three first, so their draws are unchanged
SCIALOM_PERCENTAGES = ("12", "16", "21", "27", "35", "46", "59", "77", "100")
SCIALOM_ALL_DATASETS = SCIALOM_DATASETS + ("contours", "segments-all") + tuple(
    f"{rendering}-{p}" for rendering in ("phosphenes", "segments") for p in SCIALOM_PERCENTAGES
    if f"{rendering}-{p}" != "phosphenes-12")
#: simulated human accuracy and how visible the object is, per rendering
_SCIALOM_ACCURACY = {"RGB": 0.9, "contours": 0.7, "phosphenes": 0.5, "segments": 0.55}
_SCIALOM_STRENGTH = {"RGB": 1.0, "contours": 0.7, "phosphenes": 0.45, "segments": 0.5}


def _scialom_images(rng, group, percentage, first, per_label):
    """Stimuli of one rendering: 12 labels × ``per_label`` objects, numeric ``stimulus_id`` from ``first``."""
    rows, pngs = [], {}
    for c, label in enumerate(SCIALOM_LABELS):
        for k in range(per_label):
            stimulus_id = first + len(rows)
            pngs[f"{stimulus_id}.png"] = _png_bytes(_image(rng, 64, c, _SCIALOM_STRENGTH[group] * rng.uniform(0.6, 1)))
            rows.append(dict(image_height=64, image_width=64, num_channels=3 if group != "phosphenes" else 1,
                             dataset=group, object_id=k + 1, stimulus_id=stimulus_id, truth=label,
                             percentage_elements=percentage, filename=f"{stimulus_id}.png"))
    return rows, pngs


def scialom2024(dataset, seed=0, per_label=2, subjects=5):
    """One Scialom2024 data set (data/scialom2024/data_packaging/scialom_*.py): stimuli with ``image_height``,
    ``image_width``, ``num_channels``, ``dataset``, ``object_id``, ``stimulus_id`` (numbers), ``truth``,
    ``percentage_elements``, ``condition`` (the percentage, or the composite's rendering) and ``filename``; trials
    with value = ``subject_answer`` and coords ``subject``, ``subject_group``, ``visual_degrees``,
    ``image_duration``, ``is_correct``, ``subject_answer``, ``condition`` (the percentage; in a composite the subject
    group), ``percentage_elements``, ``stimulus_id`` (integers) and ``truth``. Every subject names every image.

    Subject groups are the two renderings (phosphenes, segments): a subject of one group saw rgb, contours and its
    rendering, so rgb's trials come from both groups and a composite's from its own group only (upstream's data test
    has 25 subjects in a composite and the same ``condition`` values in its stimulus set and its trials: the
    packaging's ``subject_group == 'RGB'`` rows do not exist). A composite's ``condition`` is thus one value."""
    rng = np.random.default_rng(seed + 30 + SCIALOM_ALL_DATASETS.index(dataset))
    rendering, _, percentage = dataset.partition("-")
    composite = percentage == "all"
    if composite:
        parts = [("RGB", "RGB"), ("contours", "contours"), (rendering, "12")]
    else:
        parts = {"rgb": [("RGB", "RGB")], "contours": [("contours", "contours")]}.get(dataset, [(rendering, percentage)])
    rows, pngs, groups = [], {}, []
    for group, percentage in parts:
        part, images = _scialom_images(rng, group, percentage, len(rows), per_label)
        rows += part
        pngs.update(images)
        groups += [group] * len(part)
    stimuli = pd.DataFrame(rows)
    stimuli.insert(len(stimuli.columns) - 1, "condition", rendering if composite else stimuli["percentage_elements"])
    trials = []
    for subject in range(subjects):
        skill = rng.uniform(0.7, 1.1)
        for i in rng.permutation(len(stimuli)):
            row, group = stimuli.iloc[i], groups[i]
            right = rng.random() < min(_SCIALOM_ACCURACY[group] * skill, 0.98)
            answer = row.truth if right else SCIALOM_LABELS[int(rng.integers(0, 12))]
            # rgb and contours: both groups; a rendering's conditions and composite: its own group
            shared = dataset in ("rgb", "contours")
            subject_group = ("segments" if subject % 2 else "phosphenes") if shared else rendering
            trials.append(dict(subject=f"{subject + 1}", subject_group=subject_group, visual_degrees=8,
                               image_duration=200, is_correct=answer == row.truth, subject_answer=answer,
                               condition=subject_group if composite else str(row.percentage_elements),
                               percentage_elements=str(row.percentage_elements),
                               stimulus_id=int(row.stimulus_id), truth=row.truth))
    trials = pd.DataFrame(trials)
    coords = {column: ("presentation", trials[column].to_numpy()) for column in trials.columns}
    return _assembly(trials["subject_answer"].to_numpy(object), coords, f"Scialom2024_{dataset}"), stimuli, pngs


def write_store(root, families=FAMILIES, seed: int = 0, scialom_datasets=SCIALOM_DATASETS) -> dict:
    """Write the fixture files into ``root`` under their real object names; object name → sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []

    def stimuli(identifier, table, images):
        stem = "stimulus_" + identifier.replace(".", "_")
        table.to_csv(root / f"{stem}.csv", index=False)
        write_zip(images, root / f"{stem}.zip")
        written.extend([f"{stem}.csv", f"{stem}.zip"])

    for family in families:
        if family == "Hermann2020":
            table, images = hermann2020_cue_conflict(seed)
            stimuli("Geirhos2021_cue-conflict", table, images)
        elif family == "Baker2022":
            for dataset in ("normal", "inverted"):
                array, table, images = baker2022(dataset, seed)
                name = f"assy_Baker2022_{dataset}_distortion.nc"
                _write_nc(array, root / name, True)
                written.append(name)
                stimuli(f"Baker2022_{dataset}_distortion", table, images)
        elif family == "BMD2024":
            for experiment in ("texture_1", "dotted_2"):
                array, table, images = bmd2024(experiment, seed)
                name = f"assy_BMD_2024_{experiment}.nc"
                _write_nc(array, root / name, True)
                written.append(name)
                stimuli(f"BMD_2024_{experiment}", table, images)
        elif family == "Lonnqvist2024":
            train, test, assemblies = lonnqvist2024(seed)
            stimuli("Lonnqvist2024_train", *train)
            stimuli("Lonnqvist2024_test", *test)
            for experiment, array in assemblies.items():
                name = f"assy_Lonnqvist2024_{experiment}.nc"
                _write_nc(array, root / name, True)
                written.append(name)
        elif family == "Scialom2024":
            for dataset in scialom_datasets:
                array, table, images = scialom2024(dataset, seed)
                name = f"assy_Scialom2024_{dataset}.nc"
                _write_nc(array, root / name, True)
                written.append(name)
                stimuli(f"Scialom2024_{dataset}", table, images)
        elif family == "ObjectNet":
            table, images = objectnet(seed)
            stimuli("BarbuMayo2019", table, images)
        else:
            raise ValueError(f"unknown fixture family {family!r}; known: {', '.join(FAMILIES)}")
    return {name: _sha1((root / name).read_bytes()) for name in written}


def baker2022_prototypes() -> dict:
    """One whole-silhouette stand-in per Baker2022 animal (own seeds, not fixture images): {label: pixels}."""
    return {animal: _image(np.random.default_rng(100 + a), 64, a, 1.0) for a, animal in enumerate(BAKER_ANIMALS)}


def prototype_alexnet_state(prototypes: dict, seed: int = 0, scale: float = 50.0) -> dict:
    """Stand-in alexnet weights whose labels depend on the image: seeded random weights (``torch.manual_seed``)
    with the last layer replaced by a prototype readout. A seeded random alexnet gives every image the same label
    (its biases dominate), so an accuracy *difference* such as Baker2022's delta would be 0 for any data; here each
    label's ImageNet rows are the unit direction of its prototype's (centred) penultimate features, and the bias
    centres them, so images resembling a label's prototype get that label. Deterministic; both brainpipe and
    Brain-Score read the same file, so how the numbers arise does not matter to the comparison."""
    import torch

    from brainpipe.behaviour.tasks import label_indices
    from brainpipe.models._torchvision import import_torchvision

    torch.manual_seed(seed)
    model = import_torchvision().models.alexnet(weights=None).eval()
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    features = []
    with torch.no_grad():
        for pixels in prototypes.values():
            x = torch.tensor(np.asarray(pixels)).permute(2, 0, 1)[None].float() / 255
            x = (torch.nn.functional.interpolate(x, size=224, mode="bilinear") - mean) / std
            features.append(model.classifier[:6](model.avgpool(model.features(x)).flatten(1))[0])
    features = torch.stack(features).double()
    centre = features.mean(0)
    weight = torch.zeros(1000, features.shape[1], dtype=torch.float64)
    for label, row in zip(prototypes, features):
        direction = row - centre
        weight[label_indices(label)] = direction / direction.norm() * scale
    state = model.state_dict()
    state["classifier.6.weight"] = weight.float()
    state["classifier.6.bias"] = -(weight @ centre).float()
    return state


#: the stand-in weights each fixture family is scored with (see prototype_alexnet_state)
WEIGHTS = {"Hermann2020": "seeded", "Baker2022": "baker_prototypes", "ObjectNet": "baker_prototypes",
           "BMD2024": "seeded", "Lonnqvist2024": "seeded", "Scialom2024": "scialom_prototypes"}
ALEXNET_FILE = "alexnet-owt-7be5be79.pth"  # torchvision's file name for IMAGENET1K_V1 (what both sides load)


def write_torch_home(home, kind: str) -> Path:
    """A TORCH_HOME holding the stand-in alexnet weights ``kind`` under torchvision's file name; the file's path."""
    import torch

    from brainpipe.models._torchvision import import_torchvision

    path = Path(home) / "hub" / "checkpoints" / ALEXNET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "seeded":
        torch.manual_seed(0)
        state = import_torchvision().models.alexnet(weights=None).state_dict()
    elif kind == "baker_prototypes":
        state = prototype_alexnet_state(baker2022_prototypes())
    elif kind == "scialom_prototypes":  # one picture per Scialom2024 label (own seeds, not fixture images)
        state = prototype_alexnet_state({label: _image(np.random.default_rng(200 + c), 64, c, 1.0)
                                         for c, label in enumerate(SCIALOM_LABELS)})
    else:
        raise ValueError(f"unknown stand-in weights {kind!r}")
    torch.save(state, path)
    return path
