"""brainpipe's OST metric against Brain-Score's own (brainscore_vision/metrics/ost/metric.py, TensorFlow classifier).

The stored numbers come from tests/reference/make_ost_reference.py, run in a separate environment with
brainscore-vision 2.4.2 and tensorflow-cpu 2.21.0 (tests/data/ost_reference.json says which versions and command);
nothing here needs TensorFlow or a network.

* ``fixed_*``: Brain-Score's metric with the classifier replaced by a stub answering given probabilities (edge cases
  included: one-hot rows, all-zero rows, repeated rows): the deterministic parts must match exactly;
* ``tf_*``: Brain-Score's metric with its TensorFlow classifier on synthetic temporal features: brainpipe's numpy
  classifier must land on the same OSTs and score (target |Δ score| ≤ 0.01).
"""

from pathlib import Path

import numpy as np
import pytest

from brainpipe.neural import ost
from brainpipe.neural.ost_classifier import fit_predict, initial_weights, stateless_truncated_normal

REFERENCE = Path(__file__).parent / "data" / "ost_reference.npz"


@pytest.fixture(scope="module")
def ref():
    with np.load(REFERENCE) as data:
        return {key: data[key] for key in data.files}


def per_split_bins(ref, prefix):
    """The stored per-(split, bin) records, regrouped by split."""
    offsets = np.concatenate([[0], np.cumsum(ref[f"{prefix}_n_bins"])])
    return [slice(offsets[k], offsets[k + 1]) for k in range(len(offsets) - 1)]


def test_initial_weights_are_tensorflows(ref):
    """Keras VarianceScaling(seed=0) as TFProbabilitiesClassifier builds it: the same numbers to a float32 ulp."""
    same = []
    for key in [k for k in ref if k.startswith("init_")]:
        expected = ref[key]
        got = initial_weights(*expected.shape)
        np.testing.assert_allclose(got, expected, rtol=0, atol=2 * np.spacing(np.abs(expected).max()))
        same.append((got == expected).ravel())
    assert np.mean(np.concatenate(same)) > 0.98  # bit-identical but for sinf's occasional last bit


def test_truncated_normal_is_truncated():
    values = stateless_truncated_normal(10_000)
    assert np.abs(values).max() < 2 and abs(values.mean()) < 0.05 and 0.85 < values.std() < 0.9


@pytest.mark.parametrize("prefix", ["fixed", "tf"])
def test_splits_are_brainscores(ref, prefix):
    index = {s: i for i, s in enumerate(ref["stimulus_ids"])}
    splits = ost.ost_splits(len(ref["stimulus_ids"]))
    assert len(splits) == len(ref[f"{prefix}_test_ids"]) == 10
    for (train, test), ids in zip(splits, ref[f"{prefix}_test_ids"]):
        np.testing.assert_array_equal(test, [index[s] for s in ids])
        assert len(train) == 270 and not set(train) & set(test)


@pytest.mark.parametrize("prefix", ["fixed", "tf"])
def test_dprimes_are_brainscores(ref, prefix):
    """I1 d′ per image from the very probabilities Brain-Score saw (incl. p = 0, 1, 0/0 in the fixed set)."""
    truth = dict(zip(ref["stimulus_ids"], ref["labels"]))
    for k, rows in enumerate(per_split_bins(ref, prefix)):
        truths = [truth[s] for s in ref[f"{prefix}_test_ids"][k]]
        for probabilities, choices, expected in zip(ref[f"{prefix}_probabilities"][rows],
                                                    ref[f"{prefix}_choices"][rows], ref[f"{prefix}_i1"][rows]):
            got = ost.i1_dprimes(probabilities, choices, truths)
            np.testing.assert_allclose(got, expected, rtol=1e-13, atol=1e-13, equal_nan=True)


