"""Models: a registry entry (from config) becomes an activations model and a BrainModel.

Registry entries (config ``model_zoo``) look like::

    alexnet: {architecture: alexnet, weights: IMAGENET1K_V1, visual_degrees: 8,
              layers: {V1: features.2, V2: features.7, V4: features.7, IT: features.12}}

``architecture`` names the source (torchvision, ``timm/<name>``, your own ``module:callable`` or
``file.py:callable``, a BrainModel class, or ``pixels``; see :mod:`brainpipe.models.model_sources`), ``weights`` its
pretrained weights or null for an untrained, seeded network, ``weights_file`` a local state dict, and
``preprocessing`` the image transform (:mod:`brainpipe.models.preprocessing`; Brain-Score's by default).

Every source is run through the same activations interface: ``identifier``, ``device``, ``preprocess(path)`` (a
small picklable object, run in decode workers), ``__call__(batch, layers) -> {layer: array (n, ...)}`` and
``layer_names()``. The shape of :class:`BrainModel` follows Brain-Score's interface (brain-score/vision
brainscore_vision/model_interface.py): identifier, visual_degrees(), start_recording(region, time_bins),
look_at(stimuli), so a Python user can score a model in-process and tasks can be added later.
"""

import numpy as np

from . import model_sources as sources
from .devices import resolve_device  # noqa: F401  (re-exported)
from .model_sources import PIXELS, ModelSourceError  # noqa: F401  (re-exported)
from .preprocessing import (IMAGE_SIZE, IMAGENET_MEAN, IMAGENET_STD, PIXELS_IMAGE_SIZE,  # noqa: F401
                            ImagePreprocessing, PathEncoding, PixelsPreprocessing, decode_paths)

# torch is imported inside the functions that run a network: the config checks and the jobs that only read
# this module's constants (PIXELS, resolve_device("cpu")) then start without it (importing torch takes ~2 s).

STATIC_TIME_BINS = ((70, 170),)  # Brain-Score's static benchmarks' window (brain-score/vision majajhong2015)


def load_torchvision(architecture, weights=None, seed=0):
    """Build a torchvision network, with its real pretrained weights (the cached file checked against the hash in
    its name) or untrained and seeded."""
    return sources.load_network({"architecture": architecture, "weights": weights, "seed": seed})


class _ForwardDone(Exception):
    """Raised by the forward hook of the last requested layer to end a forward pass whose rest is not needed."""


