"""A model's layers with the shape each one outputs for one image (``brainpipe layers MODEL``), so a user can write
``layers:`` and ``sweep:`` of a model_zoo entry without reading the network's code.

Shapes come from one forward pass of a blank image at the entry's input size (its ``preprocessing.image_size``) on
the meta device: no weights are downloaded or loaded (they never change a shape) and no arithmetic is done. A
network whose code cannot run on meta tensors is run once on the CPU instead.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import model_sources as sources
from .preprocessing import PIXELS_IMAGE_SIZE, ImagePreprocessing


@dataclass(frozen=True)
class Layer:
    name: str
    module: str        # the module's class name ('Conv2d'), or what a BrainModel region is
    shape: tuple | str  # output per image, e.g. (64, 55, 55); a string when the output is not one tensor
    leaf: bool         # one of the layers of ``sweep: all`` (leaf modules except dropout)

    @property
    def units(self):
        """Neuroids the layer gives a benchmark (the flattened output), or None."""
        if not isinstance(self.shape, tuple):
            return None
        count = 1
        for size in self.shape:
            count *= size
        return count


def layer_shapes(identifier, spec, base_dir="."):
    """(input description, [Layer, ...]) of a model_zoo entry, in the network's definition order."""
    architecture = spec["architecture"]
    if architecture == sources.PIXELS:
        shape = (3, PIXELS_IMAGE_SIZE, PIXELS_IMAGE_SIZE)
        return f"raw pixels {_text(shape)}", [Layer(sources.PIXELS, "pixels", shape, True)]
    kind = sources.source_kind(architecture)
    if kind == "inprocess":
        raise sources.inprocess_error(architecture, identifier)
    if kind == "code" and sources.code_target_is_brain_model_class(architecture, base_dir, identifier):
        return "the BrainModel's own image reading", _brain_model_regions(identifier, spec, base_dir)
    try:
        size = ImagePreprocessing.from_config(spec.get("preprocessing"), f"{sources.where(identifier)}.preprocessing"
                                              ).image_size
    except ValueError as error:
        raise sources.ModelSourceError(str(error)) from None
    network = sources.meta_or_cpu_network(spec, identifier, base_dir)
    if sources.is_brain_model(network):  # a code source whose callable (not a class) returns a BrainModel
        return "the BrainModel's own image reading", _brain_model_regions(identifier, spec, base_dir)
    return f"an image {_text((3, size, size))}", _network_layers(network, size)


def _network_layers(network, size):
    import torch

    shapes = {}

    def keep(name):
        def hook(module, inputs, output):
            shapes[name] = _shape(output)  # the last call wins, as the activations hook keeps the last output
        return hook

    named = [(name, module) for name, module in network.named_modules() if name]
    hooks = [module.register_forward_hook(keep(name)) for name, module in named]
    try:
        with torch.no_grad():
            try:
                device = next(iter(network.parameters()), torch.empty(0)).device
                network(torch.zeros((1, 3, size, size), device=device))
            except Exception:
                if device.type != "meta":
                    raise
                shapes.clear()  # an op without a meta kernel: run the blank image for real on the CPU
                network.to_empty(device="cpu")
                network(torch.zeros((1, 3, size, size)))
    finally:
        for hook in hooks:
            hook.remove()
    leaves = set(sources.network_leaf_layers(network))
    return [Layer(name, type(module).__name__, shapes.get(name, "not called in forward"), name in leaves)
            for name, module in named]


def _shape(output):
    import torch

    if isinstance(output, torch.Tensor):
        return tuple(output.shape[1:])
    if isinstance(output, (tuple, list)):
        return f"{type(output).__name__} of {len(output)} (not usable as a layer)"
    return f"{type(output).__name__} (not usable as a layer)"


def _brain_model_regions(identifier, spec, base_dir):
    """A BrainModel's 'layers' are its regions: each recorded for one gray image to learn its neuroid count."""
    from PIL import Image

    from .brain_model import STATIC_TIME_BINS, load_activations_model

    model = load_activations_model(identifier, spec, "cpu", base_dir)
    layers = []
    with tempfile.TemporaryDirectory() as folder:
        image = Path(folder) / "gray.png"
        Image.new("RGB", (PIXELS_IMAGE_SIZE, PIXELS_IMAGE_SIZE), (128, 128, 128)).save(image)
        for region in model.layer_names():
            model.brain_model.start_recording(region, [tuple(b) for b in STATIC_TIME_BINS])
            recorded = model.brain_model.look_at([str(image)])
            layers.append(Layer(region, "region", tuple(getattr(recorded, "shape", ())[1:]), True))
    return layers


def _text(shape):
    return "×".join(str(size) for size in shape) if isinstance(shape, tuple) else shape


def format_layers(identifier, spec, description, layers):
    """The table ``brainpipe layers`` prints: every layer, its module, output shape and units, which regions commit
    to it and whether ``sweep: all`` includes it."""
    committed = {}
    for region, layer in (spec.get("layers") or {}).items():
        committed.setdefault(layer, []).append(region)
    width = max([len("layer")] + [len(layer.name) for layer in layers])
    kinds = max([len("module")] + [len(layer.module) for layer in layers])
    shapes = max([len("output shape")] + [len(_text(layer.shape)) for layer in layers])
    lines = [f"{identifier}: {spec['architecture']}, input {description}; {len(layers)} layer{'s' * (len(layers) != 1)}, output "
             "per image",
             f"  {'layer':<{width}}  {'module':<{kinds}}  {'output shape':<{shapes}}  {'units':>9}  sweep: all  "
             "committed to"]
    for layer in layers:
        units = f"{layer.units:,}" if layer.units is not None else "-"
        lines.append(f"  {layer.name:<{width}}  {layer.module:<{kinds}}  {_text(layer.shape):<{shapes}}  "
                     f"{units:>9}  {'yes' if layer.leaf else '   '}         "
                     f"{', '.join(committed.get(layer.name, []))}".rstrip())
    return "\n".join(lines)