@pytest.mark.parametrize("prefix", ["fixed", "tf"])
def test_hits_interpolation_and_spearman_are_brainscores(ref, prefix):
    """From Brain-Score's per-bin d′: the same OSTs (its interp1d + fsolve vs the closed-form root), the same bins
    visited (stop when every image hit), the same Spearman per split and the same mean and error."""
    i1 = dict(zip(ref["stimulus_ids"], ref["target_i1"]))
    target = dict(zip(ref["stimulus_ids"], ref["target_ost"]))
    scores = []
    for k, rows in enumerate(per_split_bins(ref, prefix)):
        ids = ref[f"{prefix}_test_ids"][k]
        threshold = np.array([i1[s] for s in ids])
        hit, last = np.full((len(ids), 2), np.nan), np.full((len(ids), 2), np.nan)
        for start, dprime in zip(ref[f"{prefix}_bins"][rows], ref[f"{prefix}_i1"][rows]):
            assert np.isnan(hit[:, 0]).any()  # upstream only computes a bin while some image has no hit
            ost.update_hits(hit, last, dprime, threshold, float(start))
        if len(ref[f"{prefix}_bins"][rows]) < len(ref["time_bin_starts"]):
            assert not np.isnan(hit[:, 0]).any()
        predicted = ost.interpolate_osts(hit, last, threshold)
        np.testing.assert_allclose(predicted, ref[f"{prefix}_osts"][k], rtol=1e-12, atol=0, equal_nan=True)
        score = ost.correlate(ref[f"{prefix}_osts"][k], np.array([target[s] for s in ids]))
        assert score == pytest.approx(ref[f"{prefix}_split_scores"][k], abs=1e-15)
        scores.append(score)
    assert ost.aggregate(scores) == pytest.approx(tuple(ref[f"{prefix}_score"]), abs=1e-15)


def test_fixed_set_reaches_the_edge_cases(ref):
    """The fixed probabilities exercise what they are meant to: first-bin hits, never-hit, interpolation,
    d′ at the ±5 clip and NaN ratios."""
    osts = ref["fixed_osts"]
    assert np.isnan(osts).any() and np.isin(osts, ref["time_bin_starts"]).any()
    assert (~np.isnan(osts) & ~np.isin(osts, ref["time_bin_starts"])).any()
    assert np.isclose(np.abs(ref["fixed_i1"]), 5).any() or (ref["fixed_probabilities"] == 0).any()


def test_end_to_end_matches_tensorflow(ref):
    """brainpipe's numpy classifier + metric on the stored features vs Brain-Score with TensorFlow."""
    result = ost.ost_correlation(ref["features"], ref["time_bin_starts"], ref["labels"], ref["target_i1"],
                                 ref["target_ost"])
    assert result.reason is None
    assert abs(result.score - ref["tf_score"][0]) <= 0.01
    assert abs(result.error - ref["tf_score"][1]) <= 0.01
    np.testing.assert_allclose(result.per_split, ref["tf_split_scores"], atol=0.02)
    assert result.bins_used == ref["tf_n_bins"].tolist()
    got, expected = np.concatenate(result.predicted_osts), ref["tf_osts"].ravel()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    both = ~np.isnan(expected)
    assert np.mean(np.abs(got[both] - expected[both]) < 0.01) >= 0.99  # ms
    assert np.abs(got[both] - expected[both]).max() < 1.0


def test_probabilities_match_tensorflow(ref):
    """The first split's classifier for every bin: the same probabilities as TensorFlow's, to float32 round-off."""
    train, test = ost.ost_splits(len(ref["labels"]))[0]
    rows = per_split_bins(ref, "tf")[0]
    for b, expected, choices in zip(range(len(ref["time_bin_starts"])), ref["tf_probabilities"][rows],
                                    ref["tf_choices"][rows]):
        features = ref["features"][:, :, b]
        (got,), (labels,) = fit_predict([features[train]], [ref["labels"][train]], [features[test]])
        np.testing.assert_array_equal(labels.astype(str), choices)
        np.testing.assert_allclose(got, expected, atol=1e-5)


