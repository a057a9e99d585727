"""brainpipe commit-layers: the selection rule, the config rewrite (comments kept), bad input, and a real sweep."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from brainpipe.pipeline.layer_commitment import CommitError, commit_layers, select_layer, set_committed_layer
from workflow_runs import ROOT

CONFIG = """# my config
models: [net]
model_zoo:
  net:
    architecture: alexnet   # a comment
    layers: {V1: features.2, IT: features.12}  # committed {not a mapping}
  other:
    architecture: alexnet
    layers:   # block
      V4: features.7  # keep me
      # a comment inside
      IT: features.12
  bare:
    architecture: alexnet
    seed: 0

  # commented:
  #   layers: {IT: x}
benchmark_settings:
  net: {splits: 3}   # a key named like a model, outside model_zoo
"""


def _only_change(before, after, model, region, layer):
    """The parsed configs differ in exactly model_zoo.<model>.layers.<region> = layer."""
    old, new = yaml.safe_load(before), yaml.safe_load(after)
    old["model_zoo"][model].setdefault("layers", {})[region] = layer
    return old == new


def test_select_layer_is_the_argmax_of_the_mean_first_on_ties():
    scores = pd.DataFrame({"a": [0.1, 0.3, 0.3], "b": [0.2, 0.1, 0.1]}, index=["l1", "l2", "l3"])
    assert select_layer(scores) == "l2"  # means 0.15, 0.2, 0.2: the first of the tie, as numpy's argmax
    single = pd.DataFrame({"a": [0.2, 0.5, 0.4]}, index=["l1", "l2", "l3"])
    assert select_layer(single) == "l2" == single["a"].idxmax()  # one benchmark: Brain-Score's argmax
    with_gap = pd.DataFrame({"a": [0.9, 0.2], "b": [np.nan, 0.2]}, index=["l1", "l2"])
    assert select_layer(with_gap) == "l2"  # a layer missing a score cannot win
    with pytest.raises(CommitError, match="no layer"):
        select_layer(pd.DataFrame({"a": []}))
    with pytest.raises(CommitError, match="misses a score"):
        select_layer(pd.DataFrame({"a": [np.nan]}, index=["l1"]))


def test_random_score_tables_match_an_independent_argmax():
    rng = np.random.default_rng(0)
    for _ in range(50):
        values = rng.integers(0, 4, size=(6, 3)) / 4  # coarse values: many ties
        scores = pd.DataFrame(values, index=[f"l{i}" for i in range(6)], columns=["a", "b", "c"])
        means = values.mean(axis=1)
        assert select_layer(scores) == f"l{min(i for i in range(6) if means[i] == means.max())}"


def test_rewrite_flow_mapping_changes_one_value_only():
    flow = set_committed_layer(CONFIG, "net", "IT", "features.7")
    assert "    layers: {V1: features.2, IT: features.7}  # committed {not a mapping}\n" in flow
    assert flow.replace("IT: features.7}", "IT: features.12}") == CONFIG
    added = set_committed_layer(CONFIG, "net", "V4", "features.7")
    assert "layers: {V1: features.2, IT: features.12, V4: features.7}  # committed" in added
    assert _only_change(CONFIG, added, "net", "V4", "features.7")
    spaced = CONFIG.replace("{V1: features.2, IT: features.12}", "{ V1: features.2 , IT: features.12 }")
    assert "{ V1: conv , IT: features.12 }" in set_committed_layer(spaced, "net", "V1", "conv")


def test_rewrite_block_mapping_and_missing_layers_key():
    block = set_committed_layer(CONFIG, "other", "IT", "features.2")
    assert block.replace("      IT: features.2\n", "      IT: features.12\n") == CONFIG
    assert "V4: features.7  # keep me" in block and "# a comment inside" in block
    new_region = set_committed_layer(CONFIG, "other", "V1", "features.0")
    assert "    layers:   # block\n      V1: features.0\n      V4: features.7  # keep me\n" in new_region
    assert _only_change(CONFIG, new_region, "other", "V1", "features.0")
    bare = set_committed_layer(CONFIG, "bare", "IT", "features.12")
    assert "    seed: 0\n    layers: {IT: features.12}\n\n  # commented:" in bare
    assert _only_change(CONFIG, bare, "bare", "IT", "features.12")


def test_rewrite_quotes_a_layer_name_yaml_would_misread():
    quoted = set_committed_layer(CONFIG, "net", "IT", "blocks.0: odd")
    assert yaml.safe_load(quoted)["model_zoo"]["net"]["layers"]["IT"] == "blocks.0: odd"
    assert set_committed_layer(CONFIG, "net", "IT", "null").count('IT: "null"') == 1  # not YAML's None


def test_rewrite_bad_input_is_one_clear_error():
    with pytest.raises(CommitError, match="no entry 'nope'"):
        set_committed_layer(CONFIG, "nope", "IT", "x")
    with pytest.raises(CommitError, match="no entry 'commented'"):  # a commented-out entry is no entry
        set_committed_layer(CONFIG, "commented", "IT", "x")
    with pytest.raises(CommitError, match="no block 'model_zoo:'"):
        set_committed_layer("models: [a]\nmodel_zoo: {a: {layers: {IT: x}}}\n", "a", "IT", "y")
    odd = CONFIG.replace("layers: {V1: features.2, IT: features.12}", "layers: &map {V1: features.2}")
    with pytest.raises(CommitError, match="form this command does not edit"):
        set_committed_layer(odd, "net", "IT", "x")


def _workflow(tmp_path, extra=None):
    """A workflow folder: the tiny grid written out as the user's config, with a comment on top."""
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    config.update(yaml.safe_load((ROOT / "tests/configs/tiny.yaml").read_text()))
    config.update(extra or {})
    (tmp_path / "config").mkdir()
    path = tmp_path / "config/config.yaml"
    path.write_text("# user comment\n" + yaml.safe_dump(config, sort_keys=False))
    return path


