"""brainpipe.neural.metrics.run_fold: Brain-Score's small metric tests (brain-score/vision brainscore_vision/metrics/regression_correlation/test.py) fold by fold."""

import numpy as np
import pytest
import scipy.stats
import xarray as xr
from sklearn.linear_model import Ridge
from sklearn.model_selection import StratifiedShuffleSplit

from brainpipe.benchmarks import parse
from brainpipe.neural.metrics import align, fold_indices, gram_matrix, run_fold, run_fold_gram, uses_gram


def peer_assembly(seed=0, split=False):
    """brain-score metrics/regression_correlation/test.py: 30×25, arange(750) + N(0,1), object_name a/b/c × 10."""
    rng = np.random.default_rng(seed)
    values = (np.arange(30 * 25) + rng.standard_normal(30 * 25)).reshape(30, 25)
    coords = {"stimulus_id": ("presentation", [f"s{k:02d}" for k in range(30)]),
              "object_name": ("presentation", ["a", "b", "c"] * 10),
              "neuroid_id": ("neuroid", [f"n{k}" for k in range(25)])}
    if split:
        coords["split"] = ("presentation", ["train"] * 24 + ["test"] * 6)
    return xr.DataArray(values, dims=("presentation", "neuroid"), coords=coords)


def test_pls_self_regression_is_one():
    benchmark = parse("SyntheticShapes.IT-pls")
    x = peer_assembly()
    for fold in range(10):
        result = run_fold(benchmark, x, x, fold)
        assert result["n_train"] == 27 and result["n_test"] == 3
        np.testing.assert_allclose(result["values"], 1, atol=1e-5)
        assert result["neuroid_id"] == [f"n{k}" for k in range(25)]


def test_folds_are_stratified_shuffle_splits_of_target_order():
    benchmark = parse("SyntheticShapes.IT-pls")
    x = peer_assembly()
    labels = x["object_name"].values
    splitter = StratifiedShuffleSplit(n_splits=10, train_size=0.9, test_size=None, random_state=1)
    for fold, (train, test) in enumerate(splitter.split(np.zeros(30), labels)):
        result = run_fold(benchmark, x, x, fold)
        assert result["test_stimulus_ids"] == x["stimulus_id"].values[np.sort(test)].tolist()
        assert sorted(labels[test]) == ["a", "b", "c"]


def test_misaligned_source_is_realigned():
    benchmark = parse("SyntheticShapes.IT-ridge")
    target = peer_assembly(seed=1)
    source = peer_assembly(seed=2)  # a different, related representation
    shuffled = source.isel(presentation=np.random.default_rng(3).permutation(30))
    for fold in (0, 4):
        aligned = run_fold(benchmark, source, target, fold)
        realigned = run_fold(benchmark, shuffled, target, fold)
        np.testing.assert_allclose(realigned["values"], aligned["values"], rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(align(shuffled, target).values, source.values)


def test_missing_stimuli():
    target = peer_assembly()
    source = target.isel(presentation=slice(0, 28))
    with pytest.raises(ValueError, match="lacks 2 stimuli"):
        run_fold(parse("SyntheticShapes.IT-pls"), source, target, 0)


def test_split_metric_uses_split_coordinate():
    benchmark = parse("SyntheticShapes.IT-ridge_split")
    x = peer_assembly(split=True)
    result = run_fold(benchmark, x, x, 0)
    assert result["n_train"] == 24 and result["n_test"] == 6
    assert result["test_stimulus_ids"] == [f"s{k:02d}" for k in range(24, 30)]
    # reference: sklearn Ridge(alpha=1) fitted on the 'train' rows, scipy pearsonr on the 'test' rows
    X = x.values
    prediction = Ridge(alpha=1).fit(X[:24], X[:24]).predict(X[24:])
    expected = [scipy.stats.pearsonr(prediction[:, k], X[24:, k])[0] for k in range(25)]
    np.testing.assert_allclose(result["values"], expected, rtol=1e-6, atol=1e-6)


def test_split_metric_without_split_coordinate():
    x = peer_assembly()
    with pytest.raises(ValueError, match="'split'"):
        run_fold(parse("SyntheticShapes.IT-pls_split"), x, x, 0)


def test_rdm_cv_is_test_only_with_test_size_09():
    benchmark = parse("SyntheticShapes.IT-rdm_cv")
    x = peer_assembly()
    labels = x["object_name"].values
    splitter = StratifiedShuffleSplit(n_splits=10, train_size=None, test_size=0.9, random_state=1)
    for fold, (_, test) in enumerate(splitter.split(np.zeros(30), labels)):
        if fold > 2:
            break
        result = run_fold(benchmark, x, x, fold)
        assert result["n_train"] == 0 and result["n_test"] == 27
        assert result["test_stimulus_ids"] == x["stimulus_id"].values[np.sort(test)].tolist()
        assert result["value"] == pytest.approx(1)


def test_rdm_whole_set_single_fold():
    benchmark = parse("SyntheticShapes.IT-rdm")
    x = peer_assembly()
    train, test = fold_indices(benchmark, x, 0)
    assert train is None and test.tolist() == list(range(30))
    with pytest.raises(ValueError, match="out of range"):
        fold_indices(benchmark, x, 1)


def test_missing_stratification_coordinate():
    x = peer_assembly().drop_vars("object_name")
    with pytest.raises(ValueError, match="object_name"):
        run_fold(parse("SyntheticShapes.IT-pls"), x, x, 0)


def test_settings_change_folds():
    benchmark = parse("SyntheticShapes.IT-pls", {"splits": 3, "train_size": 0.8, "pls_components": 5})
    x = peer_assembly()
    result = run_fold(benchmark, x, x, 2)
    assert result["n_train"] == 24 and result["n_test"] == 6
    with pytest.raises(ValueError, match="out of range"):
        run_fold(benchmark, x, x, 3)


@pytest.mark.parametrize("metric", ["pls", "ridge", "ridgecv", "linear", "ridge_split"])
def test_gram_fold_equals_activation_fold(metric):
    """A fold fitted from the layer's Gram matrix (the workflow's path) gives the activations path's r values,
    also when the Gram's stimulus order differs from the target's."""
    rng = np.random.default_rng(3)
    latent = rng.standard_normal((60, 5))
    source = xr.DataArray((latent @ rng.standard_normal((5, 200)) + 0.5 * rng.standard_normal((60, 200)))
                          .astype(np.float32), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ("presentation", [f"s{k:02d}" for k in range(60)])})
    target = xr.DataArray(latent @ rng.standard_normal((5, 8)) + rng.standard_normal((60, 8)),
                          dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ("presentation", [f"s{k:02d}" for k in range(60)]),
                                  "object_name": ("presentation", ["a", "b", "c"] * 20),
                                  "split": ("presentation", ["train"] * 48 + ["test"] * 12),
                                  "neuroid_id": ("neuroid", [f"n{k}" for k in range(8)])})
    benchmark = parse(f"SyntheticShapes.IT-{metric}")
    assert uses_gram(benchmark)
    shuffled = source.isel(presentation=rng.permutation(60))
    gram = gram_matrix(shuffled)
    assert gram.attrs["n_features"] == 200
    for fold in range(benchmark.n_folds)[:3]:
        expected = run_fold(benchmark, source, target, fold)
        got = run_fold_gram(benchmark, gram, target, fold)
        assert got["test_stimulus_ids"] == expected["test_stimulus_ids"]
        np.testing.assert_allclose(got["values"], expected["values"], atol=2e-4)


