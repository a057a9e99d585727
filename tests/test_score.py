"""brainpipe.score.aggregate against hand computation (brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py)."""

import math

import pytest

from brainpipe.benchmarks import parse
from brainpipe.pipeline.scoring import aggregate, fold_summary

FOLDS = [
    {"fold": 2, "values": [0.1, 0.5, 0.3]},           # median 0.3
    {"fold": 0, "values": [0.2, float("nan"), 0.6, 0.4]},  # nanmedian 0.4
    {"fold": 1, "values": [0.9, 0.1]},                 # median 0.5
]
CEILING = {"ceiling": 0.8, "error": 0.01}


def hand():
    per_fold = [0.4, 0.5, 0.3]  # in fold order
    raw = sum(per_fold) / 3
    sd = math.sqrt(sum((v - raw) ** 2 for v in per_fold) / 3)  # ddof 0
    return per_fold, raw, sd / math.sqrt(3)


def test_regression_aggregate():
    per_fold, raw, error = hand()
    result = aggregate(parse("SyntheticShapes.IT-pls"), FOLDS, CEILING)
    assert result["per_fold"] == pytest.approx(per_fold)
    assert result["raw"] == pytest.approx(raw)
    assert result["error"] == pytest.approx(error)
    assert result["score"] == pytest.approx(raw ** 2 / 0.8)  # explained_variance: raw² / ceiling
    assert result["ceiling"] == 0.8 and result["ceiling_error"] == 0.01
    assert result["n_folds"] == 3 and result["above_ceiling"] is False


def test_representational_aggregate():
    folds = [{"fold": k, "value": v} for k, v in enumerate([0.5, 0.7, 0.6])]
    result = aggregate(parse("SyntheticShapes.IT-rdm_cv"), folds, {"ceiling": 0.9, "error": 0.0})
    assert result["raw"] == pytest.approx(0.6)
    assert result["score"] == pytest.approx(0.6 / 0.9)  # RSABenchmark: raw / ceiling
    assert result["error"] == pytest.approx(math.sqrt(((0.1 ** 2) * 2) / 3) / math.sqrt(3))


def test_above_ceiling_flag_not_clipped():
    folds = [{"fold": 0, "values": [0.95, 0.95]}, {"fold": 1, "values": [0.97]}]
    result = aggregate(parse("SyntheticShapes.IT-pls"), folds, {"ceiling": 0.8, "error": 0.0})
    assert result["score"] == pytest.approx(0.96 ** 2 / 0.8) and result["score"] > 1
    assert result["above_ceiling"] is True


def test_single_fold_error_is_null():
    """One fold has no spread to estimate an error from: null in the JSON (shown as n/a), not 0."""
    result = aggregate(parse("SyntheticShapes.IT-pls_split"), [{"fold": 0, "values": [0.2, 0.4]}],
                       {"ceiling": 0.5, "error": 0.0})
    assert result["raw"] == pytest.approx(0.3) and result["error"] is None


def test_temporal_per_bin():
    folds = [{"fold": 0, "values": [[0.1, 0.3, 0.2], [0.5, 0.4, 0.6]], "time_bin_start": [70, 80],
              "time_bin_end": [80, 90]},
             {"fold": 1, "values": [[0.3, 0.3, 0.3], [0.7, 0.7, 0.7]], "time_bin_start": [70, 80],
              "time_bin_end": [80, 90]}]
    result = aggregate(parse("SyntheticShapes.IT-spantime_pls"), folds, {"ceiling": [0.5, 0.8], "error": [0, 0]})
    raw = [0.25, 0.6]  # per bin: mean over folds of the median over neuroids
    assert result["raw_per_time_bin"] == pytest.approx(raw)
    assert result["score_per_time_bin"] == pytest.approx([0.25 ** 2 / 0.5, 0.6 ** 2 / 0.8])
    assert result["score"] == pytest.approx((0.25 ** 2 / 0.5 + 0.6 ** 2 / 0.8) / 2)
    assert result["time_bin_start"] == [70, 80]


def test_fold_summary():
    assert fold_summary({"value": 0.3}) == 0.3
    assert fold_summary({"values": [1, 2, float("nan"), 10]}) == 2


def test_best_layer_of_a_sweep_passes_over_layers_without_a_score():
    """A sweep where some layers' ceiling is NaN (score null, Cadena2017-mask): the best of the scored ones; the
    first of equal ones; None where no layer has a score (max over None raised TypeError before)."""
    from brainpipe.pipeline.headline import best_layer

    assert best_layer({"a": 0.2, "b": None, "c": 0.5, "d": float("nan")}) == "c"
    assert best_layer({"a": 0.5, "b": 0.5}) == "a"
    assert best_layer({"a": None, "b": float("nan")}) is None
    assert best_layer({"a": -0.1}) == "a"
