"""A model's properties: one row per unit, one column per property, and which units pass the response threshold.

Brain-Score's property functions (brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/*.py)
return only the units that pass their response threshold (the rule differs per experiment and is stated by each
property function here). A :class:`PropertyTable` keeps every unit and the mask, so a stage can store both and
:meth:`PropertyTable.kept` gives exactly Brain-Score's rows, in unit order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Brain-Score's RESPONSE_THRESHOLD of every Marques2020 experiment (spikes/s above the blank, or above 0)
RESPONSE_THRESHOLD = 5


@dataclass(frozen=True, eq=False)
class PropertyTable:
    """``values`` (n_units × len(names), float64), ``responsive`` (n_units, bool) and the rule that set it."""

    names: tuple
    values: np.ndarray
    responsive: np.ndarray
    threshold_rule: str

    def __post_init__(self):
        if self.values.shape != (len(self.responsive), len(self.names)):
            raise ValueError(f"values of shape {self.values.shape} do not match {len(self.responsive)} units × "
                             f"{len(self.names)} properties")

    @property
    def n_units(self) -> int:
        return len(self.responsive)

    def kept(self) -> np.ndarray:
        """The rows of the units that pass the threshold (Brain-Score's property assembly)."""
        return self.values[self.responsive]

    def column(self, name: str, *, responsive_only: bool = True) -> np.ndarray:
        """One property over the responsive units (or all units); a name this table lacks is a KeyError."""
        if name not in self.names:
            raise KeyError(f"property {name!r} is not computed by this property set; it computes "
                           f"{', '.join(self.names)}")
        values = self.kept() if responsive_only else self.values
        return values[:, self.names.index(name)]


def table(columns: dict, responsive, threshold_rule: str) -> PropertyTable:
    """A PropertyTable from name → (n_units,) arrays, in the order given."""
    names = tuple(columns)
    values = np.stack([np.asarray(columns[n], dtype=np.float64).reshape(-1) for n in names], axis=1)
    return PropertyTable(names=names, values=values, responsive=np.asarray(responsive, dtype=bool).reshape(-1),
                         threshold_rule=threshold_rule)
