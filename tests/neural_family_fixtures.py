"""Stand-ins for the Sanghavi2020 / SanghaviJozwik2020 / SanghaviMurty2020 / Rajalingham2020 data files, in the
formats Brain-Score's packaging scripts write, under the real object names.

What is copied from the real data (brain-score/vision brainscore_vision/data/sanghavi2020/data_packaging/
sanghavi*.py, data/rajalingham2020/rajalingham2020orthographic_IT.py, and the benchmarks' asserts):

* object names (``assy_dicarlo_Sanghavi2020.nc``; stimulus sets ``hvm``, ``BOLD5000``, ``Rust2012``,
  ``Rajalingham2020``), the DataArray named by the identifier;
* dims (presentation, neuroid, time_bin), float64 rates; presentation = image × repetition with ``repetition``
  0..N-1 and exactly Brain-Score's NUMBER_OF_TRIALS repetitions (28 / 37 / 50 / 33: its benchmarks assert it);
* Sanghavi*: seven time bins 70–170, 170–270, 50–100, 100–150, 150–200, 200–250, 70–270 ms with coordinates
  ``time_bin_id`` (0..6), ``time_bin_start``, ``time_bin_stop``; attrs ``image_size_degree`` (8, 8, 5: asserted by
  the benchmarks) and ``stim_on_time_ms`` 100; V4 and IT neuroids;
* Rajalingham2020: one bin 70–170 (``time_bin_start``/``time_bin_stop``), integer ``neuroid_id``, region IT
  (9 neuroids here; the per-neuroid metadata columns are unverified);
* stimulus columns copied onto the presentations, as the packaging scripts do.

**Unverified** choices: the per-neuroid metadata columns besides ``neuroid_id`` and ``region`` (the real files copy
an array-mapping JSON: ``animal``, ``arr``, ``elec`` here), the columns of the BOLD5000 / Rust2012 /
Rajalingham2020 stimulus CSVs besides ``image_id`` and ``filename``, image sizes, and the number of images
(160–320 here, thousands in the real sets). Responses depend on the image (a linear read-out of pixels plus
trial noise, different per time bin), so scores and ceilings lie between 0 and 1.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf

SANGHAVI_BINS = [(70, 170), (170, 270), (50, 100), (100, 150), (150, 200), (200, 250), (70, 270)]

#: data set key -> (assembly identifier, stimulus set, repetitions, image_size_degree)
DATASETS = {
    "Sanghavi2020": ("dicarlo.Sanghavi2020", "hvm", 28, 8),
    "SanghaviJozwik2020": ("dicarlo.SanghaviJozwik2020", "BOLD5000", 37, 8),
    "SanghaviMurty2020": ("dicarlo.SanghaviMurty2020", "Rust2012", 50, 5),
    "Rajalingham2020": ("dicarlo.Rajalingham2020", "Rajalingham2020", 33, 8),
}


def _plain_images(n_images: int, seed: int, prefix: str):
    """``n_images`` 256×256 RGB PNGs of smooth blobs; (table, pngs, features)."""
    rng = np.random.default_rng(seed)
    rows, pngs, features = [], {}, []
    yy, xx = np.mgrid[0:256, 0:256] / 256 - 0.5
    for index in range(n_images):
        centre = rng.uniform(-0.3, 0.3, 2)
        radius = rng.uniform(0.08, 0.3)
        colour = rng.uniform(0, 1, 3)
        background = rng.uniform(0.2, 0.8, 3)
        mask = (xx - centre[0]) ** 2 + (yy - centre[1]) ** 2 < radius ** 2
        picture = np.where(mask[..., None], colour, background)
        picture = picture + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * (xx + yy))[..., None]
        pixels = np.clip(picture * 255, 0, 255).astype(np.uint8)
        data = bf._png_bytes(pixels)
        image_id = bf._sha1(data)
        name = f"{prefix}_{index:04d}.png"
        pngs[name] = data
        rows.append(dict(image_id=image_id, image_file_name=name, filename=name, id=index))
        features.append(np.concatenate([bf._downsample(pixels, 8), colour]))
    return pd.DataFrame(rows), pngs, np.array(features)


def _stimuli(stimulus_set: str, seed: int):
    if stimulus_set == "hvm":  # the public and private hvm images together, as Brain-Score's 'hvm' set
        sizes = bf.SCALES["tiny"]
        public = bf._hvm_images(sizes, (0, 3), seed + 1)
        private = bf._hvm_images(sizes, (6,), seed + 2)
        table = pd.concat([public[0], private[0]], ignore_index=True)
        return table, {**public[1], **private[1]}, np.concatenate([public[2], private[2]])
    count = {"BOLD5000": 200, "Rust2012": 160, "Rajalingham2020": 160}[stimulus_set]
    return _plain_images(count, seed + 3, stimulus_set)


def recordings(key: str, table: pd.DataFrame, features: np.ndarray, seed: int = 0) -> xr.DataArray:
    identifier, _, reps, degrees = DATASETS[key]
    rng = np.random.default_rng(seed + 11)
    sanghavi = key.startswith("Sanghavi")
    regions = ["V4"] * 5 + ["IT"] * 7 if sanghavi else ["IT"] * 9
    bins = SANGHAVI_BINS if sanghavi else [(70, 170)]
    n_images, n_neuroids = len(table), len(regions)
    order = rng.permutation(n_images * reps)  # presentations not sorted
    image_index, repetition = np.divmod(order, reps)
    values = np.empty((len(order), n_neuroids, len(bins)))
    for b in range(len(bins)):  # each bin its own mix of signal and noise
        trials = bf._responses(features, n_neuroids, rng, reps, noise=0.8 + 0.3 * b)  # (image, rep, neuroid)
        values[:, :, b] = trials[image_index, repetition, :] * (1 + 0.5 * b) + 0.1 * b
    coords = {column: ("presentation", table[column].to_numpy()[image_index]) for column in table.columns
              if column != "filename"}
    coords["repetition"] = ("presentation", repetition.astype(np.int64))
    if sanghavi:
        coords.update(neuroid_id=("neuroid", np.array([f"{'AB'[i % 2]}_{r}_{i}" for i, r in enumerate(regions)])),
                      region=("neuroid", np.array(regions)), animal=("neuroid", np.array(["Bento", "Magneto"] * 6)),
                      arr=("neuroid", np.array(["A" if r == "V4" else "P" for r in regions])),
                      elec=("neuroid", np.arange(n_neuroids, dtype=np.int64)),
                      time_bin_id=("time_bin", np.arange(len(bins), dtype=np.int64)))
    else:
        # more per-neuroid metadata than id and region (the packaging copies IT_neural_meta_full.pkl's columns):
        # Brain-Score's sel(region='IT') needs the neuroid index to keep at least two levels
        coords.update(neuroid_id=("neuroid", np.arange(n_neuroids, dtype=np.int64)),
                      region=("neuroid", np.array(regions)), animal=("neuroid", np.array(["Tito"] * n_neuroids)),
                      arr=("neuroid", np.array(["M", "A", "P"] * (n_neuroids // 3))),
                      row=("neuroid", np.arange(n_neuroids, dtype=np.int64) % 10),
                      col=("neuroid", np.arange(n_neuroids, dtype=np.int64) // 10))
    coords["time_bin_start"] = ("time_bin", np.array([b[0] for b in bins], dtype=np.int64))
    coords["time_bin_stop"] = ("time_bin", np.array([b[1] for b in bins], dtype=np.int64))
    assembly = xr.DataArray(values, dims=("presentation", "neuroid", "time_bin"), coords=bf._plain(coords),
                            name=identifier)
    if sanghavi:
        assembly.attrs.update(image_size_degree=degrees, stim_on_time_ms=100)
    return assembly


def write_store(root, datasets=tuple(DATASETS), seed: int = 0) -> dict[str, str]:
    """Write the data sets' assemblies and stimulus sets into ``root``; object name -> sha1 of each file."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for key in datasets:
        identifier, stimulus_set, _, _ = DATASETS[key]
        table, pngs, features = _stimuli(stimulus_set, seed)
        stem = "stimulus_" + stimulus_set.replace(".", "_")
        bf.write_stimulus_csv(table, root / f"{stem}.csv")
        bf.write_zip(pngs, root / f"{stem}.zip")
        name = "assy_" + identifier.replace(".", "_") + ".nc"
        bf.write_netcdf(recordings(key, table, features, seed), root / name)
        written += [f"{stem}.csv", f"{stem}.zip", name]
    return {name: bf._sha1((root / name).read_bytes()) for name in written}