def test_gram_not_used_for_other_metrics():
    for metric in ("neuron_to_neuron", "rdm", "cka_cv", "spantime_pls"):
        assert not uses_gram(parse(f"SyntheticShapes.IT-{metric}"))


def test_neuron_to_neuron_constant_target_names_neuroids_and_file(tmp_path):
    """A target neuroid constant over a fold's training stimuli has no defined r: the fold stops with the neuroid
    ids, the benchmark, the fold and the target file (Brain-Score's nanargmax raises too), never a number."""
    from brainpipe.io import read_netcdf, write_netcdf

    x = peer_assembly()
    target = x.copy()
    target[:, 3] = 5.0
    target[:, 17] = 0.0
    path = tmp_path / "target.nc"
    write_netcdf(target, path)
    target = read_netcdf(path)
    benchmark = parse("SyntheticShapes.IT-neuron_to_neuron")
    with pytest.raises(ValueError) as caught:
        run_fold(benchmark, x, target, 2)
    message = str(caught.value)
    for expected in (benchmark.identifier, "fold 2", "n3, n17", str(path), "27 training stimuli", "remove it"):
        assert expected in message, (expected, message)
    assert "nan" not in message.lower().replace("nanargmax", "")


def test_pls_components_above_what_the_data_allow_are_capped_and_said_so():
    """30 stimuli × 25 features, 27 training stimuli per fold: at most 25 components. Asking for 100 fits 25 and
    records it in the fold (and so in the score) with what to change; asking for what fits records nothing."""
    from brainpipe.pipeline.scoring import aggregate

    x = peer_assembly()
    asked = parse("SyntheticShapes.IT-pls", {"pls_components": 100})
    folds = [run_fold(asked, x, x, 0), run_fold_gram(asked, gram_matrix(x), x, 1)]
    for fold in folds:
        capped = fold["pls_components_capped"]
        assert (capped["requested"], capped["used"]) == (100, 25)
        assert "25 features" in capped["why"] and "pls_components to at most 25" in capped["why"]
    assert folds[1]["n_components"] == 25  # what the Gram fit reports it used
    score = aggregate(asked, folds, {"ceiling": 0.9, "error": 0.0})
    assert score["pls_components_capped"]["used"] == 25
    fitting = parse("SyntheticShapes.IT-pls", {"pls_components": 25})
    assert "pls_components_capped" not in run_fold_gram(fitting, gram_matrix(x), x, 0)
    assert "pls_components_capped" not in aggregate(fitting, [run_fold(fitting, x, x, 0)], {"ceiling": 0.9, "error": 0})
