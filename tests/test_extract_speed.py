"""The faster extraction path against the former computation, bit for bit: NetCDF layers not pre-filled, the
forward pass ended at the last requested layer, weights_file networks built on the meta device, decode workers
stacking into shared memory, normalisation by a per-level table. The reference below is the code as it was
(real build + load_state_dict, float normalisation, np.stack, a full forward with copying hooks as Brain-Score's
brain-score/vision model_helpers/activations/pytorch.py, write_netcdf of the whole DataArray)."""

import io

import numpy as np
import pytest
import torch
import torch.utils.data
import xarray as xr

from brainpipe.models import model_sources
from brainpipe.models._torchvision import import_torchvision
from brainpipe.models.activations import _collate, _neuroid_coords, extract, extract_to_folder
from brainpipe.io import write_netcdf
from brainpipe.models.brain_model import ActivationsModel, load_activations_model
from brainpipe.models.preprocessing import ImagePreprocessing
from brainpipe.data.stimuli import load_image, read_stimulus_set

LAYERS = ["features.12", "features.7", "features.1"]  # features.1: ReLU(inplace) output, needs its copy


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory):
    torch.manual_seed(3)
    path = tmp_path_factory.mktemp("weights") / "alexnet.pth"
    torch.save(import_torchvision().models.alexnet(weights=None).state_dict(), path)
    return path


def old_preprocess(path, mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225), size=224):
    image = load_image(path).resize((size, size), resample=2)
    array = np.asarray(image, dtype=np.float32) / np.float32(255.0)
    array = (array - np.array(mean, np.float32)) / np.array(std, np.float32)
    return array.transpose(2, 0, 1)


def old_network(weights_file):
    network = import_torchvision().models.alexnet(weights=None)
    network.load_state_dict(torch.load(weights_file, weights_only=True), strict=True)
    return network.eval()


def old_forward(network, batch, layers):
    modules, captured = dict(network.named_modules()), {}
    hooks = [modules[layer].register_forward_hook(
        lambda m, i, o, layer=layer: captured.__setitem__(layer, o.detach().clone())) for layer in layers]
    try:
        with torch.no_grad():
            network(torch.as_tensor(batch))
    finally:
        for hook in hooks:
            hook.remove()
    return {layer: captured[layer].numpy() for layer in layers}


def old_extract(network, demo_stimuli, layers, identifier, batch_size):
    table = read_stimulus_set(demo_stimuli)
    paths, outputs, shapes = table["path"].tolist(), {layer: [] for layer in layers}, {}
    for start in range(0, len(paths), batch_size):
        batch = np.stack([old_preprocess(path) for path in paths[start: start + batch_size]])
        for layer, values in old_forward(network, batch, layers).items():
            shapes[layer] = values.shape[1:]
            outputs[layer].append(values.reshape(len(values), -1))
    return {layer: xr.DataArray(
        np.concatenate(outputs[layer]), dims=("presentation", "neuroid"),
        coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy()),
                **_neuroid_coords(identifier, layer, shapes[layer])},
        name=f"{identifier}.{layer}", attrs={"model": identifier, "layer": layer}) for layer in layers}


@pytest.mark.parametrize("workers", [0, 2])
def test_files_bit_identical_to_the_former_computation(demo_stimuli, weights_file, tmp_path, workers):
    spec = {"architecture": "alexnet", "weights": None, "weights_file": str(weights_file)}
    model = load_activations_model("net", spec, "cpu")
    assert any(p.data_ptr() for p in model.network.parameters())  # real tensors, not meta
    extract_to_folder(model, demo_stimuli, LAYERS, tmp_path / "new", batch_size=4, num_workers=workers,
                      progress=io.StringIO())
    assert model._stops_early[tuple(LAYERS)] is True  # batches after the first ended at features.12
    reference = old_extract(old_network(weights_file), demo_stimuli, LAYERS, "net", batch_size=4)
    for layer in LAYERS:
        write_netcdf(reference[layer], tmp_path / f"old-{layer}.nc")
        with xr.open_dataarray(tmp_path / "new" / f"{layer}.nc") as new, \
                xr.open_dataarray(tmp_path / f"old-{layer}.nc") as old:
            new, old = new.load(), old.load()
            np.testing.assert_array_equal(new.values.view(np.uint32), old.values.view(np.uint32))
            assert new.identical(old)
            assert np.isnan(new.encoding["_FillValue"]) and np.isnan(old.encoding["_FillValue"])


def test_network_from_meta_build_equals_copy_into_real_build(weights_file, tmp_path):
    spec = {"architecture": "alexnet", "weights": None, "weights_file": str(weights_file)}
    adopted, copied = model_sources.load_network(spec), old_network(weights_file)
    for (name, a), (_, b) in zip(adopted.state_dict().items(), copied.state_dict().items()):
        assert a.dtype == b.dtype and a.is_contiguous() and not a.is_meta and torch.equal(a, b), name
    assert all(p.requires_grad for p in adopted.parameters()) and not adopted.training
    # a float64 file: copying converts to the parameters' float32; the meta path must give the same
    double = tmp_path / "double.pth"
    torch.save({k: v.double() for k, v in torch.load(weights_file, weights_only=True).items()}, double)
    converted = model_sources.load_network({**spec, "weights_file": str(double)})
    for a, b in zip(converted.state_dict().values(), copied.state_dict().values()):
        assert a.dtype == torch.float32 and torch.equal(a, b.double().float())


