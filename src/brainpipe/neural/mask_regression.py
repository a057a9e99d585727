"""Mask regression: a factorised spatial mask × feature-weight readout per neuroid (Klindt et al., NIPS 2017),
as Brain-Score fits it (brain-score/vision brainscore_vision/metrics/mask_regression/metric.py ``MaskRegression``,
a TensorFlow-v1 graph), here in torch on the CPU.

For a layer output ``X`` of shape (stimulus, x, y, channel) each neuroid ``n`` predicts

    pred[b, n] = sum_c d[n, c] * (sum_{x, y} s[n, x, y] * X[b, x, y, c]) + bias[n]

and the loss of a minibatch is the *unsquared* Euclidean norm of the prediction errors over the whole batch ×
neuroid block, plus ``ls * (sum s² + sum_n ||laplace(s_n)||)`` (the Laplacian a 3×3 [[0,-1,0],[-1,4,-1],[0,-1,0]]
zero-padded 'SAME' convolution of each neuroid's mask, its norm unsquared) plus ``ld * sum d²``.

Every constant is Brain-Score's (``MaskRegression.__init__`` defaults, the ones its ``mask_regression`` metric uses):
learning rate 0.01 divided by 10 after every epoch whose index is a positive multiple of 25, at most 40 epochs,
minibatches of 50 in a fresh shuffle each epoch, stop after an epoch whose last minibatch's error norm (computed
before that step's update) is below 0.1, ls = ld = 0.1, ``tf.compat.v1.train.AdamOptimizer`` defaults (beta1 0.9,
beta2 0.999, epsilon 1e-8) in its own update form (:func:`adam_step`), initial masks and feature weights drawn from
a standard normal in float64 (neuroid by neuroid: mask then feature weights) and then cast to float32, biases 0.

Randomness: Brain-Score draws the initial weights and the shuffles from numpy's *global* generator, which it never
seeds, so its score changes from run to run. Here they come, in the same order and by the same calls
(``randn``, ``shuffle``), from a ``numpy.random.RandomState`` the caller seeds; seeding numpy's global generator
with the same seed before Brain-Score's fit gives the same draws.

Floating point: the fit runs in float32 as TensorFlow does; summation orders differ between TensorFlow's kernels
and torch's, so the fitted weights agree to float32 round-off amplified by 40 epochs of Adam (about 1e-4 relative
on the predictions), not bit for bit.
"""

from __future__ import annotations

import numpy as np
import torch

INIT_LR = 0.01
MAX_EPOCHS = 40
TOL = 0.1
BATCH_SIZE = 50
LS = 0.1          # spatial (mask) regularisation: L2 + Laplacian
LD = 0.1          # depth (feature weight) regularisation: L2
DECAY_RATE = 25   # lr /= 10 after epochs 25, 50, ... (not after epoch 0)
ADAM_BETA1, ADAM_BETA2, ADAM_EPSILON = 0.9, 0.999, 1e-8  # tf.compat.v1.train.AdamOptimizer defaults
LAPLACE = ((0., -1., 0.), (-1., 4., -1.), (0., -1., 0.))

#: The neuroid coordinates that place a unit in its layer's (channel, x, y) grid.
GRID_COORDS = ("channel", "channel_x", "channel_y")


def fold_random_state(fold: int) -> np.random.RandomState:
    """The generator of cross-validation fold ``fold``'s fit: ``RandomState(fold)`` (see the module's docstring)."""
    return np.random.RandomState(int(fold))


def to_grid(values: np.ndarray, channel, channel_x, channel_y) -> np.ndarray:
    """(stimulus, neuroid) activations of a conv layer as the (stimulus, height, width, channel) array Brain-Score's
    ``reindex`` builds. brainpipe.models.activations flattens (channel, height, width) in C order and names the
    height index ``channel_y`` and the width index ``channel_x``; Brain-Score's extractor (model_helpers/activations/
    core.py) flattens the same order but names height ``channel_x``, and its ``reindex`` reshapes by the number of
    distinct values in its (channel, channel_x, channel_y) order, so both give the same array, for non-square maps
    too. The neuroids must be the layer's full grid in that order (checked)."""
    channel, rows, cols = (np.asarray(c) for c in (channel, channel_y, channel_x))
    shape = tuple(len(np.unique(c)) for c in (channel, rows, cols))
    values = np.asarray(values)
    expected = np.unravel_index(np.arange(int(np.prod(shape))), shape)
    if (values.ndim != 2 or int(np.prod(shape)) != values.shape[1]
            or any(not np.array_equal(np.unique(c, return_inverse=True)[1].ravel(), e)
                   for c, e in zip((channel, rows, cols), expected))):
        raise ValueError(f"mask regression needs a layer's full (channel, y, x) grid of units in C order: "
                         f"{values.shape[-1]} units are not {shape[0]} channels × {shape[1]} × {shape[2]} positions "
                         f"in that order")
    return np.transpose(values.reshape((values.shape[0],) + shape), (0, 2, 3, 1))


def laplace_norms(masks: torch.Tensor) -> torch.Tensor:
    """||laplace(s_n)|| per mask of ``masks`` (n, x, y): the 3×3 Laplacian, zero-padded to the mask's size."""
    kernel = torch.tensor(LAPLACE, dtype=masks.dtype).reshape(1, 1, 3, 3)
    filtered = torch.nn.functional.conv2d(masks[:, None], kernel, padding=1)
    return filtered.flatten(1).norm(dim=1)


