"""Time-resolved models: one response per model time step, and a declared map from steps to time bins.

A model_zoo entry with a ``time_mapping`` is temporal. Its committed layers are recorded at every time step: a
recurrent network whose forward unrolls its steps calls the committed module once per step, and a hook keeps every
call (Brain-Score's ``TemporalPytorchWrapper``, brain-score/vision brainscore_vision/models/cornet_s/helpers/
helpers.py, names them ``<layer>-t<step>``); a BrainModel is asked for the time bins of the region's mapping and
returns presentation × neuroid × time_bin. The layer file on disk gains a third dimension, ``time_bin``, one entry
per model step (coordinate ``time_step``); static models keep their (presentation, neuroid) files.

``time_mapping`` (region → model step → (start, end) ms) is Brain-Score's ``CORnetCommitment`` map: a benchmark's
requested bins are each matched to the committed bin whose start is nearest (``find_nearest``: the first on a tie),
so a model with 2 IT steps answers 18 requested 10-ms bins with its step-0 response for the early ones and its
step-1 response for the late ones. It is written either step by step, ``{IT: {0: [100, 200], 1: [200, 300]}}``, or
in CORnet's compact form ``{IT: [start, step_ms, steps]}`` (``model.py``'s ``TIME_MAPPINGS``, expanded by
``_build_time_mappings``: step t → (start + t·step_ms, start + (t+1)·step_ms)).

The mapping is applied after extraction (:func:`select_time_bins`), so editing it re-maps the stored steps without
running the network again.
"""

from __future__ import annotations

import numpy as np

from .model_sources import ModelSourceError, where

TIME_DIM = "time_bin"  # the third dimension of a temporal layer file
STEP_COORD = "time_step"


def is_temporal(spec) -> bool:
    return bool(spec) and spec.get("time_mapping") is not None


def parse_time_mapping(spec, name=None) -> dict[str, dict[int, tuple[int, int]]]:
    """The entry's ``time_mapping`` as {region: {step: (start, end)}}; a ModelSourceError naming
    ``model_zoo.<name>.time_mapping.<region>`` for a malformed map or overlapping bins."""
    raw = spec.get("time_mapping")
    key = f"{where(name)}.time_mapping"
    if not isinstance(raw, dict) or not raw:
        raise ModelSourceError(f"{key}: expected a mapping region -> {{step: [start, end]}} or region -> "
                               f"[start, step_ms, steps], got {raw!r}")
    mapping = {}
    for region, steps in raw.items():
        here = f"{key}.{region}"
        if isinstance(steps, (list, tuple)):
            if len(steps) != 3 or not all(_is_int(v) for v in steps) or int(steps[1]) <= 0 or int(steps[2]) <= 0:
                raise ModelSourceError(f"{here}: the compact form is [start, step_ms, steps] with step_ms and steps "
                                       f"positive integers (CORnet's TIME_MAPPINGS), got {steps!r}")
            start, size, count = map(int, steps)
            mapping[str(region)] = {t: (start + t * size, start + (t + 1) * size) for t in range(count)}
            continue
        if not isinstance(steps, dict) or not steps:
            raise ModelSourceError(f"{here}: expected {{step: [start, end]}} or [start, step_ms, steps], got {steps!r}")
        bins = {}
        for step, window in steps.items():
            if not _is_int(step) or int(step) < 0:
                raise ModelSourceError(f"{here}: step {step!r} is not a time step number (0, 1, ...)")
            if (not isinstance(window, (list, tuple)) or len(window) != 2 or not all(_is_int(v) for v in window)
                    or int(window[1]) <= int(window[0])):
                raise ModelSourceError(f"{here}.{step}: expected [start, end] in ms with end > start, got {window!r}")
            bins[int(step)] = (int(window[0]), int(window[1]))
        mapping[str(region)] = dict(sorted(bins.items()))
    for region, bins in mapping.items():
        windows = sorted((window, step) for step, window in bins.items())
        for (a, step_a), (b, step_b) in zip(windows, windows[1:]):
            if b[0] < a[1]:
                raise ModelSourceError(f"{key}.{region}: the bins of steps {step_a} {list(a)} and {step_b} "
                                       f"{list(b)} overlap; each step must answer its own time window")
    return mapping


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) or (
        isinstance(value, str) and value.isdigit())


