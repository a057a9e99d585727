"""Wildcard constraints: which benchmark identifiers each rule that writes a shared output pattern takes
(results/ceilings/{benchmark}.json and results/{model}/{benchmark}/layers/{layer}.json have a rule per kind of
benchmark: properties.smk, threshold.smk, sessions.smk, temporal.smk's OST rules, and the generic ceiling and
score_layer rules for the rest). Snakemake embeds a wildcard's pattern in the whole path's, so exclusions are
lookaheads on the identifier and what follows it, never '$'."""

from __future__ import annotations

import functools
import re

from brainpipe import benchmarks as bench

#: a wildcard constraint no name matches (no benchmark of a kind in this config)
NOTHING = "(?!)"
#: a benchmark identifier as brainpipe.benchmarks.IDENTIFIER reads it: Family.region-metric (neural) or
#: Family-metric (behaviour)
IDENTIFIER = r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9]+)?-[a-z_0-9]+(?:-[a-z_0-9]+)*"


def alternatives(names) -> str:
    """A pattern matching exactly one of ``names`` (escaped, in the order given), or nothing when there are none."""
    return "|".join(map(re.escape, names)) or NOTHING


def _longest_first(names) -> list[str]:
    """Names sorted longest first, so that an alternation never stops at a prefix of the name."""
    return sorted(names, key=len, reverse=True)


class Patterns:
    def __init__(self, plan):
        self.plan = plan

    @functools.cached_property
    def _verbatim(self) -> list[str]:
        """Brain-Score's identifiers kept verbatim (Behaviour.identifier: BMD2024.texture_1Behavioral-...,
        Scialom2024_rgbEngineeringAccuracy with no '-<metric>'), longest first."""
        return _longest_first(bench.base.verbatim_identifiers(self.plan.registry.families))

    @functools.cached_property
    def benchmark(self) -> str:
        """Any benchmark identifier: the {benchmark} wildcard of every rule."""
        return "|".join([IDENTIFIER] + [re.escape(i) for i in self._verbatim])

    @functools.cached_property
    def properties_families(self) -> list[str]:
        """Families of properties benchmarks (Brain-Score's PropertiesBenchmark; properties.smk)."""
        return sorted(name for name, family in self.plan.registry.families.items() if family.properties)

    @property
    def _properties_family(self) -> str:
        # a lookahead on '<family>-' (family names hold no '-')
        return f"(?:{'|'.join(map(re.escape, self.properties_families or [NOTHING]))})-"

    @functools.cached_property
    def properties_benchmark(self) -> str:
        """The properties benchmarks: their ceiling and layer score come from the properties rules."""
        return f"{self._properties_family}[a-z_0-9]+"

    @functools.cached_property
    def _thresholds(self) -> list[str]:
        """Threshold benchmarks (threshold.smk), longest first."""
        return _longest_first(self.plan.threshold.identifiers)

    @functools.cached_property
    def sessions_benchmarks(self) -> list[str]:
        """Benchmarks averaged over sessions (Family.sessions: Cowley2026.V4-pls; sessions.smk), longest first."""
        return _longest_first(i for family in self.plan.families if family.sessions
                              for i in bench.registry.family_identifiers(family))

    @functools.cached_property
    def generic_benchmark(self) -> str:
        """The benchmarks of the generic ceiling and score_layer rules: none of the properties benchmarks, threshold
        benchmarks and benchmarks averaged over sessions, which have rules of their own; any of Brain-Score's
        verbatim identifiers but the threshold ones."""
        pattern = f"(?!{self._properties_family})" + IDENTIFIER
        # excluded by a lookahead on the whole identifier and what follows it in a path
        thresholds = self._thresholds
        if thresholds:
            pattern = f"(?!(?:{'|'.join(map(re.escape, thresholds))})(?:/|\\.json))" + pattern
        if self.sessions_benchmarks:
            pattern = f"(?!(?:{'|'.join(map(re.escape, self.sessions_benchmarks))})(?:/|\\.json))" + pattern
        return "(?:" + "|".join([pattern] + [re.escape(i) for i in self._verbatim if i not in thresholds]) + ")"

    @functools.cached_property
    def behaviour_benchmark(self) -> str:
        """Behavioural benchmarks but the threshold ones, built-in and declared in config: each scores in one job from
        the task output, the human data and the ceiling (score_behaviour in behaviour.smk)."""
        thresholds = set(self._thresholds)
        identifiers = (i for family in self.plan.families if family.behaviours
                       for i in bench.registry.family_identifiers(family) if i not in thresholds)
        return "|".join(re.escape(i) for i in _longest_first(identifiers)) or NOTHING

    @functools.cached_property
    def sessions_benchmark(self) -> str:
        return alternatives(self.sessions_benchmarks)

    @functools.cached_property
    def threshold_benchmark(self) -> str:
        return alternatives(self.plan.threshold.benchmarks)
