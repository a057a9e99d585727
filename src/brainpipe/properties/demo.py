"""SyntheticGratings: brainpipe's offline properties demo (SIMULATED, not a recording).

* Stimuli drawn here, in the format of Brain-Score's Marques2020 grating sets (columns position_y, position_x,
  contrast, radius, spatial_frequency, orientation, phase; one ``degrees`` for the set): a receptive-field set
  (small gratings on a grid of positions), a blank (mean grey) and an orientation set (spatial frequency ×
  orientation × phase at the centre), each a folder with stimuli.csv and PNGs.
* A simulated V1 population: per neuron, the Ringach2002 properties drawn from known distributions (listed in
  :data:`POPULATION`), stored as Brain-Score stores its property data (neuroid × neuronal_property with the bins
  in attributes ``<property>_bins``, Ringach2002's bins).

Bright-bar gratings: the carrier is a half-wave rectified sine on the grey background. A symmetric sine's mean over
phase equals the blank, so a linear unit (the pixels baseline) would show no response above the blank, no unit
would pass the firing-rate fit and the demo could not score it; Brain-Score's Marques2020 sets use symmetric sines.

Geometry: the image spans ``degrees`` of visual angle; position (0, 0) is its centre, y grows downwards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from PIL import Image

DEGREES = 8.0
#: the orientation set (Brain-Score's Marques2020_orientation uses 12 orientations and 8 phases too)
ORIENTATIONS = np.linspace(0, 165, 12)
PHASES = np.linspace(0, 315, 8)
SPATIAL_FREQUENCIES = (1.0, 2.0, 4.0)
ORIENTATION_RADIUS = 1.0
#: the receptive-field set: 9 × 9 positions 0.25° apart, radius 0.25°, 3 cycles/°, 2 orientations
RF_POSITIONS = np.linspace(-1.0, 1.0, 9)
RF_RADIUS = 0.25
RF_SPATIAL_FREQUENCY = 3.0

#: Ringach2002's bins (brain-score/vision data/marques2020/data_packaging/marques_ringach2002.py)
BINS = {
    "circular_variance": np.linspace(0, 1, num=14),
    "bandwidth": np.linspace(0, 90, num=18),
    "orthogonal_preferred_ratio": np.linspace(0, 1, num=14),
    "orientation_selective": np.linspace(0, 1, num=3),
}
#: the simulated population's known distributions (numpy Generator calls, seeded)
POPULATION = {
    "circular_variance": "beta(2.0, 2.5)",
    "bandwidth": "gamma(4.0, 6.0) clipped to [5, 90]; NaN where not orientation selective",
    "orthogonal_preferred_ratio": "beta(1.5, 3.0)",
    "orientation_selective": "bernoulli(0.85)",
}


def grating(size: int, degrees: float, position_y, position_x, radius, spatial_frequency, orientation, phase,
            contrast=1.0) -> np.ndarray:
    """A grey-background bright-bar grating (half-wave rectified sine) in a circular aperture, values in [0.5, 1]."""
    step = degrees / size
    axis = (np.arange(size) + 0.5) * step - degrees / 2
    y, x = np.meshgrid(axis, axis, indexing="ij")
    theta = np.deg2rad(orientation)
    carrier = np.sin(2 * np.pi * spatial_frequency * (x * np.cos(theta) + y * np.sin(theta)) + np.deg2rad(phase))
    inside = (y - position_y) ** 2 + (x - position_x) ** 2 <= radius ** 2
    return np.where(inside, 0.5 + 0.5 * contrast * np.maximum(carrier, 0), 0.5)


def _rows(parameters):
    columns = ("position_y", "position_x", "contrast", "radius", "spatial_frequency", "orientation", "phase")
    return pd.DataFrame([dict(zip(columns, map(float, p))) for p in parameters], columns=columns)


def stimulus_tables():
    """name → parameter table (grid order: the slowest parameter first, phase fastest) of the three sets."""
    rf = _rows([(y, x, 1, RF_RADIUS, RF_SPATIAL_FREQUENCY, o, p) for y in RF_POSITIONS for x in RF_POSITIONS
                for o in (0.0, 90.0) for p in (0.0,)])
    orientation = _rows([(0, 0, 1, ORIENTATION_RADIUS, sf, o, p) for sf in SPATIAL_FREQUENCIES
                         for o in ORIENTATIONS for p in PHASES])
    blank = pd.DataFrame({"position_y": [0.0], "position_x": [0.0]})
    return {"receptive_field": rf, "blank": blank, "orientation": orientation}


def generate_stimuli(kind: str, image_size: int = 128, degrees: float = DEGREES):
    """(table with stimulus_id, filename, degrees and the grating columns, [PIL images]) of one set."""
    table = stimulus_tables()[kind].copy()
    images = []
    for index, row in table.iterrows():
        if kind == "blank":
            values = np.full((image_size, image_size), 0.5)
        else:
            values = grating(image_size, degrees, row.position_y, row.position_x, row.radius,
                             row.spatial_frequency, row.orientation, row.phase, row.contrast)
        images.append(Image.fromarray(np.round(values * 255).astype(np.uint8)).convert("RGB"))
    table.insert(0, "stimulus_id", [f"{kind}_{i:04d}" for i in range(len(table))])
    table.insert(1, "filename", [f"images/{kind}_{i:04d}.png" for i in range(len(table))])
    table["degrees"] = degrees
    return table, images


def simulate_population(n_neurons: int = 300, seed: int = 0) -> xr.DataArray:
    """The simulated V1 property table (neuroid × neuronal_property) with Ringach2002's bins as attributes."""
    rng = np.random.default_rng(seed)
    selective = (rng.random(n_neurons) < 0.85).astype(np.float64)
    values = {
        "circular_variance": rng.beta(2.0, 2.5, n_neurons),
        "bandwidth": np.where(selective == 1, np.clip(rng.gamma(4.0, 6.0, n_neurons), 5, 90), np.nan),
        "orthogonal_preferred_ratio": rng.beta(1.5, 3.0, n_neurons),
        "orientation_selective": selective,
    }
    names = list(values)
    data = xr.DataArray(np.stack([values[n] for n in names], axis=1), dims=("neuroid", "neuronal_property"),
                        coords={"neuroid_id": ("neuroid", np.arange(n_neurons)),
                                "region": ("neuroid", ["V1"] * n_neurons), "neuronal_property": names},
                        name="SyntheticGratings_V1_properties")
    data.attrs.update({f"{n}_bins": BINS[n] for n in names})
    data.attrs["number_of_trials"] = 1
    data.attrs["simulated"] = "; ".join(f"{n}: {d}" for n, d in POPULATION.items())
    return data
