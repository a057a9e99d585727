"""brainpipe.neural.mask_regression against independent computations: the loss on hand-computed cases (numpy,
scipy's 2-D convolution for the Laplacian), its gradient (torch.autograd.gradcheck in float64), TensorFlow's Adam
update written out in numpy, Brain-Score's reindex, the seeded draws, and a fit recovering a planted readout."""

import numpy as np
import pytest
import scipy.signal
import torch

from brainpipe.neural import mask_regression as mr


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny tensors: one torch thread (as a fold job runs) is faster than two that wait for each other."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_constants_are_brainscores():
    """brain-score/vision metrics/mask_regression/metric.py MaskRegression.__init__ defaults, TF1 Adam defaults."""
    assert (mr.INIT_LR, mr.MAX_EPOCHS, mr.TOL, mr.BATCH_SIZE, mr.LS, mr.LD, mr.DECAY_RATE) == (
        0.01, 40, 0.1, 50, 0.1, 0.1, 25)
    assert (mr.ADAM_BETA1, mr.ADAM_BETA2, mr.ADAM_EPSILON) == (0.9, 0.999, 1e-8)


def test_loss_on_a_hand_computed_case():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 3, 4, 2))  # (stimulus, x, y, channel)
    Y = rng.normal(size=(5, 2))
    s, d, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 2)), rng.normal(size=2)
    prediction = np.stack([np.stack([sum(d[n, c] * (s[n] * X[i, :, :, c]).sum() for c in range(2)) + b[n]
                                     for n in range(2)]) for i in range(5)])
    laplace = np.array([[0, -1, 0], [-1, 4, -1], [0, -1, 0]])
    lap = sum(np.sqrt((scipy.signal.convolve2d(s[n], laplace, mode="same") ** 2).sum()) for n in range(2))
    expected_error = np.sqrt(((prediction - Y) ** 2).sum())  # unsquared norm over the whole block
    expected_reg = 0.1 * ((s ** 2).sum() + lap) + 0.1 * (d ** 2).sum()
    t = [torch.tensor(a) for a in (X, Y, s, d, b)]
    error, reg = mr.losses(*t)
    np.testing.assert_allclose(mr.predict_grid(t[0], *t[2:]).numpy(), prediction, rtol=1e-12)
    np.testing.assert_allclose([float(error), float(reg)], [expected_error, expected_reg], rtol=1e-12)


def test_laplace_is_zero_padded():
    """A constant mask: the Laplacian is 0 inside and sees the zero padding on the border (TF 'SAME')."""
    ones = torch.ones(1, 3, 3, dtype=torch.float64)
    # border cells: 4 - (neighbours inside); corners 2, edges 1, centre 0
    expected = np.sqrt(4 * 2 ** 2 + 4 * 1 ** 2)
    assert float(mr.laplace_norms(ones)[0]) == pytest.approx(expected)


def test_gradient_is_the_losses_gradient():
    rng = np.random.default_rng(1)
    X = torch.tensor(rng.normal(size=(3, 3, 3, 2)))
    Y = torch.tensor(rng.normal(size=(3, 1)))
    params = [torch.tensor(rng.normal(size=shape), requires_grad=True) for shape in ((1, 3, 3), (1, 2), (1,))]
    assert torch.autograd.gradcheck(lambda s, d, b: sum(mr.losses(X, Y, s, d, b)), params)


def test_adam_step_is_tensorflows_update():
    """ApplyAdam: epsilon added to sqrt(v), lr scaled by sqrt(1 - beta2^t) / (1 - beta1^t); three steps."""
    rng = np.random.default_rng(2)
    p0 = rng.normal(size=5).astype(np.float32)
    grads = rng.normal(size=(3, 5)).astype(np.float32)
    p, m, v = torch.tensor(p0), torch.zeros(5), torch.zeros(5)
    b1p, b2p = torch.tensor(0.9), torch.tensor(0.999)
    e_p, e_m, e_v = p0.astype(np.float64), np.zeros(5), np.zeros(5)
    for t, g in enumerate(grads, start=1):
        mr.adam_step(p, torch.tensor(g), m, v, 0.01, b1p, b2p)
        b1p, b2p = b1p * 0.9, b2p * 0.999
        e_m = 0.9 * e_m + 0.1 * g
        e_v = 0.999 * e_v + 0.001 * g.astype(np.float64) ** 2
        e_p = e_p - 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t) * e_m / (np.sqrt(e_v) + 1e-8)
    np.testing.assert_allclose(p.numpy(), e_p, rtol=1e-5, atol=1e-6)


