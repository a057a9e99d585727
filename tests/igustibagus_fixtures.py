"""A stand-in for Brain-Score's Igustibagus2024 data files (assembly and stimulus set), in the formats of brain-score/
vision brainscore_vision/data/igustibagus2024/merged_assembly/create_merged_assembly_and_stim.py, under the real
object names (``assy_Igustibagus2024.nc``, ``stimulus_Igustibagus2024.csv`` / ``.zip``).

Copied from the real data: the stimulus CSV's columns (merged_stimulus_set.csv: filepath, object_label,
image_file_name, object_style, stimulus_source, filename, image_id, stimulus_id, background_id) and its design —
ten object labels; Silhouette images in the styles original, convex_hull, outline, silhouette and skeleton, each
style one image per background id 1..N (the styles of one original share its background id); Art images (cartoon,
line_drawing, mosaic, painting, sketch) and COCOColor / COCOGray / TDW images (no style: empty in the CSV, 'nan' on
the assembly) with background id 0; a GeirhosOOD source outside every scored domain; the CSV not sorted by
stimulus_id. The assembly: presentation × neuroid × time_bin, seven Sanghavi-style bins (``time_bin_id`` 0 =
70–170 ms, ``time_bin_start`` / ``time_bin_stop``), stimulus columns on the presentations, neuroids of two animals
(Oleo, Pico) in region IT with ``neuroid_id`` '<animal>_<electrode>' and Pico's later repetitions NaN (the merge
pads Pico's fewer trials with NaN).

Unverified / scaled down: the number of images (60 per Silhouette style instead of 120, 30–40 per other domain),
repetitions (6 instead of 63), neuroids (16 instead of 181), image content and size (64×64 coloured shapes whose
colour and shape depend on the object label), the float64 dtype and the other neuroid columns (arr, elec).
Half of the neuroids are noisy, so that the 0.7 consistency threshold drops some.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf

LABELS = ("apple", "bear", "bird", "car", "chair", "dog", "elephant", "face", "plane", "zebra")
SILHOUETTE_STYLES = ("original", "convex_hull", "outline", "silhouette", "skeleton")
#: (source, style, images per label); style None: no style (NaN in the CSV)
OTHER_DOMAINS = (("Art", "cartoon", 4), ("Art", "line_drawing", 3), ("Art", "mosaic", 3), ("Art", "painting", 3),
                 ("Art", "sketch", 3), ("COCOColor", None, 4), ("COCOGray", None, 3), ("TDW", None, 3),
                 ("GeirhosOOD", "edges", 1))
PER_LABEL_ORIGINALS = 6
BINS = [(70, 170), (170, 270), (50, 100), (100, 150), (150, 200), (200, 250), (70, 270)]
REPETITIONS = 6
PICO_REPETITIONS = 4  # Pico's trials beyond these are NaN
NAMES = ("assy_Igustibagus2024.nc", "stimulus_Igustibagus2024.csv", "stimulus_Igustibagus2024.zip")


def _image(rng, label_index: int, style: str | None, source: str, size: int = 64):
    yy, xx = np.mgrid[0:size, 0:size] / size - 0.5
    hue = np.array([np.cos(label_index), np.sin(label_index * 1.7), np.cos(label_index * 2.3)]) * 0.4 + 0.5
    centre = rng.uniform(-0.15, 0.15, 2)
    radius = 0.12 + 0.02 * (label_index % 5) + rng.uniform(0, 0.05)
    dist = np.sqrt((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2)
    mask = dist < radius if label_index % 2 else (np.abs(xx - centre[0]) + np.abs(yy - centre[1])) < radius
    background = rng.uniform(0.2, 0.8, 3)
    if style in ("outline", "line_drawing", "sketch", "edges"):
        mask = mask & ~(dist < radius * 0.8)
    colour = hue if style not in ("silhouette", "convex_hull", "skeleton") else np.zeros(3)
    picture = np.where(mask[..., None], colour, background)
    picture = picture + 0.05 * np.sin(2 * np.pi * rng.uniform(1, 4) * (xx + yy))[..., None]
    if source == "COCOGray":
        picture = picture.mean(axis=2, keepdims=True).repeat(3, axis=2)
    return np.clip(picture * 255, 0, 255).astype(np.uint8), np.concatenate([bf._downsample(
        np.clip(picture * 255, 0, 255).astype(np.uint8), 4).ravel(), hue])


def stimuli(seed: int = 0):
    """(table in CSV order, pngs, features per row)."""
    rng = np.random.default_rng(seed)
    rows, pngs, features = [], {}, []

    def add(label_index, style, source, background_id, folder):
        pixels, feature = _image(rng, label_index, style, source)
        data = bf._png_bytes(pixels)
        stimulus_id = bf._sha1(data)
        rows.append(dict(filepath=f"{folder}/im{len(rows)}.png", object_label=LABELS[label_index],
                         image_file_name=f"im{len(rows)}.png", object_style=style, stimulus_source=source,
                         filename=f"{stimulus_id}.png", image_id=stimulus_id, stimulus_id=stimulus_id,
                         background_id=background_id))
        pngs[f"{stimulus_id}.png"] = data
        features.append(feature)

    for source, style, per_label in OTHER_DOMAINS[:5]:  # the Art images first, as in the real CSV
        for label_index in range(len(LABELS)):
            for _ in range(per_label):
                add(label_index, style, source, 0, f"from_ko/art-{style}")
    originals = [(label_index, k) for label_index in range(len(LABELS)) for k in range(PER_LABEL_ORIGINALS)]
    for style in SILHOUETTE_STYLES:
        for background_id, (label_index, _) in enumerate(originals, start=1):
            add(label_index, style, "Silhouette", background_id, f"silhouette/{style}")
    for source, style, per_label in OTHER_DOMAINS[5:]:
        for label_index in range(len(LABELS)):
            for _ in range(per_label):
                add(label_index, style, source, 0, f"{source.lower()}")
    table = pd.DataFrame(rows)
    order = rng.permutation(len(table))  # the CSV is not sorted by stimulus_id, nor grouped
    return table.iloc[order].reset_index(drop=True), pngs, np.array(features)[order]


def recordings(table: pd.DataFrame, features: np.ndarray, seed: int = 0) -> xr.DataArray:
    rng = np.random.default_rng(seed + 1)
    animals = ["Oleo"] * 9 + ["Pico"] * 7
    n_neuroids, n_images = len(animals), len(table)
    noise = np.array([0.4, 3.0, 0.6, 2.5, 0.5, 4.0, 0.8, 2.0, 0.3, 0.5, 3.5, 0.7, 2.2, 0.4, 0.9, 5.0])
    values = np.empty((n_images * REPETITIONS, n_neuroids, len(BINS)))
    order = rng.permutation(n_images * REPETITIONS)  # presentations not sorted
    image_index, repetition = np.divmod(order, REPETITIONS)
    for b in range(len(BINS)):
        signal = bf._responses(features, n_neuroids, rng, 1, noise=0.0)[:, 0, :]
        trials = signal[:, None, :] + noise * (1 + 0.2 * b) * rng.normal(size=(n_images, REPETITIONS, n_neuroids))
        values[:, :, b] = trials[image_index, repetition, :] + 0.1 * b
    pico = np.array(animals) == "Pico"
    values[np.ix_(repetition >= PICO_REPETITIONS, pico)] = np.nan
    coords = {column: ("presentation", table[column].fillna("nan").to_numpy()[image_index])
              for column in table.columns if column != "filename"}
    coords["background_id"] = ("presentation", table["background_id"].to_numpy(np.int64)[image_index])
    coords["repetition"] = ("presentation", repetition.astype(np.int64))
    electrodes = [f"{'AB'[i % 2]}{i:03d}" for i in range(n_neuroids)]
    coords.update(neuroid_id=("neuroid", np.array([f"{a}_{e}" for a, e in zip(animals, electrodes)])),
                  electrode_id=("neuroid", np.array(electrodes)), region=("neuroid", np.array(["IT"] * n_neuroids)),
                  animal=("neuroid", np.array(animals)), arr=("neuroid", np.array(["M", "A", "P", "M"] * 4)),
                  elec=("neuroid", np.arange(n_neuroids, dtype=np.int64)),
                  time_bin_id=("time_bin", np.arange(len(BINS), dtype=np.int64)),
                  time_bin_start=("time_bin", np.array([b[0] for b in BINS], dtype=np.int64)),
                  time_bin_stop=("time_bin", np.array([b[1] for b in BINS], dtype=np.int64)))
    assembly = xr.DataArray(values, dims=("presentation", "neuroid", "time_bin"), coords=bf._plain(coords),
                            name="Igustibagus2024")
    assembly.attrs.update(image_size_degree=8, stim_on_time_ms=100)
    return assembly


def write_store(root, seed: int = 0) -> dict[str, str]:
    """Write the assembly and the stimulus set into ``root``; object name -> sha1 of each file."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs, features = stimuli(seed)
    bf.write_stimulus_csv(table, root / "stimulus_Igustibagus2024.csv")
    bf.write_zip(pngs, root / "stimulus_Igustibagus2024.zip")
    bf.write_netcdf(recordings(table, features, seed), root / "assy_Igustibagus2024.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in NAMES}
