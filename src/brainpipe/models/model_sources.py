"""Where a model comes from: a ``model_zoo`` entry becomes a network (or a BrainModel object), checked and
fingerprinted.

``architecture`` selects the source:

* ``pixels`` — Brain-Score's raw-pixel baseline;
* a torchvision name (``alexnet``, ``resnet50``) — ``weights``: a torchvision weights name (e.g. IMAGENET1K_V1),
  loaded from ``$TORCH_HOME/hub/checkpoints`` after checking the sha256 prefix in the file's name;
* ``timm/<name>`` (``timm/convnext_tiny``) — ``weights``: ``default`` (timm's default pretrained tag) or a tag such
  as ``a1_in1k`` (``timm.list_pretrained('<name>.*')``), through timm's own cache;
* your own code: ``package.module:build`` (importable; the working directory is on the path) or
  ``path/to/file.py:build`` (relative to the working directory, the folder holding config/ and results/):
  ``build()`` returns an ``nn.Module``. A class or a callable returning an object with Brain-Score's BrainModel
  interface (``look_at``, ``start_recording``, ``visual_degrees``) instead is run as a BrainModel (see
  :class:`brainpipe.models.brain_model.BrainModelActivations`).
* ``inprocess:<fingerprint>`` — written by :func:`brainpipe.score` for an ``nn.Module`` or BrainModel object that
  lives only in a Python session: its activations are computed in that session and the workflow only reads them;
  the fingerprint (a hash of the network's weights and code, or of the object) keys them. The workflow cannot
  build such a model, so its activations job fails with a message saying to call ``brainpipe.score`` again.

For every network source, ``weights: null`` builds it untrained with ``seed`` (torch.manual_seed before the
build), and ``weights_file: path/to/checkpoint.pt`` (+ ``state_dict_key`` for a checkpoint that nests the state
dict, e.g. ``state_dict``) loads a local state dict strictly. Every error names ``model_zoo.<name>``.
"""

import functools
import hashlib
import importlib
import importlib.util
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path

PIXELS = "pixels"
TIMM_PREFIX = "timm/"
TIMM_DEFAULT_WEIGHTS = "default"
BRAIN_REGIONS = ("V1", "V2", "V4", "IT")  # a BrainModel that declares no ``regions`` attribute may record these


class ModelSourceError(ValueError):
    """A model_zoo entry that cannot be built or loaded; the message starts with ``model_zoo.<name>``."""


class InProcessModelError(ModelSourceError):
    """The workflow was asked to build an in-process model (``inprocess:<fingerprint>``), which only Python can."""


class WeightsUnavailableError(ModelSourceError, RuntimeError):
    """Named pretrained weights that could not be loaded (offline, download failed); says where to put them."""


def where(name):
    return f"model_zoo.{name}" if name else "model"


INPROCESS_PREFIX = "inprocess:"  # a model object of a Python session (brainpipe.score): no code to load


def inprocess_error(architecture, name=None):
    """What a workflow job says when asked to build an in-process model: only the Python session has it."""
    return InProcessModelError(
        f"{where(name)}: {architecture!r} is a model that lived in a Python session (brainpipe.score with an "
        "nn.Module or a BrainModel object); its activations are computed there, and the workflow cannot rebuild "
        "them now that they are missing or out of date (deleted, older than their stimuli, or the activations "
        "code changed). Call brainpipe.score(<your model>, ...) again from Python: it recomputes them and scores.")


def source_kind(architecture):
    """'pixels', 'timm', 'inprocess' (a model in a Python session), 'code' (module:callable or file.py:callable)
    or 'torchvision'."""
    if architecture == PIXELS:
        return "pixels"
    if architecture.startswith(INPROCESS_PREFIX):
        return "inprocess"
    if architecture.startswith(TIMM_PREFIX):
        return "timm"
    if ":" in architecture:
        return "code"
    return "torchvision"


# --- your own code --------------------------------------------------------------------------------------------

def _split_target(architecture, name):
    target, _, attribute = architecture.rpartition(":")
    if not target or not attribute.isidentifier():
        raise ModelSourceError(f"{where(name)}.architecture: {architecture!r} should be 'package.module:callable' "
                               "or 'path/to/file.py:callable'")
    return target, attribute


