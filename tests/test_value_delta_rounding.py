"""Ferguson2024's delta-line integral is Brain-Score's number to the last bit.

Upstream (brain-score/vision brainscore_vision/benchmarks/ferguson2024/helpers/helpers.py ``calculate_integral``)
writes each line as f"{m:.10f}*x + {c:.10f}", integrates it with ``sympy.integrate`` and rounds the sum with
``round(x, 4)`` on the sympy Float, which returns a Float of reduced precision: 2.1877 comes out as
2.1876983642578125. :func:`upstream_integral` below is that code, run with sympy (a torch dependency).
"""

import random

import numpy as np
import pytest
import sympy as sp
import xarray as xr

from brainpipe.behaviour import value_delta as vd

X = sp.symbols("x")


def upstream_line(point_1, point_2):
    (x1, y1), (x2, y2) = point_1, point_2
    m = (y2 - y1) / (x2 - x1)
    c = y1 - m * x1
    return f"{m:.10f}*x + {c:.10f}"


def upstream_integral(low, mid, high):
    """helpers.py calculate_integral from its three deltas: sympy integrals, summed, then round(·, 4)."""
    first = sp.integrate(upstream_line((1, low), (5, mid)), (X, 1, 5))
    second = sp.integrate(upstream_line((5, mid), (11, high)), (X, 5, 11))
    return float(round(first + second, 4))


def test_upstream_rounding_reduces_precision():
    assert vd.brainscore_round(2.1877, 4) == 2.1876983642578125 == float(round(sp.Float(2.1877), 4))
    assert vd.brainscore_round(2.18771234, 4) == 2.1876983642578125
    assert vd.brainscore_round(-0.5, 4) == -0.5 and np.isnan(vd.brainscore_round(float("nan")))


def test_line_integrals_are_sympys_to_the_bit():
    rng = random.Random(0)
    for _ in range(25):
        points = [(1, rng.uniform(-1, 1)), (5, rng.uniform(-1, 1)), (11, rng.uniform(-1, 1))]
        for a, b in ((points[0], points[1]), (points[1], points[2])):
            assert vd._line_integral(a, b) == float(sp.integrate(upstream_line(a, b), (X, a[0], b[0])))


def trials(accuracies, lapse_cells=8):
    """One participant, ``lapse_cells`` trials per block × level with the given share correct."""
    rows = []
    for block, levels in accuracies.items():
        for level, share in levels.items():
            correct = round(share * lapse_cells)
            rows += [(block, level, int(k < correct)) for k in range(lapse_cells)]
    block, level, correct = map(np.array, zip(*rows))
    return xr.DataArray(correct, dims="presentation", coords={
        "block": ("presentation", block), "distractor_nums": ("presentation", level.astype(object)),
        "participant_id": ("presentation", np.array(["p"] * len(rows), dtype=object)),
        "correct": ("presentation", correct)})


@pytest.mark.parametrize("first, second", [
    ({"1.0": 0.25, "5.0": 0.5, "11.0": 0.375}, {"1.0": 0.875, "5.0": 0.625, "11.0": 1.0}),
    ({"1.0": 0.125, "5.0": 0.75, "11.0": 0.5}, {"1.0": 0.5, "5.0": 0.875, "11.0": 0.25}),
])
def test_integral_equals_upstreams(first, second):
    lapse = 0.3715  # Ferguson2024juncture's lapse rate (helpers.py LAPSE_RATES)
    adjusted = {b: {k: (v - lapse / 2) / (1 - lapse) for k, v in d.items()} for b, d in
                (("first", first), ("second", second))}
    low, mid, high = (adjusted["second"][k] - adjusted["first"][k] for k in vd.DISTRACTOR_NUMS)
    ours = vd.integral(trials({"first": first, "second": second}), lapse)
    assert ours == upstream_integral(low, mid, high)
    assert ours != round(ours, 4)  # the reduced precision: Python's round would give another float


def upstream_value_delta(source, target, scale):
    """brain-score/vision metrics/value_delta/metric.py on the sympy Floats calculate_integral returns."""
    abs_diff = float(np.abs(source - target))
    return min(max(1 / (np.exp(scale * abs_diff)), 0), 1)


def test_the_difference_is_taken_between_upstreams_floats():
    rng = random.Random(3)
    pairs = [(round(sp.Float(rng.uniform(-3, 3)), 4), round(sp.Float(rng.uniform(-3, 3)), 4)) for _ in range(200)]
    # the pairs where sympy's difference (at the Floats' reduced precision) is not float64's
    differ = [(a, b) for a, b in pairs if float(abs(a - b)) != abs(float(a) - float(b))]
    assert len(differ) > 10
    for a, b in differ:
        ours = vd.value_delta(float(a), float(b), 0.75, integral_digits=4).score
        assert ours == upstream_value_delta(a, b, 0.75)
