"""Stand-ins for Brain-Score's Marques2020 data files, in the real formats and under the real object names.

From the real data (brain-score/vision brainscore_vision/data/marques2020/__init__.py and data_packaging/*.py):
object names (``assy_shapley_Ringach2002.nc``, ``stimulus_Marques2020_orientation.csv/.zip``, ...); property
assemblies as NetCDF DataArrays named by the identifier, dims (neuroid, neuronal_property), coords neuroid_id,
region, neuronal_property, the bins of each property in the attribute ``<property>_bins`` (Brain-Score's bin
edges, copied) and ``number_of_trials`` 20; stimulus CSVs with image_id, filename, degrees and the seven grating
columns (position_y, position_x, contrast, radius, spatial_frequency, orientation, phase) in grid order, phase
fastest; grating sets of 12° at position 0.5°, the texture set (type, family, sample; 8°) likewise.

Smaller than the real sets (**tiny grids**, unverified choices): 9 × 9 receptive-field positions (21 × 21 real),
fewer spatial frequencies, sizes, orientations and phases, 3 texture families × 4 samples, 192-pixel images (672
real); property values drawn uniformly inside the bins (NaN bandwidths for non-selective neurons).
``real=True`` (perf/bench_properties.py ``--real-size``): the real grids of Brain-Score's marques_gen_stim.py
(receptive field 21 × 21 positions × 4 orientations × 2 phases = 3528, orientation 1152, spatial frequency 2112,
size 2304, 15 texture families × 15 samples × 2 types = 450, blank 1), the pixels still this module's gratings.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from PIL import Image

from brainio_fixtures import _png_bytes, _sha1, write_netcdf, write_stimulus_csv, write_zip

SIZE_PX = 192
DEGREES, TEXTURE_DEGREES = 12, 8
POSITION = 0.5
ORIENTATIONS = np.linspace(0, 165, 12)
SF = np.logspace(-1.5 + 0.125, 4 - 0.125, 22, endpoint=True, base=2)  # marques_gen_stim.py SF

BINS = {  # brain-score/vision data/marques2020/data_packaging/marques_*.py
    "baseline": np.logspace(-1 - 1 / 3, 2, 11, base=10), "max_dc": np.logspace(0, 3, 10, base=10),
    "min_dc": np.logspace(-1 - 1 / 3, 2, 11, base=10), "max_ac": np.logspace(0, 3, 10, base=10),
    "modulation_ratio": np.linspace(0, 2, 11), "circular_variance": np.linspace(0, 1, num=14),
    "bandwidth": np.linspace(0, 90, num=18), "orthogonal_preferred_ratio": np.linspace(0, 1, num=14),
    "orientation_selective": np.linspace(0, 1, num=3),
    "circular_variance_bandwidth_ratio": np.logspace(-3, 0, num=16, base=10),
    "orthogonal_preferred_ratio_circular_variance_difference": np.linspace(-1, 1, num=20),
    "orthogonal_preferred_ratio_bandwidth_ratio": np.logspace(-3, 0, num=16, base=10),
    "preferred_orientation": np.linspace(-22.5, 157.5, 5),
    "peak_spatial_frequency": np.array([0.35, 0.5, 0.7, 1.0, 1.4, 2.0, 2.8, 4.0, 5.6, 8.0, 11.2, 16.0, 22.4]),
    "spatial_frequency_selective": np.linspace(0, 1, num=3), "spatial_frequency_bandwidth": np.linspace(0, 100, num=11),
    "surround_suppression_index": np.linspace(0, 2, num=11), "strongly_suppressed": np.linspace(0, 1, num=3),
    "grating_summation_field": np.array([0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]),
    "surround_diameter": np.array([0.0625, 0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0]),
    "surround_grating_summation_field_ratio": np.array([1, 2, 4, 8, 16, 32]),
    "max_texture": np.logspace(-1, 3, 13, base=10), "max_noise": np.logspace(-1, 3, 13, base=10),
    "texture_modulation_index": np.linspace(-1, 1, num=25), "absolute_texture_modulation_index": np.linspace(0, 1, num=13),
    "texture_selectivity": np.linspace(0, 1, num=11), "noise_selectivity": np.linspace(0, 1, num=11),
    "texture_sparseness": np.linspace(0, 1, num=11), "noise_sparseness": np.linspace(0, 1, num=11),
    "variance_ratio": np.logspace(-2, 1, num=13), "sample_variance": np.linspace(0, 1, num=11),
    "family_variance": np.linspace(0, 1, num=11),
}
PROPERTIES = {  # identifier -> (property names in Brain-Score's order, neurons, stimulus set)
    "shapley.Ringach2002": (["baseline", "max_dc", "min_dc", "max_ac", "modulation_ratio", "circular_variance",
                             "bandwidth", "orthogonal_preferred_ratio", "orientation_selective",
                             "circular_variance_bandwidth_ratio",
                             "orthogonal_preferred_ratio_circular_variance_difference",
                             "orthogonal_preferred_ratio_bandwidth_ratio"], 120),
    "devalois.DeValois1982a": (["preferred_orientation"], 385),
    "devalois.DeValois1982b": (["peak_spatial_frequency"], 250),
    "schiller.Schiller1976c": (["spatial_frequency_selective", "spatial_frequency_bandwidth"], 87),
    "movshon.Cavanaugh2002a": (["surround_suppression_index", "strongly_suppressed", "grating_summation_field",
                                "surround_diameter", "surround_grating_summation_field_ratio"], 150),
    "movshon.FreemanZiemba2013_V1_properties": (["texture_modulation_index", "absolute_texture_modulation_index",
                                                 "texture_selectivity", "noise_selectivity", "texture_sparseness",
                                                 "noise_sparseness", "variance_ratio", "sample_variance",
                                                 "family_variance", "max_texture", "max_noise"], 102),
}


def grating(y, x, radius, sf, orientation, phase, contrast=1.0, degrees=DEGREES, size=SIZE_PX):
    axis = (np.arange(size) + 0.5) * degrees / size - degrees / 2
    yy, xx = np.meshgrid(axis, axis, indexing="ij")
    theta = np.deg2rad(orientation)
    carrier = np.sin(2 * np.pi * sf * (xx * np.cos(theta) + yy * np.sin(theta)) + np.deg2rad(phase))
    inside = (yy - y) ** 2 + (xx - x) ** 2 <= radius ** 2
    return np.where(inside, 0.5 + 0.5 * contrast * carrier, 0.5)


def _grating_set(rows, degrees=DEGREES, size=SIZE_PX):
    columns = ("position_y", "position_x", "contrast", "radius", "spatial_frequency", "orientation", "phase")
    table = pd.DataFrame([dict(zip(columns, map(float, r))) for r in rows], columns=columns)
    pngs, ids = {}, []
    for row in table.itertuples():
        pixels = grating(row.position_y, row.position_x, row.radius, row.spatial_frequency, row.orientation,
                         row.phase, row.contrast, degrees, size)
        data = _png_bytes(np.round(np.repeat(pixels[..., None], 3, axis=2) * 255).astype(np.uint8))
        ids.append(_sha1(data)[:16] + f"{row.Index:05d}")
        pngs[ids[-1] + ".png"] = data
    table.insert(0, "image_id", ids)
    table.insert(1, "filename", [i + ".png" for i in ids])
    table["degrees"] = degrees
    return table, pngs


def stimulus_sets(real: bool = False, size: int = SIZE_PX):
    """identifier -> (table, pngs) of the six Marques2020 sets, tiny (or real) grids in Brain-Score's order."""
    p, positions = POSITION, np.linspace(POSITION - 1.0, POSITION + 1.0, 9)
    sets = _real_grids(size) if real else {
        "Marques2020_receptive_field": _grating_set([(y, x, 1, 1 / 6 * 3, 3, o, ph) for y in positions
                                                     for x in positions for o in (0, 90) for ph in (0,)]),
        "Marques2020_orientation": _grating_set([(p, p, 1, mr / 2 / sf, sf, o, ph) for mr in (2, 3)
                                                 for sf in SF[[4, 8]] for o in ORIENTATIONS
                                                 for ph in (0, 90, 180, 270)]),
        "Marques2020_spatial_frequency": _grating_set([(p, p, 1, r, sf, o, ph) for r in (0.75, 2.25)
                                                       for sf in SF[[2, 5, 8, 11, 14, 17]] for o in ORIENTATIONS[[0, 4, 8]]
                                                       for ph in (0, 90, 180, 270)]),
        "Marques2020_size": _grating_set([(p, p, 1, r, sf, o, ph) for r in (0.25, 0.5, 1.0, 2.0, 4.0)
                                          for sf in SF[[8, 12]] for o in ORIENTATIONS[[0, 6]]
                                          for ph in (0, 90, 180, 270)]),
    }
    blank = _png_bytes(np.full((size, size, 3), 128, dtype=np.uint8))
    sets["Marques2020_blank"] = (pd.DataFrame({"image_id": ["blank"], "filename": ["blank.png"],
                                               "position_y": [p], "position_x": [p], "degrees": [DEGREES]}),
                                 {"blank.png": blank})
    sets["FreemanZiemba2013_properties"] = _textures(15, 15, size=size) if real else _textures(size=size)
    return sets