def source_file(architecture, base_dir=".", name=None):
    """The .py file a code source's callable is defined in (a file target, or the module's origin)."""
    target, _ = _split_target(architecture, name)
    if target.endswith(".py"):
        path = Path(base_dir, target)
        if not path.is_file():
            raise ModelSourceError(f"{where(name)}.architecture: no file {path.resolve()} (a .py path is relative "
                                   f"to the working directory {Path(base_dir).resolve()})")
        return path
    module = _import_module(target, base_dir, name)
    origin = getattr(module, "__file__", None)
    if origin is None:
        raise ModelSourceError(f"{where(name)}.architecture: module {target!r} has no source file to fingerprint")
    return Path(origin)


def _import_failure(name, what, error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "importlib" not in f.filename]
    at = f" ({frames[-1].filename}, line {frames[-1].lineno})" if frames else ""
    return ModelSourceError(f"{where(name)}.architecture: importing {what} failed: "
                            f"{type(error).__name__}: {error}{at}. Fix the module, or the architecture entry.")


def _import_module(target, base_dir, name):
    base = str(Path(base_dir).resolve())
    if base not in sys.path:  # so `mypackage.models` under the working directory imports, also inside jobs
        sys.path.insert(0, base)
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as error:
        if error.name and (target == error.name or target.startswith(error.name + ".")):
            raise ModelSourceError(
                f"{where(name)}.architecture: no module {error.name!r} (importing {target!r}). Install it, put it "
                f"under the working directory {base}, or name a file: 'path/to/file.py:callable'") from None
        raise _import_failure(name, f"module {target!r}", error) from None
    except Exception as error:  # a user's module may raise anything while importing
        raise _import_failure(name, f"module {target!r}", error) from None


def _import_file(path, name):
    path = path.resolve()
    module_name = f"_brainpipe_model_{hashlib.sha1(str(path).encode()).hexdigest()[:12]}_{path.stem}"
    digest = hashlib.sha1(path.read_bytes()).hexdigest()
    cached = sys.modules.get(module_name)
    if cached is not None and getattr(cached, "__brainpipe_sha1__", None) == digest:
        return cached
    if str(path.parent) not in sys.path:  # the file may import its neighbours
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    module.__brainpipe_sha1__ = digest
    sys.modules[module_name] = module  # registered first: pickling and dataclasses look classes up here
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise _import_failure(name, str(path), error) from None
    return module


def load_callable(architecture, base_dir=".", name=None):
    """The object a code source names (not called yet)."""
    target, attribute = _split_target(architecture, name)
    if target.endswith(".py"):
        module = _import_file(source_file(architecture, base_dir, name), name)
    else:
        module = _import_module(target, base_dir, name)
    try:
        found = getattr(module, attribute)
    except AttributeError:
        public = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_"))
        raise ModelSourceError(f"{where(name)}.architecture: {target} has no {attribute!r}; its callables: "
                               f"{public}") from None
    if not callable(found):
        raise ModelSourceError(f"{where(name)}.architecture: {target}:{attribute} is a {type(found).__name__}, "
                               "not a callable returning an nn.Module or a BrainModel")
    return found


def is_brain_model(obj):
    """Brain-Score's BrainModel interface (brain-score/vision brainscore_vision/model_interface.py): the methods
    brainpipe calls. A torch module is never one, even if it happens to define them."""
    import torch

    if isinstance(obj, torch.nn.Module) or (isinstance(obj, type) and issubclass(obj, torch.nn.Module)):
        return False
    return all(callable(getattr(obj, method, None)) for method in ("look_at", "start_recording", "visual_degrees"))


def code_target_is_brain_model_class(architecture, base_dir=".", name=None):
    """A code source naming a BrainModel class: recognised without instantiating it."""
    found = load_callable(architecture, base_dir, name)
    return isinstance(found, type) and is_brain_model(found)


def brain_model_regions(obj):
    """Regions a BrainModel (object or class) can record: its ``regions`` attribute, else Brain-Score's four."""
    regions = getattr(obj, "regions", None)
    if regions is None or callable(regions):
        return BRAIN_REGIONS
    return tuple(regions)


