"""Stand-ins for the Hebart2023_fmri (THINGS fMRI), Papale2025 (THINGS TVSD) and Gifford2022 (THINGS EEG2)
data files, in the formats Brain-Score's packaging scripts write, under the real object names.

What is copied from the real data (brain-score/vision brainscore_vision/data/hebart2023_fmri/data_packaging/
package_hebart2023fmri.py ``get_neuroid_assembly`` / ``get_stimulus_set`` and data/hebart2023_fmri/test.py):

* object names ``assy_THINGS_fMRI_{train,test}_Assembly.nc`` and ``stimulus_THINGS_fMRI_{train,test}_Stimuli``
  ``.csv``/``.zip``, the DataArray named by the identifier;
* dims (presentation, neuroid, time_bin) with one bin 70–170 (``time_bin_start``/``time_bin_end``); presentations
  image × repetition with the images sorted by file name and each image's repetitions consecutive (``np.repeat``),
  ``repetition`` 0..R-1 (train 1, test 12); presentation coordinates ``stimulus_id`` (the file name without its
  extension, ``<concept>_<nn><letter>``), ``stimulus_label``, ``object_name`` (the concept), ``stimulus_label_idx``;
* neuroids subject by subject (``01``, ``02``, ``03``) and within a subject region by region (V1, V2, V4, IT), with
  ``neuroid_id`` 0..N-1 counted within each subject (so repeated across subjects), ``region``, ``subject``, ``roi``
  (V1, V2, hV4, glasser-* for IT) and the voxel metadata columns (``voxel_id``, ``voxel_x/y/z``, ``nc_singletrial``,
  ``nc_testset`` in percent, ``splithalf_*``, ``prf-*``); the same voxels in both files;
* each voxel's responses z-scored within its split (mean 0, std 1 over the split's presentations), float64;
* the stimulus CSV's columns ``stimulus_id``, ``label``, ``object_name``, ``label_idx`` plus ``filename``.

**Unverified**: the image format and size (256×256 PNGs here, THINGS JPEGs in the real set: they are licensed and
Brain-Score builds its stimulus files locally), the file names inside the zip, the voxel metadata values, and the
numbers of images and voxels (120 train / 20 test images and 8 voxels per subject and region here, 8640 / 100 and
hundreds in the real files). Voxels respond to a linear read-out of the image plus trial noise; a quarter of them
have ``nc_testset`` below Brain-Score's threshold of 30.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf
from neural_family_fixtures import _plain_images

SUBJECTS = ("01", "02", "03")
ROIS = {"V1": ("V1",), "V2": ("V2",), "V4": ("hV4",), "IT": ("glasser-FFC", "glasser-VVC", "glasser-TE1p")}
CONCEPTS = ("aardvark", "abacus", "accordion", "acorn", "air_conditioner", "airboat", "alligator", "almond",
            "altar", "aluminum_foil", "ambulance", "anchor", "angel", "ant", "antelope", "anvil", "apple", "apron",
            "aquarium", "arch", "armadillo", "arrow", "artichoke", "ashtray", "asparagus", "avocado", "axe",
            "baby", "backpack", "bacon")
METADATA = ("voxel_id", "voxel_x", "voxel_y", "voxel_z", "nc_singletrial", "nc_testset", "splithalf_uncorrected",
            "splithalf_corrected", "prf-eccentricity", "prf-polarangle", "prf-rsquared", "prf-size")


def _images(n_train: int, n_test: int, seed: int):
    """Train and test stimulus tables (sorted by file name), their PNGs and features."""
    table, pngs, features = _plain_images(n_train + n_test, seed, "things")
    per_concept = n_train // len(CONCEPTS)
    names = [f"{CONCEPTS[i % len(CONCEPTS)]}_{i // len(CONCEPTS) + 1:02d}{'bcdefghijkln'[i % 12]}"
             for i in range(n_train)]
    names += [f"{CONCEPTS[i % len(CONCEPTS)]}_{per_concept + 1 + i // len(CONCEPTS):02d}s" for i in range(n_test)]
    renamed = {row.filename: f"{name}.png" for row, name in zip(table.itertuples(), names)}
    pngs = {renamed[name]: data for name, data in pngs.items()}
    splits = {}
    for split, rows in (("train", np.arange(n_train)), ("test", np.arange(n_train, n_train + n_test))):
        ids = np.array(names)[rows]
        order = np.argsort(ids)
        rows, ids = rows[order], ids[order]
        labels = np.array([i.rsplit("_", 1)[0] for i in ids])
        label_index = {label: k for k, label in enumerate(np.unique(labels))}
        stimuli = pd.DataFrame({"stimulus_id": ids, "label": labels, "object_name": labels,
                                "label_idx": [label_index[label] for label in labels],
                                "filename": [f"{i}.png" for i in ids]})
        splits[split] = (stimuli, {f"{i}.png": pngs[f"{i}.png"] for i in ids}, features[rows])
    return splits


def _voxels(rng):
    rows = []
    for subject in SUBJECTS:
        count = 0
        for region, rois in ROIS.items():
            for k in range(8):
                rows.append({"subject": subject, "region": region, "roi": rois[k % len(rois)],
                             "neuroid_id": count, "voxel_id": int(rng.integers(0, 200000)),
                             "voxel_x": int(rng.integers(0, 80)), "voxel_y": int(rng.integers(0, 80)),
                             "voxel_z": int(rng.integers(0, 60)), "nc_singletrial": float(rng.uniform(0, 20)),
                             "nc_testset": float(rng.uniform(35, 90) if k % 4 != 3 else rng.uniform(2, 29)),
                             "splithalf_uncorrected": float(rng.uniform(0, 0.6)),
                             "splithalf_corrected": float(rng.uniform(0, 0.8)),
                             "prf-eccentricity": float(rng.uniform(0, 10)), "prf-polarangle": float(rng.uniform(0, 360)),
                             "prf-rsquared": float(rng.uniform(0, 1)), "prf-size": float(rng.uniform(0, 5))})
                count += 1
    return pd.DataFrame(rows)


def _assembly(split, stimuli, features, voxels, weights, noise, repetitions, rng):
    signal = features @ weights
    signal = (signal - signal.mean(axis=0)) / signal.std(axis=0)
    trials = signal[:, None, :] + noise[None, None, :] * rng.normal(size=(len(features), repetitions, len(voxels)))
    values = trials.reshape(len(features) * repetitions, len(voxels))
    values = (values - values.mean(axis=0)) / values.std(axis=0)  # z-scored per voxel within the split
    coords = {"stimulus_id": ("presentation", np.repeat(stimuli["stimulus_id"].to_numpy(), repetitions)),
              "stimulus_label": ("presentation", np.repeat(stimuli["label"].to_numpy(), repetitions)),
              "object_name": ("presentation", np.repeat(stimuli["object_name"].to_numpy(), repetitions)),
              "stimulus_label_idx": ("presentation", np.repeat(stimuli["label_idx"].to_numpy(), repetitions)),
              "repetition": ("presentation", np.tile(np.arange(repetitions), len(stimuli)))}
    coords.update({column: ("neuroid", voxels[column].to_numpy())
                   for column in ("region", "subject", "neuroid_id") + METADATA + ("roi",)})
    coords["time_bin_start"] = ("time_bin", np.array([70], dtype=np.int64))
    coords["time_bin_end"] = ("time_bin", np.array([170], dtype=np.int64))
    return xr.DataArray(values[:, :, None], dims=("presentation", "neuroid", "time_bin"), coords=bf._plain(coords),
                        name=f"THINGS_fMRI_{split}_Assembly")


def hebart2023_fmri_store(root, n_train: int = 120, n_test: int = 20, seed: int = 0) -> dict[str, str]:
    """Write the Hebart2023_fmri train/test assemblies and stimulus sets into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    splits = _images(n_train, n_test, seed + 31)
    rng = np.random.default_rng(seed + 32)
    voxels = _voxels(rng)
    weights = rng.normal(size=(splits["train"][2].shape[1], len(voxels)))
    noise = np.where(voxels["nc_testset"].to_numpy() > 30, rng.uniform(0.6, 1.5, len(voxels)), 4.0)
    names = []
    for split, repetitions in (("train", 1), ("test", 12)):
        stimuli, pngs, features = splits[split]
        assembly = _assembly(split, stimuli, features, voxels, weights, noise, repetitions, rng)
        stem = f"THINGS_fMRI_{split}"
        bf.write_stimulus_csv(stimuli, root / f"stimulus_{stem}_Stimuli.csv")
        bf.write_zip(pngs, root / f"stimulus_{stem}_Stimuli.zip")
        bf.write_netcdf(assembly, root / f"assy_{stem}_Assembly.nc")
        names += [f"stimulus_{stem}_Stimuli.csv", f"stimulus_{stem}_Stimuli.zip", f"assy_{stem}_Assembly.nc"]
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