def _real_grids(size):
    """The four grating sets at Brain-Score's real parameters (marques_gen_stim.py: POS_rf, PHASE, RADIUS, ...)."""
    p = POSITION
    phases = np.linspace(0, 315, 8)
    radii = np.logspace(-3 + 0.75, 4 - 0.75, 12, endpoint=True, base=2) / 2
    positions = np.linspace(-2.5, 2.5, 21)
    return {
        "Marques2020_receptive_field": _grating_set([(y, x, 1, 1 / 6, 3, o, ph) for y in positions for x in positions
                                                     for o in ORIENTATIONS[[0, 3, 6, 9]] for ph in phases[[0, 4]]],
                                                    size=size),
        "Marques2020_orientation": _grating_set([(p, p, 1, mr / 2 / sf, sf, o, ph) for mr in (2, 3, 4)
                                                 for sf in SF[[4, 8, 12, 16]] for o in ORIENTATIONS for ph in phases],
                                                size=size),
        "Marques2020_spatial_frequency": _grating_set([(p, p, 1, r, sf, o, ph) for r in (0.75, 2.25) for sf in SF
                                                       for o in ORIENTATIONS[::2] for ph in phases], size=size),
        "Marques2020_size": _grating_set([(p, p, 1, r, sf, o, ph) for r in radii for sf in SF[[4, 8, 12, 16]]
                                          for o in ORIENTATIONS[::2] for ph in phases], size=size),
    }