def call_code(architecture, base_dir=".", name=None, seed=0, meta=False):
    """Call a code source's callable with the seed set: an nn.Module, or an object with BrainModel's interface.
    ``meta``: build on the meta device (parse-time checks), or on the CPU if the code cannot run on meta tensors."""
    import torch

    found = load_callable(architecture, base_dir, name)

    def call():
        torch.manual_seed(seed)  # an untrained user network is seeded like the library's ones
        return found()

    try:
        if meta:
            try:
                with torch.device("meta"):
                    result = call()
            except Exception:  # e.g. an __init__ that reads a tensor's value: build it for real
                result = call()
        else:
            result = call()
    except Exception as error:
        raise ModelSourceError(f"{where(name)}.architecture: calling {architecture}() failed: "
                               f"{type(error).__name__}: {error}") from None
    if not isinstance(result, torch.nn.Module) and not is_brain_model(result):
        raise ModelSourceError(
            f"{where(name)}.architecture: {architecture}() returned {type(result).__module__}."
            f"{type(result).__qualname__}, not a torch.nn.Module (nor an object with BrainModel's look_at, "
            "start_recording and visual_degrees). Return the network itself, e.g. `return MyNet()`.")
    return result


# --- networks ---------------------------------------------------------------------------------------------------

def _timm(name):
    from ._torchvision import import_torchvision

    import_torchvision()  # timm imports torchvision: import it through the CPU-build workaround first
    import timm

    return timm


def _torchvision_builder(architecture, name):
    from ._torchvision import import_torchvision

    torchvision = import_torchvision()
    try:
        return torchvision, torchvision.models.get_model_builder(architecture)
    except ValueError:
        import difflib

        close = difflib.get_close_matches(architecture, torchvision.models.list_models(), n=3)
        raise ModelSourceError(
            f"{where(name)}.architecture: unknown architecture {architecture!r} (not pixels, a torchvision model, "
            f"'timm/<name>' or 'module:callable'){'; did you mean ' + ', '.join(close) + '?' if close else ''} "
            "torchvision's names: torchvision.models.list_models()") from None


def torchvision_weights(architecture, weights, name=None):
    """The torchvision weights enum member a name denotes; ModelSourceError listing the valid names."""
    torchvision, _ = _torchvision_builder(architecture, name)
    members = torchvision.models.get_model_weights(architecture)
    try:
        return members[weights]
    except KeyError:
        raise ModelSourceError(f"{where(name)}.weights: {architecture} has no weights {weights!r}; known: "
                               f"{[w.name for w in members]} (or null for an untrained network)") from None


def check_timm_weights(architecture, weights, name=None):
    timm = _timm(name)
    model_name = architecture[len(TIMM_PREFIX):]
    tags = timm.list_pretrained(f"{model_name}.*")
    if weights == TIMM_DEFAULT_WEIGHTS and tags:
        return
    if f"{model_name}.{weights}" not in tags:
        known = [TIMM_DEFAULT_WEIGHTS] + [t.split(".", 1)[1] for t in tags] if tags else []
        raise ModelSourceError(f"{where(name)}.weights: timm has no pretrained weights {weights!r} for "
                               f"{model_name}; known: {known or 'none (use null for an untrained network)'}")


def build_network(spec, name=None, base_dir=".", meta=False):
    """The untrained network of a network source (no weights loaded); ``meta``: parameters on the meta device
    (no memory, no initialisation cost), enough to read layer names and parameter shapes."""
    import contextlib

    import torch

    architecture = spec["architecture"]
    kind = source_kind(architecture)
    seed = spec.get("seed", 0)
    if kind == "torchvision":
        _, builder = _torchvision_builder(architecture, name)
    if kind == "code":
        network = call_code(architecture, base_dir, name, seed, meta)
        if not isinstance(network, torch.nn.Module):
            raise ModelSourceError(f"{where(name)}.architecture: {architecture} is a BrainModel, not a network")
        return network.eval()
    context = torch.device("meta") if meta else contextlib.nullcontext()
    torch.manual_seed(seed)  # untrained: the seed fixes the random initialisation
    with context:
        if kind == "torchvision":
            network = builder(weights=None)
        elif kind == "timm":
            timm = _timm(name)
            model_name = architecture[len(TIMM_PREFIX):]
            if not timm.is_model(model_name):
                import difflib

                close = difflib.get_close_matches(model_name, timm.list_models(), n=3)
                raise ModelSourceError(f"{where(name)}.architecture: timm has no model {model_name!r}"
                                       f"{'; did you mean ' + ', '.join(close) + '?' if close else ''} "
                                       "(timm.list_models() lists them)")
            network = timm.create_model(model_name, pretrained=False)
        else:
            raise ModelSourceError(f"{where(name)}: {architecture!r} is not a network source")
    return network.eval()


def network_layers(network):
    return tuple(n for n, _ in network.named_modules() if n)


def network_leaf_layers(network):
    """Layers of ``sweep: all``: every leaf module except dropout, in definition order."""
    return tuple(n for n, m in network.named_modules()
                 if n and not list(m.children()) and "Dropout" not in type(m).__name__)


