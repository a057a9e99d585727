"""SyntheticShapes: brainpipe's embedded, offline demo benchmark. Not a real data set.

Procedurally drawn objects (8 shape categories × several objects each, drawn at varying position, size,
rotation and background) and *simulated* V4 and IT responses with repetitions and noise. The responses are
built from image features so that scores are informative:

- V4 units read out local, retinotopic feature maps (coarse luminance and oriented-edge energy on a grid);
- IT units read out position-tolerant shape statistics plus an object-identity signal (category-structured
  object embeddings), so they are best explained by deeper, more invariant features.

Everything is seeded: the same parameters give byte-identical images and identical responses.
"""

import hashlib
import io
import math

import numpy as np
import pandas as pd
import xarray as xr
from PIL import Image, ImageDraw, ImageFilter

CATEGORIES = ("disk", "square", "triangle", "star", "cross", "ring", "bar", "crescent")
DATASET = "SyntheticShapes"


def _polygon(center, radius, sides, rotation, inner=None):
    points = []
    steps = sides * (2 if inner else 1)
    for k in range(steps):
        angle = rotation + 2 * math.pi * k / steps
        r = radius if not inner or k % 2 == 0 else radius * inner
        points.append((center[0] + r * math.cos(angle), center[1] + r * math.sin(angle)))
    return points


def _rectangle(center, half_length, half_width, angle):
    (cx, cy), (dx, dy) = center, (math.cos(angle), math.sin(angle))
    nx, ny = -dy, dx
    return [(cx + sx * dx * half_length + sy * nx * half_width, cy + sx * dy * half_length + sy * ny * half_width)
            for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1))]


def _shape_mask(size, category, center, radius, rotation, aspect):
    """The object's silhouette as an 'L' mask (255 inside), so every category is pasted the same way."""
    mask = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(mask)
    cx, cy = center
    if category == "disk":
        draw.ellipse([cx - radius, cy - radius * aspect, cx + radius, cy + radius * aspect], fill=255)
    elif category == "square":
        draw.polygon(_polygon(center, radius, 4, rotation), fill=255)
    elif category == "triangle":
        draw.polygon(_polygon(center, radius, 3, rotation), fill=255)
    elif category == "star":
        draw.polygon(_polygon(center, radius, 5, rotation, inner=0.35 + 0.3 * aspect), fill=255)
    elif category == "cross":
        for angle in (rotation, rotation + math.pi / 2):
            draw.polygon(_rectangle(center, radius, radius * 0.35 * aspect, angle), fill=255)
    elif category == "ring":
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], outline=255,
                     width=max(2, int(radius * 0.3 * aspect)))
    elif category == "bar":
        draw.polygon(_rectangle(center, radius, radius * 0.25 * aspect, rotation), fill=255)
    elif category == "crescent":
        draw.ellipse([cx - radius, cy - radius, cx + radius, cy + radius], fill=255)
        shift, r = radius * (0.35 + 0.3 * aspect), radius * 0.85
        ox, oy = cx + shift * math.cos(rotation), cy + shift * math.sin(rotation)
        draw.ellipse([ox - r, oy - r, ox + r, oy + r], fill=0)
    else:
        raise ValueError(f"unknown shape category {category!r}")
    return mask


def _object_table(categories, objects_per_category, rng):
    rows = []
    for category in CATEGORIES[:categories]:
        for index in range(objects_per_category):
            rows.append(dict(
                category_name=category,
                object_name=f"{category}{index:02d}",
                color=tuple(int(v) for v in rng.integers(30, 226, size=3)),
                aspect=float(rng.uniform(0.5, 1.0)),
                base_rotation=float(rng.uniform(0, 2 * math.pi)),
            ))
    return rows


