"""Activation extraction: one batched forward pass over a stimulus set, capturing every requested layer.

Output per layer: a (presentation, neuroid) float32 DataArray with coords stimulus_id; neuroid_id
("{model}.{layer}.{index}", as Brain-Score names them), layer, channel, channel_x, channel_y (C-order flattening:
channel, then height, then width — brain-score/vision model_helpers/activations/core.py).

Everything is built on one streaming core, :func:`iterate_batches`, which yields each batch's flattened outputs as
soon as the network has produced them. :func:`extract_to_files` (the workflow's per-layer files) and
:func:`extract_to_folder` write them straight into one NetCDF per layer, so their memory is one batch of every
hooked layer plus the model, whatever the number of images or layers; :func:`extract` collects them into DataArrays
for in-process use (BrainModel.look_at). Images are decoded and resized in DataLoader worker processes while the
network runs on the previous batch.
"""

import contextlib
import multiprocessing
import os
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
import torch.utils.data

from brainpipe.io import NetcdfRowWriter, atomic_directory, atomic_path
from brainpipe.data.stimuli import read_stimulus_set

DIMS = ("presentation", "neuroid")


def default_num_workers():
    """Decode workers when none are configured: one per two cores, at least one, at most four. Decoding a
    224-px image costs a few ms against tens of ms for a forward pass, so one worker keeps up on small machines."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores // 2))


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


def _coords(model_id, layer, shape, stimulus_ids):
    return {"stimulus_id": ("presentation", stimulus_ids), **_neuroid_coords(model_id, layer, shape)}


def _attrs(model_id, layer):
    return {"model": model_id, "layer": layer}


# --- decoding in worker processes -------------------------------------------------------------------------------

class _Failed:
    """An exception raised while preprocessing one image, carried back from a worker to be raised as itself."""

    def __init__(self, error):
        self.error = error


class _Images(torch.utils.data.Dataset):
    def __init__(self, preprocess, paths):
        self.preprocess, self.paths = preprocess, paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        try:
            return self.preprocess(self.paths[index])
        except Exception as error:  # raised in the main process as the same error (not DataLoader's wrapper)
            return _Failed(error)


def _collate(items):
    failed = [item for item in items if isinstance(item, _Failed)]
    if failed:
        return failed[0]
    # a tensor (not an array) so that pin_memory can page-lock it; np.stack is what the values always went through
    if torch.utils.data.get_worker_info() is not None and len(items) > 1:
        shared = _stack_in_shared_memory(items)
        if shared is not None:
            return shared
    return torch.from_numpy(np.stack(items))


def _stack_in_shared_memory(items):
    """np.stack(items) written straight into shared memory, as torch's default_collate does in a worker
    (torch/utils/data/_utils/collate.py); otherwise the batch is copied once more into shared memory to reach the
    main process (38 MB per 64 images, on a core the forward pass wants). None where that cannot be done.

    The batch keeps the memory layout np.stack gives it (ImagePreprocessing's items make it channels-last): the
    network's results depend on the layout in their last bits.
    """
    probe = np.stack(items[:2])  # two images: how np.stack lays a batch of these items out
    try:
        dtype = torch.from_numpy(probe[:0]).dtype
    except TypeError:  # a dtype torch cannot hold: the caller's np.stack path raises the usual error
        return None
    itemsize, item_bytes = probe.itemsize, probe[0].nbytes
    if probe.strides[0] != item_bytes or any(stride % itemsize for stride in probe.strides):
        return None  # not one compact block per item, in order: leave it to np.stack
    shape = (len(items), *probe.shape[1:])
    strides = tuple(stride // itemsize for stride in probe.strides)
    storage = torch.UntypedStorage._new_shared(len(items) * item_bytes)
    batch = torch.empty(0, dtype=dtype).set_(storage, 0, shape, strides)
    np.stack(items, out=batch.numpy())  # raises as np.stack does for items of different shapes
    return batch


def _loader(preprocess, paths, batch_size, num_workers, pin_memory):
    options = {}
    if num_workers > 0:
        options["prefetch_factor"] = 2  # each worker decodes at most two batches ahead: bounded memory
        # fork: the workers inherit ``preprocess`` (often a bound method of an object holding the network) without
        # pickling the network. Elsewhere the default start method pickles it, which also works, only slower.
        if "fork" in multiprocessing.get_all_start_methods():
            options["multiprocessing_context"] = multiprocessing.get_context("fork")
    return torch.utils.data.DataLoader(_Images(preprocess, paths), batch_size=batch_size, shuffle=False,
                                       num_workers=num_workers, collate_fn=_collate, pin_memory=pin_memory,
                                       **options)


def _uses_cuda(model):
    return torch.cuda.is_available() and str(getattr(model, "device", "cpu")).startswith("cuda")


# --- the streaming core -------------------------------------------------------------------------------------------

@dataclass
class Batch:
    start: int  # index of the batch's first image in the stimulus set
    outputs: dict  # layer -> float32 array (images in batch, units), C-order flattened
    shapes: dict  # layer -> one image's unflattened output shape, e.g. (C, H, W)


def iterate_batches(model, paths, layers, batch_size=64, num_workers=None, progress=None):
    """Run ``model`` over ``paths`` batch by batch; yield a :class:`Batch` per forward pass, in order.

    Only the batch being yielded (plus the few the decode workers have ready) is held: nothing accumulates.
    progress: a file-like object for progress lines (images/s), e.g. sys.stderr or a log file.
    """
    progress = progress or sys.stderr
    num_workers = default_num_workers() if num_workers is None else int(num_workers)
    if num_workers < 0:
        raise ValueError(f"num_workers must be >= 0, got {num_workers}")
    layers = list(dict.fromkeys(layers))
    if not layers:
        raise ValueError(f"model {model.identifier}: no layers requested")
    if len(paths) <= batch_size:
        # One batch: a worker would decode it while the model waits (nothing to overlap), after a fork of this
        # process (torch, the network) that costs more than the decoding: 0.17 s a stimulus set, measured on 2
        # cores, e.g. 3.7 s of a 22-set extraction of 24-image sets (perf/bench_families.py Scialom2024-all).
        num_workers = 0
    loader = _loader(model.preprocess, list(paths), batch_size, num_workers, _uses_cuda(model))
    started = time.perf_counter()
    shapes = None
    start = 0
    with warnings.catch_warnings():
        # Python >= 3.12 warns that fork() in a process with threads (torch's pool) may deadlock; the workers
        # only decode images with PIL and numpy, never touching torch's thread pool, which is the safe case.
        warnings.filterwarnings("ignore", message=".*use of fork\\(\\) may lead to deadlocks.*")
        batches = iter(loader)
    for batch in batches:
        if isinstance(batch, _Failed):
            raise batch.error
        with torch.inference_mode():
            raw = model(batch.numpy(), layers)
        del batch  # let the loader reuse its memory while we flatten and write
        if shapes is None:  # one unit per element of the layer's output: (C, H, W) or flat
            shapes = {layer: tuple(values.shape[1:]) for layer, values in raw.items()}
        outputs = {}
        for layer in layers:
            if layer not in raw:
                raise ValueError(f"model {model.identifier} returned no output for layer {layer!r} "
                                 f"(it returned {sorted(raw)})")
            values = raw.pop(layer)
            if tuple(values.shape[1:]) != shapes[layer]:
                raise ValueError(f"model {model.identifier} layer {layer}: output shape {values.shape[1:]} in the "
                                 f"batch starting at image {start}, but {shapes[layer]} in the first batch")
            values = values.reshape(len(values), -1)  # C-order: channel, then height, then width
            if not np.isfinite(values).all():
                bad = int((~np.isfinite(values)).sum())
                raise ValueError(f"model {model.identifier} layer {layer}: {bad} non-finite activations in "
                                 f"images {paths[start]} … (batch starting at index {start})")
            outputs[layer] = values.astype(np.float32, copy=False)
        del raw
        yield Batch(start, outputs, shapes)
        done = start + len(next(iter(outputs.values())))
        elapsed = time.perf_counter() - started
        print(f"[activations] {model.identifier}: {done}/{len(paths)} images, "
              f"{done / elapsed:.1f} images/s", file=progress, flush=True)
        start = done


def _stimuli(stimuli_folder):
    table = read_stimulus_set(stimuli_folder)
    if table.empty:
        raise ValueError(f"{stimuli_folder}: stimulus set is empty")
    return table["path"].tolist(), table["stimulus_id"].to_numpy()


def extract_to_folder(model, stimuli_folder, layers, destination, batch_size=64, num_workers=None, progress=None):
    """Extract every layer into ``destination/<layer>.nc``, streaming batch by batch.

    The folder appears only when every file is complete (atomic_directory): a failure leaves nothing behind.
    Peak memory: the model, one batch of every hooked layer, and one layer's coordinates while its file is begun.
    """
    layers = list(dict.fromkeys(layers))
    with atomic_directory(destination) as folder:
        _stream_to_files(model, stimuli_folder, {layer: Path(folder) / f"{layer}.nc" for layer in layers},
                         batch_size, num_workers, progress)


def extract_to_files(model, stimuli_folder, destinations, batch_size=64, num_workers=None, progress=None):
    """Extract the layers of ``destinations`` ({layer: path of its NetCDF}) in one forward pass per batch.

    The workflow keys activations per layer file (results/activations/<model>/<stimuli>/<layer>.nc), so a job
    writes only the layers that are not on disk yet, beside the ones that are, and leaves those untouched. Each
    file is written under a temporary name and renamed into place only once every layer is complete: a failure
    leaves none of them behind. Memory as :func:`extract_to_folder`.
    """
    if not destinations:
        raise ValueError(f"model {model.identifier}: no layers requested")
    with contextlib.ExitStack() as stack:
        temporary = {layer: stack.enter_context(atomic_path(path)) for layer, path in destinations.items()}
        _stream_to_files(model, stimuli_folder, temporary, batch_size, num_workers, progress)


def _stream_to_files(model, stimuli_folder, files, batch_size, num_workers, progress):
    """Run the model over the stimulus set and write each layer of ``files`` ({layer: path}) row block by row
    block; the caller makes the paths atomic."""
    paths, stimulus_ids = _stimuli(stimuli_folder)
    layers = list(files)
    writers = {}
    batches = iterate_batches(model, paths, layers, batch_size, num_workers, progress)
    try:
        for batch in batches:
            if not writers:  # the first batch tells each layer's width
                for layer in layers:
                    shape = batch.shapes[layer]
                    # each writer checks that the disk holds its values and those of the writers before it
                    writers[layer] = NetcdfRowWriter(
                        files[layer], f"{model.identifier}.{layer}", DIMS, (len(paths), int(np.prod(shape))),
                        _coords(model.identifier, layer, shape, stimulus_ids), _attrs(model.identifier, layer),
                        reserved=sum(writer.nbytes for writer in writers.values()))
            for layer, values in batch.outputs.items():
                writers[layer].write(batch.start, values)
    finally:
        batches.close()  # stop the decode workers now, also on failure
        for writer in writers.values():
            writer.close()
    short = {layer: w.rows_written for layer, w in writers.items() if w.rows_written != len(paths)}
    if short:  # cannot happen unless the model dropped images; never publish a partly filled file
        raise RuntimeError(f"model {model.identifier}: rows written {short}, expected {len(paths)}")


def extract(model, stimuli_folder, layers, batch_size=64, progress=None, num_workers=None):
    """Run ``model`` over every image of the stimulus set; return {layer: DataArray} (held in memory).

    progress: a file-like object for progress lines (images/s), e.g. sys.stderr or a log file.
    """
    paths, stimulus_ids = _stimuli(stimuli_folder)
    layers = list(dict.fromkeys(layers))
    values, shapes = {}, None
    for batch in iterate_batches(model, paths, layers, batch_size, num_workers, progress):
        if shapes is None:  # preallocate once: no list of batches and no concatenated copy
            shapes = batch.shapes
            values = {layer: np.empty((len(paths), out.shape[1]), np.float32) for layer, out in batch.outputs.items()}
        for layer, out in batch.outputs.items():
            values[layer][batch.start: batch.start + len(out)] = out
    import xarray as xr  # here only: an extraction job streams to NetCDF without it

    return {layer: xr.DataArray(values[layer], dims=DIMS,
                                coords=_coords(model.identifier, layer, shapes[layer], stimulus_ids),
                                name=f"{model.identifier}.{layer}", attrs=_attrs(model.identifier, layer))
            for layer in layers}
