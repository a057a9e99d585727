"""The result type of the behavioural metrics, ceilings and normalisation.

Its own module, importing numpy only, so that ceiling a score (:mod:`.ceiled`, the ``score_layer`` job) does not
import xarray and pandas (≈0.4 s, more than the rest of that job).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Result:
    """A score, its error and the values it aggregates (Brain-Score's ``Score``, ``.attrs['error']``, ``.raw``).

    score : the aggregate value.
    error : its error estimate as Brain-Score defines it for the metric (NaN where it has none).
    values : the per-unit values that were aggregated (per split / subject × condition / subject pair), as a
        DataArray with Brain-Score's dimension names, or None.
    attrs : anything else a ceiling or normalisation needs (e.g. ``{'raw': Result}``).
    """

    score: float
    error: float = float("nan")
    values: xarray.DataArray | None = None  # annotation only: this module never imports xarray
    attrs: dict = field(default_factory=dict)

    def __float__(self):
        return float(self.score)
