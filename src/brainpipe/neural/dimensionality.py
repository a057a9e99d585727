"""Factor dimensionality (Esser, Rombach & Ommer 2020), as Brain-Score 2.4.2's Islam2021 benchmarks compute it.

Upstream: brain-score/vision brainscore_vision/metrics/dimensionality/metric.py (``Dimensionality``) and
brainscore_vision/benchmarks/islam2021/benchmark.py (``_Islam2021Dimensionality``: the seeded pairing).

* Pairing (:func:`factor_pairs`): ``random.Random(1751)``; for each stimulus ``i`` in the stimulus set's order a
  factor is drawn (``choice(['shape', 'texture'])``); 'shape' pairs ``i`` with the image of the same original in
  another texture (drawn from the sorted textures without ``i``'s), 'texture' with an image of the same texture and
  another shape (shape drawn from the sorted shapes without ``i``'s, then one of the matching images, in set
  order). The draws are those of upstream's loop, so the same seed gives the same pairs.
* Which axis is paired (:func:`paired_units`): upstream indexes the model's assembly ``assembly[:, indexes]``. The
  assembly a BrainModel returns is (presentation × neuroid), so Brain-Score 2.4.2 selects **units** (neuroid
  ``i`` and neuroid ``idx2(i)``) with the stimulus positions, over every stimulus, and the factor labels the selected
  units; the metric then averages over units and ``N`` is the number of stimuli. brainpipe computes exactly that
  (its tests compare with Brain-Score's own run). A layer with fewer units than stimuli cannot be indexed so:
  Brain-Score raises an IndexError there, brainpipe a ValueError saying why.
* Metric (:func:`factor_scores`, :func:`dimensionality`): ``za``, ``zb`` (unit × stimulus); ``var`` = the sum over
  stimuli of the variance over the units of both; per factor ``f`` the sum over stimuli of the covariance between
  the two sides' units labelled ``f`` (around their common mean), divided by ``var``; a residual score of 1; the
  softmax of the scores times ``N`` floored per factor (the residual takes the rest); each factor's share of ``N``.
  Computed in the activations' dtype (float32) with upstream's numpy reductions on arrays of upstream's memory
  layout, so the floors fall where Brain-Score's do.
"""

from __future__ import annotations

import random

import numpy as np

#: upstream's SEED ("turn this benchmark into a deterministic one")
SEED = 1751
FACTORS = ("shape", "texture")


def factor_pairs(texture, shape, original, seed: int = SEED):
    """(factors, first, second): per stimulus position ``i`` (the stimulus set's order) its drawn factor and the
    positions of the pair (``first[i] == i``). ``texture``, ``shape``, ``original``: one value per stimulus.

    Raises ValueError when a 'shape' draw finds not exactly one image of the original in the drawn texture, or a
    'texture' draw no image of the drawn shape in the texture (upstream: ``.item()`` / ``choice`` errors)."""
    texture, shape, original = (np.asarray(v).astype(str) for v in (texture, shape, original))
    textures, shapes = sorted(set(texture)), sorted(set(shape))
    by_original = {}
    for position, key in enumerate(zip(original, texture)):
        by_original.setdefault(key, []).append(position)
    by_texture_shape = {}
    for position, key in enumerate(zip(texture, shape)):
        by_texture_shape.setdefault(key, []).append(position)
    generator = random.Random(seed)
    factors, second = [], []
    for i in range(len(texture)):
        factor = generator.choice(["shape", "texture"])
        if factor == "shape":  # same shape (original), another texture
            others = [t for t in textures if t != texture[i]]
            texture2 = generator.choice(others)
            matches = by_original.get((original[i], texture2), [])
            if len(matches) != 1:
                raise ValueError(f"stimulus {i} (original {original[i]!r}): {len(matches)} images in texture "
                                 f"{texture2!r}, expected exactly 1")
            partner = matches[0]
        else:  # same texture, another shape
            others = [s for s in shapes if s != shape[i]]
            shape2 = generator.choice(others)
            matches = by_texture_shape.get((texture[i], shape2), [])
            if not matches:
                raise ValueError(f"stimulus {i}: no image of shape {shape2!r} in texture {texture[i]!r}")
            partner = generator.choice(np.asarray(matches))
        factors.append(factor)
        second.append(int(partner))
    return np.array(factors), np.arange(len(texture)), np.array(second, dtype=np.int64)


