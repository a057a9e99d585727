"""A score that cannot be computed says why (issue 37, item 1), through the functions the fold, score_layer and score
stages call, on real NetCDF and JSON files: a layer of numerical rank 10 with 30 features scored with PLS, recordings
without a defined Pearson r, and a NaN ceiling; and brainpipe.api.Score reads a null score as NaN with its reason."""

import math
import warnings

import numpy as np
import pytest
import xarray as xr
from sklearn.cross_decomposition import PLSRegression as SkPLS

from brainpipe.api import Score
from brainpipe.benchmarks import parse
from brainpipe.io import read_json, read_netcdf, write_json, write_netcdf
from brainpipe.io.netcdf_arrays import read_arrays
from brainpipe.neural.metrics import fold_indices, gram_matrix, run_fold_gram
from brainpipe.neural.stats import pearson_columns
from brainpipe.pipeline.headline import headline
from brainpipe.pipeline.scoring import aggregate

N_STIMULI, N_FEATURES, RANK, N_NEUROIDS = 100, 30, 10, 12
BENCHMARK = "SyntheticShapes.IT-pls"  # 10 folds stratified by object_name, 25 PLS components


def rank_deficient_layer(seed=0):
    """30 float32 features spanned by 10 latents (duplicated, mixed units: what a narrow or dead layer gives)."""
    rng = np.random.default_rng(seed)
    latents = rng.standard_normal((N_STIMULI, RANK))
    return (latents @ rng.standard_normal((RANK, N_FEATURES))).astype(np.float32), latents


def write_files(folder, X, Y):
    ids = [f"image_{i:03d}" for i in range(N_STIMULI)]
    layer = xr.DataArray(X, dims=("presentation", "neuroid"),
                         coords={"stimulus_id": ("presentation", ids),
                                 "neuroid_id": ("neuroid", [f"unit_{j}" for j in range(X.shape[1])])})
    target = xr.DataArray(Y, dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ("presentation", ids),
                                  "object_name": ("presentation", [f"object_{i % 5}" for i in range(N_STIMULI)]),
                                  "neuroid_id": ("neuroid", [f"n{j}" for j in range(Y.shape[1])])})
    write_netcdf(layer, folder / "layer.nc")
    write_netcdf(target, folder / "target.nc")
    # the gram stage: the layer's Gram matrix, written and read back as the fold jobs read it
    write_netcdf(gram_matrix(read_netcdf(folder / "layer.nc")), folder / "gram.nc")


def score_through_stages(folder, ceiling):
    """fit_fold (every fold, from the Gram) -> score_layer -> score, each result written and read back as JSON."""
    benchmark = parse(BENCHMARK)
    gram = read_arrays(folder / "gram.nc", required_coords=("stimulus_id",))
    target = read_arrays(folder / "target.nc", required_coords=("stimulus_id", "neuroid_id"))
    folds = []
    for fold in range(benchmark.n_folds):
        write_json(run_fold_gram(benchmark, gram, target, fold), folder / f"fold{fold}.json")
        folds.append(read_json(folder / f"fold{fold}.json"))
    write_json(ceiling, folder / "ceiling.json")
    layer = dict(aggregate(benchmark, folds, read_json(folder / "ceiling.json")), model="m", benchmark=BENCHMARK,
                 layer="narrow")
    write_json(layer, folder / "layer.json")
    result = headline({"narrow": read_json(folder / "layer.json")}, "narrow", {}, {}, {}, {})
    write_json(result, folder / "score.json")
    return benchmark, folds, read_json(folder / "score.json")


def test_rank_deficient_layer_scores_with_the_components_its_rank_allows(tmp_path):
    """Before: components past the layer's rank fitted the Gram's rounding, a square root of a negative residual
    made every prediction NaN, and the score JSON held ``score: null`` with no reason (the API then raised
    TypeError). Now the fit stops at the numerical rank, gives scikit-learn's PLS with that many components, and
    the score JSON says so."""
    X, latents = rank_deficient_layer()
    rng = np.random.default_rng(1)
    Y = latents[:, :4] @ rng.standard_normal((4, N_NEUROIDS)) + rng.standard_normal((N_STIMULI, N_NEUROIDS))
    write_files(tmp_path, X, Y)
    ceiling = {"ceiling": 0.8, "error": 0.01}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fit's own warning; the JSON's record is what is checked
        benchmark, folds, result = score_through_stages(tmp_path, ceiling)
    target = read_netcdf(tmp_path / "target.nc")
    for fold in folds:
        assert fold["n_components"] == RANK and fold["rank_floor_at"] == RANK
        # scikit-learn's PLSRegression with the components the rank allows, on the same fold
        train, test = fold_indices(benchmark, target, fold["fold"])
        reference = SkPLS(n_components=RANK, scale=False).fit(X[train], Y[train]).predict(X[test])
        np.testing.assert_allclose(fold["values"], pearson_columns(reference, Y[test]), atol=1e-6)
    assert math.isfinite(result["score"]) and "reason" not in result
    capped = result["pls_components_capped"]
    assert capped["requested"] == 25 and capped["used"] == RANK
    assert "numerical rank 10" in capped["why"] and "pls_components" in capped["why"]
    score = Score(result)
    assert float(score) == pytest.approx(result["raw"] ** 2 / 0.8)


