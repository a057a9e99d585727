"""The parse-time cache (src/brainpipe/pipeline/parse_cache.py): a second `snakemake` start checks the config without importing
torch, yet every answer that could have changed is looked up again, and a bad name still fails every time."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECK = """
import json, sys
from brainpipe.pipeline import parse_cache
from brainpipe.pipeline.workflow_config import ConfigError, check_model
parse_cache.use(sys.argv[1])
spec = json.loads(sys.argv[2])
try:
    check_model("net", spec, base_dir=sys.argv[3])
    print("OK")
except ConfigError as error:
    print("ERROR", error)
print("TORCH" if "torch" in sys.modules else "NO-TORCH")
"""


def check(cache, spec, base_dir="."):
    """check_model of one entry in a fresh process: (its outcome line, whether torch was imported)."""
    run = subprocess.run([sys.executable, "-c", CHECK, str(cache), json.dumps(spec), str(base_dir)],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert run.returncode == 0, run.stderr
    outcome, torch_line = run.stdout.strip().splitlines()[-2:]
    return outcome, torch_line == "TORCH"


ALEXNET = {"architecture": "alexnet", "weights": None, "layers": {"IT": "features.12"}}


def test_second_check_needs_no_torch_and_bad_names_still_fail(tmp_path):
    cache = tmp_path / "parse_cache.json"
    assert check(cache, ALEXNET) == ("OK", True)  # first: built on the meta device
    assert json.loads(cache.read_text())["entries"]
    assert check(cache, ALEXNET) == ("OK", False)  # then: the layer names come from the cache
    outcome, _ = check(cache, {**ALEXNET, "layers": {"IT": "features.13"}})  # a typo is still caught
    assert outcome.startswith("ERROR config model_zoo.net.layers.IT: alexnet has no layer 'features.13'")
    assert "did you mean 'features.12'" in outcome or "features.1" in outcome
    outcome, _ = check(cache, {**ALEXNET, "weights": "IMAGENET1K_V9"})  # weights not cached under another name
    assert outcome.startswith("ERROR") and "IMAGENET1K_V1" in outcome


def test_corrupt_or_unwritable_cache_is_ignored(tmp_path):
    cache = tmp_path / "parse_cache.json"
    cache.write_text('{"entries": [1, 2')  # cut short: not JSON
    assert check(cache, ALEXNET) == ("OK", True)
    assert json.loads(cache.read_text())["entries"]  # rewritten whole
    blocked = tmp_path / "file" / "parse_cache.json"
    (tmp_path / "file").write_text("not a folder")
    assert check(blocked, ALEXNET) == ("OK", True)  # nothing kept, no error


def test_entries_are_keyed_by_installed_packages_and_code(tmp_path, monkeypatch):
    from brainpipe.pipeline import parse_cache

    parse_cache.use(tmp_path / "cache.json")
    monkeypatch.setattr(parse_cache, "_ENVIRONMENT", None)
    parse_cache.put("source_layers", ["a"], "alexnet")
    assert parse_cache.get("source_layers", "alexnet") == ["a"]
    assert parse_cache.get("source_layers", "resnet18") is None
    monkeypatch.setattr(parse_cache, "_ENVIRONMENT", "torch==0.0 (another environment)")
    assert parse_cache.get("source_layers", "alexnet") is None
    parse_cache.use(None)  # off: nothing stored, nothing found
    assert parse_cache.get("source_layers", "alexnet") is None


def test_a_changed_weights_file_is_checked_again(tmp_path):
    import torch

    from brainpipe.models._torchvision import import_torchvision

    network = import_torchvision().models.squeezenet1_1(weights=None)
    weights = tmp_path / "squeeze.pt"
    torch.save(network.state_dict(), weights)
    spec = {"architecture": "squeezenet1_1", "weights_file": "squeeze.pt", "layers": {"IT": "features.12"}}
    cache = tmp_path / "parse_cache.json"
    assert check(cache, spec, tmp_path) == ("OK", True)
    assert check(cache, spec, tmp_path)[0] == "OK"
    state = network.state_dict()
    state.pop("classifier.1.bias")  # the file changes (size and time): the check runs again and fails
    torch.save(state, weights)
    outcome, _ = check(cache, spec, tmp_path)
    assert outcome.startswith("ERROR") and "classifier.1.bias" in outcome


@pytest.mark.parametrize("architecture", ["own_net.py:build"])
def test_own_code_is_never_cached(tmp_path, architecture):
    (tmp_path / "own_net.py").write_text("import torch\n\ndef build():\n    return torch.nn.Sequential(torch.nn.Linear(2, 2))\n")
    spec = {"architecture": architecture, "layers": {"IT": "0"}}
    cache = tmp_path / "parse_cache.json"
    assert check(cache, spec, tmp_path) == ("OK", True)
    (tmp_path / "own_net.py").write_text("import torch\n\ndef build():\n    return torch.nn.Sequential(torch.nn.ReLU())\n")
    outcome, _ = check(cache, {**spec, "layers": {"IT": "1"}}, tmp_path)
    assert outcome.startswith("ERROR") and "no layer '1'" in outcome


def test_the_workflow_keeps_its_cache_per_user(tmp_path, monkeypatch):
    """One file under $XDG_CACHE_HOME for every results folder: a second folder's first start is already warm."""
    from workflow_runs import snakemake, with_config

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    first = with_config(tmp_path / "first")
    snakemake(first, "-n")
    cache = tmp_path / "xdg" / "brainpipe" / "parse_cache.json"
    entries = json.loads(cache.read_text())["entries"]
    assert [layers for layers in entries.values() if isinstance(layers, list) and "features.12" in layers[0]]
    assert not (first / ".snakemake" / "brainpipe" / "parse_cache.json").exists()
    stored = cache.read_bytes()
    second = with_config(tmp_path / "second")  # another folder reads the same answers (and plans the same jobs)
    result = snakemake(second, "-n")
    assert "Job stats" in result.stdout + result.stderr
    assert cache.read_bytes() == stored  # nothing was looked up again


