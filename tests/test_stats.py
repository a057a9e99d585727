"""brainpipe.neural.stats against scipy / hand formulas."""

import numpy as np
import pytest
import scipy.stats

from brainpipe.neural.stats import pearson_columns, sem, spearman_brown


def test_pearson_matches_scipy():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(40, 6))
    b = a * rng.normal(size=6) + rng.normal(size=(40, 6))
    expected = [scipy.stats.pearsonr(a[:, k], b[:, k])[0] for k in range(6)]
    np.testing.assert_allclose(pearson_columns(a, b), expected, rtol=1e-12, atol=1e-14)


def test_pearson_float32_input_and_large_offset():
    rng = np.random.default_rng(1)
    a = (rng.normal(size=(50, 3)) + 1e4).astype(np.float32)
    b = a + rng.normal(size=(50, 3)).astype(np.float32)
    expected = [scipy.stats.pearsonr(a[:, k].astype(np.float64), b[:, k].astype(np.float64))[0] for k in range(3)]
    r = pearson_columns(a, b)
    assert r.dtype == np.float64
    np.testing.assert_allclose(r, expected, rtol=1e-9)


def test_pearson_perfect_and_bounded():
    a = np.arange(10.0)[:, None] * np.array([1.0, -2.0])
    r = pearson_columns(a, np.arange(10.0)[:, None].repeat(2, axis=1))
    np.testing.assert_array_equal(r, [1.0, -1.0])


def test_pearson_constant_column_is_nan():
    a = np.ones((5, 2))
    a[:, 1] = np.arange(5)
    r = pearson_columns(a, np.arange(10.0).reshape(5, 2))
    assert np.isnan(r[0]) and r[1] == pytest.approx(1)


def test_pearson_shape_mismatch():
    with pytest.raises(ValueError, match="shape"):
        pearson_columns(np.zeros((5, 2)), np.zeros((5, 3)))
    with pytest.raises(ValueError):
        pearson_columns(np.zeros(5), np.zeros(5))


def test_sem_ddof0():
    values = [0.5, 0.6, 0.7, 0.4]
    mean = sum(values) / 4
    hand = (sum((v - mean) ** 2 for v in values) / 4) ** 0.5 / 4 ** 0.5
    assert sem(values) == pytest.approx(hand, rel=1e-12)
    assert sem(values) == pytest.approx(scipy.stats.sem(values, ddof=0), rel=1e-12)


def test_spearman_brown():
    assert spearman_brown(0.5) == pytest.approx(2 / 3)
    assert spearman_brown(1.0) == 1.0
    assert spearman_brown(0.0) == 0.0
    np.testing.assert_allclose(spearman_brown([0.2, 0.8]), [0.4 / 1.2, 1.6 / 1.8])
    assert spearman_brown(0.5, n=3) == pytest.approx(1.5 / 2.0)
