"""A stand-in for ``dicarlo.MajajHong2015.temporal.public`` (``MajajHong2015public.{V4,IT}-temporal-pls``), in the
real format under the real object names: ``assy_dicarlo_MajajHong2015_temporal_public.nc`` and the ``hvm-public``
stimulus set (``stimulus_hvm-public.csv/.zip``, as tests/brainio_fixtures.py writes it).

What is copied from the real file (Brain-Score's old ``dicarlo.Majaj2015.temporal`` tests: 39 bins, starts -100 to
280 ms by 10, ends start + 20, i.e. 20-ms windows sliding by 10 ms): the DataArray named by the identifier, dims
(neuroid, presentation, time_bin) as the static public file, float32 rates, the static file's coordinates
(tests/brainio_fixtures.py), ``time_bin_start`` / ``time_bin_end`` int64. Smaller than the real file: 160 images
(the fewest that Brain-Score's 10 stratified splits allow), 3 repetitions, 8 V4 and 10 IT neuroids, and the bins
up to 80 ms only (starts -100 to 60), so that Brain-Score's bins ``(t, t + 10)`` for t in ``range(0, 80 - 10, 10)``
are 7 (29 on the real file). **Unverified**: the real file's dtype and dims order (taken from the static file).

Responses: the static fixture's image-driven signal scaled by a per-neuroid time course that rises after a
latency, plus trial noise in every bin, so that each bin has a ceiling and a model score above zero.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xarray as xr

import brainio_fixtures as bf

IDENTIFIER = "dicarlo.MajajHong2015.temporal.public"
ASSEMBLY_FILE = "assy_dicarlo_MajajHong2015_temporal_public.nc"
#: 160 hvm-public images (16 objects), 3 repetitions, 8 V4 + 10 IT neuroids
SCALE = dict(v0=2, v3=8, reps=3, v4=8, it=10)
TIME_BIN_STARTS = np.arange(-100, 61, 10, dtype=np.int64)  # the real file: -100 .. 280
TIME_BIN_WIDTH = 20


def temporal_assembly(images, features, scale: dict, seed: int = 0) -> xr.DataArray:
    """A MajajHong2015.temporal-like DataArray (neuroid × presentation × time_bin, float32)."""
    rng = np.random.default_rng(seed + 11)
    neuroids = bf._majaj_neuroids(scale, rng)
    reps = scale["reps"]
    signal = bf._responses(features, len(neuroids), rng, 1, noise=0.0)[:, 0, :]  # (image, neuroid)
    centres = TIME_BIN_STARTS + TIME_BIN_WIDTH / 2
    latency = rng.uniform(-20, 40, size=len(neuroids))
    course = 0.3 + 1.0 / (1.0 + np.exp(-(centres[:, None] - latency[None, :]) / 12.0))  # (bin, neuroid)
    trials = (signal[:, None, None, :] * course[None, None, :, :]
              + 0.8 * rng.normal(size=(len(features), reps, len(centres), len(neuroids))))
    order = rng.permutation(len(images) * reps)  # presentation order deliberately not sorted
    image_index, repetition = np.divmod(order, reps)
    values = np.transpose(trials[image_index, repetition], (2, 0, 1)).astype(np.float32)  # neuroid, pres, bin
    coords = {column: ("neuroid", neuroids[column].to_numpy()) for column in neuroids.columns}
    coords.update({column: ("presentation", images[column].to_numpy()[image_index])
                   for column in bf.MAJAJ_IMAGE_COLUMNS})
    coords["repetition"] = ("presentation", repetition.astype(np.int64))
    coords["stimulus"] = ("presentation", image_index.astype(np.int64))
    coords["time_bin_start"] = ("time_bin", TIME_BIN_STARTS)
    coords["time_bin_end"] = ("time_bin", TIME_BIN_STARTS + TIME_BIN_WIDTH)
    return xr.DataArray(values, dims=("neuroid", "presentation", "time_bin"), coords=bf._plain(coords),
                        name=IDENTIFIER)


def majaj_temporal_store(root, seed: int = 0) -> dict[str, str]:
    """Write the temporal assembly and stimulus_hvm-public.csv/.zip into ``root``; object name -> sha1."""
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    sizes = {**bf.SCALES["tiny"], **SCALE}
    table, pngs, features = bf._hvm_images(sizes, (0, 3), seed + 1)  # write_fixture_store's hvm-public
    bf.write_netcdf(temporal_assembly(table, features, sizes, seed), root / ASSEMBLY_FILE)
    bf.write_stimulus_csv(table, root / "stimulus_hvm-public.csv")
    bf.write_zip(pngs, root / "stimulus_hvm-public.zip")
    names = (ASSEMBLY_FILE, "stimulus_hvm-public.csv", "stimulus_hvm-public.zip")
    return {name: bf._sha1((root / name).read_bytes()) for name in names}


if __name__ == "__main__":  # python tests/majaj_temporal_fixtures.py OUT_DIR: write the files (for the reference)
    import json
    import sys

    print(json.dumps(majaj_temporal_store(sys.argv[1]), indent=1))