def meta_or_cpu_network(spec, name=None, base_dir="."):
    """The untrained network on the meta device, or built on the CPU when its code cannot run on meta tensors."""
    try:
        return build_network(spec, name, base_dir, meta=True)
    except ModelSourceError:
        raise
    except Exception:  # e.g. an __init__ that reads a tensor's value: build it for real
        return build_network(spec, name, base_dir, meta=False)


# --- local weights ----------------------------------------------------------------------------------------------

def weights_path(spec, base_dir="."):
    return Path(base_dir, spec["weights_file"]) if spec.get("weights_file") else None


def read_state_dict(path, state_dict_key=None, name=None, mmap=False):
    """The state dict in a checkpoint file (``torch.load(weights_only=True)``: no code from the file runs)."""
    import pickle

    import torch

    label = f"{where(name)}.weights_file"
    if not path.is_file():
        raise ModelSourceError(f"{label}: no file {path.resolve()} (relative to the working directory)")
    if path.stat().st_size == 0:
        raise ModelSourceError(f"{label}: {path} is empty. Save the weights again with "
                               "torch.save(model.state_dict(), path)")
    try:
        try:
            checkpoint = torch.load(path, map_location="cpu", weights_only=True, mmap=mmap)
        except RuntimeError as error:
            if not mmap or "mmap" not in str(error):
                raise
            checkpoint = torch.load(path, map_location="cpu", weights_only=True)  # legacy (non-zip) format
    except (pickle.UnpicklingError, RuntimeError, EOFError, ValueError, OSError) as error:
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise ModelSourceError(
            f"{label}: {path} is not a state dict torch.load can read with weights_only=True ({first}). Save the "
            "weights with torch.save(model.state_dict(), path) (not the whole model object, and not a corrupt "
            "or partial file).") from None
    if state_dict_key:
        if not isinstance(checkpoint, Mapping) or state_dict_key not in checkpoint:
            keys = sorted(map(str, checkpoint)) if isinstance(checkpoint, Mapping) else type(checkpoint).__name__
            raise ModelSourceError(f"{where(name)}.state_dict_key: {path} has no key {state_dict_key!r}; "
                                   f"its top-level keys: {keys}")
        checkpoint = checkpoint[state_dict_key]
    if not isinstance(checkpoint, Mapping) or not all(isinstance(v, torch.Tensor) for v in checkpoint.values()):
        hint = ""
        if isinstance(checkpoint, Mapping):
            nested = [str(k) for k, v in checkpoint.items()
                      if isinstance(v, Mapping) and v and all(isinstance(t, torch.Tensor) for t in v.values())]
            hint = (f"; it holds {sorted(map(str, checkpoint))[:12]}"
                    + (f": set state_dict_key: {nested[0]}" if nested and not state_dict_key else ""))
        raise ModelSourceError(f"{label}: {path}{' [' + repr(state_dict_key) + ']' if state_dict_key else ''} is "
                               f"not a state dict (a mapping of parameter names to tensors){hint}")
    return checkpoint


def state_dict_mismatch(network, state_dict):
    """(missing, unexpected, shape mismatches) of loading ``state_dict`` strictly into ``network``."""
    expected = network.state_dict()
    missing = [k for k in expected if k not in state_dict]
    unexpected = [k for k in state_dict if k not in expected]
    shapes = [(k, tuple(state_dict[k].shape), tuple(expected[k].shape)) for k in expected
              if k in state_dict and tuple(state_dict[k].shape) != tuple(expected[k].shape)]
    return missing, unexpected, shapes


def check_state_dict(network, state_dict, path, name=None):
    missing, unexpected, shapes = state_dict_mismatch(network, state_dict)
    if not (missing or unexpected or shapes):
        return

    def listed(keys):
        return f"{keys[:8]}{f' … ({len(keys)} in all)' if len(keys) > 8 else ''}"

    parts = []
    if missing:
        parts.append(f"missing keys {listed(missing)}")
    if unexpected:
        parts.append(f"unexpected keys {listed(unexpected)}")
    if shapes:
        parts.append("shape mismatches " + listed([f"{k}: file {a}, model {b}" for k, a, b in shapes]))
    hint = ""
    prefixes = {k.split(".", 1)[0] + "." for k in unexpected if "." in k}
    if len(prefixes) == 1 and [k.split(".", 1)[1] for k in unexpected] == missing:
        hint = f" Every key carries the prefix {prefixes.pop()!r} (a wrapper's, e.g. DataParallel): save the inner model's state_dict()."
    raise ModelSourceError(f"{where(name)}.weights_file: {path} does not match the architecture "
                           f"{network.__class__.__name__}: {'; '.join(parts)}.{hint} Check architecture and "
                           "state_dict_key, or save the weights of this architecture.")