@pytest.mark.parametrize("model, benchmarks, layers, message", [
    ("nope", ["SyntheticShapes.IT-pls"], None, "no entry 'nope'"),
    ("alexnet_untrained", ["SyntheticShapes.V4-pls"], None, "does not record region IT"),
    ("alexnet_untrained", ["SyntheticShapesBehaviour-i2n"], None, "does not record region IT"),
    ("alexnet_untrained", ["Nope.IT-pls"], None, "unknown family 'Nope'"),
    ("alexnet_untrained", [], None, "at least one --benchmark"),
    ("alexnet_untrained", ["SyntheticShapes.IT-pls"], [" "], "names no layer"),
])
def test_bad_requests_stop_before_the_sweep(tmp_path, monkeypatch, model, benchmarks, layers, message):
    path = _workflow(tmp_path)
    before = path.read_text()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(CommitError, match=message):
        commit_layers(model, "IT", benchmarks, layers, "config/config.yaml")
    assert path.read_text() == before and not (tmp_path / "results").exists()
    with pytest.raises(CommitError, match="no such config file"):
        commit_layers(model, "IT", benchmarks, layers, "config/missing.yaml")


@pytest.mark.slow  # a real 3-layer sweep (about 50 s here)
def test_commit_layers_end_to_end(tmp_path):
    """A real 3-layer sweep of alexnet_untrained on the tiny grid: the config gets the sweep's argmax, and only
    that value of the config changes."""
    path = _workflow(tmp_path)
    before = path.read_text()
    run = subprocess.run([str(Path(sys.executable).parent / "brainpipe"), "commit-layers", "alexnet_untrained",
                          "--region", "IT", "--benchmark", "SyntheticShapes.IT-pls",
                          "--layers", "features.2,features.7,features.12"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    # the grid reports the benchmark the layer is chosen on: said, with Brain-Score's public/private separation
    assert "warning: the layer for IT is chosen on SyntheticShapes.IT-pls" in run.stdout
    assert "selects layers on the public recordings" in run.stdout
    table = pd.read_csv(tmp_path / "results/alexnet_untrained/layer_commitment_IT.tsv", sep="\t", index_col="layer")
    assert list(table.index) == ["features.2", "features.7", "features.12"]
    sweep = pd.read_csv(tmp_path / "results/alexnet_untrained/SyntheticShapes.IT-pls/sweep.tsv", sep="\t",
                        index_col="layer")
    layer_scores = {layer: json.loads((tmp_path / f"results/alexnet_untrained/SyntheticShapes.IT-pls/layers/"
                                                  f"{layer}.json").read_text())["score"] for layer in table.index}
    best = max(layer_scores, key=layer_scores.get)  # independent argmax over the per-layer results
    assert best == table["mean"].idxmax() == sweep.loc[list(table.index), "score"].idxmax()
    written = path.read_text()
    assert written.startswith("# user comment\n")
    assert _only_change(before, written, "alexnet_untrained", "IT", best)
    assert bool(table.loc[best, "best"]) and table["best"].sum() == 1 and f"-> {best}" in run.stdout
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {
        "model": "alexnet_untrained", "region": "IT", "layer": best, "previous": "features.12"}
    assert not list(tmp_path.glob(".brainpipe-sweep-*")) and not list(tmp_path.glob("config/.*.tmp"))

    # an entry that commits no IT layer yet (a new model): the sweep runs (reusing the scores above) and adds one
    config = yaml.safe_load(written)
    del config["model_zoo"]["alexnet_untrained"]["layers"]["IT"]
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    again = subprocess.run([str(Path(sys.executable).parent / "brainpipe"), "commit-layers", "alexnet_untrained",
                            "--region", "IT", "--benchmark", "SyntheticShapes.IT-pls",
                            "--layers", "features.12,features.7,features.2"],  # any order: the network's wins
                           cwd=tmp_path, capture_output=True, text=True)
    assert again.returncode == 0, again.stdout + again.stderr
    assert yaml.safe_load(path.read_text())["model_zoo"]["alexnet_untrained"]["layers"]["IT"] == best
    assert list(pd.read_csv(tmp_path / "results/alexnet_untrained/layer_commitment_IT.tsv", sep="\t")["layer"]) == [
        "features.2", "features.7", "features.12"]