def test_user_cache_path_follows_xdg():
    from brainpipe.pipeline.parse_cache import user_cache_path

    assert user_cache_path({"XDG_CACHE_HOME": "/x/cache"}) == Path("/x/cache/brainpipe/parse_cache.json")
    assert user_cache_path({}) == Path.home() / ".cache" / "brainpipe" / "parse_cache.json"


def test_the_file_keeps_the_most_recent_answers(tmp_path, monkeypatch):
    from brainpipe.pipeline import parse_cache

    monkeypatch.setattr(parse_cache, "MAX_ENTRIES", 3)
    parse_cache.use(tmp_path / "cache.json")
    try:
        for k in range(5):
            parse_cache.put("weights_ok", True, {"entry": k})
        parse_cache.put("weights_ok", True, {"entry": 2})  # stored again: now the most recent
        parse_cache.put("weights_ok", True, {"entry": 5})
        parse_cache.use(tmp_path / "cache.json")  # read back from the file
        assert [k for k in range(6) if parse_cache.get("weights_ok", {"entry": k})] == [2, 4, 5]
    finally:
        parse_cache.use(None)


def test_file_digests_are_kept_per_file_version(tmp_path, monkeypatch):
    """A weights file is hashed once per version (path, size, modification time), across processes."""
    import hashlib

    from brainpipe.models import model_sources
    from brainpipe.pipeline import parse_cache

    weights = tmp_path / "weights.pt"
    weights.write_bytes(b"\x01" * 5000)
    parse_cache.use(tmp_path / "cache.json")
    model_sources.keep_digests_in(parse_cache)
    try:
        assert model_sources.file_digest(weights) == hashlib.sha256(b"\x01" * 5000).hexdigest()
        parse_cache._write()
        parse_cache.use(tmp_path / "cache.json")  # as a new process: read back from the file
        model_sources._file_digest.cache_clear()
        hashed = []
        original = model_sources._file_digest
        monkeypatch.setattr(model_sources, "_file_digest", lambda *key: hashed.append(key) or original(*key))
        assert model_sources.file_digest(weights) == hashlib.sha256(b"\x01" * 5000).hexdigest()
        assert not hashed  # from the cache
        weights.write_bytes(b"\x02" * 4000)  # a new version: hashed again
        assert model_sources.file_digest(weights) == hashlib.sha256(b"\x02" * 4000).hexdigest()
        assert len(hashed) == 1
    finally:
        model_sources.keep_digests_in(None)
        parse_cache.use(None)
