"""Stand-ins for the Islam2021 stimulus set (and the ImageNet engineering sets), in the formats and under the object
names Brain-Score downloads, small enough for a test.

Islam2021 (brain-score/vision brainscore_vision/data/islam2021/__init__.py and data_packaging.py): stimulus set
``Islam2021`` (``stimulus_Islam2021.csv`` / ``.zip``), stylized PASCAL VOC 2012: every original VOC image
(``original_image_id`` '<year>_<id>') rendered in each of 5 textures (cracked, marbled, pleated, potholed, woven:
``texture_class`` 0-4); the 20 VOC classes are the shapes (``shape_class`` 0-19); ``stimulus_id`` is the file stem
'<texture_class>_<shape_class + 1>_<year>_<id>'. The benchmark asserts exactly 5 textures and 20 shapes. Rows are in
no particular order (the packaging globs the folder), so the fixture shuffles them.

**Unverified**: the image format and size (JPEGs of VOC size in the real set; 64×64 PNGs here) and the number of
originals per shape (4369 originals, 21,845 images in the real set; ``per_shape`` here, 200 images by default).
Each image is a shape-specific silhouette filled with a texture-specific pattern on a background of its original,
so that both factors move a network's activations.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

import brainio_fixtures as bf

ISLAM_SHAPES = ("aeroplane", "bicycle", "bird", "boat", "bottle", "bus", "car", "cat", "chair", "cow", "diningtable",
                "dog", "horse", "motorbike", "person", "pottedplant", "sheep", "sofa", "train", "tvmonitor")
ISLAM_TEXTURES = ("cracked", "marbled", "pleated", "potholed", "woven")


def _texture(kind: int, yy, xx, rng):
    """A 64×64×3 pattern per texture class: stripes, rings, checks, dots, weave at class-specific frequencies."""
    f = 6 + 3 * kind
    if kind == 0:
        pattern = np.sin(2 * np.pi * f * (xx + 0.3 * yy))
    elif kind == 1:
        pattern = np.sin(2 * np.pi * f * np.hypot(xx, yy))
    elif kind == 2:
        pattern = np.sign(np.sin(2 * np.pi * f * xx)) * np.sign(np.sin(2 * np.pi * f * yy))
    elif kind == 3:
        pattern = np.cos(2 * np.pi * f * xx) * np.cos(2 * np.pi * f * yy)
    else:
        pattern = np.sin(2 * np.pi * f * (xx - yy)) + np.sin(2 * np.pi * f * (xx + yy))
    colour = np.array([[0.8, 0.3, 0.2], [0.3, 0.7, 0.3], [0.2, 0.3, 0.8], [0.7, 0.7, 0.2], [0.6, 0.2, 0.7]])[kind]
    return 0.5 + 0.35 * pattern[..., None] * colour + 0.03 * rng.standard_normal((*yy.shape, 3))


def _silhouette(shape: int, yy, xx, centre, scale):
    """A shape-specific mask: a star-like polygon with (3 + shape % 7) lobes and a shape-specific aspect ratio."""
    lobes = 3 + shape % 7
    aspect = 0.6 + 0.08 * (shape % 6)
    y, x = (yy - centre[0]) / aspect, xx - centre[1]
    radius = scale * (1 + 0.35 * np.cos(lobes * np.arctan2(y, x) + shape))
    return np.hypot(y, x) < radius


def islam2021(seed: int = 0, per_shape: int = 2):
    """(table, pngs): ``per_shape`` originals per VOC class, each in the 5 textures, rows shuffled."""
    rng = np.random.default_rng(seed + 2021)
    yy, xx = np.mgrid[0:64, 0:64] / 64 - 0.5
    rows, pngs = [], {}
    for shape, shape_name in enumerate(ISLAM_SHAPES):
        for k in range(per_shape):
            original = f"{2008 + k % 5}_{int(rng.integers(0, 10 ** 6)):06d}"
            centre, scale = rng.uniform(-0.12, 0.12, 2), rng.uniform(0.18, 0.3)
            background = rng.uniform(0.2, 0.8, 3) + 0.05 * rng.standard_normal((64, 64, 3))
            mask = _silhouette(shape, yy, xx, centre, scale)
            for texture, texture_name in enumerate(ISLAM_TEXTURES):
                picture = np.where(mask[..., None], _texture(texture, yy, xx, rng), background)
                stimulus_id = f"{texture}_{shape + 1}_{original}"
                pngs[f"{stimulus_id}.png"] = bf._png_bytes(np.clip(picture * 255, 0, 255).astype(np.uint8))
                rows.append(dict(stimulus_id=stimulus_id, original_image_id=original, texture_class=texture,
                                 texture=texture_name, shape_class=shape, shape=shape_name,
                                 filename=f"{stimulus_id}.png"))
    table = pd.DataFrame(rows)
    return table.iloc[rng.permutation(len(table))].reset_index(drop=True), pngs


def write_islam2021(root, seed: int = 0, per_shape: int = 2) -> dict[str, str]:
    """Write stimulus_Islam2021.csv / .zip into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs = islam2021(seed, per_shape)
    bf.write_stimulus_csv(table, root / "stimulus_Islam2021.csv")
    bf.write_zip(pngs, root / "stimulus_Islam2021.zip")
    names = ("stimulus_Islam2021.csv", "stimulus_Islam2021.zip")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