class ActivationsModel:
    """Runs images through a network and returns the named layers' outputs (unflattened).

    Either built from its source (``architecture``, ``weights``, ``seed``, ``weights_file``, ...) or wrapping a
    ready ``network`` (an nn.Module, e.g. from a Python session)."""

    def __init__(self, identifier, architecture, weights=None, seed=0, device="cpu", *, weights_file=None,
                 state_dict_key=None, preprocessing=None, base_dir=".", network=None):
        self.identifier = identifier
        self.architecture = architecture
        self.device = resolve_device(device)
        self._stops_early = {}  # requested layers -> whether a forward pass may end once all are captured
        where = sources.where(identifier)
        if architecture == PIXELS:
            if preprocessing:
                raise ModelSourceError(f"{where}.preprocessing: pixels is Brain-Score's fixed 256×256 RGB baseline; "
                                       "remove its preprocessing entry")
            self.network = None
            self.preprocess = PixelsPreprocessing()
            return
        try:
            self.preprocess = ImagePreprocessing.from_config(preprocessing, f"{where}.preprocessing")
        except ValueError as error:
            raise ModelSourceError(str(error)) from None
        if network is None:
            spec = {"architecture": architecture, "weights": weights, "seed": seed, "weights_file": weights_file,
                    "state_dict_key": state_dict_key}
            network = sources.load_network(spec, identifier, base_dir)
        self.network = network.eval().to(self.device)

    @classmethod
    def from_spec(cls, identifier, spec, device="auto", base_dir="."):
        """The activations model of a model_zoo entry; a BrainModel source gives a :class:`BrainModelActivations`."""
        return load_activations_model(identifier, spec, device, base_dir)

    def layer_names(self):
        if self.network is None:
            return [PIXELS]
        return [name for name, _ in self.network.named_modules() if name]

    def __call__(self, batch, layers):
        """batch: array (n, ...) of preprocessed images -> {layer: float32 array (n, *layer output shape)}
        (unflattened, e.g. (n, C, H, W), so the caller knows each unit's channel and position)."""
        if self.network is None:
            return {PIXELS: batch.reshape(len(batch), -1)}
        import torch

        known = dict(self.network.named_modules())
        unknown = [layer for layer in layers if layer not in known]
        if unknown:
            raise ValueError(f"model {self.identifier} has no layer(s) {unknown}; e.g. {list(known)[1:8]}")
        layers = list(dict.fromkeys(layers))
        # Stop the forward pass once every requested layer has its output (e.g. alexnet's classifier is never
        # needed for features.12: 8 % of its forward time). Only once a full pass has shown that each of these
        # layers runs exactly once per forward: a module called twice would otherwise give its first call's output
        # where Brain-Score's hook keeps the last one.
        key = tuple(layers)
        stop_early = self._stops_early.get(key)  # None: not known yet (first batch)
        captured, calls, stopped = {}, dict.fromkeys(layers, 0), []

        def keep(module, inputs, output, layer):
            calls[layer] += 1
            last = stop_early and len(captured) == len(layers) - 1 and layer not in captured
            if last and isinstance(output, torch.Tensor):
                # nothing runs after this hook, so nothing can overwrite the output: no copy needed
                captured[layer] = output.detach()
                stopped.append(layer)
                raise _ForwardDone
            # Copy now, as Brain-Score's hook does (it converts to numpy inside the hook): a later in-place op
            # (e.g. ReLU(inplace=True) after a BatchNorm) would otherwise overwrite the captured values.
            captured[layer] = output.detach().clone() if isinstance(output, torch.Tensor) else output

        hooks = [known[layer].register_forward_hook(
            lambda module, inputs, output, layer=layer: keep(module, inputs, output, layer)) for layer in layers]
        finished = False
        try:
            with torch.no_grad():
                self.network(torch.as_tensor(batch).to(self.device))
            finished = True
        except _ForwardDone:
            pass
        finally:
            for hook in hooks:
                hook.remove()
        if finished and stopped:  # the network caught _ForwardDone and went on: redo the batch without stopping
            self._stops_early[key] = False
            return self(batch, layers)
        if stop_early is None:
            self._stops_early[key] = all(count == 1 for count in calls.values())
        missing = [layer for layer in layers if not isinstance(captured.get(layer), torch.Tensor)]
        if missing:
            raise ValueError(f"model {self.identifier}: layer(s) {missing} produced no single tensor output (not "
                             "called in forward, or returning a tuple); choose a module that returns a tensor")
        return {layer: captured[layer].float().cpu().numpy() for layer in layers}


class BrainModelActivations:
    """A BrainModel that is not a torch network, run through the activations stage.

    Its "layers" are the regions it records: layer ``IT`` is what ``start_recording('IT', [(70, 170)])`` then
    ``look_at(paths)`` returns for a batch of stimulus paths, a (presentation, neuroid) array or DataArray (a single
    time bin may be a third dimension). The decode workers only pass the file paths along (:class:`PathEncoding`):
    the BrainModel reads and transforms the images itself, as in Brain-Score. Its ``visual_degrees()`` must equal
    the entry's ``visual_degrees`` (default 8), which decides how the stimuli are placed on its screen.
    """

    device = "cpu"  # whatever the model runs on, the batches handed to it stay on the host

    def __init__(self, identifier, brain_model, visual_degrees=None):
        self.identifier = identifier
        self.brain_model = brain_model
        self.preprocess = PathEncoding()
        if visual_degrees is not None:
            own = brain_model.visual_degrees()
            if float(own) != float(visual_degrees):
                raise ModelSourceError(
                    f"{sources.where(identifier)}.visual_degrees: the BrainModel says visual_degrees() = {own}, the "
                    f"config {visual_degrees}: set model_zoo.{identifier}.visual_degrees: {own} so the stimuli are "
                    "placed on its screen at the size it expects")

    def layer_names(self):
        return list(sources.brain_model_regions(self.brain_model))

    def __call__(self, batch, layers):
        paths = decode_paths(batch)
        outputs = {}
        for region in layers:
            self.brain_model.start_recording(region, [tuple(b) for b in STATIC_TIME_BINS])
            recorded = self.brain_model.look_at(paths)
            outputs[region] = _presentation_by_neuroid(recorded, len(paths), self.identifier, region)
        return outputs


