"""Small stand-ins for Brain-Score's Malania2007 files, in the real layouts and under the real object names.

* Thresholds ``assy_Malania2007_<condition>.nc`` (condition with '-': ``short-2``, ``vernier-only``): a
  PropertyAssembly of one threshold (arcsec) per subject, dims ``subject``, coordinate ``subject`` (the packaging's
  ``subject_unique_id``), NaN where a subject did not run the condition (brain-score/vision brainscore_vision/data/
  malania2007/data_packaging/malania_data_assembly.py), written as core's ``write_netcdf`` does (a Dataset variable
  ``data``, zlib 9). 6 subjects in the baseline, 5 or 6 per condition (one NaN), like the real counts.
* Stimulus sets ``stimulus_Malania2007_<condition>[_fit].csv/.zip`` with the packaging's columns
  (data_packaging/malania_stimulus_set.py: image sizes, ``vernier_*``, ``flanker_*``, ``line_width_arcsec``,
  ``num_flankers``, ``image_label``, ``stimulus_id``) and ``filename``.

**Unverified** (not in the packaging code): the values of ``image_label``. Brain-Score uses it both as the class the
readout is fitted on and as the independent variable of the psychometric fit, which only works when it is a number;
here it is the vernier offset in arcsec (5 values). Images (64 px, grey) are not verniers: a square whose place codes the
label and whose contrast grows with it (weaker with more flankers, drawn as lines), plus blocky noise, so a readout
tells the larger labels apart more often and less so with flankers. Brain-Score labels microsaccade rows image-major
while it computes them trial-major per batch of 64 (brainpipe.models.microsaccades), so a readout of any set smaller
than a batch is fitted on shuffled labels: on the small store (``write_store``'s defaults; as on the real files, where
upstream's own test expects 0 for alexnet) every fit fails and the raw scores are 0, and the ceilings are the
informative numbers. ``write_informative_store`` writes 64 images per offset (each batch of 64 one label, so the
labels are right) at 128 px (placed at 343 px on an 8° screen, 342 had the 2.986667° been rounded to 2.99): its fits
succeed. Fitting and test sets draw their own noise.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from brainio_fixtures import _png_bytes, _sha1, write_zip

OFFSETS = (5.0, 10.0, 20.0, 40.0, 80.0)  # image_label values (arcsec)
CONDITIONS = ("short2", "short4", "short6", "short8", "short16", "equal2", "long2", "equal16", "long16")
FLANKERS = {"short2": 2, "short4": 4, "short6": 6, "short8": 8, "short16": 16, "equal2": 2, "long2": 2,
            "equal16": 16, "long16": 16, "vernier_only": 0}
SIZE = 64
DEGREES = 2.986667


def object_key(name: str) -> str:
    from brainpipe.benchmarks.families.malania2007 import key
    return key(name)


def _vernier(rng, label_index: int, flankers: int, noise: float, gain: float | None = None) -> np.ndarray:
    """A grey picture with a square whose place says the label and whose contrast grows with it (the smallest
    offsets barely visible), the condition's flankers as faint vertical lines, and blocky noise. ``gain``: the
    contrast of the largest offset, each offset a fifth of it more (default: 0, 37, 73, 110, 110)."""
    pixels = np.kron(rng.normal(128, noise, size=(SIZE // 8, SIZE // 8)), np.ones((8, 8)))
    contrast = (110 * min(1.0, label_index / 3) if gain is None else gain * (label_index + 1) / len(OFFSETS)) / (
        1 + flankers / 16)
    row, column = divmod(label_index, 3)
    pixels[8 + 24 * row:24 + 24 * row, 8 + 20 * column:24 + 20 * column] += contrast
    for k in range(flankers):
        x = 2 + 4 * k
        pixels[:, x] = 170
    return np.repeat(pixels.clip(0, 255).astype(np.uint8)[:, :, None], 3, axis=2)


def stimulus_set(name: str, seed: int, per_offset: int, size: int = SIZE, noise: float = 8.0,
                 gain: float | None = None):
    """(table, {file: png}) of one stimulus set; ``name`` e.g. 'short2', 'short2_fit', 'vernier_only'; ``size``: a
    multiple of 64 (the 64-px picture, each pixel repeated); ``noise``, ``gain``: :func:`_vernier`'s."""
    condition = name.removesuffix("_fit")
    rng = np.random.default_rng(seed)
    rows, pngs = [], {}
    for o, offset in enumerate(OFFSETS):
        for n in range(per_offset):
            pixels = _vernier(rng, o, FLANKERS[condition], noise, gain)
            if size != SIZE:
                pixels = np.repeat(np.repeat(pixels, size // SIZE, axis=0), size // SIZE, axis=1)
            data = _png_bytes(pixels)
            stimulus_id = _sha1(data)
            pngs[f"{stimulus_id}.png"] = data
            rows.append(dict(image_size_x_pix=size, image_size_y_pix=size, image_size_c=3,
                             image_size_degrees=DEGREES, vernier_height_arcsec=1200.0,
                             vernier_offset_arcsec=offset, image_label=offset, flanker_height_arcsec=1200.0,
                             flanker_spacing_arcsec=120.0, line_width_arcsec=40.0, flanker_distance_arcsec=240.0,
                             num_flankers=FLANKERS[condition], vernier_position_x_pix=size // 2,
                             vernier_position_y_pix=size // 2, stimulus_id=stimulus_id,
                             filename=f"{stimulus_id}.png"))
    return pd.DataFrame(rows), pngs


def thresholds(condition: str, seed: int) -> xr.DataArray:
    """One threshold per subject: baseline 6 subjects around 20 arcsec; a condition elevates them (×1.5..×4), one
    subject without a measurement (NaN) except in short2."""
    rng = np.random.default_rng(seed)
    subjects = [f"subject{k}" for k in range(1, 7)]
    base = 20 + rng.normal(0, 4, size=6)
    if condition == "vernier_only":
        values = base
    else:
        factor = 1.5 + 2.5 * (CONDITIONS.index(condition) / len(CONDITIONS))
        values = base * factor * rng.uniform(0.7, 1.3, size=6)
        if condition != "short2":
            values[(CONDITIONS.index(condition) % 6)] = np.nan
    return xr.DataArray(values.astype(np.float64), dims=("subject",),
                        coords={"subject": ("subject", np.array(subjects, dtype=object))},
                        name=object_key(condition))


def write_store(root, seed: int = 0, conditions=CONDITIONS, per_offset_test: int = 3, per_offset_fit: int = 4,
                size: int = SIZE, noise: float = 8.0, gain: float | None = None) -> dict:
    """Write every file of the given conditions and the baseline under ``root``; {object name: sha1}."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for c, condition in enumerate(("vernier_only",) + tuple(conditions)):
        array = thresholds(condition, seed + 10 + c)
        name = f"assy_{object_key(condition)}.nc"
        array.to_dataset(name="data").to_netcdf(root / name, encoding={"data": {"zlib": True, "complevel": 9}})
        written.append(name)
        sets = [(condition, per_offset_test)] + ([(f"{condition}_fit", per_offset_fit)]
                                                 if condition != "vernier_only" else [])
        for s, (set_name, per_offset) in enumerate(sets):
            table, images = stimulus_set(set_name, seed + 100 * c + s, per_offset, size, noise, gain)
            stem = f"stimulus_{object_key(set_name)}"
            table.to_csv(root / f"{stem}.csv", index=False)
            write_zip(images, root / f"{stem}.zip")
            written += [f"{stem}.csv", f"{stem}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}


#: A store whose fits succeed on both sides (:func:`write_informative_store`): 64 images per offset, so that each
#: batch of 64 holds one label and Brain-Score's image-major labels match its trial-major rows; 128-px images,
#: whose size on an 8° screen tells 2.986667° (343 px) from 2.99° (342 px); noise and contrast such that the
#: readout's accuracy grows with the offset (seeded alexnet: about .65 to .9 without flankers) and crosses 75 %.
INFORMATIVE = dict(per_offset_test=64, per_offset_fit=64, size=128, noise=25.0, gain=60.0)


def write_informative_store(root, condition: str = "short4", seed: int = 0) -> dict:
    """One condition and the baseline, where the readouts are fitted on the right labels (:data:`INFORMATIVE`)."""
    return write_store(root, seed=seed, conditions=(condition,), **INFORMATIVE)
