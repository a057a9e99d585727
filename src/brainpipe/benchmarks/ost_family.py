"""Object-solution-time families (Kar2019): recordings that are per-image OSTs, scored by the OST metric.

Such a family has one metric, ``ost``, named without a region (``Kar2019-ost``, as Brain-Score names it) and recorded
from its one region (Brain-Score: ``start_recording('IT', TIME_BINS)``) in the bins of its ``temporal`` part. Its
benchmark is one job per model layer (workflow/rules/temporal.smk, rule ``ost``), ceiled as raw / ceiling (Brain-Score
``ceil_score``), or raw where the family declares no ceiling (simulated data).

Kept apart from :mod:`.base` on purpose: the rules' code fingerprints include base.py, so extending the plain
families there would rerun every existing fold and score.
"""

from __future__ import annotations

from dataclasses import dataclass

from .base import IDENTIFIER, Benchmark, Family, resolve_settings

METRIC = "ost"


@dataclass(frozen=True)
class OSTFamily(Family):
    ost: bool = True

    @property
    def metrics(self):
        return (METRIC,)


@dataclass(frozen=True)
class OSTBenchmark(Benchmark):
    @property
    def kind(self):
        return "ost"

    @property
    def n_folds(self):
        return 1  # the metric's 10 splits run inside its one job

    @property
    def normalisation(self):
        return "none" if self.family.ceiling == "none" else "raw_over_ceiling"


def is_ost(family) -> bool:
    return getattr(family, "ost", False)


def build_ost(identifier, families, settings=None) -> OSTBenchmark | None:
    """The benchmark of an OST family's identifier, or None where ``identifier`` names no OST family."""
    match = IDENTIFIER.match(identifier)
    family = families.get(match.group("family")) if match else None
    if not is_ost(family):
        return None
    region, metric = match.group("region", "metric")
    if region is not None or metric != METRIC:
        raise ValueError(f"benchmark {identifier!r}: {family.name} has object solution times; its one benchmark is "
                         f"'{family.name}-{METRIC}' (recorded from {family.regions[0]})")
    resolved = resolve_settings(identifier, family, settings)
    return OSTBenchmark(identifier, family.name, family, family.regions[0], METRIC, resolved)