# ---------------------------------------------------------------------------------------------------------------
# Li2026 (brain-score/vision brainscore_vision/data/li2026/README.md and data_packaging/build_li2026_static*.py):
# presentation × neuroid × time_bin(1, 70–170 ms), one response per image (no repetition coordinate),
# stimulus_id 'nsd_<5-digit 0-indexed NSD id>', neuroid coordinates neuroid_id 'M<animal>_ses<NN>_unit<kkkk>',
# region, animal, unittype, reliability, reliability_window, arealabel, snr. Unverified: the value dtype (float32
# here), which presentation coordinates the file carries besides stimulus_id, the presentation order (shuffled
# here, so that code relying on sorted ids fails), and the CSV's columns besides stimulus_id and filename.

LI2026_REGIONS = {"V1": ("M1", "M2"), "V2": ("M1", "M2"), "V4": ("M2", "M3"), "IT": ("M3", "M4", "M5")}


def li2026_store(root, n_images: int = 200, seed: int = 0) -> dict[str, str]:
    """Write assy_Li2026_Assembly.nc and stimulus_Li2026_Stimuli.csv/.zip into ``root``; name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs, features = _plain_images(n_images, seed + 21, "Li2026")
    rng = np.random.default_rng(seed + 22)
    nsd = np.sort(rng.choice(73000, n_images, replace=False))
    ids = np.array([f"nsd_{i:05d}" for i in nsd])
    names = {row.filename: f"{sid}.png" for row, sid in zip(table.itertuples(), ids)}
    pngs = {names[name]: data for name, data in pngs.items()}
    stimuli = pd.DataFrame({"stimulus_id": ids, "nsd_id": nsd, "nsd_id_1indexed": nsd + 1,
                            "coco_id": rng.integers(1, 600000, n_images), "tn_index": np.arange(1, n_images + 1),
                            "filename": [f"{sid}.png" for sid in ids]})
    rows = []
    for region, animals in LI2026_REGIONS.items():
        for k in range(12):  # 12 per region, every fourth below the 0.4 reliability threshold; each animal keeps
            animal = animals[k % len(animals)]  # at least 3 (an RDM per animal needs several neuroids)
            reliable = k % 4 != 3
            rows.append(dict(neuroid_id=f"{animal}_ses{k % 3 + 1:02d}_unit{len(rows):04d}", region=region, animal=animal,
                             unittype=int(k % 3 + 1), reliability=float(rng.uniform(0, 1)),
                             reliability_window=float(rng.uniform(0.45, 0.95) if reliable else rng.uniform(0.05, 0.38)),
                             arealabel=region if region != "IT" else ("MFace", "MBody", "IT-other")[k % 3],
                             snr=float(rng.uniform(1, 5))))
    rows[3]["reliability_window"] = float("nan")  # a unit without a reliability: never selected
    neuroids = pd.DataFrame(rows)
    signal = bf._responses(features, len(neuroids), rng, 1, noise=0.0)[:, 0, :]
    noise = rng.normal(size=signal.shape) * (1.5 - neuroids["reliability_window"].fillna(0).to_numpy())
    values = (signal + noise).astype(np.float32)
    order = rng.permutation(n_images)
    coords = {"stimulus_id": ("presentation", ids[order]), "nsd_id": ("presentation", nsd[order]),
              "tn_index": ("presentation", np.arange(1, n_images + 1)[order])}
    coords.update({column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns})
    coords["time_bin_start"] = ("time_bin", np.array([70], dtype=np.int64))
    coords["time_bin_end"] = ("time_bin", np.array([170], dtype=np.int64))
    assembly = xr.DataArray(values[order][:, :, None], dims=("presentation", "neuroid", "time_bin"),
                            coords=bf._plain(coords), name="Li2026_Assembly")
    bf.write_stimulus_csv(stimuli, root / "stimulus_Li2026_Stimuli.csv")
    bf.write_zip(pngs, root / "stimulus_Li2026_Stimuli.zip")
    bf.write_netcdf(assembly, root / "assy_Li2026_Assembly.nc")
    names = ("stimulus_Li2026_Stimuli.csv", "stimulus_Li2026_Stimuli.zip", "assy_Li2026_Assembly.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


def state_digest(state: dict) -> str:
    """sha256 over a state dict's names, dtypes, shapes and values (torch.save's bytes depend on the file name)."""
    import hashlib

    digest = hashlib.sha256()
    for name, tensor in state.items():
        array = tensor.detach().cpu().contiguous().numpy()
        digest.update(f"{name}:{array.dtype}:{array.shape};".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


if __name__ == "__main__":  # python tests/neural_family_fixtures.py OUT_DIR: write the store (for the reference)
    import json
    import sys

    print(json.dumps({**write_store(sys.argv[1]), **li2026_store(sys.argv[1]), **cadena2017_store(sys.argv[1]),
                      **bracci2019_store(sys.argv[1])},
                     indent=1))


# ---------------------------------------------------------------------------------------------------------------
# Cadena2017 (brain-score/vision brainscore_vision/data/cadena2017/data_packaging/2018-08-07_tolias_v1.ipynb):
# assy_tolias_Cadena2017.nc, dims (neuroid, presentation, time_bin) in that order, presentation = repetition ×
# image with ``repetition_id`` 0..3 and ``image_id`` (the legacy name; Brain-Score's loader copies it to
# stimulus_id), neuroid_id 0..N-1 and no region, one bin 40.0–100.0 ms (floats), float64 responses with NaN where
# an image was not shown to a neuron (whole blocks: every repetition of a session's neurons), plus a few single NaN
# trials. Unverified: the CSV's columns besides image_id and the file name, image format and size (140×140 grey
# JPEGs in the real set, PNGs here), and the NaN pattern beyond its blocks.

def cadena2017_store(root, n_images: int = 160, seed: int = 0) -> dict[str, str]:
    """Write assy_tolias_Cadena2017.nc and stimulus_Cadena2017.csv/.zip into ``root``; name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs, features = _plain_images(n_images, seed + 31, "image")
    # Every per-image column sorts like image_id: Brain-Score averages the repetitions by grouping on a *set* of
    # presentation coordinates (benchmarks/cadena2017/benchmark.py average_repetition), whose iteration order, and
    # with it the order of the averaged stimuli and so the CV splits, changes with the interpreter's string hash
    # seed wherever two coordinates sort differently (as image_id and image_file_name do in the real file).
    order = np.argsort(table["image_id"].to_numpy())
    table, features = table.iloc[order].reset_index(drop=True), features[order]
    names = {old: f"image_{rank:04d}.png" for rank, old in enumerate(table["filename"])}
    pngs = {names[old]: data for old, data in pngs.items()}
    table = table.assign(image_file_name=[names[n] for n in table["filename"]],
                         filename=[names[n] for n in table["filename"]], id=np.arange(n_images))
    table = table.rename(columns={"id": "image_index"})
    rng = np.random.default_rng(seed + 32)
    reps, n_neuroids = 4, 14
    trials = bf._responses(features, n_neuroids, rng, reps, noise=0.9)  # (image, rep, neuroid)
    trials = trials - trials.min() + 0.1  # spike-count-like, positive
    session = np.arange(n_neuroids) < 8  # neurons 0-7 recorded in session A, 8-13 in session B
    shown = rng.choice(3, n_images, p=[0.6, 0.25, 0.15])  # 0: both sessions, 1: only A, 2: only B
    for image in np.flatnonzero(shown == 1):
        trials[image][:, ~session] = np.nan
    for image in np.flatnonzero(shown == 2):
        trials[image][:, session] = np.nan
    both = np.flatnonzero(shown == 0)
    for image in rng.choice(both, 6, replace=False):  # single missing trials: the mean stays finite (skipna)
        trials[image, rng.integers(reps), rng.integers(n_neuroids)] = np.nan
    values = trials.transpose(2, 1, 0).reshape(n_neuroids, reps * n_images)  # neuroid × (repetition, image)
    repetition, image = np.divmod(np.arange(reps * n_images), n_images)
    coords = {"repetition_id": ("presentation", repetition.astype(np.int64)),
              "image_id": ("presentation", table["image_id"].to_numpy()[image]),
              "neuroid_id": ("neuroid", np.arange(n_neuroids, dtype=np.int64)),
              "time_bin_start": ("time_bin", np.array([40.0])), "time_bin_end": ("time_bin", np.array([100.0]))}
    assembly = xr.DataArray(values[:, :, None], dims=("neuroid", "presentation", "time_bin"),
                            coords=bf._plain(coords), name="tolias.Cadena2017")
    bf.write_stimulus_csv(table, root / "stimulus_Cadena2017.csv")
    bf.write_zip(pngs, root / "stimulus_Cadena2017.zip")
    bf.write_netcdf(assembly, root / "assy_tolias_Cadena2017.nc")
    names = ("stimulus_Cadena2017.csv", "stimulus_Cadena2017.zip", "assy_tolias_Cadena2017.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


# ---------------------------------------------------------------------------------------------------------------
# Bracci2019 (brain-score/vision brainscore_vision/data/bracci2019/data_packaging.py): assy_Bracci2019.nc, dims
# (presentation, neuroid), 27 presentations in natural file order with stimulus_id '<prefix>_<n>', stimulus_name
# '<nn>_<group>_<label>', exemplar_number n, image_label (lookalike 1-9, animal 10-18, object 19-27), image_group
# (n mod 9, 9 for 0); per neuroid int64 roi (0 V1, 1 posteriorVTC, 2 anteriorVTC), subject (0..11) and voxels (the
# voxel's index within its subject, ROIs concatenated), subject-major. No region, neuroid id, repetition or time bin.
# Unverified: the file-name prefix ('stim' here), the voxel counts per ROI, the value dtype (float64 here), and the
# images (JPEGs in the real set, PNGs here).

BRACCI_VOXELS = {0: 20, 1: 16, 2: 12}  # per ROI, the same in every subject


def _bracci_label(n):
    return "lookalike" if n < 10 else "animal" if n <= 18 else "object"


def bracci2019_store(root, n_subjects: int = 12, seed: int = 0) -> dict[str, str]:
    """Write assy_Bracci2019.nc and stimulus_Bracci2019.csv/.zip into ``root``; name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs, features = _plain_images(27, seed + 41, "stim")
    numbers = np.arange(1, 28)
    ids = np.array([f"stim_{n}" for n in numbers])
    groups = np.where(numbers % 9 == 0, 9, numbers % 9)
    labels = np.array([_bracci_label(n) for n in numbers])
    names = {old: f"{sid}.png" for old, sid in zip(table["filename"], ids)}
    pngs = {names[old]: data for old, data in pngs.items()}
    stimuli = pd.DataFrame({"stimulus_id": ids, "stimulus_name": [f"{n:02d}_{g:02d}_{l}" for n, g, l in
                                                                  zip(numbers, groups, labels)],
                            "exemplar_number": numbers, "image_label": labels, "image_group": groups,
                            "filename": [names[old] for old in table["filename"]]})
    rng = np.random.default_rng(seed + 42)
    category = np.array([{"lookalike": 0, "animal": 1, "object": 2}[l] for l in labels])
    columns, roi, subject, voxels = [], [], [], []
    per_subject = sum(BRACCI_VOXELS.values())
    shared = {r: bf._responses(features, count, rng, 1, noise=0.0)[:, 0, :] + 0.8 * rng.normal(size=(3, count))[category]
              for r, count in BRACCI_VOXELS.items()}  # ROI signal shared by subjects (+ category structure)
    for s in range(n_subjects):
        start = 0
        for r, count in BRACCI_VOXELS.items():
            offset = rng.normal(2.0, 1.0, size=count)  # per-voxel baseline: the per-subject centring removes it
            columns.append(shared[r] * rng.uniform(0.5, 1.5) + offset + rng.normal(size=(27, count)) * (1.0 + 0.1 * s))
            roi += [r] * count
            subject += [s] * count
            voxels += list(range(start, start + count))
            start += count
        assert start == per_subject
    coords = {column: ("presentation", stimuli[column].to_numpy()) for column in stimuli.columns if column != "filename"}
    coords.update(roi=("neuroid", np.array(roi, dtype=np.int64)), subject=("neuroid", np.array(subject, dtype=np.int64)),
                  voxels=("neuroid", np.array(voxels, dtype=np.int64)))
    assembly = xr.DataArray(np.concatenate(columns, axis=1), dims=("presentation", "neuroid"), coords=bf._plain(coords),
                            name="Bracci2019")
    bf.write_stimulus_csv(stimuli, root / "stimulus_Bracci2019.csv")
    bf.write_zip(pngs, root / "stimulus_Bracci2019.zip")
    bf.write_netcdf(assembly, root / "assy_Bracci2019.nc")
    names = ("stimulus_Bracci2019.csv", "stimulus_Bracci2019.zip", "assy_Bracci2019.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}