def too_few_units(n_units: int, first, second) -> str | None:
    """Why a layer of ``n_units`` units cannot be scored (see :func:`paired_units`), or None where it can."""
    needed = int(max(np.max(first), np.max(second))) + 1
    if needed <= n_units:
        return None
    return (f"the layer has {n_units} units, fewer than the {len(first)} stimuli whose positions Brain-Score "
            f"2.4.2's Islam2021 uses as unit indexes (assembly[:, indexes] on a presentation × neuroid assembly): "
            f"Brain-Score fails on it too (IndexError)")


def paired_units(activations, first, second):
    """(za, zb): the (unit × stimulus) C-ordered arrays upstream's metric receives from a (stimulus × unit) layer:
    units ``first`` and ``second`` over every stimulus (see the module docstring)."""
    activations = np.asarray(activations)
    reason = too_few_units(activations.shape[1], first, second)
    if reason:
        raise ValueError(reason)
    return (np.ascontiguousarray(activations[:, first].T), np.ascontiguousarray(activations[:, second].T))


def factor_scores(za, zb, factors):
    """{factor: score} of upstream's ``_dim_est`` before the softmax (residual not included)."""
    za, zb, factors = np.asarray(za), np.asarray(zb), np.asarray(factors).astype(str)
    zall = np.concatenate([za, zb], 0)
    mean = np.mean(zall, 0, keepdims=True)
    var = np.sum(np.mean((zall - mean) * (zall - mean), 0))
    scores = {}
    for f in sorted(set(factors.tolist())):
        za_factor, zb_factor = za[factors == f], zb[factors == f]
        mean_f = 0.5 * (np.mean(za_factor, 0, keepdims=True) + np.mean(zb_factor, 0, keepdims=True))
        cov = np.mean((za_factor - mean_f) * (zb_factor - mean_f), 0)
        scores[f] = np.sum(cov) / var
    return scores


def softmax_dimensions(scores, n):
    """Upstream's ``_softmax_dim``: {name: share of ``n``} from {name: score} in order (the last takes the rest)."""
    names = list(scores)
    values = np.fromiter(scores.values(), dtype=float)
    e = np.exp(values - np.max(values))
    softmaxed = e / np.sum(e)
    dims = [int(s * n) for s in softmaxed]
    dims[-1] = n - sum(dims[:-1])
    return {name: dims[i] / sum(dims) for i, name in enumerate(names)}


def dimensionality(za, zb, factors):
    """{factor..., 'residual': share} of the ``N`` = stimuli dimensions (upstream's ``Dimensionality._dim_est``)."""
    return _shares(factor_scores(za, zb, factors), np.asarray(za).shape[1])


def _shares(scores, n):
    if "residual" in scores:
        raise ValueError("a factor may not be named 'residual'")
    return softmax_dimensions({**scores, "residual": 1.0}, n)


def layer_factor_scores(layer, first, second, factors, block: int = 1024):
    """``factor_scores(*paired_units(layer, first, second), factors)`` bit for bit, a block of stimuli at a time:
    every mean runs over units, one stimulus (column) at a time, on C-ordered blocks as on the whole arrays, and the
    sums over stimuli run once over the whole vectors; so the (unit × stimulus) copies of the layer (two of
    N × N floats and their concatenation: 2 GB each for the real 21,845 stimuli) are never made whole."""
    layer, factors = np.asarray(layer), np.asarray(factors).astype(str)
    paired_units(layer[:1], first, second)  # the unit indexes exist (else the ValueError saying why)
    names = sorted(set(factors.tolist()))
    spread, covariances = [], {f: [] for f in names}
    for start in range(0, layer.shape[0], block):
        za, zb = paired_units(layer[start:start + block], first, second)
        zall = np.concatenate([za, zb], 0)
        mean = np.mean(zall, 0, keepdims=True)
        spread.append(np.mean((zall - mean) * (zall - mean), 0))
        for f in names:
            za_factor, zb_factor = za[factors == f], zb[factors == f]
            mean_f = 0.5 * (np.mean(za_factor, 0, keepdims=True) + np.mean(zb_factor, 0, keepdims=True))
            covariances[f].append(np.mean((za_factor - mean_f) * (zb_factor - mean_f), 0))
    var = np.sum(np.concatenate(spread))
    return {f: np.sum(np.concatenate(parts)) / var for f, parts in covariances.items()}


def layer_dimensionality(layer, first, second, factors, block: int = 1024):
    """:func:`dimensionality` of a (stimulus × unit) layer's paired units, computed by blocks of stimuli."""
    return _shares(layer_factor_scores(layer, first, second, factors, block), np.asarray(layer).shape[0])
