"""A behavioural benchmark's results as JSON, and its ceiled score from the fold and ceiling JSON files.

What the ``score_layer`` job needs of a behavioural benchmark, in a module that imports numpy only (xarray only for
a per-split normalisation): that job then costs a third of what it did with :mod:`.stages`' imports (xarray,
pandas). Normalisation: :mod:`.normalise`; upstream brain-score/vision brainscore_vision/benchmarks/__init__.py
(``ceil_score``) and each family's benchmark.py.
"""

from __future__ import annotations

import numpy as np

from .normalise import normalise
from .result import Result


def to_json(result: Result) -> dict:
    """A Result as JSON: value, error, and the per-split values where the normalisation needs them."""
    out = {"value": float(result.score), "error": None if np.isnan(result.error) else float(result.error)}
    if result.values is not None and "split" in result.values.dims:
        out["per_split"] = [float(v) for v in result.values.values]
    if result.attrs.get("details"):  # what the metric compared (e.g. value_delta's two integrals)
        out["details"] = dict(result.attrs["details"])
    return out


def from_json(data: dict, value="value") -> Result:
    per = data.get("per_split")
    values = None
    if per is not None:  # per-split ceiling normalisation (i2n) aligns splits by label: xarray, only here
        import xarray as xr

        values = xr.DataArray(np.asarray(per, dtype=float), dims=("split",), coords={"split": np.arange(len(per))})
    error, number = data.get("error"), data[value]
    return Result(float("nan") if number is None else float(number), float("nan") if error is None else float(error),
                  values)


#: ``Behaviour.ceiling`` of a benchmark whose Brain-Score score carries no ceiling (its benchmark's ``Score(1)`` is
#: never applied: the score is the metric's value, e.g. brain-score/vision benchmarks/objectnet/benchmark.py)
NO_CEILING = "none"


def declared_ceiling(behaviour) -> Result | None:
    """A ceiling the benchmark declares: a number, with the error its family publishes (``options``
    ``ceiling_error``, Ferguson2024's) and NaN where it publishes none (Hebart2023's 0.6767 has no error upstream);
    NaN for :data:`NO_CEILING`; None where the metric computes it on the human data
    (:func:`brainpipe.behaviour.stages.ceiling`). NaN is written as null: the score JSON records only what
    Brain-Score has."""
    if behaviour.ceiling == "computed":
        return None
    if behaviour.ceiling == NO_CEILING:
        return Result(float("nan"), float("nan"))
    error = dict(behaviour.options).get("ceiling_error")
    return Result(float(behaviour.ceiling), float("nan") if error is None else float(error))


#: the ``method`` of a ceiling the benchmark declares
DECLARED = "fixed (declared)"


def ceiling_json(ceiling: Result, method: str) -> dict:
    """A behavioural ceiling as its JSON (``results/ceilings/<benchmark>.json``): ceiling, error, method, and the
    per-split values where the normalisation needs them."""
    computed = to_json(ceiling)
    result = {"ceiling": computed["value"], "error": computed["error"], "method": method}
    if "per_split" in computed:
        result["per_split"] = computed["per_split"]
    return result


def aggregate(benchmark, folds, ceiling_json) -> dict:
    """The score JSON of a behavioural benchmark: one 'fold' (the whole comparison) ceiled as Brain-Score does."""
    behaviour = benchmark.behaviour
    (fold,) = folds
    raw = from_json(fold)
    formulas = {"raw_over_ceiling": "raw / ceiling", "chance_corrected": "(raw - chance) / (ceiling - chance)",
                "raw_over_sqrt_ceiling_per_split": "mean over splits of raw_k / sqrt(ceiling_k)",
                "raw_over_ceiling_squared": "(raw / ceiling)^2"}
    formula = formulas[behaviour.normalisation]
    if behaviour.ceiling == NO_CEILING:  # Brain-Score's score is the metric's value: no ceiling, none recorded
        ceil = Result(float("nan"), float("nan"))
        ceiled, formula = Result(raw.score, raw.error), "raw (no ceiling)"
        if behaviour.clip and np.isfinite(raw.score):
            ceiled = Result(min(max(raw.score, 0.0), 1.0), raw.error)
    else:
        ceil = from_json(ceiling_json, "ceiling")
        ceiled = normalise(raw, ceil, behaviour.normalisation, behaviour.clip,
                           float(dict(behaviour.options).get("chance", 1 / 3)))
    finite = lambda x: None if x is None or not np.isfinite(x) else float(x)  # noqa: E731
    return {"score": float(ceiled.score), "raw": float(raw.score), "ceiling": finite(ceil.score),
            "error": finite(ceiled.error), "ceiling_error": finite(ceil.error), "per_fold": [float(raw.score)],
            "n_folds": 1, "formula": formula + (" clipped to [0, 1]" if behaviour.clip else ""),
            "above_ceiling": bool(ceiled.score > 1), "metric": behaviour.metric, "task": behaviour.task,
            **({"reason": fold["reason"]} if fold.get("reason") else {}),
            **({"details": fold["details"]} if fold.get("details") else {}),
            **({"per_condition": fold["per_condition"]} if fold.get("per_condition") else {})}

