"""`brainpipe layers MODEL`: every layer name with the shape it outputs, as the activations stage would record it,
so that `layers:` and `sweep:` can be written without reading the network's code."""

import re
import shutil
import textwrap

import numpy as np
import pytest

from brainpipe.cli import main
from brainpipe.models.brain_model import ActivationsModel
from brainpipe.models.model_sources import network_leaf_layers
from workflow_runs import ROOT


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "config").mkdir()
    shutil.copy(ROOT / "config/config.yaml", tmp_path / "config/config.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def table(output):
    """{layer: (module, shape text, units, in sweep: all, committed regions)} of the printed table."""
    rows = {}
    for line in output.splitlines()[2:]:
        match = re.match(r"^  (\S+)\s+(\S+)\s+(\S+)\s+([\d,]+|-)\s*(yes)?\s*(.*)$", line)
        if match:
            name, module, shape, units, leaf, regions = match.groups()
            rows[name] = (module, shape, units, bool(leaf), regions)
    return rows


def test_layers_of_a_zoo_model_match_what_the_activations_stage_records(workdir, capsys):
    assert main(["layers", "alexnet_untrained"]) == 0
    output = capsys.readouterr().out
    rows = table(output)
    assert output.startswith("alexnet_untrained: alexnet, input an image 3×224×224; 23 layers")
    # the real network on a real-size input gives the printed shapes (the table runs on the meta device)
    model = ActivationsModel("alexnet_untrained", "alexnet", device="cpu")
    outputs = model(np.zeros((1, 3, 224, 224), np.float32), ["features.2", "features.7", "features.12",
                                                             "classifier.6"])
    for layer, array in outputs.items():
        assert rows[layer][1] == "×".join(map(str, array.shape[1:])), (layer, rows[layer])
        assert rows[layer][2] == f"{array[0].size:,}"
    assert rows["features.12"] == ("MaxPool2d", "256×6×6", "9,216", True, "IT")
    assert rows["features.7"][4] == "V2, V4"
    assert [name for name, row in rows.items() if row[3]] == list(network_leaf_layers(model.network))
    assert not rows["classifier.0"][3]  # dropout is not in `sweep: all`
    assert "under layers (region: layer) or sweep" in output and "of model_zoo.alexnet_untrained." in output


def test_layers_of_an_architecture_not_in_the_config_and_preprocessing_size(workdir, capsys):
    (workdir / "models").mkdir()
    (workdir / "models/tiny.py").write_text(textwrap.dedent("""
        import torch

        def build():
            return torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, stride=2), torch.nn.ReLU(), torch.nn.Flatten())
    """))
    (workdir / "small.yaml").write_text("model_zoo:\n  tiny: {architecture: models/tiny.py:build, "
                                        "preprocessing: {image_size: 33}, layers: {IT: '1'}}\n")
    assert main(["layers", "tiny", "--config", "small.yaml"]) == 0
    rows = table(capsys.readouterr().out)
    assert rows["0"][:2] == ("Conv2d", "4×16×16") and rows["1"][4] == "IT" and rows["2"][1] == "1024"
    assert main(["layers", "models/tiny.py:build"]) == 0  # not an entry: an architecture, default 224×224 input
    output = capsys.readouterr().out
    assert table(output)["2"][1] == f"{4 * 111 * 111}" and "a model_zoo entry with architecture:" in output


def test_layers_of_pixels_and_of_a_brain_model(workdir, capsys):
    assert main(["layers", "pixels"]) == 0
    assert table(capsys.readouterr().out)["pixels"] == ("pixels", "3×256×256", "196,608", True, "V1, V2, V4, IT")
    (workdir / "models").mkdir()
    (workdir / "models/brain.py").write_text(textwrap.dedent("""
        import numpy as np

        class Colour:
            regions = ("V4", "IT")
            def visual_degrees(self):
                return 8
            def start_recording(self, region, time_bins):
                self.width = 3 if region == "V4" else 5
            def look_at(self, stimuli):
                return np.zeros((len(stimuli), self.width))
    """))
    assert main(["layers", "models/brain.py:Colour"]) == 0
    rows = table(capsys.readouterr().out)
    assert rows["V4"][1:3] == ("3", "3") and rows["IT"][1:3] == ("5", "5")


def test_unknown_model_is_one_error_naming_the_config_entries(workdir, capsys):
    assert main(["layers", "alexnet_untrainde"]) == 1
    error = capsys.readouterr().err
    assert "alexnet_untrainde is neither an entry of model_zoo of config/config.yaml (did you mean " \
           "'alexnet_untrained'?)" in error and "nor an architecture" in error
    assert error.count("\n") == 1
