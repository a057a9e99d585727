"""Tests for brainpipe.neural.representational against independent references (scipy, closed forms written here) and
Brain-Score's own peer tests (brainscore_vision/metrics/{rdm,cka,internal_consistency}/test.py)."""

import numpy as np
import pytest
import scipy.stats
from numpy.random import RandomState
from scipy.spatial.distance import pdist, squareform

# imported as a module: a bare `from ... import test_only_splits` would be collected by pytest as a test
import brainpipe.neural.representational as rep


# ------------------------------------------------------------------------------------------------ references


def reference_biased_cka(X, Y):
    """Kornblith et al. 2019 linear CKA, literally: tr(KHLH) / sqrt(tr(KHKH) tr(LHLH)), H = I - 11^T/n."""
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    n = X.shape[0]
    H = np.eye(n) - np.ones((n, n)) / n
    K, L = X @ X.T, Y @ Y.T
    hsic = lambda A, B: np.trace(A @ H @ B @ H)
    return hsic(K, L) / np.sqrt(hsic(K, K) * hsic(L, L))


def reference_unbiased_hsic(X, Y):
    """Song et al. 2012 unbiased HSIC on the raw (uncentred) linear Grams, O(n^2) memory, no shortcuts."""
    X = np.asarray(X, dtype=np.float64)
    Y = np.asarray(Y, dtype=np.float64)
    n = X.shape[0]
    K, L = X @ X.T, Y @ Y.T
    np.fill_diagonal(K, 0)
    np.fill_diagonal(L, 0)
    one = np.ones(n)
    return (np.trace(K @ L) + (one @ K @ one) * (one @ L @ one) / ((n - 1) * (n - 2))
            - 2 / (n - 2) * (one @ K @ L @ one)) / (n * (n - 3))


def reference_unbiased_cka(X, Y):
    xx, yy = reference_unbiased_hsic(X, X), reference_unbiased_hsic(Y, Y)
    if xx * yy <= 0:
        return 0.0
    return reference_unbiased_hsic(X, Y) / (np.sqrt(xx * yy) + 1e-12)


def uniform(seed, n, m):
    """Brain-Score's cka test data: RandomState(seed).uniform(size=(n, m))."""
    return RandomState(seed).uniform(size=(n, m))


@pytest.fixture
def small_blocks(monkeypatch):
    """Force the column-block Gram accumulation to use many blocks, so block boundaries are exercised."""
    monkeypatch.setattr(rep, "_BLOCK_VALUES", 97)


# ------------------------------------------------------------------------------------------------ RDM