# ---------------------------------------------------------------------------------------------------------------
# ImageNet-top1 (brain-score/vision brainscore_vision/benchmarks/imagenet/imagenet2012.csv): the table's columns
# (an unnamed index, filename, filepath, image_file_sha1, image_id, label, synset) with image_id = filename =
# 'ILSVRC2012_val_<8 digits>.JPEG', label = the synset's index in the standard 1000-class order, filepath on
# Brain-Score's machines; the images are JPEGs. Here: tests/behaviour_fixtures_families.objectnet's animal pictures
# (labelled by WordNet id, most with their animal's synset; scored with the 'baker_prototypes' stand-in weights, so
# that top-1 is neither 0 nor 1), re-encoded as JPEG. The user's zip (imagenet2012_val.zip) is flat.

IMAGENET_FOLDER = "/mnt/brainscore-ami/imagenet2012-val.hdf5-files"


def imagenet2012(seed: int = 0):
    """(table, jpegs) in imagenet2012.csv's format."""
    import io

    from PIL import Image

    from behaviour_fixtures_families import objectnet
    from brainpipe.behaviour._synsets import SYNSETS

    source, pngs = objectnet(seed)
    rows, jpegs = [], {}
    for number, row in enumerate(source.itertuples()):
        name = f"ILSVRC2012_val_{number + 1:08d}.JPEG"
        buffer = io.BytesIO()
        Image.open(io.BytesIO(pngs[row.filename])).convert("RGB").save(buffer, format="JPEG", quality=90)
        jpegs[name] = buffer.getvalue()
        rows.append({"filename": name, "filepath": f"{IMAGENET_FOLDER}/{name}",
                     "image_file_sha1": bf._sha1(jpegs[name]), "image_id": name,
                     "label": SYNSETS.index(row.synset), "synset": row.synset})
    table = pd.DataFrame(rows).sort_values(["label", "filename"]).reset_index(drop=True)
    return table, jpegs


def write_imagenet2012(root, seed: int = 0) -> dict[str, str]:
    """Write imagenet2012.csv (with the unnamed index column, as Brain-Score's) and imagenet2012_val.zip into
    ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, jpegs = imagenet2012(seed)
    table.to_csv(root / "imagenet2012.csv")
    bf.write_zip(jpegs, root / "imagenet2012_val.zip")
    names = ("imagenet2012.csv", "imagenet2012_val.zip")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


# ---------------------------------------------------------------------------------------------------------------
# ImageNet-C (brain-score/vision brainscore_vision/data/hendrycks2019/__init__.py, benchmarks/imagenet_c/): stimulus
# set ``imagenet_c.<category>`` (stimulus_imagenet_c_<category>.csv / .zip), every validation image in each
# corruption type of the category at levels 1-5, with columns ``noise_type``, ``noise_level`` and ``synset`` (read by
# the benchmark). **Unverified**: the other columns and the file names (``image_id`` '<type>_<level>_<val file>',
# ``filename``, ``label`` here), the image format (JPEGs here). Here: the ImageNet fixture's images, each type a
# different corruption whose strength grows with the level.

IMAGENET_C_TYPES = {"noise": ("gaussian_noise", "shot_noise", "impulse_noise")}


def imagenet_c(category: str = "noise", seed: int = 0, images: int = 8):
    """(table, jpegs): ``images`` of the ImageNet fixture's pictures in every type × level 1-5."""
    import io

    from PIL import Image

    base, originals = imagenet2012(seed)
    base = base.iloc[np.linspace(0, len(base) - 1, images).astype(int)]
    rng = np.random.default_rng(seed + 19)
    rows, jpegs = [], {}
    for t, noise_type in enumerate(IMAGENET_C_TYPES[category]):
        for level in range(1, 6):
            for row in base.itertuples():
                pixels = np.asarray(Image.open(io.BytesIO(originals[row.filename])).convert("RGB"), dtype=float)
                strength = 12.0 * level * (1 + t)
                if t == 2:  # impulse: salt and pepper
                    hits = rng.random(pixels.shape[:2]) < 0.02 * level
                    pixels[hits] = rng.choice([0.0, 255.0], size=(int(hits.sum()), 1))
                else:
                    pixels = pixels + strength * rng.standard_normal(pixels.shape)
                buffer = io.BytesIO()
                Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(buffer, format="JPEG", quality=90)
                name = f"{noise_type}_{level}_{row.filename}"
                jpegs[name] = buffer.getvalue()
                rows.append({"image_id": name.rsplit(".", 1)[0], "filename": name, "noise_type": noise_type,
                             "noise_level": level, "synset": row.synset, "label": row.label})
    return pd.DataFrame(rows), jpegs


def write_imagenet_c(root, category: str = "noise", seed: int = 0) -> dict[str, str]:
    """Write stimulus_imagenet_c_<category>.csv / .zip into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, jpegs = imagenet_c(category, seed)
    stem = f"stimulus_imagenet_c_{category}"
    bf.write_stimulus_csv(table, root / f"{stem}.csv")
    bf.write_zip(jpegs, root / f"{stem}.zip")
    names = (f"{stem}.csv", f"{stem}.zip")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


if __name__ == "__main__":  # python tests/engineering_fixtures.py OUT_DIR: write the store (for the reference)
    import json
    import sys

    print(json.dumps({**write_islam2021(sys.argv[1]), **write_imagenet2012(sys.argv[1])}, indent=1))
