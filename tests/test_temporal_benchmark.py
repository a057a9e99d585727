"""A user's own temporal benchmark (config benchmark_zoo: time-resolved recordings, several bins, a spantime metric)
scores a temporal model of the user's code through the same stages; the same model on a static benchmark reads the
step whose bin starts nearest 70 ms. Plus the temporal pieces one by one: time_mapping parsing and its errors, the
BrainModel interface recorded in time (and a wrong number of bins), OST data files and their errors."""

import json
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from brainpipe.data.ost_data import load_ost_assembly, prepare_target
from brainpipe.models.model_sources import ModelSourceError
from brainpipe.models.temporal import (TemporalBrainModel, extract_temporal, parse_time_mapping, select_time_bins,
                                       temporal_model)
from ost_fixtures import write_kar2019_store
from own_benchmark_fixtures import declaration, write_experiment
from workflow_runs import ROOT, snakemake, with_config

RNN = {"architecture": str(ROOT / "tests/models/recurrent_net.py") + ":build", "layers": {"IT": "IT.output"},
       "time_mapping": {"IT": {0: [70, 90], 1: [90, 110], 2: [110, 130]}}, "preprocessing": {"image_size": 32}}


@pytest.mark.slow
def test_declared_temporal_benchmark_scores_a_temporal_model(tmp_path):
    import yaml

    experiment = write_experiment(tmp_path / "experiment")
    (tmp_path / "work").mkdir()
    workdir = with_config(tmp_path / "work")
    config = {"models": ["rnn"], "benchmarks": ["MyTimed.IT-spantime_ridge", "MyTimed.IT-pls"],
              "model_zoo": {"rnn": RNN},
              "benchmark_settings": {"MyTimed.IT-spantime_ridge": {"splits": 3}, "MyTimed.IT-pls": {"splits": 3}},
              "benchmark_zoo": {"MyTimed": declaration(experiment, temporal_window=[70, 130], temporal_bin=20,
                                                       metrics=["spantime_ridge", "pls"])}}
    (workdir / "own.yaml").write_text(yaml.safe_dump(config))
    snakemake(workdir, "--", "results/rnn/MyTimed.IT-spantime_ridge.json", "results/rnn/MyTimed.IT-pls.json",
              configfiles=(ROOT / "tests/configs/tiny.yaml", workdir / "own.yaml"))
    timed = json.loads((workdir / "results/rnn/MyTimed.IT-spantime_ridge.json").read_text())
    assert timed["time_bin_start"] == [70, 90, 110] and len(timed["score_per_time_bin"]) == 3
    assert all(np.isfinite(timed["score_per_time_bin"])) and len(timed["per_fold"]) == 3
    layer = xr.open_dataarray(next((workdir / "results/activations/rnn").glob("*/IT.output.nc")))
    per_bin = xr.open_dataarray(next((workdir / "results/activations/rnn").glob("*/timed/IT/70-130x20/IT.output.nc")))
    for step in range(3):  # each 20-ms bin is its own model step
        np.testing.assert_array_equal(per_bin.values[:, :, step], layer.values[:, :, step])
    static = xr.open_dataarray(next((workdir / "results/activations/rnn").glob("*/timed/IT/70-170/IT.output.nc")))
    assert static.dims == ("presentation", "neuroid")  # the static window: step 0 (start 70), as a static layer
    np.testing.assert_array_equal(static.values, layer.values[:, :, 0])
    assert np.isfinite(json.loads((workdir / "results/rnn/MyTimed.IT-pls.json").read_text())["score"])


# ---- time_mapping ---------------------------------------------------------------------------------------------

def test_time_mapping_forms_and_errors():
    assert parse_time_mapping({"time_mapping": {"IT": [100, 100, 2]}}) == {"IT": {0: (100, 200), 1: (200, 300)}}
    assert parse_time_mapping({"time_mapping": {"IT": {"1": [90, 110], 0: [70, 90]}}})["IT"] == {
        0: (70, 90), 1: (90, 110)}
    for bad, words in (({"IT": {0: [70, 120], 1: [100, 150]}}, "overlap"), ({"IT": [70, 0, 2]}, "compact form"),
                       ({"IT": {"a": [70, 90]}}, "not a time step"), ({"IT": {0: [90, 70]}}, "end > start")):
        with pytest.raises(ModelSourceError, match=words) as error:
            parse_time_mapping({"time_mapping": bad}, "mine")
        assert "model_zoo.mine.time_mapping" in str(error.value)