def _textures(families=3, samples=4, seed=0, size=SIZE_PX):
    rng = np.random.default_rng(seed)
    rows, pngs = [], {}
    for kind in ("noise", "texture"):  # sorted type levels: noise first
        for family in range(families):
            for sample in range(samples):
                base = grating(POSITION, POSITION, 2.0, 1.0 + family, 45.0 * family, 90 * sample,
                               degrees=TEXTURE_DEGREES, size=size)
                noise = rng.normal(0, 0.15 if kind == "texture" else 0.05, base.shape)
                pixels = np.clip(base + (noise if kind == "texture" else 0) + (0 if kind == "texture" else noise), 0, 1)
                data = _png_bytes(np.round(np.repeat(pixels[..., None], 3, axis=2) * 255).astype(np.uint8))
                image_id = f"{kind}-{family}-{sample}"
                pngs[image_id + ".png"] = data
                rows.append(dict(image_id=image_id, filename=image_id + ".png", type=kind, family=family,
                                 sample=sample, position_y=POSITION, position_x=POSITION, degrees=TEXTURE_DEGREES))
    return pd.DataFrame(rows), pngs


def property_assembly(identifier, seed=0):
    names, n = PROPERTIES[identifier]
    rng = np.random.default_rng(abs(hash(identifier)) % 2 ** 32 if seed is None else seed)
    values = np.stack([rng.uniform(BINS[name][0], BINS[name][-1], n) for name in names], axis=1)
    if "bandwidth" in names:
        values[:10, names.index("bandwidth")] = np.nan
    assembly = xr.DataArray(values, dims=("neuroid", "neuronal_property"), name=identifier,
                            coords={"neuroid_id": ("neuroid", np.arange(n)), "region": ("neuroid", ["V1"] * n),
                                    "neuronal_property": names})
    assembly.attrs["number_of_trials"] = 20
    for name in names:
        assembly.attrs[f"{name}_bins"] = BINS[name]
    return assembly


def write_marques_store(root, real: bool = False, size: int = SIZE_PX) -> dict[str, str]:
    """Write the six property assemblies and six stimulus sets under their object names; name -> sha1."""
    from pathlib import Path

    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    written = []
    for identifier in PROPERTIES:
        name = "assy_" + identifier.replace(".", "_") + ".nc"
        write_netcdf(property_assembly(identifier, seed=sorted(PROPERTIES).index(identifier)), root / name)
        written.append(name)
    for identifier, (table, pngs) in stimulus_sets(real, size).items():
        stem = "stimulus_" + identifier.replace(".", "_")
        write_stimulus_csv(table, root / f"{stem}.csv")
        write_zip(pngs, root / f"{stem}.zip")
        written += [f"{stem}.csv", f"{stem}.zip"]
    return {name: _sha1((root / name).read_bytes()) for name in written}