# --- the network with its weights ---------------------------------------------------------------------------------

def load_network(spec, name=None, base_dir="."):
    """The network of a network source, with its weights (pretrained, local file) or untrained and seeded."""
    architecture = spec["architecture"]
    kind = source_kind(architecture)
    weights, weights_file = spec.get("weights"), spec.get("weights_file")
    if weights is not None and weights_file:
        raise ModelSourceError(f"{where(name)}: give weights or weights_file, not both")
    if kind == "torchvision" and weights is not None:
        return load_torchvision_pretrained(architecture, weights, name)
    if kind == "timm" and weights is not None:
        return load_timm_pretrained(architecture, weights, name)
    if kind == "code" and weights is not None:
        raise ModelSourceError(f"{where(name)}.weights: your own code loads no named weights; use weights_file")
    if kind == "inprocess":
        raise inprocess_error(architecture, name)
    if weights_file and kind != "code":
        # Built on the meta device and given the file's tensors: no random initialisation that the file would
        # overwrite at once (0.3 s for alexnet), no second copy of the weights. Where that cannot give the same
        # network (see _adopt_state_dict), it is built for real and loaded as before.
        network = meta_or_cpu_network(spec, name, base_dir)
        if any(tensor.is_meta for tensor in _tensors(network)):
            path = weights_path(spec, base_dir)
            state_dict = read_state_dict(path, spec.get("state_dict_key"), name)
            check_state_dict(network, state_dict, path, name)
            if _adopt_state_dict(network, state_dict):
                return network.eval()
            network = build_network(spec, name, base_dir)
            return _load_state_dict(network, state_dict)
        return load_weights_file(network, spec, name, base_dir)
    return load_weights_file(build_network(spec, name, base_dir), spec, name, base_dir)


def _tensors(network):
    return [*network.parameters(), *network.buffers()]


def _adopt_state_dict(network, state_dict):
    """Load ``state_dict`` into a network built on the meta device by taking its tensors over
    (``load_state_dict(assign=True)``); True if the network is then the one copying into a real build gives.

    It is not (False; the network is then unusable) where copying would change a tensor: a dtype other than the
    parameter's (copy_ converts), a non-contiguous or non-CPU tensor (copy_ keeps the parameter's layout), or a
    buffer that the state dict does not hold (made in __init__, e.g. a non-persistent one, left on meta).
    """
    import torch

    expected = network.state_dict()
    for key, target in expected.items():
        value = state_dict[key]
        if (value.dtype != target.dtype or not value.is_contiguous() or value.storage_offset() != 0
                or value.device.type != "cpu"):
            return False
    with torch.no_grad():
        network.load_state_dict(state_dict, strict=True, assign=True)
    return not any(tensor.is_meta for tensor in _tensors(network))


def load_weights_file(network, spec, name=None, base_dir="."):
    """Load the entry's ``weights_file`` (if any) into ``network`` strictly; a mismatch names every key."""
    if not spec.get("weights_file"):
        return network.eval()
    import torch

    path = weights_path(spec, base_dir)
    state_dict = read_state_dict(path, spec.get("state_dict_key"), name)
    check_state_dict(network, state_dict, path, name)
    return _load_state_dict(network, state_dict)


def _load_state_dict(network, state_dict):
    import torch

    with torch.no_grad():
        network.load_state_dict(state_dict, strict=True)
    return network.eval()


def load_torchvision_pretrained(architecture, weights, name=None):
    from ._torchvision import cached_weights_file, verify_cached_weights

    members = torchvision_weights(architecture, weights, name)
    _, builder = _torchvision_builder(architecture, name)
    try:
        verify_cached_weights(members)  # a cached file must be the named weights (torch.hub checks downloads only)
    except ValueError as error:
        raise ModelSourceError(f"{where(name)}.weights: {error}") from None
    try:
        return builder(weights=members).eval()
    except (OSError, RuntimeError) as error:  # URLError is an OSError; an unreadable file a RuntimeError
        raise WeightsUnavailableError(
            f"{where(name)}.weights: could not load {architecture} weights {weights}: {error}. Offline? Download "
            f"{members.url} on a machine with a network and place it at {cached_weights_file(members)} (torchvision "
            "reads $TORCH_HOME/hub/checkpoints/).") from None


