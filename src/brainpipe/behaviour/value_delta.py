"""Value delta and the lapse-corrected delta-line integral it compares.

Upstream: brain-score/vision brainscore_vision/metrics/value_delta/metric.py (the metric) and
brainscore_vision/benchmarks/ferguson2024/benchmark.py, .../helpers/helpers.py (integral, lapse correction, model
choices, ceiling). The metric's default scale is upstream's 1.0; a benchmark passes its own (option ``scale``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import xarray as xr

from ._common import Result, check_no_missing, coord, levels, require_coords, source_name, where

DISTRACTOR_NUMS = ("1.0", "5.0", "11.0")
INTEGRAL_DIGITS = 4  # helpers.py calculate_integral: round(first_half + second_half, 4)
# brain-score/vision benchmarks/ferguson2024/benchmark.py::process_model_choices
DISTRACTOR_OF_IMAGE = {**{n: "1.0" for n in (0, 1, 6, 7, 12, 13, 18, 19)},
                       **{n: "5.0" for n in (2, 3, 8, 9, 14, 15, 20, 21)}}


def oddball_labels(image_number, name: str | None = None) -> np.ndarray:
    """Upstream's truth labels (benchmark.py ``__call__``, test and fitting stimuli alike): 'oddball' where
    ``image_number`` is even (the target is present), else 'same'. ValueError naming ``name`` (the stimulus set)
    when a number is missing or not a whole number."""
    values = np.asarray(image_number, dtype=object)
    numbers = pd.to_numeric(pd.Series(values), errors="coerce").to_numpy(float)
    bad = np.isnan(numbers) | (numbers != np.round(numbers))
    if bad.any():
        raise ValueError(f"{where(name)}column 'image_number' must hold whole numbers (its parity is the label: "
                         f"even = 'oddball'); {int(bad.sum())} entries do not, e.g. {list(values[bad][:3])}")
    return np.where(numbers.astype(np.int64) % 2 == 0, "oddball", "same").astype(object)


def value_delta(source_value: float, target_value: float, scale: float = 1.0, integral_digits: int | None = None
                ) -> Result:
    """clip(exp(−scale · |source − target|), 0, 1); no error estimate (NaN), as upstream.

    ``integral_digits``: the values are integrals upstream rounded to this many decimals on sympy Floats
    (:func:`integral`): the difference is then taken as upstream takes it, between those reduced-precision Floats
    (sympy rounds it to their precision; float64 subtraction differs in about one case in five)."""
    if integral_digits is not None and np.isfinite(source_value) and np.isfinite(target_value):
        import sympy

        source, target = (round(sympy.Float(float(v)), integral_digits) for v in (source_value, target_value))
        difference = float(np.abs(source - target))  # = the float brainscore_round gave back: round is idempotent
    else:
        difference = float(np.abs(float(source_value) - float(target_value)))
    center = min(max(float(1 / np.exp(scale * difference)), 0.0), 1.0)
    return Result(center, float("nan"), attrs={"values": [float(source_value), float(target_value)]})


def lapse_corrected(accuracy: float, lapse_rate: float, n_way: int = 2) -> float:
    """Upstream ``get_adjusted_rate``: (a − λ / n_way) / (1 − λ)."""
    return (accuracy - lapse_rate * (1.0 / n_way)) / (1 - lapse_rate)


def _line_integral(point_1, point_2) -> float:
    """∫ of the line through two points over [x1, x2], with the slope and intercept rounded to 10 decimals
    first (upstream formats them with ``:.10f`` before handing the equation to sympy).

    In sympy's own order of operations, so that the float is the one upstream's ``sympy.integrate`` returns (its
    Floats are 53-bit, as parsed from those 10-decimal strings): the antiderivative (m/2)·x² + c·x at x2 minus at
    x1, each power taken first (tests/test_value_delta_rounding.py compares with sympy)."""
    (x1, y1), (x2, y2) = point_1, point_2
    m = (y2 - y1) / (x2 - x1)
    c = y1 - m * x1
    m, c = float(f"{m:.10f}"), float(f"{c:.10f}")
    half = m / 2
    return (half * x2 ** 2 + c * x2) - (half * x1 ** 2 + c * x1)


def brainscore_round(value: float, digits: int = 4) -> float:
    """``round(value, digits)`` as upstream computes it: on the sympy Float ``integrate`` returns, whose
    ``round`` gives a Float of reduced binary precision (``round(Float(2.1877...), 4)`` is
    2.1876983642578125, not 2.1877). Upstream then compares those numbers, so the raw score differs in the 7th
    decimal from one computed on Python's rounding (Ferguson2024juncture: 4e-7). Non-finite values pass through
    (sympy's round of nan is nan)."""
    if not np.isfinite(value):
        return float(value)
    import sympy  # a torch dependency; imported here, as only the value-delta integral needs it

    return float(round(sympy.Float(float(value)), digits))


def _block_means(correct, block, participant, distractors, lapse_rate, which):
    """Upstream ``generate_summary_df`` + ``get_averages`` for one block: per participant and distractor level,
    the lapse-corrected accuracy; then the mean over participants per level (NaN if the level is absent)."""
    in_block = block == which
    means = {}
    for level in DISTRACTOR_NUMS:
        rows = in_block & (distractors == level)
        per_participant = [lapse_corrected(float(np.mean(correct[rows & (participant == p)] == 1)), lapse_rate)
                           for p in sorted(set(participant[rows]))]
        means[level] = float(np.mean(per_participant)) if per_participant else float("nan")
    return means


def integral(assembly: xr.DataArray, lapse_rate: float) -> float:
    """Area under the delta line (second − first block accuracy, lapse-corrected) over 1, 5, 11 distractors.

    ``assembly``: trials along ``presentation`` with coords ``correct`` (0/1), ``block`` (first/second),
    ``participant_id``, ``distractor_nums`` ("1.0", "5.0", "11.0") and optionally ``trial_type`` (only
    'normal' trials count). Rounded to 4 decimals as upstream rounds them (:func:`brainscore_round`).
    """
    name = source_name(assembly)
    require_coords(assembly, ["correct", "block", "participant_id", "distractor_nums"], "value-delta data", name)
    check_no_missing(assembly, ["correct", "block", "participant_id", "distractor_nums"], "value-delta data", name)
    keep = np.ones(assembly.sizes["presentation"], dtype=bool)
    if "trial_type" in assembly.coords:
        keep = coord(assembly, "trial_type") == "normal"
    correct = coord(assembly, "correct")[keep].astype(float)
    block = coord(assembly, "block")[keep].astype(str)
    participant = coord(assembly, "participant_id")[keep].astype(str)
    distractors = coord(assembly, "distractor_nums")[keep].astype(str)
    unknown = levels(set(distractors) - set(DISTRACTOR_NUMS))
    if unknown:
        raise ValueError(f"{where(name)}coordinate 'distractor_nums' has values {unknown}; expected "
                         f"{list(DISTRACTOR_NUMS)} (strings)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        first = _block_means(correct, block, participant, distractors, lapse_rate, "first")
        second = _block_means(correct, block, participant, distractors, lapse_rate, "second")
    low, mid, high = (second[level] - first[level] for level in DISTRACTOR_NUMS)
    total = _line_integral((1, low), (5, mid)) + _line_integral((5, mid), (11, high))
    return brainscore_round(total, INTEGRAL_DIGITS)  # upstream's round on sympy's number, not Python's on a float


def model_choices(probabilities: xr.DataArray, image_number, image_label) -> xr.DataArray:
    """Upstream ``process_model_choices``: softmax over the two probability columns, 'oddball' iff column 0 > .5.

    Brain-Score assumes column 0 is 'oddball' (the first fitting image has an even number); if this model's
    column 0 is another label, a warning says so and the upstream rule is applied anyway. Returns one
    'normal' trial per stimulus for participant 'model', with ``distractor_nums``, ``correct`` and ``block``.
    """
    values = probabilities.transpose("presentation", "choice").values.astype(float)
    if values.shape[1] != 2:
        raise ValueError(f"value_delta needs two probability columns (oddball/same), got {values.shape[1]}")
    first_choice = str(probabilities["choice"].values[0]) if "choice" in probabilities.coords else None
    if first_choice is not None and first_choice != "oddball":
        warnings.warn(f"probability column 0 is {first_choice!r}, not 'oddball'; Brain-Score reads column 0 as "
                      f"'oddball' regardless (its fitting set starts with an even image_number)", stacklevel=2)
    exp = np.exp(values - values.max(axis=1, keepdims=True))
    softmax = exp / exp.sum(axis=1, keepdims=True)
    labels = np.where(softmax[:, 0] > 0.5, "oddball", "same")
    image_number = np.asarray(image_number).astype(int)
    image_label = np.asarray(image_label).astype(str)
    distractors = np.array([DISTRACTOR_OF_IMAGE.get(int(n), "11.0") for n in image_number], dtype=object)
    coords = {name: ("presentation", values) for name, values in {
        "trial_type": np.array(["normal"] * len(labels), dtype=object),
        "participant_id": np.array(["model"] * len(labels), dtype=object),
        "distractor_nums": distractors,
        "target_present": (image_number % 2 == 0).astype(int),
        "labels_string": labels.astype(object),
        "correct": (labels == image_label).astype(int),
    }.items()}
    for name in ("stimulus_id", "block", "image_number", "image_label"):
        if name in probabilities.coords:
            coords[name] = ("presentation", np.asarray(probabilities[name].values))
    return xr.DataArray((softmax[:, 0] > 0.5).astype(int), dims=("presentation",), coords=coords)


def value_delta_ceiling(assembly: xr.DataArray, lapse_rate: float, scale: float = 1.0,
                        loops: int = 500) -> Result:
    """Upstream ``calculate_ceiling(precompute_ceiling=False)``: for i in 0..loops-1, ``np.random.seed(i)``,
    random half split of the trials, value_delta of the two halves' integrals; mean, error std (ddof 0).

    Brain-Score's benchmarks use precomputed values instead (see ``brainpipe.benchmarks.families.ferguson2024``)."""
    n = assembly.sizes["presentation"]
    scores = []
    for i in range(loops):
        shuffled = np.random.RandomState(i).permutation(n)  # = np.random.seed(i); np.random.permutation(n)
        one = assembly.isel(presentation=shuffled[: n // 2])
        two = assembly.isel(presentation=shuffled[n // 2:])
        scores.append(value_delta(integral(one, lapse_rate), integral(two, lapse_rate), scale,
                                  integral_digits=INTEGRAL_DIGITS).score)
    scores = np.array(scores)
    return Result(float(scores.mean()), float(scores.std()), xr.DataArray(scores, dims=("split",)))