def _presentation_by_neuroid(recorded, n, identifier, region):
    """A BrainModel's recording as a float32 (presentation, neuroid) array, checked."""
    dims = getattr(recorded, "dims", None)
    if dims is not None:  # an xarray DataArray (Brain-Score's NeuroidAssembly is one)
        if "time_bin" in dims:
            if recorded.sizes["time_bin"] != 1:
                raise ValueError(f"model {identifier} region {region}: look_at returned "
                                 f"{recorded.sizes['time_bin']} time bins; static benchmarks need one (70-170 ms)")
            recorded = recorded.squeeze("time_bin", drop=True)
        if set(recorded.dims) == {"presentation", "neuroid"}:
            recorded = recorded.transpose("presentation", "neuroid")
    values = np.asarray(recorded, dtype=np.float32)
    if values.ndim == 3 and values.shape[2] == 1:
        values = values[:, :, 0]
    if values.ndim != 2 or values.shape[0] != n:
        raise ValueError(f"model {identifier} region {region}: look_at returned shape {values.shape} for {n} "
                         "stimuli; expected (presentation, neuroid), one row per stimulus in the order given")
    return values


def _is_default_preprocessing(key, value):
    """True for the workflow's resolved default preprocessing: the activations rule passes every code source's
    definition with defaults filled in (model_sources.model_definition: whether the code builds a network or a
    BrainModel is known only once it runs), so only a preprocessing the user changed is refused."""
    from .preprocessing import ImagePreprocessing

    return key == "preprocessing" and value == ImagePreprocessing.from_config(None).resolved()


def load_activations_model(identifier, spec, device="auto", base_dir="."):
    """The activations model of a model_zoo entry (any source); errors name ``model_zoo.<identifier>``."""
    architecture = spec["architecture"]
    if sources.source_kind(architecture) == "inprocess":
        raise sources.inprocess_error(architecture, identifier)
    if sources.source_kind(architecture) == "code":
        built = sources.call_code(architecture, base_dir, identifier, spec.get("seed", 0))
        if sources.is_brain_model(built):
            for key in ("weights", "weights_file", "state_dict_key", "preprocessing"):
                if spec.get(key) is not None and not _is_default_preprocessing(key, spec[key]):
                    raise ModelSourceError(f"{sources.where(identifier)}.{key}: a BrainModel loads its own weights "
                                           "and reads its own images; remove this key")
            return BrainModelActivations(identifier, built, spec.get("visual_degrees", 8))
        if spec.get("weights") is not None:
            raise ModelSourceError(f"{sources.where(identifier)}.weights: your own code loads no named weights; "
                                   "use weights_file (a state dict) or null")
        network = sources.load_weights_file(built, spec, identifier, base_dir)
        return ActivationsModel(identifier, architecture, None, spec.get("seed", 0), device,
                                preprocessing=spec.get("preprocessing"), network=network)
    return ActivationsModel(identifier, architecture, spec.get("weights"), spec.get("seed", 0), device,
                            weights_file=spec.get("weights_file"), state_dict_key=spec.get("state_dict_key"),
                            preprocessing=spec.get("preprocessing"), base_dir=base_dir)


