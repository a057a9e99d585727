"""Ceiling normalisation of the behavioural (and some neural) benchmarks, per Brain-Score.

| kind                            | ceiled                           | e.g. (each family module declares its kind and clip)  |
|---------------------------------|----------------------------------|-------------------------------------------------------|
| raw_over_ceiling                | raw / c                          | error consistency (clip), value delta (clip)          |
| raw2_over_ceiling               | raw² / c                         | V1/V2 pls (no clip)                                   |
| raw_over_sqrt_ceiling_per_split | mean_k r_k / √c_k, error std_k   | i2n (no clip)                                         |
| chance_corrected                | (raw − chance) / (c − chance)    | odd-one-out match, chance 1/3 (clip)                  |
| raw_over_ceiling_squared        | (raw / c)²                       | Coggan2024_behavior (no clip)                         |

Upstream: brain-score/vision brainscore_vision/benchmarks/__init__.py (``ceil_score``: raw / c, error copied),
benchmarks/geirhos2021/benchmark.py and benchmark_helpers/__init__.py (``bound_score``), benchmarks/hebart2023/
benchmark.py, benchmarks/ferguson2024/benchmark.py, benchmarks/rajalingham2018/benchmarks/benchmark.py
(``ceil_score`` per split), benchmarks/freemanziemba2013/benchmarks/benchmark.py.

Errors: per-split normalisation recomputes the std over the ceiled splits (as upstream); the other kinds carry the
raw score's error unchanged (``ceil_score`` copies it; Geirhos, Hebart and Ferguson upstream drop it).
"""

from __future__ import annotations

import warnings

import numpy as np

from .result import Result  # not ._common: ceiling a score (.ceiled) imports no xarray

KINDS = ("raw_over_ceiling", "raw2_over_ceiling", "raw_over_sqrt_ceiling_per_split", "chance_corrected",
         "raw_over_ceiling_squared")


def _value(x) -> float:
    return float(x.score) if isinstance(x, Result) else float(x)


def _error(x) -> float:
    return float(x.error) if isinstance(x, Result) else float("nan")


def normalise(raw, ceiling, kind: str, clip: bool, chance: float = 1 / 3) -> Result:
    """Ceil ``raw`` by ``ceiling`` (floats or :class:`Result`); ``clip`` bounds the result to [0, 1].

    The result's ``attrs`` hold ``raw`` and ``ceiling`` (as upstream's ``score.attrs``). For
    ``raw_over_sqrt_ceiling_per_split`` both must be Results whose ``values`` are per split (dimension
    ``split``, same labels).
    """
    if kind not in KINDS:
        raise ValueError(f"unknown normalisation {kind!r}; known: {', '.join(KINDS)}")
    attrs = {"raw": raw, "ceiling": ceiling}
    values = None
    if kind == "raw_over_sqrt_ceiling_per_split":
        if not (isinstance(raw, Result) and isinstance(ceiling, Result)
                and raw.values is not None and ceiling.values is not None):
            raise ValueError("raw_over_sqrt_ceiling_per_split needs per-split raw scores and ceilings")
        r, c = raw.values, ceiling.values
        if "split" not in r.dims or "split" not in c.dims or sorted(r["split"].values.tolist()) != \
                sorted(c["split"].values.tolist()):
            raise ValueError(f"raw and ceiling must have the same splits (dimension 'split'): "
                             f"{r.sizes.get('split')} vs {c.sizes.get('split')}")
        with np.errstate(invalid="ignore", divide="ignore"):
            ceiled = r / np.sqrt(c.sel(split=r["split"]))
        per = ceiled.values.astype(float)
        with warnings.catch_warnings():  # upstream aggregates with xarray, which skips NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            score, error, values = float(np.nanmean(per)), float(np.nanstd(per)), ceiled
    else:
        r, c = _value(raw), _value(ceiling)
        with np.errstate(invalid="ignore", divide="ignore"):
            if kind == "raw_over_ceiling":
                score = np.float64(r) / np.float64(c)
            elif kind == "raw2_over_ceiling":
                score = np.float64(r) ** 2 / np.float64(c)
            elif kind == "raw_over_ceiling_squared":  # benchmarks/coggan2024_behavior/benchmark.py ``ceiler``
                score = (np.float64(r) / np.float64(c)) ** 2
            else:
                score = (np.float64(r) - chance) / (np.float64(c) - chance)
        score, error = float(score), _error(raw)
    if clip and not np.isnan(score):
        score = min(max(score, 0.0), 1.0)
    return Result(score, error, values, attrs)