def generate_stimuli(categories=8, objects_per_category=4, images_per_object=10, image_size=128, seed=0):
    """Draw the stimulus set. Returns (table, images) with one PIL image per table row.

    table columns: stimulus_id (sha1 of the PNG bytes, as Brain-Score's ids are), filename, object_name,
    category_name, variation (0: centred, large; 1: shifted/rotated), split (train/test, for the
    fixed-split metrics), pos_x, pos_y, size, rotation.
    """
    if not 1 <= categories <= len(CATEGORIES):
        raise ValueError(f"categories must be between 1 and {len(CATEGORIES)}, got {categories}")
    rng = np.random.default_rng(seed)
    rows, images = [], []
    for obj in _object_table(categories, objects_per_category, rng):
        for index in range(images_per_object):
            variation = 0 if index < max(1, images_per_object // 4) else 1
            spread = 0.06 if variation == 0 else 0.18
            pos = 0.5 + rng.uniform(-spread, spread, size=2)
            size = rng.uniform(0.28, 0.36) if variation == 0 else rng.uniform(0.16, 0.34)
            rotation = obj["base_rotation"] + (0 if variation == 0 else rng.uniform(-0.8, 0.8))
            background = rng.integers(60, 200)
            # textured background: smoothed noise, so pixels alone do not trivially give the object away
            noise = rng.normal(background, 40, size=(image_size // 8, image_size // 8)).clip(0, 255).astype(np.uint8)
            canvas = Image.fromarray(noise, "L").resize((image_size, image_size), Image.BILINEAR).convert("RGB")
            mask = _shape_mask(image_size, obj["category_name"], (pos[0] * image_size, pos[1] * image_size),
                               size * image_size, rotation, obj["aspect"])
            canvas.paste(obj["color"], (0, 0, image_size, image_size), mask)
            canvas = canvas.filter(ImageFilter.GaussianBlur(0.6))
            buffer = io.BytesIO()
            canvas.save(buffer, format="PNG")
            stimulus_id = hashlib.sha1(buffer.getvalue()).hexdigest()
            rows.append(dict(stimulus_id=stimulus_id, filename=f"images/{stimulus_id}.png",
                             object_name=obj["object_name"], category_name=obj["category_name"],
                             variation=variation,
                             split="test" if index >= images_per_object - max(1, images_per_object // 5) else "train",
                             pos_x=float(pos[0]), pos_y=float(pos[1]),
                             size=float(size), rotation=float(rotation % (2 * math.pi))))
            images.append(canvas)
    return pd.DataFrame(rows), images


def _local_features(gray, grid=8):
    """Retinotopic features: mean luminance and oriented gradient energy (4 orientations) per grid cell."""
    gy, gx = np.gradient(gray)
    maps = [gray]
    for angle in np.arange(4) * np.pi / 4:
        maps.append(np.abs(gx * np.cos(angle) + gy * np.sin(angle)))
    size = gray.shape[0] // grid
    pooled = [m[: size * grid, : size * grid].reshape(grid, size, grid, size).mean(axis=(1, 3)) for m in maps]
    return np.concatenate([p.ravel() for p in pooled])


def _invariant_features(gray, rgb):
    """Position-tolerant features: histograms of gradient orientation weighted by energy, colour statistics."""
    gy, gx = np.gradient(gray)
    energy = np.hypot(gx, gy)
    angle = np.mod(np.arctan2(gy, gx), np.pi)
    histogram, _ = np.histogram(angle, bins=12, range=(0, np.pi), weights=energy)
    histogram = histogram / (histogram.sum() + 1e-9)
    strong = energy > np.percentile(energy, 90)
    colour = rgb[strong].mean(axis=0) if strong.any() else rgb.reshape(-1, 3).mean(axis=0)
    return np.concatenate([histogram, colour / 255.0, [strong.mean()]])


PEAK_LATENCY = {"V4": 100, "IT": 130}  # ms; simulated, V4 responds before IT


def _envelope(times, peak):
    """Gamma-like response envelope with onset at 60 ms, peaking at ``peak`` ms."""
    x = np.clip((times - 60.0) / (peak - 60.0), 0, None)
    return x * np.exp(1 - x) + 0.05


def _zscore(features):
    return (features - features.mean(axis=0)) / (features.std(axis=0) + 1e-9)


def simulate_assembly(table, images, neuroids=None, repetitions=10, noise=None, seed=0):
    """Simulate recordings for the stimulus table. Returns a DataArray (neuroid, presentation, time_bin).

    Shape and coordinates follow Brain-Score's IT/V4 array recordings (presentation: stimulus_id, repetition,
    object_name, category_name, …; neuroid: neuroid_id, region, animal; time_bin 70–170 ms), so the same
    preparation code serves the demo and the real data.

    noise : dict region -> per-trial noise standard deviation in units of the signal's standard deviation.
    """
    neuroids = neuroids or {"V4": 40, "IT": 60}
    noise = noise or {"V4": 1.2, "IT": 1.6}
    rng = np.random.default_rng(seed + 1)
    grays, local, invariant = [], [], []
    for image in images:
        rgb = np.asarray(image.resize((64, 64), Image.BILINEAR), dtype=np.float64)
        gray = rgb.mean(axis=2) / 255.0
        local.append(_local_features(gray))
        invariant.append(_invariant_features(gray, rgb))
        grays.append(gray)
    local, invariant = _zscore(np.array(local)), _zscore(np.array(invariant))
    # Object identity: category embedding plus a smaller per-object deviation (IT's categorical structure).
    categories = sorted(table["category_name"].unique())
    objects = sorted(table["object_name"].unique())
    category_embedding = {c: rng.normal(size=16) for c in categories}
    object_embedding = {o: category_embedding[table.loc[table.object_name == o, "category_name"].iloc[0]]
                        + 0.6 * rng.normal(size=16) for o in objects}
    identity = _zscore(np.array([object_embedding[o] for o in table["object_name"]]))

    signals, neuroid_rows = [], []
    for region, count in neuroids.items():
        if region == "V4":
            inputs, sparsity = np.concatenate([local, 0.3 * invariant], axis=1), 0.15
        elif region == "IT":
            inputs, sparsity = np.concatenate([0.25 * local, invariant, 1.2 * identity], axis=1), 0.4
        else:
            raise ValueError(f"SyntheticShapes simulates V4 and IT only, not {region!r}")
        weights = rng.normal(size=(inputs.shape[1], count)) * (rng.random((inputs.shape[1], count)) < sparsity)
        drive = inputs @ weights
        drive = drive / (drive.std(axis=0) + 1e-9)
        rate = np.log1p(np.exp(drive - 0.5))  # softplus: a firing-rate-like nonlinearity
        rate = (rate - rate.mean(axis=0)) / (rate.std(axis=0) + 1e-9)
        signals.append((region, rate))
        for k in range(count):
            neuroid_rows.append(dict(neuroid_id=f"{region}_{k:03d}", region=region, animal="simulated"))

    # Time course: 10-ms bins from 70 to 250 ms; each region's signal rises and decays with its own latency
    # (V4 peaks earlier than IT). Trial noise is independent per bin, scaled so the 70–170 ms mean (the static
    # benchmarks' window) has about the stated noise level.
    starts = np.arange(70, 250, 10)
    n_images, n_bins = len(table), len(starts)
    static_bins = int(((starts >= 70) & (starts + 10 <= 170)).sum())
    data = np.empty((sum(n for n in neuroids.values()), n_images * repetitions, n_bins), dtype=np.float32)
    row = 0
    for region, rate in signals:
        envelope = _envelope(starts + 5, PEAK_LATENCY.get(region, 120))
        envelope = envelope / envelope[: static_bins].mean()
        trials = (rate[None, :, :, None] * envelope
                  + noise[region] * np.sqrt(static_bins) * rng.normal(size=(repetitions,) + rate.shape + (n_bins,)))
        data[row: row + rate.shape[1]] = trials.reshape(-1, rate.shape[1], n_bins).transpose(1, 0, 2)
        row += rate.shape[1]

    presentation = {
        "stimulus_id": ("presentation", np.tile(table["stimulus_id"].to_numpy(), repetitions)),
        "repetition": ("presentation", np.repeat(np.arange(repetitions), n_images)),
    }
    for column in ("object_name", "category_name", "variation", "split"):
        presentation[column] = ("presentation", np.tile(table[column].to_numpy(), repetitions))
    neuroid = {key: ("neuroid", [r[key] for r in neuroid_rows]) for key in ("neuroid_id", "region", "animal")}
    return xr.DataArray(
        data,
        dims=("neuroid", "presentation", "time_bin"),
        coords={**presentation, **neuroid, "time_bin_start": ("time_bin", starts), "time_bin_end": ("time_bin", starts + 10)},
        name=f"brainpipe.{DATASET}",
        attrs={"description": "SIMULATED responses (brainpipe demo), not recordings",
               "noise": str(noise), "seed": seed, "repetitions": repetitions},
    )