def test_undefined_correlations_give_nan_with_the_folds_named(tmp_path):
    """Folds whose every neuroid has no Pearson r (as the fold stage writes them: nulls): raw NaN, and the score
    JSON's null carries a one-line reason naming the folds; the headline keeps it, and the API's Score is NaN with
    it (before: no reason, and TypeError)."""
    for fold in range(10):
        values = [None, None] if fold in (3, 7) else [0.4, 0.5]
        write_json({"fold": fold, "values": values, "neuroid_id": ["n0", "n1"]}, tmp_path / f"fold{fold}.json")
    folds = [read_json(tmp_path / f"fold{fold}.json") for fold in range(10)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numpy's "All-NaN slice" of the two empty folds
        layer = aggregate(parse(BENCHMARK), folds, {"ceiling": 0.8, "error": 0.01})
    write_json(layer, tmp_path / "layer.json")
    result = headline({"L": read_json(tmp_path / "layer.json")}, "L", {}, {}, {}, {})
    assert result["score"] is None and result["raw"] is None
    assert result["reason"] == ("raw is NaN: in folds 3, 7 of 10 every neuroid's Pearson r is undefined (the "
                                "predictions or the recordings are constant over the test stimuli)")
    score = Score(result)
    assert math.isnan(score) and score.reason == result["reason"]
    assert "raw=n/a" in repr(score)


def test_headline_gives_a_reason_where_its_layer_has_none():
    """A null score from a stage that gave no reason still gets one in the headline."""
    result = headline({"L": {"score": None, "raw": 0.0, "ceiling": 0.0}}, "L", {}, {}, {}, {})
    assert result["reason"] == "raw 0 over ceiling 0 gives no number"


def test_nan_ceiling_gives_a_reason_and_a_nan_score(tmp_path):
    """A NaN ceiling (written as null, as Brain-Score's Cadena2017-mask ceiling): score null with a reason that
    names the ceiling, in the layer JSON and the headline; Score is NaN with the reason in its attributes."""
    X, latents = rank_deficient_layer()
    rng = np.random.default_rng(2)
    Y = latents[:, :3] @ rng.standard_normal((3, N_NEUROIDS)) + rng.standard_normal((N_STIMULI, N_NEUROIDS))
    write_files(tmp_path, X, Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, _, result = score_through_stages(tmp_path, {"ceiling": float("nan"), "error": float("nan")})
    assert result["score"] is None and math.isfinite(result["raw"])
    assert result["reason"] == "the ceiling is NaN (see the benchmark's ceiling file)"
    assert read_json(tmp_path / "layer.json")["reason"] == result["reason"]
    score = Score(result)
    assert math.isnan(score) and score.reason == result["reason"] and score.attrs["reason"] == result["reason"]
    assert f"reason={result['reason']!r}" in repr(score)


def test_zero_ceiling_says_why():
    """raw² / 0: no number (written as null), and the one-line reason says so."""
    folds = [{"fold": k, "values": [0.3, 0.5]} for k in range(3)]
    result = aggregate(parse(BENCHMARK), folds, {"ceiling": 0.0, "error": 0.0})
    assert not math.isfinite(result["score"]) and result["reason"] == "raw 0.4 over ceiling 0 gives no number"


@pytest.mark.slow  # a real workflow run (about a minute on 2 cores)
def test_rank_deficient_layer_through_brainpipe_score(repo_config):
    """The issue's case end to end: a 30-unit layer behind a 10-unit bottleneck (rank 10) scored with PLS through
    the workflow. Before: the run succeeded with ``score: null`` and brainpipe.score raised TypeError. Now the score
    is a number and says it was fitted with the 10 components the layer's rank allows."""
    import torch

    import brainpipe

    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 5, stride=4), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(4),
                              torch.nn.Flatten(), torch.nn.Linear(128, RANK), torch.nn.Linear(RANK, N_FEATURES))
    score = brainpipe.score(net, "SyntheticShapes.IT-pls", name="bottleneck", layers={"V4": "1", "IT": "5"},
                            preprocessing={"image_size": 32})
    assert math.isfinite(score) and math.isfinite(score.raw) and "reason" not in score.attrs
    capped = score.attrs["pls_components_capped"]
    assert capped["used"] == RANK and "numerical rank 10" in capped["why"]
    fold = read_json(repo_config / "results/bottleneck/SyntheticShapes.IT-pls/layers/5/fold0.json")
    assert fold["n_components"] == fold["rank_floor_at"] == RANK and all(map(math.isfinite, fold["values"]))