def test_stacked_classifiers_equal_single_ones(ref):
    """Training splits side by side (one stack) gives each split what it gets alone."""
    splits = ost.ost_splits(len(ref["labels"]))[:3]
    features = ref["features"][:, :, 4]
    args = ([features[tr] for tr, _ in splits], [ref["labels"][tr] for tr, _ in splits],
            [features[te] for _, te in splits])
    stacked, _ = fit_predict(*args)
    for k in range(3):
        alone, _ = fit_predict(*([a[k]] for a in args))
        np.testing.assert_allclose(stacked[k], alone[0], rtol=0, atol=1e-6)


def test_a_static_model_gets_nan_with_the_reason(ref):
    static = np.repeat(ref["features"][:, :, :1], len(ref["time_bin_starts"]), axis=2)
    result = ost.ost_correlation(static, ref["time_bin_starts"], ref["labels"], ref["target_i1"], ref["target_ost"])
    assert np.isnan(result.score) and np.isnan(result.error)
    assert "static model" in result.reason and "time bin" in result.reason
    assert ost.static_reason(ref["features"]) is None


def test_bins_are_visited_in_ascending_order(ref):
    """Shuffling the bins (with their starts) changes nothing, nor does training the splits one at a time."""
    order = np.random.RandomState(0).permutation(len(ref["time_bin_starts"]))
    small = slice(0, 150)
    kwargs = dict(labels=ref["labels"][small], target_i1=ref["target_i1"][small], target_ost=ref["target_ost"][small],
                  n_splits=2)
    a = ost.ost_correlation(ref["features"][small], ref["time_bin_starts"], **kwargs)
    b = ost.ost_correlation(ref["features"][small][:, :, order], ref["time_bin_starts"][order], **kwargs)
    assert a.per_split == b.per_split
    one_at_a_time = ost.ost_correlation(ref["features"][small], ref["time_bin_starts"], stack_batch_bytes=1, **kwargs)
    np.testing.assert_allclose(one_at_a_time.per_split, a.per_split, atol=1e-12)


def test_identical_bins_reuse_the_classifier(ref, monkeypatch):
    """A model with fewer steps than bins (CORnet-S IT: 2 steps for 18 bins) repeats a bin's features: such a bin
    reuses the earlier bin's d′ instead of training again, with the very numbers of training it again."""
    small = slice(0, 150)
    features = ref["features"][small].copy()
    features[:, :, 1:4] = features[:, :, :1]  # bins 1-3 answer with bin 0's step, as a time mapping does
    features[:, :, 6] = features[:, :, 5]
    kwargs = dict(labels=ref["labels"][small], target_i1=ref["target_i1"][small], target_ost=ref["target_ost"][small],
                  n_splits=2, stack_batch_bytes=1)
    trained = []
    real = ost.fit_predict
    monkeypatch.setattr(ost, "fit_predict", lambda *a, **k: trained.append(len(a[0])) or real(*a, **k))
    again = ost.ost_correlation(features, ref["time_bin_starts"], reuse_identical_bins=False, **kwargs)
    n_again = len(trained)
    trained.clear()
    reused = ost.ost_correlation(features, ref["time_bin_starts"], **kwargs)
    assert reused.per_split == again.per_split and reused.bins_used == again.bins_used
    for a, b in zip(reused.predicted_osts, again.predicted_osts):
        np.testing.assert_array_equal(a, b)
    assert n_again - len(trained) == 2 * 4  # 2 splits × the 4 repeated bins (all visited: see bins_used)
    assert min(again.bins_used) > 6


