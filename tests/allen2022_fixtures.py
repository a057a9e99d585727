"""Stand-ins for the Allen2022 (NSD) fMRI files, in the formats Brain-Score's packaging writes, under the real object
names (brain-score/vision brainscore_vision/data/allen2022_fmri/__init__.py, data/allen2022_fmri_surface/__init__.py).

What is copied from the real data (data/allen2022_fmri/data_packaging/package_allen2022fmri.py and notebooks
volumetric/03a_nsd_packaging_prep.ipynb, surface/03_surface_packaging_prep.ipynb):

* object names ``assy_Allen2022_fMRI[_surface][_4subj]_{train,test}_Assembly.nc`` and
  ``stimulus_Allen2022_fMRI[_4subj]_{train,test}_Stimuli.csv/.zip`` (the surface files reuse the volumetric stimuli),
  the DataArray named by the identifier;
* dims (presentation, neuroid, time_bin), float32, one time bin 70–170 ms (``time_bin_start``/``time_bin_end``);
* train: one (already averaged) response per image, presentations in the stimulus set's order (sorted
  ``stimulus_id``), coordinates ``stimulus_id`` 'nsd_<5-digit NSD id>' and ``nsd_id``, no ``repetition``;
  test: three repetitions per image interleaved (image 0 rep 0, 1, 2, image 1 rep 0, ...), with ``repetition``;
* per neuroid: ``neuroid_id``, ``subject`` ('subj01' ...; subjects 1, 2, 5, 7 in the 4-subject files), ``region``
  (V1, V2, V4, IT), ``nc_testset`` (percent; Brain-Score keeps > 30), and for volumes ``voxel_x/y/z`` (subject-major,
  regions inside) or for surfaces ``hemisphere`` and ``vertex_index`` (region-major, subjects inside);
* stimulus CSV columns ``stimulus_id``, ``nsd_id`` and brainio's ``filename``.

**Unverified**: the ``neuroid_id`` format (here '<subject>_<region>_<n>'), the image format (JPEGs in the real
sets, PNGs here), and sizes (515/1000 images and 57,242 / 157,992 neuroids in the real files, a few dozen images
and voxels here unless asked for more: the scale benchmark writes real-size files with this module).
Responses are a linear read-out of image features plus noise whose size falls with ``nc_testset``, so scores and
ceilings lie between 0 and 1; a few voxels have ``nc_testset`` at or below 30 (dropped) and one NaN.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf

REGIONS = ("V1", "V2", "V4", "IT")
SUBJECTS = {"8subj": [f"subj{s:02d}" for s in range(1, 9)], "4subj": ["subj01", "subj02", "subj05", "subj07"]}
#: variant -> (stimulus identifier infix, assembly identifier infix)
INFIX = {"8subj": "", "4subj": "_4subj"}


def stimulus_identifier(variant, split):
    return f"Allen2022_fMRI{INFIX[variant]}_{split}_Stimuli"


def assembly_identifier(variant, split, surface):
    return f"Allen2022_fMRI{'_surface' if surface else ''}{INFIX[variant]}_{split}_Assembly"


def _images(n_images, rng, size=64):
    """(nsd ids sorted, {file name: png bytes}, features) of ``n_images`` smooth random pictures."""
    nsd = np.sort(rng.choice(73000, n_images, replace=False))
    yy, xx = np.mgrid[0:size, 0:size] / size - 0.5
    pngs, features = {}, []
    for nsd_id in nsd:
        centre, radius = rng.uniform(-0.3, 0.3, 2), rng.uniform(0.08, 0.3)
        colour, background = rng.uniform(0, 1, 3), rng.uniform(0.2, 0.8, 3)
        mask = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 < radius ** 2
        picture = np.where(mask[..., None], colour, background)
        picture = picture + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * (xx + yy))[..., None]
        pixels = np.clip(picture * 255, 0, 255).astype(np.uint8)
        pngs[f"nsd_{nsd_id:05d}.png"] = bf._png_bytes(pixels)
        features.append(np.concatenate([bf._downsample(pixels, 8), colour]))
    return nsd, pngs, np.array(features)


def _neuroids(variant, surface, voxels, rng):
    """The neuroid table: per subject and region ``voxels[region]`` neuroids, in the real files' order."""
    rows = []
    pairs = ([(r, s) for r in REGIONS for s in SUBJECTS[variant]] if surface
             else [(r, s) for s in SUBJECTS[variant] for r in REGIONS])
    for region, subject in pairs:
        for k in range(voxels[region]):
            nc = float(rng.uniform(35, 85)) if k % 5 else float(rng.uniform(2, 30))  # every fifth one dropped
            row = dict(neuroid_id=f"{subject}_{region}_{k:05d}", subject=subject, region=region, nc_testset=nc)
            if surface:
                row.update(hemisphere="lh" if k % 2 else "rh", vertex_index=int(rng.integers(0, 163842)))
            else:
                row.update(voxel_x=int(rng.integers(0, 81)), voxel_y=int(rng.integers(0, 104)),
                           voxel_z=int(rng.integers(0, 83)))
            rows.append(row)
    table = pd.DataFrame(rows)
    table.loc[len(table) // 2, "nc_testset"] = np.nan  # no noise ceiling: never selected
    return table


def _assembly(values, presentation, neuroids, name):
    coords = {column: ("presentation", np.asarray(v)) for column, v in presentation.items()}
    coords.update({column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns})
    coords["time_bin_start"] = ("time_bin", np.array([70], dtype=np.int64))
    coords["time_bin_end"] = ("time_bin", np.array([170], dtype=np.int64))
    return xr.DataArray(values[:, :, None].astype(np.float32), dims=("presentation", "neuroid", "time_bin"),
                        coords=bf._plain(coords), name=name)


def write_variant(root, variant="8subj", n_train=48, n_test=16, voxels=None, surfaces=(False, True), seed=0,
                  chunk=4096):
    """Write one subject variant's stimulus sets and its volume and/or surface assemblies into ``root``.

    ``voxels``: {region: neuroids per subject}; ``chunk``: neuroids generated at a time (real sizes stay in
    memory as float32 only). Returns the names of the files written."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    voxels = voxels or {"V1": 6, "V2": 5, "V4": 5, "IT": 7}
    rng = np.random.default_rng(seed + (0 if variant == "8subj" else 100))
    nsd, pngs, features = _images(n_train + n_test, rng)
    test_index = np.sort(rng.choice(n_train + n_test, n_test, replace=False))
    train_index = np.setdiff1d(np.arange(n_train + n_test), test_index)
    names = []
    for split, index in (("train", train_index), ("test", test_index)):
        identifier = stimulus_identifier(variant, split)
        table = pd.DataFrame({"stimulus_id": [f"nsd_{n:05d}" for n in nsd[index]], "nsd_id": nsd[index],
                              "filename": [f"nsd_{n:05d}.png" for n in nsd[index]]})
        bf.write_stimulus_csv(table, root / f"stimulus_{identifier}.csv")
        bf.write_zip({name: pngs[name] for name in table["filename"]}, root / f"stimulus_{identifier}.zip")
        names += [f"stimulus_{identifier}.csv", f"stimulus_{identifier}.zip"]
    features = (features - features.mean(axis=0)) / (features.std(axis=0) + 1e-12)
    for surface in surfaces:
        neuroids = _neuroids(variant, surface, voxels, rng)
        n = len(neuroids)
        train = np.empty((len(train_index), n), dtype=np.float32)
        test = np.empty((len(test_index), 3, n), dtype=np.float32)
        noise_scale = 2.0 - np.nan_to_num(neuroids["nc_testset"].to_numpy(), nan=0.0) / 60
        for start in range(0, n, chunk):
            stop = min(start + chunk, n)
            weights = rng.normal(size=(features.shape[1], stop - start)) / np.sqrt(features.shape[1])
            signal = features @ weights
            signal = (signal - signal.mean(axis=0)) / (signal.std(axis=0) + 1e-12)
            noise = noise_scale[start:stop]
            trials = signal[:, None, :] + noise * rng.normal(size=(len(signal), 3, stop - start))
            train[:, start:stop] = trials[train_index].mean(axis=1)  # the train file holds the averaged response
            test[:, :, start:stop] = trials[test_index]
        for split in ("train", "test"):
            identifier = assembly_identifier(variant, split, surface)
            if split == "train":
                presentation = {"stimulus_id": [f"nsd_{k:05d}" for k in nsd[train_index]], "nsd_id": nsd[train_index]}
                values = train
            else:
                presentation = {"stimulus_id": np.repeat([f"nsd_{k:05d}" for k in nsd[test_index]], 3),
                                "nsd_id": np.repeat(nsd[test_index], 3),
                                "repetition": np.tile(np.arange(3, dtype=np.int64), len(test_index))}
                values = test.reshape(len(test_index) * 3, n)
            bf.write_netcdf(_assembly(values, presentation, neuroids, identifier), root / f"assy_{identifier}.nc")
            names.append(f"assy_{identifier}.nc")
        del train, test
    return names


def allen2022_store(root, seed=0) -> dict[str, str]:
    """Both subject variants, volume and surface, at fixture size; object name -> sha1."""
    root = Path(root)
    names = write_variant(root, "8subj", 48, 16, seed=seed) + write_variant(root, "4subj", 56, 18, seed=seed)
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


if __name__ == "__main__":  # python tests/allen2022_fixtures.py OUT_DIR: write the store (for the reference)
    import json
    import sys

    print(json.dumps(allen2022_store(sys.argv[1]), indent=1))