def nearest_steps(region_bins: dict[int, tuple[int, int]], requested) -> list[int]:
    """For each requested (start, end) bin, the model step whose committed bin starts nearest (Brain-Score
    ``find_nearest`` on ``time_bin_start``: argmin of |start − requested start|, the first step on a tie)."""
    steps = sorted(region_bins, key=lambda s: region_bins[s][0])
    starts = np.array([region_bins[s][0] for s in steps], dtype=float)
    return [steps[int(np.abs(starts - float(start)).argmin())] for start, _ in requested]


def select_time_bins(values: np.ndarray, file_steps, region_bins, requested, *, model=None, region=None,
                     path=None) -> np.ndarray:
    """(presentation, neuroid, step) responses → (presentation, neuroid, requested bin) by nearest-start matching.
    A mapping that names a step the file does not have stops, naming the model key and the file."""
    file_steps = [int(s) for s in np.asarray(file_steps).tolist()]
    missing = sorted(set(region_bins) - set(file_steps))
    if missing:
        raise ModelSourceError(f"{where(model)}.time_mapping.{region}: step(s) {missing} are not among the "
                               f"{len(file_steps)} time steps the model produced ({file_steps}) in {path}")
    column = {step: k for k, step in enumerate(file_steps)}
    return values[:, :, [column[s] for s in nearest_steps(region_bins, requested)]]


# ---------------------------------------------------------------------------------------------------------------
# extraction


class TemporalNetwork:
    """A network whose forward unrolls its time steps: each committed module is called once per step, and every
    call is kept (a static :class:`~brainpipe.models.brain_model.ActivationsModel` keeps the last one). One forward
    per batch gives all steps."""

    def __init__(self, activations_model):
        self.inner = activations_model
        self.identifier = activations_model.identifier
        self.device = activations_model.device
        self.preprocess = activations_model.preprocess

    def layer_names(self):
        return self.inner.layer_names()

    def __call__(self, batch, layers):
        import torch

        known = dict(self.inner.network.named_modules())
        unknown = [layer for layer in layers if layer not in known]
        if unknown:
            raise ValueError(f"model {self.identifier} has no layer(s) {unknown}; e.g. {list(known)[1:8]}")
        calls = {layer: [] for layer in layers}

        def keep(output, layer):
            if not isinstance(output, torch.Tensor):
                raise ValueError(f"model {self.identifier}: layer {layer} returned {type(output).__name__}, not a "
                                 "tensor; choose a module that returns a tensor")
            # copied now: a later step may write into this tensor in place (CORnet-S's `x += skip`, ReLU(inplace))
            calls[layer].append(output.detach().to("cpu", torch.float32, copy=True).numpy())

        hooks = [known[layer].register_forward_hook(lambda module, inputs, output, layer=layer: keep(output, layer))
                 for layer in layers]
        try:
            with torch.no_grad():
                self.inner.network(torch.as_tensor(batch).to(self.device))
        finally:
            for hook in hooks:
                hook.remove()
        silent = [layer for layer, outputs in calls.items() if not outputs]
        if silent:
            raise ValueError(f"model {self.identifier}: layer(s) {silent} were not called in forward")
        return {layer: np.stack(outputs, axis=1) for layer, outputs in calls.items()}  # (n, step, ...)


class TemporalBrainModel:
    """A BrainModel recorded in time: ``start_recording(region, the mapping's bins)``, ``look_at`` must return
    presentation × neuroid × time_bin with one bin per mapped step (in step order)."""

    def __init__(self, brain_model_activations, time_mapping):
        self.inner = brain_model_activations
        self.identifier = brain_model_activations.identifier
        self.device = "cpu"
        self.preprocess = brain_model_activations.preprocess
        self.time_mapping = time_mapping

    def layer_names(self):
        return self.inner.layer_names()

    def __call__(self, batch, layers):
        from .preprocessing import decode_paths

        paths = decode_paths(batch)
        outputs = {}
        for region in layers:
            if region not in self.time_mapping:
                raise ModelSourceError(f"{where(self.identifier)}.time_mapping: no bins for region {region!r}; "
                                       f"it maps {sorted(self.time_mapping)}")
            bins = [self.time_mapping[region][s] for s in sorted(self.time_mapping[region])]
            self.inner.brain_model.start_recording(region, [tuple(b) for b in bins])
            recorded = self.inner.brain_model.look_at(paths)
            outputs[region] = _by_time(recorded, len(paths), len(bins), self.identifier, region)
        return outputs