def load_timm_pretrained(architecture, weights, name=None):
    check_timm_weights(architecture, weights, name)
    timm = _timm(name)
    model_name = architecture[len(TIMM_PREFIX):]
    tagged = model_name if weights == TIMM_DEFAULT_WEIGHTS else f"{model_name}.{weights}"
    try:
        return timm.create_model(tagged, pretrained=True).eval()
    except Exception as error:  # huggingface_hub raises its own types for offline / missing files
        raise WeightsUnavailableError(
            f"{where(name)}.weights: could not load timm weights {tagged}: {type(error).__name__}: {error}. "
            "Offline? Run timm.create_model(..., pretrained=True) once on a machine with a network and copy its "
            "cache ($HF_HOME, default ~/.cache/huggingface) here.") from None


# --- fingerprints (rule params) -----------------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _file_digest(path, size, mtime_ns, algorithm):
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


#: where digests are kept between processes (an object with ``get(question, *parts)`` and ``put(question, answer,
#: *parts, write=False)``, e.g. brainpipe.pipeline.parse_cache), or None: see :func:`keep_digests_in`
_DIGEST_STORE = None


def keep_digests_in(store) -> None:
    """Keep file digests in ``store`` across processes (the workflow passes its per-user parse cache), keyed by path,
    size and modification time as make and git's index do: a weights file of a few GB is then hashed once, not at
    every ``snakemake`` start. ``None``: only within the process."""
    global _DIGEST_STORE
    _DIGEST_STORE = store


def file_digest(path, algorithm="sha256"):
    """Hex digest of a file, cached per (path, size, mtime): a rule param computed once per workflow parse (and once
    per file version where :func:`keep_digests_in` gave a store)."""
    stat = Path(path).stat()
    key = (str(Path(path).resolve()), stat.st_size, stat.st_mtime_ns, algorithm)
    if _DIGEST_STORE is not None:
        stored = _DIGEST_STORE.get("file_digest", *key)
        if stored is not None:
            return stored
    digest = _file_digest(*key)
    if _DIGEST_STORE is not None:
        _DIGEST_STORE.put("file_digest", digest, *key, write=False)
    return digest


def source_sha1(spec, base_dir=".", name=None):
    """sha1 of the .py file your own model is defined in (None for other sources): as the activations rule's
    param, editing that file reruns the model's activations and everything downstream. Files it imports are not
    covered."""
    if source_kind(spec["architecture"]) != "code":
        return None
    return file_digest(source_file(spec["architecture"], base_dir, name), "sha1")


def weights_sha256(spec, base_dir=".", name=None):
    """sha256 of ``weights_file`` (None without one): a rule param and the provenance of the weights."""
    path = weights_path(spec, base_dir)
    if path is None:
        return None
    if not path.is_file():
        raise ModelSourceError(f"{where(name)}.weights_file: no file {path.resolve()} (relative to the working "
                               "directory)")
    return file_digest(path, "sha256")


def model_definition(spec):
    """What the activations of a model_zoo entry depend on, defaults filled in (the activations rule's param: equal
    definitions give equal cache keys, so writing out a default reruns nothing). Layers are not part of it."""
    from .preprocessing import ImagePreprocessing

    kind = source_kind(spec["architecture"])
    return {
        "architecture": spec["architecture"],
        "weights": spec.get("weights"),
        "seed": int(spec.get("seed", 0)),
        "weights_file": spec.get("weights_file"),
        "state_dict_key": spec.get("state_dict_key"),
        "visual_degrees": float(spec.get("visual_degrees", 8)),
        # a BrainModel reads its own images; its entry has no preprocessing (checked), so this stays the default
        "preprocessing": None if kind == "pixels" else ImagePreprocessing.from_config(spec.get("preprocessing"))
        .resolved(),
    }


def model_provenance(spec, base_dir=".", name=None):
    """The entry as written plus the fingerprints of its own files (for the score JSON): ``source_sha1`` of your own
    model's .py file and ``weights_sha256`` of its weights_file, when it has them."""
    result = dict(spec)
    for key, value in (("source_sha1", source_sha1(spec, base_dir, name)),
                       ("weights_sha256", weights_sha256(spec, base_dir, name))):
        if value is not None:
            result[key] = value
    return result
