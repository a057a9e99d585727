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
    exp = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True)


class _AdamState:
    """``ApplyAdam``'s slots for one variable, with scratch buffers allocated once (fresh large temporaries per step
    would cost page faults that outweigh the arithmetic)."""

    def __init__(self, variable: np.ndarray):
        self.m, self.v = np.zeros_like(variable), np.zeros_like(variable)
        self.square, self.step = np.empty_like(variable), np.empty_like(variable)

    def apply(self, variable, gradient, alpha, recipe: Recipe):
        """In float32, in place (``gradient`` is overwritten), TensorFlow's order of operations:
        m += (g − m)(1 − β₁); v += (g² − v)(1 − β₂); var −= m·α / (√v + ε)."""
        m, v, square, step = self.m, self.v, self.square, self.step
        np.multiply(gradient, gradient, out=square)
        square -= v
        square *= np.float32(1) - np.float32(recipe.beta2)
        v += square
        gradient -= m
        gradient *= np.float32(1) - np.float32(recipe.beta1)
        m += gradient
        np.multiply(m, alpha, out=step)
        np.sqrt(v, out=square)
        square += np.float32(recipe.epsilon)
        step /= square
        variable -= step

    def keep(self, rows):
        for name in ("m", "v", "square", "step"):
            setattr(self, name, getattr(self, name)[rows])


def train_softmax(features: np.ndarray, codes: np.ndarray, n_classes: int, recipe: Recipe = RECIPE):
    """Train a stack of softmax classifiers side by side.

    features: (K, n, F) float32, already scaled; codes: (K, n) class indices. Returns weights (K, F, C) and biases
    (K, C). Classifier k stops on its own when its last batch's cross-entropy falls below ``recipe.tol``; the
    others go on (they share the batch order, not their parameters). The weights are kept transposed, (K, C, F):
    the gradient errorᵀ·x then comes out of BLAS in that layout, faster than xᵀ·error.
    """
    n_stack, n_samples, n_features = features.shape
    weights_out = np.empty((n_stack, n_classes, n_features), dtype=np.float32)
    biases_out = np.empty((n_stack, n_classes), dtype=np.float32)
    w = np.repeat(initial_weights(n_features, n_classes, recipe.init_seed).T[None], n_stack, axis=0)
    b = np.full((n_stack, n_classes), recipe.bias_init, dtype=np.float32)
    adam_w, adam_b = _AdamState(w), _AdamState(b)
    grad_w, decayed = np.empty_like(w), np.empty_like(w)
    onehot = np.eye(n_classes, dtype=np.float32)[codes]
    x_batch = np.empty((n_stack, recipe.batch_size, n_features), dtype=np.float32)
    live = np.arange(n_stack)  # the classifiers still training, in the stack's order
    decay = np.float32(recipe.weight_decay)  # d/dw of 0.5 * decay * w² (TensorFlow: 0.2315f * (2 w), the same)
    beta1_power, beta2_power, one = np.float32(recipe.beta1), np.float32(recipe.beta2), np.float32(1)
    for epoch in batch_orders(n_samples, recipe):
        for batch in epoch:
            # gathered batch by batch (into one buffer), so the forward and backward pass find it in cache
            x, y = x_batch[:len(live), :len(batch)], onehot[:, batch]
            for k in range(len(live)):  # mode "clip": the indices are valid, and numpy buffers ``out`` in "raise"
                np.take(features[k], batch, axis=0, out=x[k], mode="clip")
            logits = np.matmul(x, w.transpose(0, 2, 1))
            logits += b[:, None, :]
            logits -= logits.max(axis=-1, keepdims=True)
            error = np.exp(logits)
            total = error.sum(axis=-1, keepdims=True)
            error /= total
            error -= y
            error *= one / np.float32(len(batch))  # reduce_mean's gradient, then the cross-entropy's
            np.matmul(error.transpose(0, 2, 1), x, out=grad_w)
            np.multiply(w, decay, out=decayed)
            grad_w += decayed
            grad_b = error.sum(axis=1)
            grad_b += decay * b
            alpha = np.float32(recipe.learning_rate) * np.sqrt(one - beta2_power) / (one - beta1_power)
            adam_w.apply(w, grad_w, alpha, recipe)
            adam_b.apply(b, grad_b, alpha, recipe)
            beta1_power, beta2_power = beta1_power * np.float32(recipe.beta1), beta2_power * np.float32(recipe.beta2)
        # the stop rule reads the last batch's cross-entropy, fetched beside (so before) its update
        loss = (np.log(total[..., 0]) - (logits * y).sum(axis=-1)).mean(axis=1)
        done = loss < recipe.tol
        if done.any():
            weights_out[live[done]], biases_out[live[done]] = w[done], b[done]
            keep = ~done
            live, features, onehot, w, b = live[keep], features[keep], onehot[keep], w[keep], b[keep]
            grad_w, decayed = grad_w[keep], decayed[keep]
            adam_w.keep(keep)
            adam_b.keep(keep)
            if live.size == 0:
                break
    weights_out[live], biases_out[live] = w, b
    return weights_out.transpose(0, 2, 1), biases_out


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
