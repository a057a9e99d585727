"""brainpipe.models.brain_model: layer checks, Brain-Score's BrainModel interface, seeded untrained torchvision networks."""

import io

import numpy as np
import pandas as pd
import pytest
import torch
from PIL import Image

from brainpipe.models.brain_model import PIXELS, ActivationsModel, BrainModel, load_torchvision, resolve_device


@pytest.fixture(scope="module")
def alexnet():
    return ActivationsModel("alexnet_untrained", "alexnet", None, 0, "cpu")


@pytest.fixture
def stimuli(tmp_path):
    (tmp_path / "images").mkdir()
    rng = np.random.default_rng(0)
    rows = []
    for k in range(3):
        Image.fromarray(rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)).save(tmp_path / f"images/{k}.png")
        rows.append(dict(stimulus_id=f"id{k}", filename=f"images/{k}.png"))
    pd.DataFrame(rows).to_csv(tmp_path / "stimuli.csv", index=False)
    return tmp_path


def test_unknown_layer_named(alexnet):
    batch = np.zeros((1, 3, 224, 224), np.float32)
    with pytest.raises(ValueError, match="features.99"):
        alexnet(batch, ["features.12", "features.99"])


def test_layer_names(alexnet):
    names = alexnet.layer_names()
    assert {"features.2", "features.7", "features.12", "classifier.5"} <= set(names)
    assert ActivationsModel("p", PIXELS).layer_names() == [PIXELS]


def test_untrained_is_seeded():
    def weights(seed):
        return torch.cat([p.detach().flatten() for p in load_torchvision("squeezenet1_1", None, seed).parameters()])

    a, b, c = weights(0), weights(0), weights(1)
    assert torch.equal(a, b)
    assert not torch.equal(a, c)
    assert not load_torchvision("squeezenet1_1", None, 0).training  # eval mode


def test_unknown_architecture_and_weights():
    with pytest.raises(ValueError, match="nonexistent_net"):
        load_torchvision("nonexistent_net")
    with pytest.raises(ValueError, match="NOT_A_WEIGHT"):
        load_torchvision("squeezenet1_1", "NOT_A_WEIGHT")


def test_resolve_device():
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("cuda:1") == "cuda:1"
    assert resolve_device("auto") in ("cpu", "cuda")
    with pytest.raises(ValueError, match="tpu"):
        resolve_device("tpu")


def test_brain_model_interface(alexnet, stimuli):
    spec_layers = {"V4": "features.7", "IT": "features.12"}
    model = BrainModel(alexnet, 8, spec_layers, batch_size=2)
    assert model.identifier == "alexnet_untrained" and model.visual_degrees() == 8
    with pytest.raises(RuntimeError, match="start_recording"):
        model.look_at(stimuli)
    with pytest.raises(ValueError, match="'V1'"):
        model.start_recording("V1")
    model.start_recording("IT", [(70, 170)])
    assembly = model.look_at(stimuli, progress=io.StringIO(), source_visual_degrees=8)  # shown as they are
    assert assembly.dims == ("presentation", "neuroid") and assembly.shape == (3, 9216)
    assert assembly["stimulus_id"].values.tolist() == ["id0", "id1", "id2"]
    assert int(assembly["time_bin_start"]) == 70 and int(assembly["time_bin_end"]) == 170
    assert set(assembly["layer"].values) == {"features.12"}


def test_from_spec_pixels():
    model = BrainModel.from_spec("pixels", {"architecture": "pixels", "layers": {"IT": "pixels"}}, device="cpu")
    assert model.visual_degrees() == 8 and model.region_layers == {"IT": "pixels"}
    assert model.activations_model.network is None


def test_hooked_layer_before_an_inplace_relu_keeps_its_own_output():
    """resnet18's bn1 is followed by ReLU(inplace=True): the captured bn1 output must keep its negative values
    (Brain-Score copies inside the hook), not show the ReLU's."""
    import torch

    from brainpipe.models.brain_model import ActivationsModel

    model = ActivationsModel("r18", "resnet18", None, seed=0, device="cpu")
    batch = np.random.default_rng(0).normal(size=(2, 3, 64, 64)).astype(np.float32)
    out = model(batch, ["bn1", "relu"])
    with torch.no_grad():
        network = model.network
        expected = network.bn1(network.conv1(torch.from_numpy(batch))).numpy()
    assert (out["bn1"] < 0).any() and np.allclose(out["bn1"], expected, atol=1e-6)
    assert np.array_equal(out["relu"], np.maximum(expected, 0)) or np.allclose(out["relu"], np.maximum(expected, 0))
