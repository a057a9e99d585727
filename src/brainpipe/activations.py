"""Activation extraction: one batched forward pass over a stimulus set, capturing every requested layer.

Output per layer: a (presentation, neuroid) float32 DataArray with coords stimulus_id; neuroid_id
("{model}.{layer}.{index}", as Brain-Score names them), layer, channel, channel_x, channel_y (C-order flattening:
channel, then height, then width — brain-score/vision model_helpers/activations/core.py).
"""

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import xarray as xr

from .stimuli import read_stimulus_set


def _neuroid_coords(model_id, layer, shape):
    """Coordinates for a flattened (C, H, W) or (features,) output."""
    n = int(np.prod(shape))
    index = np.arange(n)
    if len(shape) == 3:
        channel, channel_y, channel_x = np.unravel_index(index, shape)
    else:
        channel, channel_y, channel_x = index, np.zeros(n, int), np.zeros(n, int)
    return {
        "neuroid_id": ("neuroid", np.char.add(f"{model_id}.{layer}.", index.astype(str))),
        "neuroid_num": ("neuroid", index),
        "layer": ("neuroid", np.full(n, layer)),
        "channel": ("neuroid", channel),
        "channel_x": ("neuroid", channel_x),
        "channel_y": ("neuroid", channel_y),
    }


def extract(model, stimuli_folder, layers, batch_size=64, progress=None):
    """Run ``model`` over every image of the stimulus set; return {layer: DataArray}.

    progress: a file-like object for progress lines (images/s), e.g. sys.stderr or a log file.
    """
    progress = progress or sys.stderr
    table = read_stimulus_set(stimuli_folder)
    paths = table["path"].tolist()
    layers = list(dict.fromkeys(layers))
    if not paths:
        raise ValueError(f"{stimuli_folder}: stimulus set is empty")
    outputs = {layer: [] for layer in layers}
    started = time.perf_counter()
    shapes = None
    with ThreadPoolExecutor(max_workers=4) as pool:  # decode images while the network runs
        for start in range(0, len(paths), batch_size):
            batch = np.stack(list(pool.map(model.preprocess, paths[start: start + batch_size])))
            outputs_by_layer = model(batch, layers)
            if shapes is None:  # one unit per element of the layer's output: (C, H, W) or flat
                shapes = {layer: values.shape[1:] for layer, values in outputs_by_layer.items()}
            for layer, values in outputs_by_layer.items():
                values = values.reshape(len(values), -1)  # C-order: channel, then height, then width
                if not np.isfinite(values).all():
                    bad = int((~np.isfinite(values)).sum())
                    raise ValueError(f"model {model.identifier} layer {layer}: {bad} non-finite activations in "
                                     f"images {paths[start]} … (batch starting at index {start})")
                outputs[layer].append(values.astype(np.float32, copy=False))
            done = min(start + batch_size, len(paths))
            elapsed = time.perf_counter() - started
            print(f"[activations] {model.identifier}: {done}/{len(paths)} images, "
                  f"{done / elapsed:.1f} images/s", file=progress, flush=True)
    result = {}
    for layer in layers:
        values = np.concatenate(outputs[layer])
        result[layer] = xr.DataArray(
            values, dims=("presentation", "neuroid"),
            coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy()),
                    **_neuroid_coords(model.identifier, layer, shapes[layer])},
            name=f"{model.identifier}.{layer}",
            attrs={"model": model.identifier, "layer": layer},
        )
    return result