# ---------------------------------------------------------------------------------------------------------------
# Papale2025 (THINGS TVSD: multi-unit activity of two macaques; brain-score/vision brainscore_vision/data/papale2025/
# data_packaging/package_papale2025.py ``get_neuroid_assembly``, data/papale2025/test.py): object names
# ``assy_THINGS_TVSD_{train,test}_Assembly.nc`` / ``stimulus_THINGS_TVSD_{train,test}_Stimuli``; presentations
# image × repetition in the stimulus set's order (the recordings' log order, not sorted), repetitions consecutive
# (train 1, test 30); neuroids subject by subject (monkeyF, monkeyN) and region by region (V1, V4, IT), with
# ``neuroid_id`` counted within each subject and per-electrode ``SNR``, ``SNR_max``, ``reliability`` (0–1; Brain-Score
# scores electrodes above 0.3) and ``oracle``; normalised MUA as recorded (not z-scored here). Unverified beyond the
# THINGS notes above: the metadata values, image format and counts (120 / 20 images, 8 electrodes per monkey and
# region here; 22248 / 100 images and 2048 electrodes in the real files).

PAPALE_SUBJECTS = ("monkeyF", "monkeyN")
PAPALE_REGIONS = ("V1", "V4", "IT")


def papale2025_store(root, n_train: int = 120, n_test: int = 20, seed: int = 0) -> dict[str, str]:
    """Write the Papale2025 train/test assemblies and stimulus sets into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    splits = _images(n_train, n_test, seed + 41)
    rng = np.random.default_rng(seed + 42)
    rows = []
    for subject in PAPALE_SUBJECTS:
        for k in range(len(PAPALE_REGIONS) * 8):
            reliable = k % 4 != 1
            rows.append({"subject": subject, "region": PAPALE_REGIONS[k // 8], "neuroid_id": k,
                         "SNR": float(rng.uniform(1, 8)), "SNR_max": float(rng.uniform(5, 15)),
                         "reliability": float(rng.uniform(0.35, 0.9) if reliable else rng.uniform(0.0, 0.28)),
                         "oracle": float(rng.uniform(0.2, 0.95))})
    electrodes = pd.DataFrame(rows)
    weights = rng.normal(size=(splits["train"][2].shape[1], len(electrodes)))
    noise = np.where(electrodes["reliability"].to_numpy() > 0.3, rng.uniform(0.8, 2.5, len(electrodes)), 6.0)
    names = []
    for split, repetitions in (("train", 1), ("test", 30)):
        stimuli, pngs, features = splits[split]
        order = rng.permutation(len(stimuli))  # the log's order
        stimuli, features = stimuli.iloc[order].reset_index(drop=True), features[order]
        signal = features @ weights
        signal = (signal - signal.mean(axis=0)) / signal.std(axis=0)
        trials = 1.0 + 0.5 * signal[:, None, :] + 0.5 * noise * rng.normal(
            size=(len(stimuli), repetitions, len(electrodes)))
        values = trials.reshape(len(stimuli) * repetitions, len(electrodes))
        coords = {"stimulus_id": ("presentation", np.repeat(stimuli["stimulus_id"].to_numpy(), repetitions)),
                  "stimulus_label": ("presentation", np.repeat(stimuli["label"].to_numpy(), repetitions)),
                  "object_name": ("presentation", np.repeat(stimuli["object_name"].to_numpy(), repetitions)),
                  "stimulus_label_idx": ("presentation", np.repeat(stimuli["label_idx"].to_numpy(), repetitions)),
                  "repetition": ("presentation", np.tile(np.arange(repetitions), len(stimuli)))}
        coords.update({column: ("neuroid", electrodes[column].to_numpy())
                       for column in ("region", "subject", "neuroid_id", "SNR", "SNR_max", "reliability", "oracle")})
        coords["time_bin_start"] = ("time_bin", np.array([70], dtype=np.int64))
        coords["time_bin_end"] = ("time_bin", np.array([170], dtype=np.int64))
        stem = f"THINGS_TVSD_{split}"
        assembly = xr.DataArray(values[:, :, None], dims=("presentation", "neuroid", "time_bin"),
                                coords=bf._plain(coords), name=f"{stem}_Assembly")
        bf.write_stimulus_csv(stimuli, root / f"stimulus_{stem}_Stimuli.csv")
        bf.write_zip(pngs, root / f"stimulus_{stem}_Stimuli.zip")
        bf.write_netcdf(assembly, root / f"assy_{stem}_Assembly.nc")
        names += [f"stimulus_{stem}_Stimuli.csv", f"stimulus_{stem}_Stimuli.zip", f"assy_{stem}_Assembly.nc"]
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


# ---------------------------------------------------------------------------------------------------------------
# Gifford2022 (THINGS EEG2; brain-score/vision brainscore_vision/data/gifford2022/data_packaging/package_gifford2022.py
# ``get_neuroid_assembly``): object names ``assy_THINGS_EEG2_{train,test}_Assembly.nc`` /
# ``stimulus_THINGS_EEG2_{train,test}_Stimuli``; dims (presentation, neuroid, time_bin) with 100 time points from
# -0.2 s, ``time_bin_start`` rounded to 0.01 s and ``time_bin_end`` the next start (0.8 for the last); presentations
# image × repetition, repetitions consecutive (train 4, test 80); neuroids subject by subject (``sub-01``, ...) with
# ``subject``, ``neuroid_id`` (0..channels-1 within each subject) and ``channel``, no ``region``; each subject's
# responses z-scored per electrode and time point over all its trials. Unverified beyond the THINGS notes above: the
# value dtype (float32 here), channel names, the numbers (2 subjects × 3 electrodes, 60 / 12 images here; 10 × 17,
# 16540 / 200 in the real files).

GIFFORD_SUBJECTS = ("sub-01", "sub-02")
GIFFORD_CHANNELS = ("O1", "Oz", "O2")


def gifford2022_store(root, n_train: int = 60, n_test: int = 12, seed: int = 0) -> dict[str, str]:
    """Write the Gifford2022 train/test assemblies and stimulus sets into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    splits = _images(n_train, n_test, seed + 51)
    rng = np.random.default_rng(seed + 52)
    times = np.round(np.arange(100) * 0.01 - 0.2, 2)
    ends = np.round(np.append(times[1:], [0.8]), 2)
    profiles = np.stack([np.exp(-((times - centre) / 0.15) ** 2) for centre in (0.15, 0.4)])  # (2, time)
    n_channels = len(GIFFORD_CHANNELS)
    weights = rng.normal(size=(len(GIFFORD_SUBJECTS), 2, splits["train"][2].shape[1], n_channels))
    names = []
    for split, repetitions in (("train", 4), ("test", 80)):
        stimuli, pngs, features = splits[split]
        blocks = []
        for s in range(len(GIFFORD_SUBJECTS)):
            readout = [features @ weights[s, k] for k in range(2)]
            signal = sum(((r - r.mean(axis=0)) / r.std(axis=0))[:, :, None] * profiles[k]
                         for k, r in enumerate(readout))  # (image, channel, time)
            trials = signal[:, None] + 1.0 * rng.normal(size=(len(stimuli), repetitions, n_channels, len(times)))
            trials = (trials - trials.mean(axis=(0, 1))) / trials.std(axis=(0, 1))
            blocks.append(trials.reshape(len(stimuli) * repetitions, n_channels, len(times)))
        values = np.concatenate(blocks, axis=1).astype(np.float32)
        coords = {"stimulus_id": ("presentation", np.repeat(stimuli["stimulus_id"].to_numpy(), repetitions)),
                  "stimulus_label": ("presentation", np.repeat(stimuli["label"].to_numpy(), repetitions)),
                  "object_name": ("presentation", np.repeat(stimuli["object_name"].to_numpy(), repetitions)),
                  "stimulus_label_idx": ("presentation", np.repeat(stimuli["label_idx"].to_numpy(), repetitions)),
                  "repetition": ("presentation", np.tile(np.arange(repetitions), len(stimuli))),
                  "subject": ("neuroid", np.repeat(GIFFORD_SUBJECTS, n_channels)),
                  "neuroid_id": ("neuroid", np.tile(np.arange(n_channels), len(GIFFORD_SUBJECTS))),
                  "channel": ("neuroid", np.tile(GIFFORD_CHANNELS, len(GIFFORD_SUBJECTS))),
                  "time_bin_start": ("time_bin", times), "time_bin_end": ("time_bin", ends)}
        stem = f"THINGS_EEG2_{split}"
        assembly = xr.DataArray(values, dims=("presentation", "neuroid", "time_bin"), coords=bf._plain(coords),
                                name=f"{stem}_Assembly")
        bf.write_stimulus_csv(stimuli, root / f"stimulus_{stem}_Stimuli.csv")
        bf.write_zip(pngs, root / f"stimulus_{stem}_Stimuli.zip")
        bf.write_netcdf(assembly, root / f"assy_{stem}_Assembly.nc")
        names += [f"stimulus_{stem}_Stimuli.csv", f"stimulus_{stem}_Stimuli.zip", f"assy_{stem}_Assembly.nc"]
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


if __name__ == "__main__":  # python tests/fmri_fixtures.py OUT_DIR: write the store (for the reference)
    import json
    import sys

    print(json.dumps({**hebart2023_fmri_store(sys.argv[1]), **papale2025_store(sys.argv[1]),
                      **gifford2022_store(sys.argv[1])}, indent=1))