class WithBuffer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(3, 2)
        self.register_buffer("offset", torch.arange(2.0), persistent=False)  # not in the state dict


def test_meta_adoption_refused_where_it_would_differ():
    state = {k: v.clone() for k, v in WithBuffer().state_dict().items()}
    for refused in (state,  # the buffer stays on meta: built for real instead
                    {**state, "linear.weight": torch.ones(3, 2).t()},  # not contiguous
                    {**state, "linear.weight": state["linear.weight"].double()}):  # another dtype
        with torch.device("meta"):
            network = WithBuffer()
        assert not model_sources._adopt_state_dict(network, refused)


class Twice(torch.nn.Module):
    """The same ReLU module runs twice: Brain-Score's hook keeps its last output."""

    def __init__(self):
        super().__init__()
        self.conv, self.relu, self.head = torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(), torch.nn.Linear(4, 2)

    def forward(self, x):
        x = self.relu(self.conv(x))
        x = self.relu(x - 0.5)
        return self.head(x.mean((2, 3)))


class Swallows(torch.nn.Module):
    """A network that catches every exception around a submodule (so the early stop cannot end it)."""

    def __init__(self):
        super().__init__()
        self.conv, self.relu, self.after = torch.nn.Conv2d(3, 4, 3), torch.nn.ReLU(inplace=True), torch.nn.ReLU()

    def forward(self, x):
        x = self.conv(x)
        try:
            x = self.relu(x)
        except Exception:
            pass
        x.mul_(2)  # in place after the hooked layer: a captured output that is not copied would change
        return self.after(x)


@pytest.mark.parametrize("network, layers", [(Twice, ["relu", "conv"]), (Swallows, ["relu"]),
                                             (Swallows, ["conv", "relu"])])
def test_early_stop_keeps_brain_score_outputs(network, layers):
    torch.manual_seed(0)
    net = network().eval()
    model = ActivationsModel("m", "custom", network=net)
    batches = [np.random.default_rng(k).standard_normal((2, 3, 8, 8)).astype(np.float32) for k in range(3)]
    for batch in batches:
        ours, reference = model(batch, layers), old_forward(net, batch, layers)
        for layer in layers:
            np.testing.assert_array_equal(ours[layer], reference[layer])
    assert model._stops_early[tuple(layers)] is False


@pytest.mark.parametrize("mean, std", [((0.485, 0.456, 0.406), (0.229, 0.224, 0.225)), ((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)),
                                       ((0.0, 0.1, 1.0), (1.0, 0.3, 7.0))])
def test_normalisation_table_bit_identical_with_layout(mean, std, tmp_path):
    from PIL import Image

    # every 8-bit level in every channel appears
    levels = np.stack(np.meshgrid(np.arange(256), np.arange(3), indexing="ij"), -1)[..., 0]
    pixels = np.stack([np.roll(levels, k, axis=0)[:, 0] for k in range(3)], -1).astype(np.uint8)
    image = np.repeat(pixels[:, None, :], 16, axis=1)[:224, :16]
    Image.fromarray(np.tile(image, (1, 14, 1))).save(tmp_path / "levels.png")
    ours = ImagePreprocessing(mean=mean, std=std)(tmp_path / "levels.png")
    old = old_preprocess(tmp_path / "levels.png", mean, std)
    np.testing.assert_array_equal(ours.view(np.uint32), old.view(np.uint32))
    assert ours.strides == old.strides  # channels-last underneath, as before
    assert np.stack([ours, ours]).strides == np.stack([old, old]).strides


class Items(torch.utils.data.Dataset):
    def __init__(self, kind):
        self.kind = kind

    def __len__(self):
        return 5

    def __getitem__(self, index):
        x = np.random.default_rng(index).standard_normal((4, 5, 3)).astype(np.float32)
        return {"channels_last": x.transpose(2, 0, 1), "contiguous": x, "fortran": np.asfortranarray(x),
                "strided": x[::2], "float64": x.astype(np.float64), "uint8": (x * 10).astype(np.uint8)}[self.kind]


@pytest.mark.parametrize("kind", ["channels_last", "contiguous", "fortran", "strided", "float64", "uint8"])
def test_worker_batches_keep_np_stack_layout(kind):
    items = Items(kind)
    loader = torch.utils.data.DataLoader(items, batch_size=2, num_workers=1, collate_fn=_collate,
                                         multiprocessing_context="fork")
    for start, batch in zip(range(0, 5, 2), loader):
        expected = np.stack([items[k] for k in range(start, min(start + 2, 5))])
        assert batch.numpy().strides == expected.strides and batch.numpy().dtype == expected.dtype
        np.testing.assert_array_equal(batch.numpy(), expected)


def test_in_memory_extract_matches_files(demo_stimuli, weights_file, tmp_path):
    spec = {"architecture": "alexnet", "weights": None, "weights_file": str(weights_file)}
    model = load_activations_model("net", spec, "cpu")
    in_memory = extract(model, demo_stimuli, LAYERS[:2], batch_size=5, progress=io.StringIO(), num_workers=1)
    reference = old_extract(old_network(weights_file), demo_stimuli, LAYERS[:2], "net", batch_size=5)
    for layer in LAYERS[:2]:
        np.testing.assert_array_equal(in_memory[layer].values.view(np.uint32),
                                      reference[layer].values.view(np.uint32))
