"""The OST metric's softmax read-out, Brain-Score's ``TFProbabilitiesClassifier`` recipe in numpy.

Upstream: brain-score/vision brainscore_vision/metrics/ost/metric.py (``TFProbabilitiesClassifier``, trained in
TensorFlow 1-style graphs). The recipe, step by step:

* ``StandardScaler`` fitted on the train features (mean, ddof-0 std; near-constant features keep scale 1);
* labels numbered by first appearance in the train set (that order is the ``choice`` order of the probabilities);
* one dense layer, softmax output, no hidden layer, no dropout (``fc_dropout=1.0`` = keep everything);
* weights from Keras ``VarianceScaling(seed=0)`` (scale 1, fan_in, truncated normal) — with TensorFlow ≥ 2.16 / Keras 3
  that is ``tf.random.stateless_truncated_normal(seed=[0, 0])``, reproduced here bit for bit but for an occasional
  last-bit difference of ``sinf`` (Philox-4x32-10, Box-Muller, |z| < 2 rejection, 256 draws reserved per group of
  4 outputs) — every classifier of every split and bin starts from the same weights; biases start at 1;
* loss: mean sparse softmax cross-entropy + L2 ``0.5 · 0.463 · (Σw² + Σb²)`` (0.463 = 1 / (1e-3 · 2160));
* ``tf.compat.v1.train.AdamOptimizer(1e-4)`` (β₁ .9, β₂ .999, ε 1e-8, TensorFlow's ε-hat form), 40 epochs, batches
  of 64 in an order shuffled every epoch by one ``RandomState(0)`` per classifier; after an epoch, stop if the last
  batch's cross-entropy (measured before its update) is below 1e-4;
* everything in float32, as TensorFlow computes it.

Several classifiers with the same number of train samples (the OST splits) train side by side as one stack: they
share the batch order, which is the same ``RandomState(0)`` sequence for each.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np


@dataclass(frozen=True)
class Recipe:
    """The constants of upstream's ``TFProbabilitiesClassifier.__init__`` (defaults as the OST metric uses them)."""

    learning_rate: float = 1e-4
    epochs: int = 40
    batch_size: int = 64
    weight_decay: float = 0.463  # 1/(C_svc * num_objectome_imgs) = 1/(1e-3 * 2160); the L2 term is 0.5 * this
    tol: float = 1e-4
    bias_init: float = 1.0
    init_seed: int = 0
    beta1: float = 0.9
    beta2: float = 0.999
    epsilon: float = 1e-8


RECIPE = Recipe()

# ---------------------------------------------------------------------------------------------------------------
# TensorFlow's stateless truncated normal (tensorflow/core/kernels/stateless_random_ops_v2.cc, random_op_cpu.h,
# lib/random/philox_random.h, random_distributions.h), the generator of Keras 3's VarianceScaling(seed=0).

_MASK = np.uint64(0xFFFFFFFF)
_PHILOX_M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_PHILOX_W = (np.uint64(0x9E3779B9), np.uint64(0xBB67AE85))
_SEED_KEY = (0x3EC8F720, 0x02461E29)  # the fixed key StatelessRandomGetKeyCounter scrambles a seed with
_SAMPLES_PER_GROUP = 256  # FillPhiloxRandomTask: generator draws reserved per output group of 4


def philox4x32(counter: np.ndarray, key) -> np.ndarray:
    """Philox-4x32-10: counters (4, n) uint32 and a key (2,) → (4, n) uint32 random words."""
    c0, c1, c2, c3 = (np.asarray(counter[i], dtype=np.uint64) for i in range(4))
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for _ in range(10):
        p0, p1 = _PHILOX_M[0] * c0, _PHILOX_M[1] * c2
        c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ k0, p1 & _MASK, (p0 >> np.uint64(32)) ^ c3 ^ k1, p0 & _MASK)
        k0, k1 = (k0 + _PHILOX_W[0]) & _MASK, (k1 + _PHILOX_W[1]) & _MASK
    return np.stack([c0, c1, c2, c3]).astype(np.uint32)


def _key_counter(seed: tuple[int, int]):
    """StatelessRandomGetKeyCounter: the seed pair, scrambled by one Philox call, gives the key and counter."""
    words = [seed[0] & 0xFFFFFFFF, seed[0] >> 32 & 0xFFFFFFFF, seed[1] & 0xFFFFFFFF, seed[1] >> 32 & 0xFFFFFFFF]
    mix = philox4x32(np.array(words, dtype=np.uint32)[:, None], _SEED_KEY)[:, 0]
    return (int(mix[0]), int(mix[1])), (0, 0, int(mix[2]), int(mix[3]))


def _counters(base, offsets: np.ndarray) -> np.ndarray:
    """The 128-bit counter ``base`` advanced by ``offsets`` (PhiloxRandom::Skip), as (4, n) uint32."""
    words, carry = [], offsets.astype(np.uint64)
    for word in base:
        total = np.uint64(word) + (carry & _MASK)
        words.append(total & _MASK)
        carry = (carry >> np.uint64(32)) + (total >> np.uint64(32))
    return np.stack(words).astype(np.uint32)


