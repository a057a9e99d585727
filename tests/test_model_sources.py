"""Model sources: timm, your own module (file or importable), local weights, a non-torch BrainModel, declared
preprocessing, verified torchvision weights; each builds and extracts on a tiny image set, and every bad input
fails with one message naming the model entry."""

import hashlib
import io
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import torch
from PIL import Image

from brainpipe.models import model_sources
from brainpipe.models._torchvision import import_torchvision, verify_cached_weights
from brainpipe.models.activations import extract
from brainpipe.models.brain_model import BrainModel, BrainModelActivations, ModelSourceError, load_activations_model
from brainpipe.models.preprocessing import ImagePreprocessing, PathEncoding, decode_paths
from brainpipe.pipeline.workflow_config import ConfigError, check_model, leaf_layers
from model_source_fixtures import USER_MODEL

QUIET = io.StringIO


@pytest.fixture
def stimuli(tmp_path):
    (tmp_path / "images").mkdir()
    rng = np.random.default_rng(0)
    rows = []
    for k in range(5):
        size = (40, 30) if k % 2 else (32, 48)  # portrait and landscape: exercises resize + crop geometry
        Image.fromarray(rng.integers(0, 256, (*size, 3), dtype=np.uint8)).save(tmp_path / f"images/{k}.png")
        rows.append(dict(stimulus_id=f"id{k}", filename=f"images/{k}.png"))
    pd.DataFrame(rows).to_csv(tmp_path / "stimuli.csv", index=False)
    return tmp_path


@pytest.fixture
def workdir(tmp_path):
    """A working directory with the user's model file and a checkpoint of its network."""
    folder = tmp_path / "work"
    (folder / "models").mkdir(parents=True)
    (folder / "models" / "mine.py").write_text(USER_MODEL)
    return folder


def user_network(folder):
    return model_sources.call_code("models/mine.py:build", folder, "mine", seed=3)


def save_checkpoint(folder, nested=False, seed=3):
    torch.manual_seed(seed)
    network = user_network(folder)
    state = network.state_dict()
    path = folder / "mine.pt"
    torch.save({"state_dict": state, "epoch": 3} if nested else state, path)
    return path, network


def images(stimuli):
    return [stimuli / f"images/{k}.png" for k in range(5)]