class BrainModel:
    """A model as an experimental subject: Brain-Score's interface, for in-process use.

    >>> model = BrainModel.from_spec("alexnet", spec)       # spec: a model_zoo entry
    >>> model.start_recording("IT", [(70, 170)])
    >>> assembly = model.look_at(stimuli_folder, source_visual_degrees=10)  # (presentation, neuroid) DataArray
    """

    def __init__(self, activations_model, visual_degrees, region_layers, batch_size=64, stimulus_degrees=None):
        self.activations_model = activations_model
        self._visual_degrees = visual_degrees
        self.region_layers = dict(region_layers)
        self.batch_size = batch_size
        self.stimulus_degrees = dict(stimulus_degrees or {})  # stimulus set name -> degrees its images span
        self.recording = None

    @classmethod
    def from_spec(cls, identifier, spec, device="auto", batch_size=64, base_dir=".", stimulus_degrees=None):
        """Any model_zoo entry as a BrainModel; for a BrainModel source, its layers are its regions.
        ``stimulus_degrees``: {stimulus set name: the visual degrees its images span} (the benchmarks'), with which
        :meth:`look_at` places a stimulus folder of that name on the model's screen."""
        model = load_activations_model(identifier, spec, device, base_dir)
        return cls(model, spec.get("visual_degrees", 8), spec.get("layers", {}), batch_size, stimulus_degrees)

    @property
    def identifier(self):
        return self.activations_model.identifier

    def visual_degrees(self):
        return self._visual_degrees

    def start_recording(self, region, time_bins=STATIC_TIME_BINS):
        if region not in self.region_layers:
            raise ValueError(f"model {self.identifier} has no layer committed to region {region!r}; "
                             f"its map: {self.region_layers}")
        self.recording = (region, list(time_bins))

    def look_at(self, stimuli_folder, progress=None, source_visual_degrees=None):
        """Record the committed layer's activations to a stimulus folder, shown on the model's screen.

        The images are first placed at the model's visual angle (Brain-Score's place_on_screen, the workflow's
        place_on_screen stage: from the degrees they span to ``visual_degrees()``), so the result equals the
        workflow's activations file. The degrees they span: ``source_visual_degrees`` if given (a benchmark's
        ``visual_degrees``), else the folder's ``degrees`` column (a placed copy says where it was placed), else
        those of the benchmarks that show a stimulus set of the folder's name (``stimulus_degrees``)."""
        import tempfile

        from ..data.screen import place_on_screen
        from .activations import extract

        if self.recording is None:
            raise RuntimeError("call start_recording(region, time_bins) before look_at")
        region, time_bins = self.recording
        layer = self.region_layers[region]
        source = self._degrees_of(stimuli_folder, source_visual_degrees)
        with tempfile.TemporaryDirectory(prefix="brainpipe-on-screen-") as placed:
            if source != float(self._visual_degrees):  # the workflow reads the original set when they are equal
                place_on_screen(stimuli_folder, placed, float(self._visual_degrees), source)
                stimuli_folder = placed
            assembly = extract(self.activations_model, stimuli_folder, [layer], self.batch_size, progress)[layer]
        if len(time_bins) == 1:  # a static model's output holds for the one requested bin (TemporalAligned)
            assembly = assembly.assign_coords(time_bin_start=time_bins[0][0], time_bin_end=time_bins[0][1])
        return assembly

    def _degrees_of(self, stimuli_folder, given):
        from pathlib import Path

        from ..data.stimuli import read_stimulus_set

        if given is not None:
            return float(given)
        table = read_stimulus_set(stimuli_folder, check_files=False)
        if "degrees" in table.columns and table["degrees"].nunique() == 1:
            return float(table["degrees"].iloc[0])
        name = Path(stimuli_folder).resolve().name
        if name in self.stimulus_degrees:
            return float(self.stimulus_degrees[name])
        raise ValueError(f"look_at({str(stimuli_folder)!r}): the visual degrees its images span are unknown (its "
                         f"stimuli.csv has no degrees column, and no benchmark of the config shows a stimulus set "
                         f"{name!r} at one size); pass source_visual_degrees=, e.g. "
                         f"brainpipe.load_benchmark('<its benchmark>').visual_degrees, so the images are placed on "
                         f"the model's {self._visual_degrees:g}° screen as the workflow places them")
