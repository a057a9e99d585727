"""Stand-ins for the four Cowley2026 session files (V4 Utah-array recordings, one stimulus set per session), in the
format Brain-Score's packaging script writes, under the real object names.

What is copied from the real data (brain-score/vision brainscore_vision/data/cowley2026/data_packaging/
data_packaging.py, data/cowley2026/__init__.py and test.py, benchmarks/cowley2026/benchmark.py):

* object names ``assy_Cowley2026_<session>.nc`` and ``stimulus_Cowley2026_<session>.csv`` / ``.zip`` (core
  ``get_path``: identifier ``Cowley2026.<session>``), the DataArray named by the identifier;
* stimulus ids ``image0001`` … and ``object_name`` ``0001`` … (the same ids in every session, different images);
* presentations image by image, each image's repetitions 0..k-1 in order (k differs between images: the
  packaging keeps the non-NaN repeats; the benchmark's comment calls 14 the mode), neuroids ``neuron_<i>`` with
  region ``V4``;
* session 190923 with a ``time_bin`` dimension (one bin, 50–150 ms, ``time_bin_start`` / ``time_bin_end``), the
  three others without one (the benchmark adds the 50–150 ms bin to them: "only 190923 was packaged with the
  (50, 150) ms window").

**Unverified**: the real files' dtype (float64 here, as ``np.load`` of the raw responses gives), the image format
and size (PNG 256×256 here; the real images are JPEGs), the CSV's columns besides stimulus_id, object_name and
filename, and the number of images and neurons (40–48 images and 6–9 neurons here, 1,200–1,600 images in the real
sets). Every image has at least two repetitions (Brain-Score's split-half ceiling needs each image in both halves).
Responses are a linear read-out of pixels plus trial noise, so scores and ceilings lie between 0 and 1.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

import brainio_fixtures as bf
from neural_family_fixtures import _plain_images

#: session -> (number of images, number of neurons, with a time_bin dimension)
SESSIONS = {"190923": (40, 8, True), "201025": (40, 6, False), "210225": (40, 7, False), "211022": (48, 9, False)}


def session_files(root, session: str, seed: int = 0) -> list[str]:
    """Write one session's assembly and stimulus set into ``root``; the file names written."""
    n_images, n_neurons, time_bin = SESSIONS[session]
    index = list(SESSIONS).index(session)
    table, pngs, features = _plain_images(n_images, seed + 31 + index, f"cowley{session}")
    ids = np.array([f"image{i:04d}" for i in range(1, n_images + 1)])
    names = dict(zip(table["filename"], [f"{i}.png" for i in ids]))
    pngs = {names[name]: data for name, data in pngs.items()}
    stimuli = pd.DataFrame({"stimulus_id": ids, "object_name": [i[len("image"):] for i in ids],
                            "filename": [f"{i}.png" for i in ids]})
    rng = np.random.default_rng(seed + 41 + index)
    counts = rng.integers(2, 6, n_images)  # 2..5 repetitions per image
    trials = bf._responses(features, n_neurons, rng, int(counts.max()), noise=0.9)  # (image, rep, neuron)
    image = np.repeat(np.arange(n_images), counts)
    repetition = np.concatenate([np.arange(c) for c in counts])
    values = trials[image, repetition, :]
    coords = {"stimulus_id": ("presentation", ids[image]),
              "object_name": ("presentation", stimuli["object_name"].to_numpy()[image]),
              "repetition": ("presentation", repetition.astype(np.int64)),
              "neuroid_id": ("neuroid", np.array([f"neuron_{i}" for i in range(n_neurons)])),
              "region": ("neuroid", np.array(["V4"] * n_neurons))}
    dims = ("presentation", "neuroid")
    if time_bin:
        values = values[:, :, None]
        dims += ("time_bin",)
        coords.update(time_bin_start=("time_bin", np.array([50], dtype=np.int64)),
                      time_bin_end=("time_bin", np.array([150], dtype=np.int64)))
    identifier = f"Cowley2026.{session}"
    assembly = xr.DataArray(values, dims=dims, coords=bf._plain(coords), name=identifier)
    stem = "Cowley2026_" + session
    bf.write_stimulus_csv(stimuli, root / f"stimulus_{stem}.csv")
    bf.write_zip(pngs, root / f"stimulus_{stem}.zip")
    bf.write_netcdf(assembly, root / f"assy_{stem}.nc")
    return [f"stimulus_{stem}.csv", f"stimulus_{stem}.zip", f"assy_{stem}.nc"]


def write_store(root, seed: int = 0) -> dict[str, str]:
    """Write the four sessions' files into ``root``; object name -> sha1 of each file."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = [name for session in SESSIONS for name in session_files(root, session, seed)]
    return {name: bf._sha1((root / name).read_bytes()) for name in written}
