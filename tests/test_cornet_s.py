"""CORnet-S written here: the published layout (state-dict keys), its recurrent steps (one IT.output call per step,
hooked by the temporal extraction), and the weights' loading path (download over HTTP, sha1 + sha256-prefix
checks, DataParallel prefix) on a checkpoint this test writes and serves on loopback."""

import hashlib

import numpy as np
import pytest
import torch

from brainio_fixtures import local_http_server
from brainpipe.models import cornet_s
from brainpipe.models.temporal import TemporalNetwork, nearest_steps, parse_time_mapping


def test_layout_and_steps():
    torch.manual_seed(0)
    model = cornet_s.build()
    keys = model.state_dict().keys()
    for key in ("V1.conv1.weight", "V2.conv_input.weight", "V2.norm1_1.running_mean", "V4.norm3_3.weight",
                "IT.skip.weight", "IT.norm_skip.bias", "decoder.linear.weight"):
        assert key in keys
    assert "V4.norm1_4.weight" not in keys and "IT.norm1_2.weight" not in keys  # V4 runs 4 steps, IT 2
    assert sum(p.numel() for p in model.parameters()) == pytest.approx(53.4e6, rel=0.01)  # CORnet-S's size

    class Holder:  # the activations-model interface TemporalNetwork wraps
        identifier, device, preprocess = "cornet_s", "cpu", None
        network = model.eval()

    out = TemporalNetwork(Holder())(np.random.default_rng(0).standard_normal((2, 3, 224, 224)).astype("float32"),
                                    ["IT.output", "V4.output", "V1.output"])
    assert out["IT.output"].shape == (2, 2, 512, 7, 7) and out["V4.output"].shape == (2, 4, 256, 14, 14)
    assert out["V1.output"].shape == (2, 1, 64, 56, 56)
    assert not np.allclose(out["IT.output"][:, 0], out["IT.output"][:, 1])  # the steps differ


def test_brainscore_time_mapping_and_nearest_bins():
    mapping = parse_time_mapping({"time_mapping": cornet_s.TIME_MAPPING}, "cornet_s")
    assert mapping["IT"] == {0: (100, 200), 1: (200, 300)} and mapping["V4"][3] == (240, 290)
    kar2019 = [(t, t + 10) for t in range(70, 250, 10)]
    # 70..150 -> step 0 (150 is as near to 100 as to 200: the first, as numpy's argmin), 160..240 -> step 1
    assert nearest_steps(mapping["IT"], kar2019) == [0] * 9 + [1] * 9


@pytest.fixture
def served_checkpoint(tmp_path):
    torch.manual_seed(3)
    state = cornet_s.build().state_dict()
    root = tmp_path / "store"
    root.mkdir()
    path = root / "cornet_s-1d3f7974.pth"  # the published name; the contents are this test's
    torch.save({"epoch": 43, "arch": "CORnet_S", "state_dict": {f"module.{k}": v for k, v in state.items()}}, path)
    data = path.read_bytes()
    return root, state, hashlib.sha1(data).hexdigest(), hashlib.sha256(data).hexdigest()[:8]


def test_pretrained_downloads_checks_and_loads(served_checkpoint, tmp_path, monkeypatch):
    root, state, sha1, prefix = served_checkpoint
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    with local_http_server(root) as server:
        url = server.url + "cornet_s-1d3f7974.pth"
        model = cornet_s.pretrained(tmp_path / "cache", url=url, sha1=sha1, sha256_prefix=prefix)
        loaded = model.state_dict()
        assert all(torch.equal(loaded[k], v) for k, v in state.items())
        assert len(server.requests) == 1
        cornet_s.pretrained(tmp_path / "cache", url=url, sha1=sha1, sha256_prefix=prefix)
        assert len(server.requests) == 1  # cached: not downloaded again
        with pytest.raises(ValueError, match="sha1"):  # the real sha1: this file is not CORnet-S's
            cornet_s.pretrained(tmp_path / "cache", url=url)
        with pytest.raises(ValueError, match="sha256 does not start with 1d3f7974"):
            cornet_s.pretrained(tmp_path / "cache", url=url, sha1=sha1)
        with pytest.raises(Exception, match="sha1"):  # a download whose sha1 is wrong never lands
            cornet_s.pretrained(tmp_path / "other", url=url, sha1="0" * 40)
        assert not (tmp_path / "other" / "cornet_s-1d3f7974.pth").exists()


def test_published_constants():
    assert cornet_s.WEIGHTS_URL.endswith("cornet_s-1d3f7974.pth")
    assert cornet_s.WEIGHTS_SHA1 == "a4bfd8eda33b45fd945da1b972ab0b7cad38d60f"
    assert cornet_s.TIME_MAPPING["IT"] == [100, 100, 2]