def _uniform(bits: np.ndarray) -> np.ndarray:
    """Uint32ToFloat: 23 random mantissa bits → float32 in [0, 1)."""
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(127 << 23)).view(np.float32) - np.float32(1.0)


def _box_muller(x0: np.ndarray, x1: np.ndarray):
    """BoxMullerFloat in float32 (log, sin, cos rounded from double: glibc's float versions round the same but
    for an occasional last bit)."""
    u1 = np.maximum(_uniform(x0), np.float32(1e-7))
    angle = (2.0 * np.pi * _uniform(x1).astype(np.float64)).astype(np.float32).astype(np.float64)
    radius = np.sqrt(np.float32(-2.0) * np.log(u1.astype(np.float64)).astype(np.float32))
    return np.sin(angle).astype(np.float32) * radius, np.cos(angle).astype(np.float32) * radius


def stateless_truncated_normal(size: int, seed=(0, 0)) -> np.ndarray:
    """``tf.random.stateless_truncated_normal([size], seed)`` (Philox on CPU), float32, standard deviation 1."""
    key, counter = _key_counter(tuple(seed))
    groups = -(-size // 4)
    out = np.zeros((groups, 4), dtype=np.float32)
    filled = np.zeros(groups, dtype=np.int64)
    todo, draw = np.arange(groups), 0
    while todo.size:  # each group draws 4 words per Philox call until it has 4 values with |z| < 2
        start = todo.astype(np.uint64) * np.uint64(_SAMPLES_PER_GROUP) + np.uint64(draw)
        words = philox4x32(_counters(counter, start), key)
        for first, second in ((0, 1), (2, 3)):
            for z in _box_muller(words[first], words[second]):
                take = (np.abs(z) < 2.0) & (filled[todo] < 4)
                rows = todo[take]
                out[rows, filled[rows]] = z[take]
                filled[rows] += 1
        todo, draw = todo[filled[todo] < 4], draw + 1
    return out.ravel()[:size]


@lru_cache(maxsize=8)
def initial_weights(n_features: int, n_classes: int, seed: int = 0) -> np.ndarray:
    """Keras ``VarianceScaling(seed=seed)`` (scale 1, fan_in, truncated normal) for an (n_features, n_classes)
    kernel: stddev sqrt(1 / fan_in) / .87962566103423978 (the std of a unit normal truncated at ±2)."""
    stddev = np.float32(np.sqrt(1.0 / max(1.0, n_features)) / 0.87962566103423978)
    weights = stateless_truncated_normal(n_features * n_classes, (seed, 0)) * stddev
    weights = weights.reshape(n_features, n_classes)
    weights.setflags(write=False)
    return weights


# ---------------------------------------------------------------------------------------------------------------
# scaler, labels, batches


def standard_scaler(train: np.ndarray):
    """sklearn ``StandardScaler().fit(train)`` (``_incremental_mean_and_var``, 1.4-1.9): (mean, scale) in float64;
    a feature whose variance is within sklearn's round-off bound of 0 (``_is_constant_feature``) keeps scale 1."""
    train = np.asarray(train)
    n = train.shape[0]
    mean = train.sum(axis=0, dtype=np.float64) / n
    centred = train.astype(np.float64) - mean
    correction = centred.sum(axis=0)
    variance = ((centred ** 2).sum(axis=0) - correction ** 2 / n) / n
    eps = np.finfo(np.float64).eps
    upper_bound = n * eps * variance + (n * mean * eps) ** 2
    scale = np.sqrt(variance)
    scale[variance <= upper_bound] = 1.0
    return mean, scale


def scale_features(features: np.ndarray, mean: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """sklearn's in-place ``X -= mean; X /= scale`` (each step rounded to the features' dtype), then float32 as
    TensorFlow's input placeholder takes it."""
    dtype = features.dtype if features.dtype in (np.float32, np.float64) else np.float64
    centred = (features - mean).astype(dtype)
    return (centred / scale).astype(dtype).astype(np.float32)


def labels_to_indices(labels) -> tuple[np.ndarray, np.ndarray]:
    """Upstream ``labels_to_indices``: integer codes by first appearance, and the labels in that order."""
    order = {}
    codes = np.array([order.setdefault(label, len(order)) for label in labels], dtype=np.int64)
    return codes, np.array(list(order), dtype=object)


def batch_orders(n_samples: int, recipe: Recipe = RECIPE):
    """Per epoch, the batches' sample indices: ``RandomState(0)`` shuffles ``arange(n)`` once per epoch."""
    random_state = np.random.RandomState(0)
    for _ in range(recipe.epochs):
        indices = np.arange(n_samples)
        random_state.shuffle(indices)
        yield [indices[start:start + recipe.batch_size] for start in range(0, n_samples, recipe.batch_size)]


# ---------------------------------------------------------------------------------------------------------------
# training and prediction


def _softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=-1, keepdims=True)


class _Adam:
    """``tf.compat.v1.train.AdamOptimizer`` (ApplyAdam, no Nesterov) in float32, for a list of variables."""

    def __init__(self, variables, recipe: Recipe):
        self.recipe = recipe
        self.m = [np.zeros_like(v) for v in variables]
        self.v = [np.zeros_like(v) for v in variables]
        self.beta1_power, self.beta2_power = np.float32(recipe.beta1), np.float32(recipe.beta2)

    def step(self, variables, gradients, active=slice(None)):
        r, one = self.recipe, np.float32(1)
        alpha = np.float32(r.learning_rate) * np.sqrt(one - self.beta2_power) / (one - self.beta1_power)
        for var, grad, m, v in zip(variables, gradients, self.m, self.v):
            m_a, v_a = m[active], v[active]
            m_a += (grad - m_a) * (one - np.float32(r.beta1))
            v_a += (grad * grad - v_a) * (one - np.float32(r.beta2))
            var[active] -= (m_a * alpha) / (np.sqrt(v_a) + np.float32(r.epsilon))
            m[active], v[active] = m_a, v_a
        self.beta1_power = np.float32(self.beta1_power * np.float32(r.beta1))
        self.beta2_power = np.float32(self.beta2_power * np.float32(r.beta2))


def train_softmax(features: np.ndarray, codes: np.ndarray, n_classes: int, recipe: Recipe = RECIPE):
    """Train a stack of softmax classifiers side by side.

    features: (K, n, F) float32, already scaled; codes: (K, n) class indices. Returns weights (K, F, C) and biases
    (K, C). Classifier k stops on its own when its last batch's cross-entropy falls below ``recipe.tol``; the
    others go on (they share the batch order, not their parameters).
    """
    n_stack, n_samples, n_features = features.shape
    weights = np.repeat(initial_weights(n_features, n_classes, recipe.init_seed)[None], n_stack, axis=0)
    biases = np.full((n_stack, n_classes), recipe.bias_init, dtype=np.float32)
    adam = _Adam([weights, biases], recipe)
    decay = np.float32(recipe.weight_decay)  # d/dw of 0.5 * decay * w²
    active = np.arange(n_stack)
    for epoch in batch_orders(n_samples, recipe):
        all_active = active.size == n_stack
        index = slice(None) if all_active else active
        for batch in epoch:
            x = features[index][:, batch] if not all_active else features[:, batch]
            onehot = np.eye(n_classes, dtype=np.float32)[codes[index][:, batch]]
            w, b = weights[index], biases[index]
            probabilities = _softmax(np.matmul(x, w) + b[:, None, :])
            # loss before the update, as fetched beside the train op
            picked = np.take_along_axis(probabilities, codes[index][:, batch][..., None], axis=-1)[..., 0]
            loss = -np.log(np.maximum(picked, np.finfo(np.float32).tiny)).mean(axis=1)
            error = (probabilities - onehot) / np.float32(len(batch))
            grad_w = np.matmul(x.transpose(0, 2, 1), error) + decay * w
            grad_b = error.sum(axis=1) + decay * b
            adam.step([weights, biases], [grad_w, grad_b], index)
        still = loss >= recipe.tol
        if not still.all():
            active = active[still]
            if active.size == 0:
                break
    return weights, biases


def predict_proba(features: np.ndarray, weights: np.ndarray, biases: np.ndarray) -> np.ndarray:
    """Softmax probabilities (K, n, C) of scaled features (K, n, F), float32."""
    return _softmax(np.matmul(features, weights) + biases[:, None, :])


def fit_predict(train: list[np.ndarray], train_labels: list, test: list[np.ndarray], recipe: Recipe = RECIPE):
    """Upstream ``fit`` + ``predict_proba`` for several problems with one train size (a stack of OST splits).

    train[k]: (n, F) features, train_labels[k]: (n,) labels, test[k]: (m_k, F). Returns, per problem, the
    probabilities (m_k, C) float32 and the choice labels in column order (first appearance in train_labels[k]).
    """
    scaled_train, scaled_test, codes, choices = [], [], [], []
    for x_train, y_train, x_test in zip(train, train_labels, test):
        mean, scale = standard_scaler(x_train)
        scaled_train.append(scale_features(x_train, mean, scale))
        scaled_test.append(scale_features(x_test, mean, scale))
        code, labels = labels_to_indices(y_train)
        codes.append(code)
        choices.append(labels)
    probabilities = [None] * len(train)
    for n_classes in sorted({len(c) for c in choices}):  # one stack per number of labels (normally one)
        members = [k for k, c in enumerate(choices) if len(c) == n_classes]
        weights, biases = train_softmax(np.stack([scaled_train[k] for k in members]),
                                        np.stack([codes[k] for k in members]), n_classes, recipe)
        for j, k in enumerate(members):
            probabilities[k] = predict_proba(scaled_test[k][None], weights[j:j + 1], biases[j:j + 1])[0]
    return probabilities, choices