def test_hit_and_last_rules():
    """Upstream's loop: last = the highest sub-threshold d′ before the hit (earliest of ties); NaN d′ or NaN
    threshold never hits nor counts as last."""
    threshold = np.array([1.0, 1.0, 1.0, np.nan, 1.0])
    hit, last = np.full((5, 2), np.nan), np.full((5, 2), np.nan)
    for t, d in [(70, [0.2, 1.5, 0.5, 3.0, np.nan]), (80, [0.6, 0.1, 0.5, 3.0, 0.4]),
                 (90, [0.4, 2.0, 1.5, 3.0, np.nan]), (100, [1.2, 0.0, 0.0, 3.0, 2.0])]:
        ost.update_hits(hit, last, np.array(d), threshold, t)
    np.testing.assert_array_equal(hit, [[100, 1.2], [70, 1.5], [90, 1.5], [np.nan, np.nan], [100, 2.0]])
    np.testing.assert_array_equal(last, [[80, 0.6], [np.nan, np.nan], [70, 0.5], [np.nan, np.nan], [80, 0.4]])
    osts = ost.interpolate_osts(hit, last, threshold)
    np.testing.assert_allclose(osts, [80 + 20 * 0.4 / 0.6, 70, 70 + 20 * 0.5 / 1.0, np.nan, 80 + 20 * 0.6 / 1.6])


@pytest.mark.parametrize("change, message", [
    (dict(features=np.zeros((4, 3))), "presentation, neuroid, time_bin"),
    (dict(target_i1=np.zeros(3)), "'i1' has 3 values"),
    (dict(time_bin_starts=[70, 80]), "time_bin_start values for 3"),
    (dict(time_bin_starts=[70, 70, 80]), "repeated time_bin_start"),
    (dict(features=np.full((40, 2, 3), np.nan)), "NaN"),
])
def test_bad_input_is_named(change, message):
    args = dict(features=np.random.RandomState(0).randn(40, 2, 3), time_bin_starts=[70, 80, 90],
                labels=np.array(["a", "b"] * 20), target_i1=np.ones(40), target_ost=np.ones(40))
    args.update(change)
    with pytest.raises(ValueError, match=message):
        ost.ost_correlation(**args)


def test_a_label_missing_from_a_test_set_is_named():
    probabilities = np.full((3, 3), 1 / 3)
    with pytest.raises(ValueError, match="no test image has the label"):
        ost.i1_dprimes(probabilities, ["a", "b", "c"], ["a", "a", "b"])
    with pytest.raises(ValueError, match="not among the classifier's choices"):
        ost.i1_dprimes(probabilities, ["a", "b", "c"], ["a", "b", "z"])


def test_the_stop_rule_stops_each_classifier_of_a_stack_on_its_own():
    """After an epoch whose last batch's cross-entropy is below tol, a classifier stops; its stack-mates go on."""
    from brainpipe.neural.ost_classifier import Recipe, train_softmax

    rng = np.random.RandomState(0)
    codes = np.tile(np.arange(5), 60)
    easy = (np.eye(5)[codes] * 20 + 0.1 * rng.randn(300, 5)).astype(np.float32)  # separable: loss falls at once
    hard = np.zeros((300, 5), dtype=np.float32)  # nothing to learn: the loss stays near log(5)
    fast = Recipe(learning_rate=0.05, tol=1.0)
    w, b = train_softmax(np.stack([easy, hard]), np.stack([codes, codes]), 5, fast)
    w_easy, b_easy = train_softmax(easy[None], codes[None], 5, fast)
    w_easy_full, _ = train_softmax(easy[None], codes[None], 5, Recipe(learning_rate=0.05, tol=0.0))
    w_hard, b_hard = train_softmax(hard[None], codes[None], 5, Recipe(learning_rate=0.05, tol=0.0))
    np.testing.assert_allclose(w[0], w_easy[0], atol=1e-7)
    np.testing.assert_allclose(b[0], b_easy[0], atol=1e-7)
    assert np.abs(w_easy[0] - w_easy_full[0]).max() > 1e-3  # it did stop before the 40th epoch
    np.testing.assert_allclose(w[1], w_hard[0], atol=1e-7)
    np.testing.assert_allclose(b[1], b_hard[0], atol=1e-7)