def predict_grid(X: torch.Tensor, masks: torch.Tensor, features: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """(stimulus, neuroid) predictions of the readout for ``X`` (stimulus, x, y, channel)."""
    pooled = torch.einsum("bxyc,nxy->bnc", X, masks)  # each neuroid's mask applied to every channel
    return (pooled * features[None]).sum(-1) + bias[None]


def losses(X, Y, masks, features, bias, ls=LS, ld=LD):
    """(error norm, regularisation) of one minibatch, as Brain-Score's ``l2_error`` and ``reg_loss``."""
    error = (predict_grid(X, masks, features, bias) - Y).norm()
    reg = ls * ((masks ** 2).sum() + laplace_norms(masks).sum()) + ld * (features ** 2).sum()
    return error, reg


def adam_step(param, grad, m, v, lr, beta1_power, beta2_power):
    """One update of TensorFlow's ApplyAdam (tensorflow/core/kernels/training_ops.cc), in place, in float32:
    ``m += (g - m)(1 - beta1)``; ``v += (g² - v)(1 - beta2)``; ``param -= lr_t m / (sqrt(v) + eps)`` with
    ``lr_t = lr sqrt(1 - beta2^t) / (1 - beta1^t)`` — epsilon added to sqrt(v), not to the bias-corrected sqrt(v̂)
    as torch.optim.Adam does."""
    one = torch.tensor(1.0, dtype=torch.float32)
    alpha = torch.tensor(lr, dtype=torch.float32) * torch.sqrt(one - beta2_power) / (one - beta1_power)
    m += (grad - m) * (one - torch.tensor(ADAM_BETA1, dtype=torch.float32))
    v += (grad * grad - v) * (one - torch.tensor(ADAM_BETA2, dtype=torch.float32))
    param -= (m * alpha) / (v.sqrt() + torch.tensor(ADAM_EPSILON, dtype=torch.float32))


class MaskRegression:
    """Fit and predict like Brain-Score's ``MaskRegression`` on (stimulus, x, y, channel) arrays."""

    def __init__(self, random_state: np.random.RandomState, init_lr=INIT_LR, max_epochs=MAX_EPOCHS, tol=TOL,
                 batch_size=BATCH_SIZE, ls=LS, ld=LD, decay_rate=DECAY_RATE):
        self.random_state = random_state
        self.init_lr, self.max_epochs, self.tol, self.batch_size = init_lr, max_epochs, tol, batch_size
        self.ls, self.ld, self.decay_rate = ls, ld, decay_rate
        self.epochs_run = 0

    def _init(self, shape, n_neuroids):
        _, nx, ny, nc = shape
        masks, features = [], []
        for _ in range(n_neuroids):  # Brain-Score builds each neuroid's variables in turn: mask, then features
            masks.append(self.random_state.randn(1, nx, ny, 1))
            features.append(self.random_state.randn(1, 1, nc, 1))
        self.masks = torch.tensor(np.stack([m.reshape(nx, ny) for m in masks]), dtype=torch.float32)
        self.features = torch.tensor(np.stack([f.reshape(nc) for f in features]), dtype=torch.float32)
        self.bias = torch.zeros(n_neuroids, dtype=torch.float32)

    def fit(self, X, Y) -> "MaskRegression":
        X = np.asarray(X)
        Y = np.asarray(Y)
        if np.isnan(X).any() or np.isnan(Y).any():
            raise ValueError("mask regression: NaN in the activations or the target")
        if X.ndim != 4 or Y.ndim != 2:
            raise ValueError(f"mask regression fits (stimulus, x, y, channel) to (stimulus, neuroid), got "
                             f"{X.shape} and {Y.shape}")
        self._init(X.shape, Y.shape[1])
        Xt = torch.as_tensor(X, dtype=torch.float32)
        Yt = torch.as_tensor(Y, dtype=torch.float32)
        params = [self.masks, self.features, self.bias]
        moments = [(torch.zeros_like(p), torch.zeros_like(p)) for p in params]
        # TensorFlow keeps beta^t as float32 variables, multiplied by beta after each step
        beta1_power = torch.tensor(ADAM_BETA1, dtype=torch.float32)
        beta2_power = torch.tensor(ADAM_BETA2, dtype=torch.float32)
        lr = self.init_lr
        n = X.shape[0]
        self.epochs_run = 0
        for epoch in range(self.max_epochs):
            indices = np.arange(n)
            self.random_state.shuffle(indices)
            for start in range(0, n, self.batch_size):
                batch = torch.as_tensor(indices[start:start + self.batch_size])
                for p in params:
                    p.requires_grad_(True)
                error, reg = losses(Xt[batch], Yt[batch], *params, ls=self.ls, ld=self.ld)
                grads = torch.autograd.grad(error + reg, params)
                loss_value = float(error.detach())
                with torch.no_grad():
                    for p in params:
                        p.requires_grad_(False)
                    for p, g, (m, v) in zip(params, grads, moments):
                        adam_step(p, g, m, v, lr, beta1_power, beta2_power)
                    beta1_power = beta1_power * torch.tensor(ADAM_BETA1, dtype=torch.float32)
                    beta2_power = beta2_power * torch.tensor(ADAM_BETA2, dtype=torch.float32)
            self.epochs_run = epoch + 1
            if epoch % self.decay_rate == 0 and epoch != 0:
                lr /= 10.
            if loss_value < self.tol:
                break
        return self

    def predict(self, X) -> np.ndarray:
        X = np.asarray(X)
        if np.isnan(X).any():
            raise ValueError("mask regression: NaN in the activations")
        with torch.no_grad():
            return predict_grid(torch.as_tensor(X, dtype=torch.float32), self.masks, self.features,
                                self.bias).numpy()
