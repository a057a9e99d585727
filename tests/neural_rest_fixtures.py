"""Stand-ins for the data of issue 25's remaining neural benchmarks, in the real formats under the real object names.

* ``MajajHong2015public.{V4,IT}-reverse_pls`` (Brain-Score's muzellec2026 plugin) read MajajHong2015's public
  split: tests/brainio_fixtures.py writes it (``assy_dicarlo_MajajHong2015_public.nc``, ``stimulus_hvm-public``),
  here with enough neuroids per region for 25 PLS components predicting the model (Brain-Score's PLSRegression
  refuses more components than the recordings have neuroids: 88 V4 and 168 IT in the real file) and four
  repetitions per image (the split-half ceiling draws halves of each image's repetitions).
* ``Bracci2019_RSA-{V1,posteriorVTC}`` read Bracci2019's file: tests/neural_family_fixtures.py's ``bracci2019_store``
  (its format notes there; V1, posterior and anterior VTC voxels of 12 subjects).
* ``tong.Coggan2024_fMRI.{V1,V2,V4,IT}-rdm`` (brain-score/vision brainscore_vision/data/coggan2024_fMRI/
  data_packaging.py): ``assy_tong_Coggan2024_fMRI.nc``, dims (presentation, presentation, neuroid), float64 RSMs,
  24 presentations ``<object>_<occlusion>`` sorted by name (8 ImageNet objects × 3 occlusion conditions) with
  ``stimulus_id``, ``object_name``, ``occlusion_condition``; neuroids region-major (V1, V2, V4, IT) × subject with
  ``subject`` and ``region``; the CSV's columns of the packaging script. **Unverified**: the occlusion condition
  and subject names, the number of subjects (36 neuroids in the real file: 9 per region; 5 here), the images (PNGs).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf
import neural_family_fixtures

#: MajajHong2015 public split: 160 images (16 objects), 4 repetitions, 28 V4 and 30 IT neuroids.
MAJAJ_REVERSE_SCALE = dict(reps=4, v4=28, it=30)


def majaj_reverse_store(root, seed: int = 0) -> dict[str, str]:
    """Write assy_dicarlo_MajajHong2015_public.nc and stimulus_hvm-public.csv/.zip into ``root``; name -> sha1."""
    return bf.write_fixture_store(root, scale=MAJAJ_REVERSE_SCALE, datasets=("MajajHong2015.public",), seed=seed)


COGGAN_OBJECTS = {"bear": (294, "n02132136"), "bison": (347, "n02410509"), "elephant": (386, "n02504458"),
                  "hare": (331, "n02326432"), "jeep": (609, "n03594945"), "lamp": (846, "n04380533"),
                  "sportsCar": (817, "n04285008"), "teapot": (849, "n04398044")}
COGGAN_OCCLUSION = ("complete", "fragmented", "occluded")


def coggan2024_store(root, n_subjects: int = 5, seed: int = 0) -> dict[str, str]:
    """Write assy_tong_Coggan2024_fMRI.nc and stimulus_tong_Coggan2024_fMRI.csv/.zip into ``root``; name -> sha1."""
    import warnings

    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    table, pngs, features = neural_family_fixtures._plain_images(24, seed + 51, "coggan")
    ids = sorted(f"{o}_{c}" for o in COGGAN_OBJECTS for c in COGGAN_OCCLUSION)  # sorted glob order of the files
    names = {old: f"{sid}.png" for old, sid in zip(table["filename"], ids)}
    pngs = {names[old]: data for old, data in pngs.items()}
    objects = [sid.split("_")[0] for sid in ids]
    stimuli = pd.DataFrame({"stimulus_id": ids, "object_name": objects,
                            "occlusion_condition": [sid.split("_")[1] for sid in ids],
                            "imagenet_class_index_1K": [COGGAN_OBJECTS[o][0] for o in objects],
                            "imagenet_class_name": [COGGAN_OBJECTS[o][1] for o in objects],
                            "imagenet_class_description": [f"{o} (ImageNet class)" for o in objects],
                            "imagenet_path": [f"val/{COGGAN_OBJECTS[o][1]}/ILSVRC2012_val_{i:08d}.jpg"
                                              for i, o in enumerate(objects)],
                            "filename": [f"{sid}.png" for sid in ids]})
    rng = np.random.default_rng(seed + 52)
    object_index = np.array([list(COGGAN_OBJECTS).index(o) for o in objects])
    regions, subjects, matrices = [], [], []
    for r, region in enumerate(("V1", "V2", "V4", "IT")):
        # region signal: pixels for early regions, more object identity for later ones
        shared = bf._responses(features, 40, rng, 1, noise=0.0)[:, 0, :] + r * rng.normal(size=(8, 40))[object_index]
        for s in range(n_subjects):
            patterns = shared + rng.normal(size=shared.shape) * (1.5 + 0.2 * s)
            matrices.append(np.corrcoef(patterns))
            regions.append(region)
            subjects.append(f"sub{s + 1:02d}")
    coords = {column: ("presentation", stimuli[column].to_numpy())
              for column in ("stimulus_id", "object_name", "occlusion_condition")}
    coords.update(subject=("neuroid", np.array(subjects)), region=("neuroid", np.array(regions)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # xarray warns about the repeated dim; the real file has it
        assembly = xr.DataArray(np.stack(matrices, axis=2), dims=("presentation", "presentation", "neuroid"),
                                coords=bf._plain(coords), name="tong.Coggan2024_fMRI")
        bf.write_netcdf(assembly, root / "assy_tong_Coggan2024_fMRI.nc")
    bf.write_stimulus_csv(stimuli, root / "stimulus_tong_Coggan2024_fMRI.csv")
    bf.write_zip(pngs, root / "stimulus_tong_Coggan2024_fMRI.zip")
    names = ("stimulus_tong_Coggan2024_fMRI.csv", "stimulus_tong_Coggan2024_fMRI.zip", "assy_tong_Coggan2024_fMRI.nc")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


#: Every store of this module: the reference script and the tests write the same files.
STORES = (majaj_reverse_store, neural_family_fixtures.bracci2019_store, coggan2024_store)


def write_all(root) -> dict[str, str]:
    sums = {}
    for store in STORES:
        sums.update(store(root))
    return sums


if __name__ == "__main__":  # python tests/neural_rest_fixtures.py OUT_DIR: write the files (for the reference)
    import json
    import sys

    print(json.dumps(write_all(sys.argv[1]), indent=1))
