"""Stand-ins for the LAION-fMRI (Zerbe2026) files, in the formats Brain-Score 2.4.2's data plugin reads, under the
real object names.

What is copied from the real data (brain-score/vision brainscore_vision/data/laion_fmri/_helpers/assemblies.py,
stimuli.py, benchmarks/laion_fmri/benchmark.py and laion_fmri/splits/__init__.py of ViCCo-Group/LAION-fMRI):

* one assembly per subject (``assy_LAION_fMRI_full_sub-XX_Assembly.nc``; subjects sub-01, 03, 05, 06, 07), a
  NetCDF DataArray (presentation × neuroid), presentations = stimulus × repetition with ``stimulus_id`` (the image
  file name, the ``label`` the split lists use), ``repetition`` (int32, 0.. within the stimulus) and
  ``subject_id_pres`` ('sub-XX_v3'), an index coordinate per dimension, the variable named ``data``; neuroid
  coordinates ``subject_id``, ``region`` (V1, V2, V4, IT), ``roi``, ``voxel_index_in_brain_mask`` (int32),
  ``nc_4rep``, ``nc_12rep``, ``nc_allrep`` (float32, % explained variance 0–100; voxels with ``nc_12rep`` ≤ 30
  are dropped by the benchmark) (data_packaging/build_assembly.py, prepare_shared.py);
* the shared-pool split lists ``shared/tau.json`` and ``shared/ood.json`` in the package's JSON layout (name,
  splitter, params, n_train, n_test, variants[{variant_id, train_ids, test_ids}]); image names as
  the real ones (``shared_12rep_LAION_cluster_1006_i0.jpg``, ``shared_4rep_OOD_cropped_air_pump.png``);
* the stimuli as the DUA-gated local copy Brain-Score reads: a folder with ``manifest.csv`` (``stimulus_id``,
  ``filename``) and the images.

**Unverified** (the real files are not public here): the values' dtype (float32 z-scored betas here), the ``roi``
values, the number of repetitions
(2 or 3 here: 4 and 12 in the data), and the counts (40 regular + 10 OOD images, 10 voxels per region and subject
here; 1,121 + 371 images and thousands of voxels in the data). Responses are a linear read-out of the image's
pixels plus a subject-specific pattern and trial noise, so scores lie between 0 and 1.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf

SUBJECTS = ("sub-01", "sub-03", "sub-05", "sub-06", "sub-07")
REGIONS = ("V1", "V2", "V4", "IT")
OOD_CATEGORIES = ("shape", "gabor", "illusion-classic", "cropped", "unusual")
N_REGULAR, N_OOD, VOXELS_PER_REGION = 40, 10, 10
#: tau test images (of the regular ones) and repetitions per image for even / odd subjects (module constants so that
#: perf/bench_zerbe2026_scale.py can write the real counts with the same code)
N_TAU_TEST, REPETITIONS = 8, (3, 2)


def _images(seed: int):
    """Regular and OOD images: (table stimulus_id/filename, {filename: png}, features)."""
    rng = np.random.default_rng(seed)
    ids, pngs, features = [], {}, []
    names = [f"shared_{(12, 4)[k % 2]}rep_LAION_cluster_{1000 + 7 * k}_i{k % 5}.jpg" for k in range(N_REGULAR)]
    names += [f"shared_4rep_OOD_{OOD_CATEGORIES[k % len(OOD_CATEGORIES)]}_object_{k:02d}.png" for k in range(N_OOD)]
    for name in names:
        _draw(name, rng, ids, pngs, features)
    table = pd.DataFrame({"stimulus_id": [i for i, _ in ids], "filename": [f for _, f in ids]})
    return table, pngs, np.asarray(features)


def _draw(name, rng, ids, pngs, features):
    """One image (a disc on a background with a grating) appended to ids / pngs / features."""
    yy, xx = np.mgrid[0:128, 0:128] / 128 - 0.5
    centre = rng.uniform(-0.3, 0.3, 2)
    radius = rng.uniform(0.08, 0.3)
    colour, background = rng.uniform(0, 1, 3), rng.uniform(0.2, 0.8, 3)
    mask = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 < radius ** 2
    picture = np.where(mask[..., None], colour, background)
    picture = picture + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * (xx + yy))[..., None]
    pixels = np.clip(picture * 255, 0, 255).astype(np.uint8)
    png = name.rsplit(".", 1)[0] + ".png"  # PNG bytes whatever the name says (the loader reads any format)
    pngs[png] = bf._png_bytes(pixels)
    ids.append((name, png))
    features.append(np.concatenate([centre, [radius], colour, background]))


def _split_json(name, train, test):
    return {"name": name, "splitter": "fixture", "params": {}, "n_train": len(train), "n_test": len(test),
            "variants": [{"variant_id": 0, "train_ids": list(train), "test_ids": list(test)}]}


def _subject_voxels(subject, s, per_region, standardised, rng):
    """One subject's voxels (``per_region`` per region; a quarter below the nc_12rep > 30 cut), each a linear read-out
    of the images' features plus what the pixels do not explain (shared by trials), and each voxel's trial-noise
    scale: (neuroid table, (image, voxel) signal, noise scale per voxel)."""
    rows = []
    for region in REGIONS:
        for k in range(per_region):
            nc = float(rng.uniform(32, 85)) if k % 4 != 1 else float(rng.uniform(5, 29))
            rows.append(dict(subject_id=subject, region=region, roi=f"{region}{'vd'[k % 2]}",
                             voxel_index_in_brain_mask=np.int32(1000 * s + len(rows)),
                             nc_4rep=np.float32(nc * 0.8), nc_12rep=np.float32(nc),
                             nc_allrep=np.float32(nc * 0.9)))
    neuroids = pd.DataFrame(rows)
    weights = rng.normal(size=(standardised.shape[1], len(neuroids)))
    signal = standardised @ weights / np.sqrt(standardised.shape[1])
    signal = signal + 0.5 * rng.normal(size=signal.shape)
    return neuroids, signal, 1.2 - neuroids["nc_12rep"].to_numpy() / 100


def write_store(root, seed: int = 0) -> dict[str, str]:
    """Write the five subject assemblies, the stimulus folder (``stimuli/``) and the split lists
    (``splits/shared/*.json``) into ``root`` for Brain-Score, and the same under brainpipe's object names
    (``laion_fmri_splits_shared_*.json``, ``stimulus_Zerbe2026_fmri_stim_full.csv``/``.zip``); file name
    (relative) -> sha1."""
    root = Path(root)
    (root / "stimuli").mkdir(parents=True, exist_ok=True)
    (root / "splits" / "shared").mkdir(parents=True, exist_ok=True)
    table, pngs, features = _images(seed + 31)
    for name, data in pngs.items():
        (root / "stimuli" / name).write_bytes(data)
    table.to_csv(root / "stimuli" / "manifest.csv", index=False)
    regular = table["stimulus_id"][:N_REGULAR].tolist()
    ood = table["stimulus_id"][N_REGULAR:].tolist()
    rng = np.random.default_rng(seed + 32)
    tau_test = sorted(rng.choice(regular, N_TAU_TEST, replace=False).tolist())
    tau_train = [s for s in regular if s not in tau_test]
    splits = {"tau": _split_json("tau", tau_train, tau_test), "ood": _split_json("ood", regular, ood)}
    for name, content in splits.items():
        (root / "splits" / "shared" / f"{name}.json").write_text(json.dumps(content))
        # brainpipe's object name for the same file (brainpipe.benchmarks.families.zerbe2026)
        (root / f"laion_fmri_splits_shared_{name}.json").write_text(json.dumps(content))
    # brainpipe reads the stimuli as a brainio pair: the manifest as the CSV and a zip of the images
    table.to_csv(root / "stimulus_Zerbe2026_fmri_stim_full.csv", index=False)
    bf.write_zip(pngs, root / "stimulus_Zerbe2026_fmri_stim_full.zip")
    standardised = (features - features.mean(0)) / features.std(0)
    written = ["stimuli/manifest.csv", *[f"stimuli/{n}" for n in sorted(pngs)],
               "splits/shared/tau.json", "splits/shared/ood.json", "laion_fmri_splits_shared_tau.json",
               "laion_fmri_splits_shared_ood.json", "stimulus_Zerbe2026_fmri_stim_full.csv",
               "stimulus_Zerbe2026_fmri_stim_full.zip"]
    for s, subject in enumerate(SUBJECTS):
        n_reps = REPETITIONS[s % 2]
        neuroids, signal, noise_scale = _subject_voxels(subject, s, VOXELS_PER_REGION, standardised, rng)
        order = rng.permutation(len(table) * n_reps)
        stimulus = np.repeat(np.arange(len(table)), n_reps)[order]
        repetition = np.tile(np.arange(n_reps), len(table))[order]
        values = signal[stimulus] + rng.normal(size=(len(stimulus), len(neuroids))) * noise_scale
        coords = {"stimulus_id": ("presentation", table["stimulus_id"].to_numpy()[stimulus]),
                  "repetition": ("presentation", repetition.astype(np.int32)),
                  # the published files say 'sub-XX_v3' (data_packaging/prepare_shared.py's note)
                  "subject_id_pres": ("presentation", np.full(len(stimulus), f"{subject}_v3", dtype=object)),
                  "presentation": ("presentation", np.arange(len(stimulus))),
                  "neuroid": ("neuroid", np.arange(len(neuroids)))}
        coords.update({column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns})
        identifier = f"LAION_fMRI_full_{subject}_Assembly"
        assembly = xr.DataArray(values.astype(np.float32), dims=("presentation", "neuroid"),
                                coords=bf._plain(coords), name="data")
        bf.write_netcdf(assembly, root / f"assy_{identifier}.nc")
        written.append(f"assy_{identifier}.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in written}



# ---------------------------------------------------------------------------------------------------------------
# Per-subject pools (Zerbe2026_fmri_persubject)

#: Images of each subject's own (besides the shared ones); the real pools have 4,712
N_UNIQUE = 12
#: Stimuli of its split lists that a subject's file lacks (the gaps the benchmark must skip): subject -> how many
#: (tau train, tau test, OOD) images are left out of its trials
PERSUBJECT_GAPS = {"sub-06": (2, 1, 1)}
#: tau test images per subject, and repetitions and voxels per region for even / odd subjects of the per-subject
#: pools (module constants, as above, for perf/bench_zerbe2026_scale.py --persubject)
PERSUBJECT_TAU_TEST, PERSUBJECT_REPETITIONS, PERSUBJECT_VOXELS = 10, (3, 2), (10, 8)


def write_persubject_store(root, seed: int = 0) -> dict[str, str]:
    """The per-subject pools' files in ``root``: the shared images of :func:`write_store` and ``N_UNIQUE`` of each
    subject's own (``unique_LAION_fillup_cluster_<c>_i<k>_p<NN>.jpg`` as the real ones), one stimulus folder and
    brainio pair for all; per subject its split lists (``splits/<subject>/{tau,ood}.json`` for Brain-Score and
    ``laion_fmri_splits_<subject>_<split>.json`` for brainpipe; tau: 10 test images of its 52 natural ones, drawn
    per subject; ood: the natural ones train, the 10 OOD images test) and its assembly
    ``assy_LAION_fMRI_persubject_<subject>_Assembly.nc`` as the persubject files are packed
    (data_packaging/build_assembly.py, prepare_persubject.py: the trial bookkeeping ``session``, ``run``,
    ``beta_index`` kept, ``repetition`` the trial's count within its stimulus, no ``subject_id_pres``); subjects
    with 10 or 8 voxels per region; :data:`PERSUBJECT_GAPS` listed stimuli without trials. File name -> sha1."""
    root = Path(root)
    (root / "stimuli").mkdir(parents=True, exist_ok=True)
    table, pngs, features = _images(seed + 31)
    rng = np.random.default_rng(seed + 41)
    ids, features = list(zip(table["stimulus_id"], table["filename"])), list(features)
    own = {}
    for s, subject in enumerate(SUBJECTS):
        start = len(ids)
        for k in range(N_UNIQUE):
            _draw(f"unique_LAION_fillup_cluster_{100 + 13 * k + s}_i{k % 7}_p{subject[-2:]}.jpg", rng, ids, pngs,
                  features)
        own[subject] = [i for i, _ in ids[start:]]
    table = pd.DataFrame({"stimulus_id": [i for i, _ in ids], "filename": [f for _, f in ids]})
    features = np.asarray(features)
    for name, data in pngs.items():
        (root / "stimuli" / name).write_bytes(data)
    table.to_csv(root / "stimuli" / "manifest.csv", index=False)
    table.to_csv(root / "stimulus_Zerbe2026_fmri_stim_full.csv", index=False)
    bf.write_zip(pngs, root / "stimulus_Zerbe2026_fmri_stim_full.zip")
    written = ["stimuli/manifest.csv", *[f"stimuli/{n}" for n in sorted(pngs)],
               "stimulus_Zerbe2026_fmri_stim_full.csv", "stimulus_Zerbe2026_fmri_stim_full.zip"]
    shared = table["stimulus_id"][:N_REGULAR].tolist()
    ood = table["stimulus_id"][N_REGULAR:N_REGULAR + N_OOD].tolist()
    standardised = (features - features.mean(0)) / features.std(0)
    row_of = {name: i for i, name in enumerate(table["stimulus_id"])}
    for s, subject in enumerate(SUBJECTS):
        natural = sorted(shared + own[subject])
        tau_test = sorted(rng.choice(natural, PERSUBJECT_TAU_TEST, replace=False).tolist())
        tau_train = [i for i in natural if i not in tau_test]
        (root / "splits" / subject).mkdir(parents=True, exist_ok=True)
        for name, content in {"tau": _split_json("tau", tau_train, tau_test),
                              "ood": _split_json("ood", natural, ood)}.items():
            for path in (f"splits/{subject}/{name}.json", f"laion_fmri_splits_{subject}_{name}.json"):
                (root / path).write_text(json.dumps(content))
                written.append(path)
        gaps = PERSUBJECT_GAPS.get(subject, (0, 0, 0))
        missing = set(tau_train[:gaps[0]] + tau_test[:gaps[1]] + ood[:gaps[2]])
        shown = [i for i in natural + ood if i not in missing]
        n_reps, per_region = PERSUBJECT_REPETITIONS[s % 2], PERSUBJECT_VOXELS[s % 2]
        neuroids, signal, noise_scale = _subject_voxels(subject, s, per_region, standardised, rng)
        order = rng.permutation(len(shown) * n_reps)
        stimulus = np.array([row_of[i] for i in shown])[np.repeat(np.arange(len(shown)), n_reps)[order]]
        values = signal[stimulus] + rng.normal(size=(len(stimulus), len(neuroids))) * noise_scale
        labels = table["stimulus_id"].to_numpy()[stimulus]
        per_session = 3 * n_reps * 4
        coords = {"stimulus_id": ("presentation", labels),
                  "session": ("presentation", np.array([f"ses-{1 + t // per_session:02d}" for t in range(len(labels))],
                                                       dtype=object)),
                  "run": ("presentation", (np.arange(len(labels)) // 12 % 6 + 1).astype(np.int64)),
                  "beta_index": ("presentation", np.arange(len(labels)) % per_session),
                  "repetition": ("presentation", pd.Series(labels).groupby(labels).cumcount().to_numpy()),
                  "presentation": ("presentation", np.arange(len(labels))),
                  "neuroid": ("neuroid", np.arange(len(neuroids)))}
        coords.update({column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns})
        identifier = f"LAION_fMRI_persubject_{subject}_Assembly"
        assembly = xr.DataArray(values.astype(np.float32), dims=("presentation", "neuroid"),
                                coords=bf._plain(coords), name="data")
        bf.write_netcdf(assembly, root / f"assy_{identifier}.nc")
        written.append(f"assy_{identifier}.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in written}


if __name__ == "__main__":
    import sys

    print(json.dumps(write_store(sys.argv[1]), indent=1))