def test_select_time_bins_names_a_missing_step():
    values = np.arange(2 * 3 * 2).reshape(2, 3, 2).astype(float)
    picked = select_time_bins(values, [0, 1], {0: (70, 120), 1: (120, 170)}, [(70, 80), (100, 110), (140, 150)])
    np.testing.assert_array_equal(picked[:, :, 2], values[:, :, 1])
    np.testing.assert_array_equal(picked[:, :, 0], values[:, :, 0])
    np.testing.assert_array_equal(picked[:, :, 1], values[:, :, 1])  # start 100: 20 ms from 120, 30 from 70
    with pytest.raises(ModelSourceError, match=r"model_zoo.m.time_mapping.IT: step\(s\) \[2\].*layer.nc"):
        select_time_bins(values, [0, 1], {0: (70, 120), 2: (120, 170)}, [(70, 80)], model="m", region="IT",
                         path="layer.nc")


# ---- the BrainModel interface in time ----------------------------------------------------------------------------

class TimedBrainModel:
    """Brain-Score's interface: look_at returns presentation × neuroid × time_bin for the recorded bins."""

    def __init__(self, bins_returned=None):
        self.bins_returned = bins_returned

    def visual_degrees(self):
        return 8

    def start_recording(self, region, time_bins):
        self.time_bins = list(time_bins)

    def look_at(self, stimuli):
        from PIL import Image

        n_bins = self.bins_returned or len(self.time_bins)
        pixels = np.stack([np.asarray(Image.open(p).convert("L").resize((4, 4)), float).ravel() for p in stimuli])
        data = np.stack([pixels * (1 + t) for t in range(n_bins)], axis=-1)
        return xr.DataArray(data.transpose(0, 1, 2), dims=("presentation", "neuroid", "time_bin"))


@pytest.fixture(scope="module")
def kar_store(tmp_path_factory):
    root = tmp_path_factory.mktemp("kar")
    write_kar2019_store(root, n_images=20)
    import zipfile

    folder = root / "stimuli"
    folder.mkdir()
    with zipfile.ZipFile(root / "stimulus_Kar2019.zip") as archive:
        archive.extractall(folder)
    import pandas as pd

    table = pd.read_csv(root / "stimulus_Kar2019.csv").rename(columns={"image_id": "stimulus_id"})
    table.to_csv(folder / "stimuli.csv", index=False)
    return root, folder


def _brain_model(bins_returned=None):
    from brainpipe.models.brain_model import BrainModelActivations

    inner = BrainModelActivations("timed", TimedBrainModel(bins_returned))
    return TemporalBrainModel(inner, parse_time_mapping({"time_mapping": {"IT": [70, 50, 3]}}, "timed"))


def test_a_brain_model_is_recorded_in_time(kar_store, tmp_path):
    _, folder = kar_store
    model = _brain_model()
    extract_temporal(model, folder, {"IT": tmp_path / "IT.nc"}, batch_size=8, num_workers=0)
    layer = xr.open_dataarray(tmp_path / "IT.nc")
    assert layer.dims == ("presentation", "neuroid", "time_bin") and layer.shape == (20, 16, 3)
    np.testing.assert_allclose(layer.values[:, :, 2], 3 * layer.values[:, :, 0])
    assert model.inner.brain_model.time_bins == [(70, 120), (120, 170), (170, 220)]  # start_recording honoured


def test_a_brain_model_with_the_wrong_number_of_bins_stops_and_writes_nothing(kar_store, tmp_path):
    _, folder = kar_store
    with pytest.raises(ValueError, match=r"look_at returned shape \(8, 16, 2\).*3 time bins.*model_zoo.timed"
                                         r".time_mapping.IT"):
        extract_temporal(_brain_model(bins_returned=2), folder, {"IT": tmp_path / "IT.nc"}, 8, 0)
    assert not list(tmp_path.iterdir())


def test_extraction_runs_one_forward_per_batch_for_all_steps(kar_store, tmp_path):
    _, folder = kar_store
    model = temporal_model("rnn", RNN, "cpu")
    calls = []
    network = model.inner.network
    network.register_forward_hook(lambda *args: calls.append(1))
    extract_temporal(model, folder, {"IT.output": tmp_path / "IT.nc"}, batch_size=8, num_workers=0)
    assert len(calls) == 3  # 20 images in batches of 8: three forwards, each giving all 3 steps
    assert xr.open_dataarray(tmp_path / "IT.nc")["time_step"].values.tolist() == [0, 1, 2]