def test_to_grid_is_brainscores_reindex():
    """Brain-Score: reshape the neuroids to (channel, height, width) (its channel_x counts height), then move the
    channel last; brainpipe's coordinates name height channel_y. A non-square map, and a wrong order refused."""
    values = np.arange(2 * 18, dtype=float).reshape(2, 18)  # 3 channels × 2 rows × 3 columns, C order
    channel, y, x = np.unravel_index(np.arange(18), (3, 2, 3))
    grid = mr.to_grid(values, channel, x, y)
    assert grid.shape == (2, 2, 3, 3)
    assert grid[1, 1, 2, 0] == values[1, 0 * 6 + 1 * 3 + 2]
    np.testing.assert_array_equal(grid, values.reshape(2, 3, 2, 3).transpose(0, 2, 3, 1))
    with pytest.raises(ValueError, match="full"):
        mr.to_grid(values[:, :17], channel[:17], x[:17], y[:17])
    with pytest.raises(ValueError, match="C order"):
        mr.to_grid(values, channel[::-1], x[::-1], y[::-1])


def test_initial_draws_follow_brainscores_order():
    """Per neuroid: randn(1, x, y, 1) for the mask, then randn(1, 1, channel, 1) for the features (float64 → float32)."""
    regression = mr.MaskRegression(np.random.RandomState(3))
    regression._init((10, 2, 3, 4), 2)
    rs = np.random.RandomState(3)
    draws = [rs.randn(1, 2, 3, 1), rs.randn(1, 1, 4, 1), rs.randn(1, 2, 3, 1), rs.randn(1, 1, 4, 1)]
    np.testing.assert_array_equal(regression.masks.numpy()[1], draws[2].reshape(2, 3).astype(np.float32))
    np.testing.assert_array_equal(regression.features.numpy()[0], draws[1].reshape(4).astype(np.float32))
    assert not regression.bias.any()


def test_fit_recovers_a_planted_readout_and_is_seeded():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 4, 4, 3)).astype(np.float32)
    mask = np.zeros((4, 4)); mask[1:3, 1:3] = 1.0
    Y = (np.einsum("bxyc,xy,c->b", X, mask, [1.0, -0.5, 0.25]) + 0.1 * rng.normal(size=120))[:, None]
    fit = lambda: mr.MaskRegression(np.random.RandomState(0), init_lr=0.1, max_epochs=20).fit(X[:100], Y[:100]).predict(X[100:])
    first = fit()
    np.testing.assert_array_equal(first, fit())
    assert np.corrcoef(first[:, 0], Y[100:, 0])[0, 1] > 0.9
    with pytest.raises(ValueError, match="NaN"):
        mr.MaskRegression(np.random.RandomState(0)).fit(np.full_like(X, np.nan), Y)


def test_fit_matches_brainscores_tensorflow_fit():
    """Brain-Score's own MaskRegression (TensorFlow) on a small problem (a full and a partial minibatch, a non-square
    map, 40 epochs through the learning-rate decay), numpy's generator seeded alike: the same test predictions up to
    float32 round-off (summation orders differ between TensorFlow's kernels and torch's)."""
    import json
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent / "reference"))
    from make_cadena2017_mask_reference import unit_problem

    reference = json.loads((Path(__file__).parent / "data" / "cadena2017_mask_reference.json").read_text())
    X, Y, X_test, shape, seed = unit_problem()
    channel, y, x = np.unravel_index(np.arange(X.shape[1]), shape)  # brainpipe's names: y the height index
    regression = mr.MaskRegression(np.random.RandomState(seed)).fit(mr.to_grid(X, channel, x, y), Y)
    assert regression.epochs_run == mr.MAX_EPOCHS
    expected = np.array(reference["unit_prediction"])
    np.testing.assert_allclose(regression.predict(mr.to_grid(X_test, channel, x, y)), expected, rtol=0,
                               atol=1e-4 * np.abs(expected).max())
