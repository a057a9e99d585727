"""brainpipe.benchmarks.folds: each benchmark kind's fold on real NetCDF files gives what the library function it
wraps gives on the same files (the fit_fold job's numbers), with the job's record and log lines, and a kind with no
fold is refused with the registered kinds."""

import json

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import stages
from brainpipe.benchmarks.folds import FOLDS, FoldJob, fit_fold, register_fold
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.neural.metrics import gram_matrix, run_fold, run_fold_gram

RECORD = {"model": "m", "benchmark": "b", "layer": "layer1", "metric": "x"}


def _files(tmp_path, n=40, features=30, neuroids=3, seed=0):
    """A layer's activations and its Gram matrix, and averaged recordings of the same stimuli in another order."""
    rng = np.random.default_rng(seed)
    ids = ("presentation", np.array([f"s{k:02d}" for k in range(n)], dtype=object))
    source = xr.DataArray(rng.standard_normal((n, features)).astype(np.float32), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ids,
                                  "neuroid_id": ("neuroid", np.array([f"u{k}" for k in range(features)], dtype=object))})
    signal = source.values[:, :neuroids] + 0.5 * rng.standard_normal((n, neuroids))
    target = xr.DataArray(signal.astype(np.float32), dims=("presentation", "neuroid"), coords={
        "stimulus_id": ids, "object_name": ("presentation", np.array(["a", "b"] * (n // 2), dtype=object)),
        "neuroid_id": ("neuroid", np.array(list("xyz"[:neuroids]), dtype=object))})
    paths = {name: tmp_path / f"{name}.nc" for name in ("activations", "gram", "target")}
    write_netcdf(source, paths["activations"])
    write_netcdf(gram_matrix(source), paths["gram"])
    write_netcdf(target.isel(presentation=rng.permutation(n)), paths["target"])
    return paths


def _plain(result):
    """The fold as its JSON file holds it, without the timing."""
    result = json.loads(json.dumps(result))
    assert result.pop("seconds") >= 0
    return result


def test_a_gram_regression_fold_is_run_fold_gram_with_its_record(tmp_path):
    paths = _files(tmp_path)
    benchmark = benchmarks.parse("SyntheticShapes.IT-pls")
    result, lines = fit_fold(benchmark, FoldJob(str(paths["gram"]), str(paths["target"]), 3, "layer1",
                                                record=RECORD))
    expected = run_fold_gram(benchmark, read_netcdf(paths["gram"]), read_netcdf(paths["target"]), 3)
    assert _plain(result) == json.loads(json.dumps(dict(expected, **RECORD)))
    assert list(result)[-5:] == [*RECORD, "seconds"]
    assert lines == [f"fold 3: 30 features -> 3 neuroids, 36 train / 4 test, {result['seconds']} s"]


def test_a_capped_pls_fold_warns_in_the_log(tmp_path):
    paths = _files(tmp_path, features=60)
    benchmark = benchmarks.parse("SyntheticShapes.IT-pls", {"pls_components": 50})
    result, lines = fit_fold(benchmark, FoldJob(str(paths["gram"]), str(paths["target"]), 0, "layer1"))
    assert result["pls_components_capped"]["used"] == 35
    assert lines[0] == f"WARNING: {result['pls_components_capped']['why']}" and len(lines) == 2


def test_a_representational_fold_is_run_fold_on_the_cpu(tmp_path):
    paths = _files(tmp_path)
    benchmark = benchmarks.parse("SyntheticShapes.IT-rdm")
    result, lines = fit_fold(benchmark, FoldJob(str(paths["activations"]), str(paths["target"]), 0, "layer1",
                                                device="cuda"))  # never asked for: it computes in numpy
    expected = run_fold(benchmark, read_netcdf(paths["activations"]), read_netcdf(paths["target"]), 0)
    assert _plain(result) == json.loads(json.dumps(expected))
    assert lines[-1].startswith("fold 0: 30 features -> 3 neuroids, 0 train / 40 test")


def test_a_regression_over_the_activations_runs_on_the_configured_device(tmp_path):
    paths = _files(tmp_path)
    benchmark = benchmarks.parse("SyntheticShapes.IT-neuron_to_neuron")
    result, _ = fit_fold(benchmark, FoldJob(str(paths["activations"]), str(paths["target"]), 1, "layer1",
                                            device="cpu"))
    expected = run_fold(benchmark, read_netcdf(paths["activations"]), read_netcdf(paths["target"]), 1)
    assert _plain(result) == json.loads(json.dumps(expected))


def test_a_plugins_compare_is_one_fold(tmp_path):
    (tmp_path / "mine.py").write_text(
        "from brainpipe.benchmarks import CustomBenchmark\n"
        "class Mine(CustomBenchmark):\n family='MineFold'\n data='SyntheticShapes'\n regions=('IT',)\n metric='own'\n"
        " def ceiling(self, trials):\n  return {'ceiling': 1.0}\n"
        " def compare(self, activations, target):\n"
        "  assert list(activations['stimulus_id'].values) == list(target['stimulus_id'].values)\n"
        "  return {'raw': float(activations.values[:, 0] @ target.values[:, 0]), 'error': 0.25}\n")
    benchmark = benchmarks.load("MineFold.IT-own", {"benchmark_plugins": [str(tmp_path / "mine.py")]})
    paths = _files(tmp_path)
    result, lines = fit_fold(benchmark, FoldJob(str(paths["activations"]), str(paths["target"]), 0, "layer1"))
    source, target = read_netcdf(paths["activations"]), read_netcdf(paths["target"])
    aligned = source.isel(presentation=[list(source["stimulus_id"].values).index(s)
                                       for s in target["stimulus_id"].values])
    raw = float(aligned.values[:, 0] @ target.values[:, 0])
    assert _plain(result) == {"fold": 0, "value": pytest.approx(raw), "plugin_error": 0.25, "n_train": 0,
                              "n_test": 40}
    assert lines[-1].startswith("fold 0: 30 features -> 3 neuroids, 0 train / 40 test")


def test_a_behavioural_fold_is_the_one_comparison(tmp_path):
    benchmark = benchmarks.parse("Geirhos2021colour-top1")
    ids = np.array([f"i{k}" for k in range(6)], dtype=object)
    truth = np.array(["dog", "cat", "car", "dog", "cat", "car"], dtype=object)
    model = xr.DataArray(np.array([["dog", "cat", "dog", "dog", "car", "car"]], dtype=object),
                         dims=("choice", "presentation"), coords={"stimulus_id": ("presentation", ids)})
    human = xr.DataArray(truth.copy(), dims=("presentation",), coords={"stimulus_id": ("presentation", ids),
                                                                       "truth": ("presentation", truth)})
    write_netcdf(model, tmp_path / "model.nc")
    write_netcdf(human, tmp_path / "human.nc")
    result, lines = fit_fold(benchmark, FoldJob(str(tmp_path / "model.nc"), str(tmp_path / "human.nc"), 0, "logits",
                                                record=RECORD))
    stored = read_netcdf(tmp_path / "human.nc")
    stored.attrs["source"] = str(tmp_path / "human.nc")
    assert _plain(result) == dict(stages.comparison(benchmark, read_netcdf(tmp_path / "model.nc"), stored), **RECORD)
    assert result["value"] == pytest.approx(4 / 6)
    assert lines == ["accuracy: raw 0.6667 on 6 human presentations"]


def test_a_kind_without_a_fold_is_refused_with_the_registered_kinds():
    properties = benchmarks.parse("Marques2020_Ringach2002-or_bandwidth")  # scored by its own stages
    with pytest.raises(ValueError, match=r"no fold for benchmark kind 'properties'; registered: behaviour, custom"):
        fit_fold(properties, FoldJob("a.nc", "b.nc", 0, "layer1"))

    def other(benchmark, job):
        return {}, []
    with pytest.raises(ValueError, match=r"fold kind 'behaviour' is registered twice"):
        register_fold("behaviour")(other)
    assert set(FOLDS) == {"behaviour", "custom", "regression", "representational", "reverse", "temporal"}


def test_a_temporal_layer_is_read_on_the_recordings_time_bins():
    """Brain-Score asks a temporal model for the aligned recordings' bins; brainpipe's layer is on the benchmark's
    declared bins (the real file's): a file that ends earlier takes its bins out of them, the same numbers as a
    request for those bins; a bin the layer lacks is named; a static layer is untouched."""
    import numpy as np
    import pytest
    import xarray as xr

    from brainpipe.benchmarks.folds import on_target_bins

    def timed(starts, values=None):
        starts = np.asarray(starts)
        values = np.arange(2 * 3 * len(starts), dtype=float).reshape(2, 3, len(starts)) if values is None else values
        return xr.DataArray(values, dims=("presentation", "neuroid", "time_bin"),
                            coords={"time_bin_start": ("time_bin", starts), "time_bin_end": ("time_bin", starts + 10)})

    layer = timed(np.arange(0, 290, 10))  # 29 declared bins
    recordings = timed(np.arange(0, 70, 10), np.zeros((2, 3, 7)))  # a file ending at 80 ms: 7 aligned bins
    picked = on_target_bins(layer, recordings, "layer.nc")
    assert picked.sizes["time_bin"] == 7 and (picked.values == layer.values[:, :, :7]).all()
    assert on_target_bins(layer, layer, "layer.nc") is layer
    static = xr.DataArray(np.ones((2, 3)), dims=("presentation", "neuroid"))
    assert on_target_bins(static, recordings, "layer.nc") is static
    with pytest.raises(ValueError, match=r"layer\.nc: the layer has no time bin \[290, 300\] ms"):
        on_target_bins(layer, timed([280, 290]), "layer.nc")