@pytest.mark.parametrize("shape", [(30, 7), (12, 400)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rdm_matches_scipy_correlation_distance(shape, dtype, small_blocks):
    X = np.random.default_rng(0).normal(size=shape).astype(dtype)
    expected = squareform(pdist(X.astype(np.float64), metric="correlation"))
    tolerance = 1e-6 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(rep.rdm(X), expected, atol=tolerance)
    np.testing.assert_allclose(rep.rdm(X), 1 - np.corrcoef(X.astype(np.float64)), atol=tolerance)


def test_rdm_brainscore_characterization():
    """brainscore_vision/metrics/rdm/test.py::TestCharacterization::test_alignment."""
    matrix = rep.rdm([[1, 2], [1, 2], [4, 3], [4, 3]])
    expected = [[0, 0, 2, 2], [0, 0, 2, 2], [2, 2, 0, 0], [2, 2, 0, 0]]
    np.testing.assert_array_almost_equal(matrix, expected)
    np.testing.assert_array_equal(matrix, matrix.T)
    np.testing.assert_array_equal(np.diag(matrix), 0)


def test_rdm_similarity_matches_spearmanr():
    rng = np.random.default_rng(1)
    a, b = rep.rdm(rng.normal(size=(25, 40))), rep.rdm(rng.normal(size=(25, 60)))
    upper = np.triu_indices(25, k=1)
    expected = scipy.stats.spearmanr(a[upper], b[upper]).statistic
    assert rep.rdm_similarity(a, b) == pytest.approx(expected, abs=1e-12)


def test_rdm_similarity_reads_upper_triangle_only():
    rng = np.random.default_rng(2)
    a, b = rng.random((15, 15)), rng.random((15, 15))
    changed = b.copy()
    changed[np.tril_indices(15)] = rng.random(15 * 16 // 2)  # lower triangle and diagonal
    assert rep.rdm_similarity(a, b) == rep.rdm_similarity(a, changed)


@pytest.mark.parametrize("n", [20, 100])
def test_rdm_similarity_self_is_one(n):
    """brainscore_vision/metrics/rdm/test.py::TestRDMSimilarity (random, not symmetric, zero diagonal)."""
    matrix = np.random.default_rng(n).random((n, n))
    np.fill_diagonal(matrix, 0)
    assert rep.rdm_similarity(matrix, matrix) == pytest.approx(1.0)


def test_rdm_constant_stimulus_raises():
    X = np.random.default_rng(3).normal(size=(6, 5))
    X[4] = 2.5
    with pytest.raises(ValueError, match=r"stimulus index \[4\]"):
        rep.rdm(X)


def test_similarity_rdm_equals_rdm_similarity():
    rng = np.random.default_rng(4)
    X, Y = rng.normal(size=(20, 30)), rng.normal(size=(20, 8))
    assert rep.similarity("rdm", X, Y) == rep.rdm_similarity(rep.rdm(X), rep.rdm(Y))


# ------------------------------------------------------------------------------------------------ CKA


@pytest.mark.parametrize("dx, dy", [(5, 9), (80, 7), (90, 120)])  # features, mixed, Gram/Gram paths (n=40)
def test_cka_biased_matches_closed_form(dx, dy, small_blocks):
    rng = np.random.default_rng(dx + dy)
    X = rng.normal(size=(40, dx)) + 3.0  # uncentred on purpose
    Y = X[:, :1] @ rng.normal(size=(1, dy)) + rng.normal(size=(40, dy))
    expected = reference_biased_cka(X, Y)
    assert rep.cka(X, Y, unbiased=False) == pytest.approx(expected, rel=1e-10)
    assert rep.similarity("cka_biased", X, Y) == pytest.approx(expected, rel=1e-10)


@pytest.mark.parametrize("dx, dy", [(5, 9), (80, 7), (90, 120)])
def test_cka_unbiased_matches_song_formula(dx, dy, small_blocks):
    rng = np.random.default_rng(100 + dx + dy)
    X = rng.normal(size=(40, dx)) + 3.0
    Y = X @ rng.normal(size=(dx, dy)) + rng.normal(size=(40, dy))
    expected = reference_unbiased_cka(X, Y)
    assert abs(expected) > 0.05  # a dependent pair, so the comparison is not between two near-zeros
    assert rep.cka(X, Y) == pytest.approx(expected, rel=1e-9)
    assert rep.similarity("cka", X, Y) == pytest.approx(expected, rel=1e-9)


def test_cka_float32_input():
    X = uniform(5, 50, 300)
    Y = uniform(6, 50, 20)
    for unbiased, reference in ((True, reference_unbiased_cka), (False, reference_biased_cka)):
        result = rep.cka(X.astype(np.float32), Y.astype(np.float32), unbiased=unbiased)
        assert result == pytest.approx(reference(X.astype(np.float32), Y.astype(np.float32)), abs=1e-6)


@pytest.mark.parametrize("unbiased", [True, False])
def test_cka_self_is_one(unbiased):
    """brainscore_vision/metrics/cka/test.py::test_identity (300 x 10 uniform, seed 1)."""
    X = uniform(1, 300, 10)
    assert rep.cka(X, X, unbiased=unbiased) == pytest.approx(1.0)


def test_cka_independent_wide_data():
    """brainscore_vision/metrics/cka/test.py::test_large_data: independent 1000 x 10000 uniform data.

    The biased estimator is pulled towards 1 by the feature dimension; the unbiased one stays near 0.
    """
    X, Y = uniform(1, 1000, 10_000), uniform(2, 1000, 10_000)
    assert abs(rep.cka(X, Y, unbiased=True)) < 0.1
    assert rep.cka(X, Y, unbiased=False) > 0.9


@pytest.mark.parametrize("unbiased", [True, False])
def test_cka_invariant_to_orthogonal_transform_and_isotropic_scaling(unbiased):
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 12))
    Y = X @ rng.normal(size=(12, 15)) + 2 * rng.normal(size=(60, 15))
    Q, _ = np.linalg.qr(rng.normal(size=(12, 12)))
    R, _ = np.linalg.qr(rng.normal(size=(15, 15)))
    base = rep.cka(X, Y, unbiased=unbiased)
    # scales kept moderate: the unbiased estimator's eps (1e-12, as Brain-Score) is not scale-free
    assert rep.cka(5.0 * X @ Q, 0.2 * Y @ R, unbiased=unbiased) == pytest.approx(base, rel=1e-9)


def test_cka_unbiased_degenerate_is_zero():
    X = np.ones((10, 3))  # no variance: HSIC_xx = 0
    Y = np.random.default_rng(8).normal(size=(10, 4))
    assert rep.cka(X, Y) == 0.0
    with pytest.raises(ValueError, match="source has zero variance"):
        rep.cka(X, Y, unbiased=False)


# ------------------------------------------------------------------------------------------------ input checks


@pytest.mark.parametrize("name", ["rdm", "cka", "cka_biased"])
def test_non_finite_inputs_raise(name):
    rng = np.random.default_rng(9)
    X, Y = rng.normal(size=(20, 5)), rng.normal(size=(20, 6))
    bad = X.copy()
    bad[3, 1] = np.nan
    bad[4, 2] = np.inf
    with pytest.raises(ValueError, match=r"source \(X\) contains 2 non-finite"):
        rep.similarity(name, bad, Y)
    with pytest.raises(ValueError, match=r"target \(Y\) contains 2 non-finite"):
        rep.similarity(name, Y, bad)


def test_mismatched_rows_and_unknown_name_raise():
    rng = np.random.default_rng(10)
    with pytest.raises(ValueError, match="same stimuli"):
        rep.cka(rng.normal(size=(10, 3)), rng.normal(size=(11, 3)))
    with pytest.raises(ValueError, match="cross_validated_similarity"):
        rep.similarity("rdm_cv", rng.normal(size=(10, 3)), rng.normal(size=(10, 3)))


# ------------------------------------------------------------------------------------------------ test-only CV


def test_test_only_splits_sizes_and_stratification():
    objects = np.repeat([f"object{i}" for i in range(8)], 50)  # 400 stimuli, 50 per object
    splits = rep.test_only_splits(objects)
    assert len(splits) == 10
    for test in splits:
        assert len(test) == 360  # test_size .9
        assert np.all(np.diff(test) > 0)  # sorted, unique
        _, counts = np.unique(objects[test], return_counts=True)
        assert np.all(counts == 45)  # stratified: 90% of every object
    assert not all(np.array_equal(splits[0], test) for test in splits[1:])


def test_test_only_splits_matches_sklearn_and_unstratified():
    from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
    objects = np.array(["a", "b", "c"] * 10)
    expected = [np.sort(test) for _, test in StratifiedShuffleSplit(10, test_size=.9, random_state=1)
                .split(np.zeros(30), objects)]
    for got, want in zip(rep.test_only_splits(objects), expected):
        np.testing.assert_array_equal(got, want)
    plain = rep.test_only_splits(None, n_samples=50)
    expected = [np.sort(test) for _, test in ShuffleSplit(10, test_size=.9, random_state=1).split(np.zeros(50))]
    assert [len(test) for test in plain] == [45] * 10
    for got, want in zip(plain, expected):
        np.testing.assert_array_equal(got, want)


def brainscore_small_assembly():
    """brainscore_vision/metrics/rdm/test.py::TestRDMCrossValidated::test_small data (30 x 25, objects a/b/c)."""
    values = (np.arange(30 * 25) + np.random.default_rng(11).standard_normal(30 * 25)).reshape((30, 25))
    return values, np.array(["a", "b", "c"] * 10)


@pytest.mark.parametrize("name", ["rdm_cv", "cka_cv", "rdm", "cka", "cka_biased"])
def test_cross_validated_self_similarity(name):
    values, objects = brainscore_small_assembly()
    result = rep.cross_validated_similarity(name, values, values, objects)
    assert result["score"] == pytest.approx(1.0)
    assert len(result["per_split"]) == 10
    assert result["error"] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("name, dx", [("rdm", 40), ("cka", 40), ("cka", 3), ("cka_biased", 40), ("cka_biased", 3)])
def test_cross_validated_equals_similarity_on_each_split(name, dx, small_blocks):
    """The shared-Gram / shared-RDM shortcut gives exactly what similarity() on each split's rows gives."""
    rng = np.random.default_rng(12)
    X = rng.normal(size=(30, dx))
    Y = X[:, :2] @ rng.normal(size=(2, 6)) + rng.normal(size=(30, 6))
    objects = np.array(["a", "b", "c"] * 10)
    result = rep.cross_validated_similarity(name, X, Y, objects)
    expected = [rep.similarity(name, X[test], Y[test]) for test in rep.test_only_splits(objects)]
    np.testing.assert_allclose(result["per_split"], expected, rtol=1e-9, atol=1e-12)
    assert result["score"] == pytest.approx(np.mean(expected))
    assert result["error"] == pytest.approx(np.std(expected) / np.sqrt(10))


# ------------------------------------------------------------------------------------------------ ceiling


def repeated_presentations(n_stimuli, n_repetitions, n_neuroids, signal, noise, seed):
    """Rows = presentations in (repetition, stimulus) order, shuffled; returns data, repetition, stimulus."""
    rng = np.random.default_rng(seed)
    truth = signal * rng.normal(size=(n_stimuli, n_neuroids))
    stimulus = np.tile(np.arange(n_stimuli), n_repetitions)
    repetition = np.repeat(np.arange(n_repetitions), n_stimuli)
    data = truth[stimulus] + noise * rng.normal(size=(len(stimulus), n_neuroids))
    order = rng.permutation(len(stimulus))  # the ceiling must not rely on row order
    return data[order], repetition[order], stimulus[order]


@pytest.mark.parametrize("name", ["rdm", "cka", "cka_biased", "rdm_cv", "cka_cv"])
def test_ceiling_identical_repetitions_is_one(name):
    """brainscore_vision/metrics/internal_consistency/test.py: 10 stimuli x 5 repetitions x 10 neuroids, identical."""
    data, repetition, stimulus = repeated_presentations(10, 5, 10, signal=1.0, noise=0.0, seed=13)
    result = rep.representational_ceiling(name, data, repetition, stimulus)
    assert result["ceiling"] == pytest.approx(1.0, abs=1e-8)
    assert len(result["per_split"]) == 10
    assert result["error"] == pytest.approx(0.0, abs=1e-8)


@pytest.mark.parametrize("name", ["rdm", "cka"])
def test_ceiling_pure_noise_is_near_zero(name):
    data, repetition, stimulus = repeated_presentations(60, 6, 40, signal=0.0, noise=1.0, seed=14)
    result = rep.representational_ceiling(name, data, repetition, stimulus)
    assert abs(result["ceiling"]) < 0.1


def test_ceiling_grows_with_signal_and_matches_manual_split():
    from sklearn.model_selection import ShuffleSplit
    data, repetition, stimulus = repeated_presentations(40, 4, 30, signal=1.0, noise=1.0, seed=15)
    result = rep.representational_ceiling("rdm", data, repetition, stimulus)
    assert 0.2 < result["ceiling"] < 1.0
    # split 0 by hand: repetitions in the train part vs the rest, averaged per stimulus in stimulus order
    train, _ = next(ShuffleSplit(10, train_size=.5, random_state=1).split(np.zeros(4)))
    half = np.isin(repetition, train)
    means = lambda rows: np.stack([data[rows & (stimulus == s)].mean(axis=0) for s in range(40)])
    r = rep.rdm_similarity(rep.rdm(means(half)), rep.rdm(means(~half)))
    assert result["per_split"][0] == pytest.approx(2 * r / (1 + r), rel=1e-12)


def test_ceiling_input_errors():
    data, repetition, stimulus = repeated_presentations(10, 2, 5, signal=1.0, noise=1.0, seed=16)
    bad = data.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="data contains 1 non-finite"):
        rep.representational_ceiling("rdm", bad, repetition, stimulus)
    with pytest.raises(ValueError, match="missing from one half"):
        rep.representational_ceiling("rdm", data[1:], repetition[1:], stimulus[1:])
    with pytest.raises(ValueError, match="at least 2 distinct repetitions"):
        rep.representational_ceiling("rdm", data[:10], np.zeros(10), np.arange(10))