# --- preprocessing -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", [
    None, {"resize": 256, "image_size": 224}, {"image_size": 96, "resize": 110, "interpolation": "bicubic",
                                               "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.5, 1.0]}])
def test_preprocessing_equals_torchvision_transforms(stimuli, entry):
    transforms = import_torchvision().transforms
    ours = ImagePreprocessing.from_config(entry)
    modes = {"bilinear": transforms.InterpolationMode.BILINEAR, "bicubic": transforms.InterpolationMode.BICUBIC}
    size = ours.image_size
    steps = ([transforms.Resize((size, size), modes[ours.interpolation])] if ours.resize is None else
             [transforms.Resize(ours.resize, modes[ours.interpolation]), transforms.CenterCrop(size)])
    reference = transforms.Compose([*steps, transforms.ToTensor(), transforms.Normalize(ours.mean, ours.std)])
    for path in images(stimuli):
        expected = reference(Image.open(path).convert("RGB")).numpy()
        np.testing.assert_allclose(ours(path), expected, rtol=0, atol=1e-5)


def test_preprocessing_is_picklable_and_resolved():
    import pickle

    entry = {"resize": 256}
    assert pickle.loads(pickle.dumps(ImagePreprocessing.from_config(entry))) == ImagePreprocessing.from_config(entry)
    assert ImagePreprocessing.from_config({"image_size": 224}).resolved() == ImagePreprocessing().resolved()
    assert decode_paths(np.stack([PathEncoding()("/a/é b.png"), PathEncoding()("c.png")])) == ["/a/é b.png", "c.png"]


@pytest.mark.parametrize("entry, message", [
    ({"resize": 100}, "resize: null or an integer >= image_size"),
    ({"interpolation": "cubic"}, "interpolation: one of"),
    ({"mean": [0.5, 0.5]}, "mean: three numbers"),
    ({"crop": 1}, "unknown key(s) ['crop']"),
])
def test_bad_preprocessing_named(entry, message):
    with pytest.raises(ConfigError) as error:
        check_model("m", {"architecture": "alexnet", "layers": {}, "preprocessing": entry})
    assert "model_zoo.m.preprocessing" in str(error.value) and message in str(error.value)


# --- timm ----------------------------------------------------------------------------------------------------------

def test_timm_untrained_resnet18_equals_direct_timm_forward(stimuli):
    import timm

    model = load_activations_model("t", {"architecture": "timm/resnet18", "weights": None, "seed": 5}, "cpu")
    torch.manual_seed(5)
    direct = timm.create_model("resnet18", pretrained=False).eval()
    batch = np.stack([model.preprocess(p) for p in images(stimuli)])
    with torch.no_grad():
        expected = direct.forward_features(torch.from_numpy(batch))  # the output of the last stage, layer4
    out = model(batch, ["layer4", "global_pool"])
    np.testing.assert_allclose(out["layer4"], expected.numpy(), rtol=1e-5, atol=1e-5)
    assert out["global_pool"].shape == (5, 512)
    assert "layer4.1.conv2" in leaf_layers("timm/resnet18")
    check_model("t", {"architecture": "timm/resnet18", "layers": {"IT": "layer4"}})


def test_timm_bad_names():
    with pytest.raises(ConfigError, match=r"model_zoo\.t\.architecture: timm has no model 'resnet181'.*resnet18"):
        check_model("t", {"architecture": "timm/resnet181", "layers": {}})
    with pytest.raises(ConfigError, match=r"model_zoo\.t\.weights: timm has no pretrained weights 'imagenet'.*a1_in1k"):
        check_model("t", {"architecture": "timm/resnet18", "weights": "imagenet", "layers": {}})
    check_model("t", {"architecture": "timm/resnet18", "weights": "a1_in1k", "layers": {}})  # a real tag: no load


# --- your own code and local weights ---------------------------------------------------------------------------------

def test_own_file_with_local_checkpoint_extracts_its_outputs(workdir, stimuli):
    path, reference = save_checkpoint(workdir, nested=True)
    spec = {"architecture": "models/mine.py:build", "weights_file": "mine.pt", "state_dict_key": "state_dict",
            "preprocessing": {"image_size": 64}, "layers": {"IT": "features.2"}}
    check_model("mine", spec, workdir)
    model = load_activations_model("mine", spec, "cpu", workdir)
    assert model.preprocess.image_size == 64
    arrays = extract(model, stimuli, ["features.2", "head"], 2, QUIET())
    batch = torch.from_numpy(np.stack([model.preprocess(p) for p in images(stimuli)]))
    with torch.no_grad():
        expected = reference.eval()(batch).numpy()
    np.testing.assert_allclose(arrays["head"].values, expected, rtol=1e-5, atol=1e-6)
    assert arrays["features.2"].shape == (5, 16)
    sha = model_sources.weights_sha256(spec, workdir)
    assert sha == hashlib.sha256(path.read_bytes()).hexdigest()
    provenance = model_sources.model_provenance(spec, workdir, "mine")
    assert provenance["weights_sha256"] == sha
    assert provenance["source_sha1"] == hashlib.sha1((workdir / "models/mine.py").read_bytes()).hexdigest()


def test_untrained_own_module_is_seeded(workdir, monkeypatch):
    monkeypatch.syspath_prepend(str(workdir))
    spec = {"architecture": "models.mine:build", "seed": 3}  # importable module form
    weights = [torch.cat([p.flatten() for p in load_activations_model("m", dict(spec, seed=s), "cpu", workdir)
                          .network.parameters()]) for s in (3, 3, 4)]
    assert torch.equal(weights[0], weights[1]) and not torch.equal(weights[0], weights[2])
    assert torch.equal(weights[0], torch.cat([p.flatten() for p in user_network(workdir).parameters()]))


def test_source_fingerprint_follows_the_file(workdir):
    spec = {"architecture": "models/mine.py:build"}
    before = model_sources.source_sha1(spec, workdir)
    (workdir / "models/mine.py").write_text(USER_MODEL + "\n# edited\n")
    assert model_sources.source_sha1(spec, workdir) != before
    assert model_sources.source_sha1({"architecture": "alexnet"}) is None
    assert model_sources.weights_sha256({"architecture": "alexnet"}) is None


# --- a BrainModel that is not a torch network -------------------------------------------------------------------------

@pytest.mark.parametrize("architecture", ["models/mine.py:MeanColour", "models/mine.py:make_brain_model"])
def test_non_torch_brain_model_runs_through_the_activations_stage(workdir, stimuli, architecture):
    spec = {"architecture": architecture, "visual_degrees": 8, "layers": {"IT": "IT", "V4": "V4"}}
    check_model("colour", spec, workdir)
    model = load_activations_model("colour", spec, "cpu", workdir)
    assert isinstance(model, BrainModelActivations) and model.layer_names() == ["V4", "IT"]
    arrays = extract(model, stimuli, ["IT", "V4"], 2, QUIET())
    pictures = [np.asarray(Image.open(p).convert("RGB"), dtype=np.float64) / 255 for p in images(stimuli)]
    np.testing.assert_allclose(arrays["V4"].values, [p.mean((0, 1)) for p in pictures], rtol=1e-6)
    assert arrays["IT"].shape == (5, 12)
    assert arrays["IT"]["stimulus_id"].values.tolist() == [f"id{k}" for k in range(5)]
    brain = BrainModel.from_spec("colour", spec, device="cpu", base_dir=workdir, batch_size=3)
    brain.start_recording("V4", [(70, 170)])
    np.testing.assert_allclose(brain.look_at(stimuli, progress=QUIET(), source_visual_degrees=8).values, arrays["V4"].values)


def test_brain_model_checks(workdir):
    base = {"architecture": "models/mine.py:MeanColour", "layers": {"IT": "IT"}}
    with pytest.raises(ConfigError, match=r"model_zoo\.c\.layers\.IT: .* no layer 'it'; did you mean 'IT'\?"):
        check_model("c", dict(base, layers={"IT": "it"}), workdir)
    with pytest.raises(ConfigError, match=r"model_zoo\.c\.weights_file: a BrainModel loads its own weights"):
        check_model("c", dict(base, weights_file="mine.pt"), workdir)
    with pytest.raises(ModelSourceError, match=r"model_zoo\.c\.visual_degrees: the BrainModel says "
                                                 r"visual_degrees\(\) = 8, the config 10: set model_zoo\.c\.visual_degrees: 8"):
        load_activations_model("c", dict(base, visual_degrees=10), "cpu", workdir)


# --- bad input: one message naming the entry ----------------------------------------------------------------------

def broken_file(folder, text):
    (folder / "models" / "broken.py").write_text(text)
    return "models/broken.py:build"


@pytest.mark.parametrize("setup, message", [
    (lambda f: "models/nope.py:build", r"model_zoo\.m\.architecture: no file .*nope\.py"),
    (lambda f: "no_such_package.models:build", r"model_zoo\.m\.architecture: no module 'no_such_package'"),
    (lambda f: broken_file(f, "def build(:\n"), r"model_zoo\.m\.architecture: importing .*broken\.py failed: "
                                                r"SyntaxError"),
    (lambda f: broken_file(f, "import numpy\nraise RuntimeError('boom')\n"),
     r"importing .*broken\.py failed: RuntimeError: boom \(.*broken\.py, line 2\)"),
    (lambda f: "models/mine.py:buld", r"model_zoo\.m\.architecture: models/mine\.py has no 'buld'.*'build'"),
    (lambda f: "models/mine.py:not_a_module", r"model_zoo\.m\.architecture: models/mine\.py:not_a_module\(\) "
                                              r"returned builtins\.dict, not a torch\.nn\.Module"),
    (lambda f: "alexnet9000", r"model_zoo\.m\.architecture: unknown architecture 'alexnet9000'"),
    (lambda f: "mine.py", r"model_zoo\.m\.architecture: unknown architecture 'mine\.py'"),
], ids=["missing-file", "missing-module", "syntax-error", "raises", "no-attribute", "not-a-module",
        "unknown-architecture", "file-without-callable"])
def test_bad_architecture_named(workdir, setup, message):
    spec = {"architecture": setup(workdir), "layers": {}}
    with pytest.raises(ConfigError, match=message):
        check_model("m", spec, workdir)


def test_wrong_layer_suggests_nearest(workdir):
    spec = {"architecture": "models/mine.py:build", "layers": {"IT": "feature.2"}}
    with pytest.raises(ConfigError, match=r"model_zoo\.m\.layers\.IT: .* no layer 'feature\.2'; did you mean "
                                          r"'features\.2'\?"):
        check_model("m", spec, workdir)
    with pytest.raises(ConfigError, match=r"model_zoo\.m\.sweep\.V4: no layer 'heda'.*did you mean 'head'"):
        check_model("m", {"architecture": "models/mine.py:build", "layers": {}, "sweep": {"V4": ["heda"]}}, workdir)
    with pytest.raises(ConfigError, match=r"model_zoo\.a\.layers\.IT: alexnet has no layer 'feature\.12'; did you "
                                          r"mean 'features\.12'"):
        check_model("a", {"architecture": "alexnet", "layers": {"IT": "feature.12"}})


def test_unknown_torchvision_weights_at_parse_time():
    with pytest.raises(ConfigError, match=r"model_zoo\.a\.weights: alexnet has no weights 'IMAGENET1K_V2'; known: "
                                          r"\['IMAGENET1K_V1'\]"):
        check_model("a", {"architecture": "alexnet", "weights": "IMAGENET1K_V2", "layers": {}})


def test_weights_file_problems(workdir):
    spec = {"architecture": "models/mine.py:build", "weights_file": "mine.pt", "layers": {}}

    def fails(message, **changes):
        with pytest.raises(ConfigError, match=message):
            check_model("m", dict(spec, **changes), workdir)
        with pytest.raises(ModelSourceError, match=message.replace("config ", "")):
            load_activations_model("m", dict(spec, **changes), "cpu", workdir)

    fails(r"model_zoo\.m\.weights_file: no file .*mine\.pt")
    (workdir / "mine.pt").write_bytes(b"")
    fails(r"model_zoo\.m\.weights_file: .*mine\.pt is empty")
    (workdir / "mine.pt").write_bytes(b"not a checkpoint at all")
    fails(r"model_zoo\.m\.weights_file: .*mine\.pt is not a state dict torch\.load can read")
    torch.save(user_network(workdir), workdir / "mine.pt")  # the whole module, not its state dict
    fails(r"mine\.pt is not a state dict torch\.load can read.*torch\.save\(model\.state_dict\(\), path\)")
    save_checkpoint(workdir, nested=True)
    fails(r"mine\.pt is not a state dict .*set state_dict_key: state_dict")
    fails(r"model_zoo\.m\.state_dict_key: .*has no key 'model'.*\['epoch', 'state_dict'\]", state_dict_key="model")
    state = user_network(workdir).state_dict()
    del state["head.bias"]
    state["extra.weight"] = torch.zeros(1)
    state["features.0.weight"] = torch.zeros(8, 3, 5, 5)
    torch.save(state, workdir / "mine.pt")
    fails(r"weights_file: .*mine\.pt does not match the architecture Net: missing keys \['head\.bias'\]; unexpected "
          r"keys \['extra\.weight'\]; shape mismatches \['features\.0\.weight: file \(8, 3, 5, 5\), model \(4, 3, 5, 5\)'\]")
    torch.save({f"module.{k}": v for k, v in user_network(workdir).state_dict().items()}, workdir / "mine.pt")
    fails(r"prefix 'module\.' \(a wrapper's, e\.g\. DataParallel\)")
    with pytest.raises(ConfigError, match=r"model_zoo\.m: give weights .* or weights_file .*not both"):
        check_model("m", {"architecture": "alexnet", "weights": "IMAGENET1K_V1", "weights_file": "x.pt", "layers": {}})


def test_torchvision_architecture_with_local_weights(workdir, stimuli):
    torch.manual_seed(11)
    reference = import_torchvision().models.squeezenet1_1(weights=None).eval()
    torch.save(reference.state_dict(), workdir / "squeeze.pt")
    spec = {"architecture": "squeezenet1_1", "weights_file": "squeeze.pt", "layers": {"IT": "features.12"}}
    check_model("s", spec, workdir)
    model = load_activations_model("s", spec, "cpu", workdir)
    batch = np.stack([model.preprocess(p) for p in images(stimuli)])
    with torch.no_grad():
        expected = reference(torch.from_numpy(batch)).numpy()
    np.testing.assert_allclose(model(batch, ["classifier"])["classifier"].reshape(5, -1), expected, atol=1e-5)


# --- verified torchvision weights -----------------------------------------------------------------------------------

@pytest.mark.parametrize("content", [b"", b"\x00" * 1000], ids=["empty", "wrong-content"])
def test_cached_torchvision_weights_checked_against_the_name(tmp_path, monkeypatch, content):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    monkeypatch.setenv("https_proxy", "http://127.0.0.1:9")  # any download attempt fails at once
    path = tmp_path / "hub" / "checkpoints" / "squeezenet1_1-b8a52dc0.pth"
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    with pytest.raises(ModelSourceError) as error:
        load_activations_model("sq", {"architecture": "squeezenet1_1", "weights": "IMAGENET1K_V1"}, "cpu")
    message = str(error.value)
    assert message.startswith("model_zoo.sq.weights: cached weights file")
    assert str(path) in message and "b8a52dc0" in message and f"Delete it (rm '{path}')" in message
    assert path.read_bytes() == content  # never deleted or overwritten behind the user's back


def test_verified_file_with_matching_prefix_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    data = b"weights"
    prefix = hashlib.sha256(data).hexdigest()[:8]
    path = tmp_path / "hub" / "checkpoints" / f"net-{prefix}.pth"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    weights = SimpleNamespace(url=f"https://example.org/models/net-{prefix}.pth")
    assert verify_cached_weights(weights) == path
    assert verify_cached_weights(SimpleNamespace(url="https://example.org/models/other-00000000.pth")) is None


def test_pixels_takes_no_preprocessing():
    with pytest.raises(ConfigError, match=r"model_zoo\.p\.preprocessing: pixels is Brain-Score's fixed"):
        check_model("p", {"architecture": "pixels", "layers": {"IT": "pixels"}, "preprocessing": {"image_size": 9}})
    assert Path(model_sources.__file__).name == "model_sources.py"