def _by_time(recorded, n, n_bins, identifier, region):
    """A BrainModel's temporal recording as float32 (presentation, time_bin, neuroid), checked."""
    dims = getattr(recorded, "dims", None)
    if dims is not None and set(dims) == {"presentation", "neuroid", "time_bin"}:
        recorded = recorded.transpose("presentation", "neuroid", "time_bin")
    values = np.asarray(recorded, dtype=np.float32)
    if values.ndim == 2 and n_bins == 1:
        values = values[:, :, None]
    if values.ndim != 3 or values.shape[0] != n or values.shape[2] != n_bins:
        raise ValueError(f"model {identifier} region {region}: look_at returned shape {values.shape} for {n} "
                         f"stimuli after start_recording with {n_bins} time bins (model_zoo.{identifier}."
                         f"time_mapping.{region}); expected (presentation, neuroid, time_bin) = (n, *, {n_bins})")
    return np.ascontiguousarray(values.transpose(0, 2, 1))  # (n, step, neuroid), as a network's stacked calls


def temporal_model(identifier, spec, device="auto", base_dir="."):
    """The temporal activations model of a model_zoo entry with a ``time_mapping``."""
    from .brain_model import BrainModelActivations, load_activations_model

    mapping = parse_time_mapping(spec, identifier)
    static_spec = {k: v for k, v in spec.items() if k != "time_mapping"}
    model = load_activations_model(identifier, static_spec, device, base_dir)
    if isinstance(model, BrainModelActivations):
        return TemporalBrainModel(model, mapping)
    if model.network is None:
        raise ModelSourceError(f"{where(identifier)}.time_mapping: pixels has no time steps; remove time_mapping")
    return TemporalNetwork(model)


def extract_temporal(model, stimuli_folder, destinations, batch_size=64, num_workers=None, progress=None,
                     expected_steps=None):
    """Write each layer of ``destinations`` ({layer: path}) as (presentation, neuroid, time_bin) float32, one bin
    per model step (coordinate ``time_step``), from one forward per batch for all steps. ``expected_steps``:
    {layer: (steps the config maps, its key)}: a step the model does not produce stops before any file is written.
    Every file appears only once all are complete."""
    import contextlib

    import xarray as xr

    from brainpipe.io import atomic_path, write_netcdf

    from .activations import _neuroid_coords, _stimuli, iterate_batches

    paths, stimulus_ids = _stimuli(stimuli_folder)
    layers = list(destinations)
    values = {}
    for batch in iterate_batches(model, paths, layers, batch_size, num_workers, progress):
        if not values:
            for layer in layers:
                steps = batch.shapes[layer][0]
                wanted, key = (expected_steps or {}).get(layer, ((), None))
                beyond = sorted(s for s in wanted if s >= steps)
                if beyond:
                    raise ModelSourceError(f"{key}: step(s) {beyond} are not among the {steps} time steps model "
                                           f"{model.identifier} runs (layer {layer} is called {steps} time(s) per "
                                           f"forward)")
                values[layer] = np.empty((len(paths), steps, int(np.prod(batch.shapes[layer][1:]))), np.float32)
        for layer, out in batch.outputs.items():
            values[layer][batch.start: batch.start + len(out)] = out.reshape(len(out), values[layer].shape[1], -1)
    shapes = batch.shapes
    with contextlib.ExitStack() as stack:
        for layer, path in destinations.items():
            steps = values[layer].shape[1]
            coords = {"stimulus_id": ("presentation", stimulus_ids),
                      **_neuroid_coords(model.identifier, layer, shapes[layer][1:]),
                      STEP_COORD: (TIME_DIM, np.arange(steps))}
            array = xr.DataArray(values[layer].transpose(0, 2, 1), dims=("presentation", "neuroid", TIME_DIM),
                                 coords=coords, name=f"{model.identifier}.{layer}",
                                 attrs={"model": model.identifier, "layer": layer, "temporal": 1})
            write_netcdf(array, stack.enter_context(atomic_path(path)))