def test_a_mapped_step_the_network_lacks_stops_before_writing(kar_store, tmp_path):
    _, folder = kar_store
    with pytest.raises(ModelSourceError, match=r"model_zoo.rnn.time_mapping: step\(s\) \[3\]"):
        extract_temporal(temporal_model("rnn", RNN, "cpu"), folder, {"IT.output": tmp_path / "IT.nc"}, 8, 0,
                         expected_steps={"IT.output": ([0, 3], "model_zoo.rnn.time_mapping")})
    assert not list(tmp_path.iterdir())


# ---- OST data -------------------------------------------------------------------------------------------------

def test_ost_target_drops_duplicates_and_selects_svm(kar_store):
    root, _ = kar_store
    assembly = load_ost_assembly(root / "assy_dicarlo_Kar2019.nc", root / "stimulus_Kar2019.csv")
    assert assembly.sizes == {"decoder": 2, "presentation": 22}
    target = prepare_target(assembly)
    ids = target["stimulus_id"].values.astype(str)
    assert len(ids) == 20 and list(ids) == sorted(ids) and target.attrs["duplicates_dropped"] == 2
    np.testing.assert_array_equal(target["truth"].values, target["image_label"].values)
    first = {}
    for k, i in enumerate(assembly["stimulus_id"].values.astype(str)):
        first.setdefault(i, k)
    np.testing.assert_array_equal(target.values, assembly.values[0, [first[i] for i in ids]])  # svm row


def test_ost_target_with_images_missing_from_the_stimuli_names_the_file(kar_store, tmp_path):
    import pandas as pd

    root, _ = kar_store
    table = pd.read_csv(root / "stimulus_Kar2019.csv")
    table.iloc[:-1].to_csv(tmp_path / "short.csv", index=False)
    with pytest.raises(ValueError, match=r"assy_dicarlo_Kar2019.nc: 1 stimulus_id\(s\) of the OST target are not "
                                         r"in the stimulus set .*short.csv"):
        load_ost_assembly(root / "assy_dicarlo_Kar2019.nc", tmp_path / "short.csv")


def test_an_ost_file_without_i1_names_the_coordinate(kar_store, tmp_path):
    root, _ = kar_store
    assembly = xr.open_dataarray(root / "assy_dicarlo_Kar2019.nc").load().drop_vars("i1")
    assembly.to_netcdf(tmp_path / "bad.nc")
    with pytest.raises(ValueError, match="bad.nc: missing coordinate 'i1'"):
        load_ost_assembly(tmp_path / "bad.nc")


# ---- brainpipe.score with an in-memory recurrent network ----------------------------------------------------------

@pytest.mark.slow
def test_in_memory_recurrent_network_scores_the_ost_demo(tmp_path, monkeypatch):
    import importlib.util
    import brainpipe

    import yaml

    # the demo's full 320 images: with the tiny grid's 160, a 10 % test split can miss one of the 8 shapes, and
    # the OST's false-alarm rate is then undefined (Brain-Score fails there too)
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    (tmp_path / "config").mkdir()
    (tmp_path / "config/config.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.chdir(tmp_path)
    spec = importlib.util.spec_from_file_location("recurrent_net", ROOT / "tests/models/recurrent_net.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    net = module.build()
    s = brainpipe.score(net, "SyntheticShapesOST-ost", name="my_rnn", layers={"IT": "IT.output"},
                        time_mapping={"IT": [70, 60, 3]}, preprocessing={"image_size": 32}, quiet=True)
    assert np.isfinite(s.raw) and s.ceiling == 1.0  # simulated data: no ceiling, score = raw
    layer = xr.open_dataarray(next(Path("results/activations/my_rnn").glob("*/IT.output.nc")))
    assert layer["time_step"].values.tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match=r"brainpipe.score\(name='bad'\).*time_mapping.IT.*overlap"):
        brainpipe.score(net, "SyntheticShapesOST-ost", name="bad", layers={"IT": "IT.output"},
                        time_mapping={"IT": {0: [70, 130], 1: [100, 150]}}, quiet=True)
