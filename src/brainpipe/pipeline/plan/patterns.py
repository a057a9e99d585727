"""Wildcard constraints: which rule writes a file of an output pattern that several rules share. Each rule takes a
disjoint set of names, so that the rule files alone say which rule makes a given output (no `ruleorder`):
results/ceilings/{benchmark}.json and results/{model}/{benchmark}/layers/{layer}.json have a rule per kind of
benchmark (properties.smk, threshold.smk, sessions.smk, temporal.smk's OST rules, and the generic ceiling and
score_layer rules for the rest); the headline results/{model}/{benchmark}.json the behavioural, OST and generic score
rules, and empty_cell for the grid's empty cells; results/activations/{model}/{stimuli}/{layer}.nc the temporal and
the static models' rules; resources/assemblies/{dataset}.nc the OST and the other fetched data sets' rules.
Snakemake embeds a wildcard's pattern in the whole path's, so exclusions are lookaheads on the name and what follows
it in the path, never '$' (Snakemake also matches a pattern against a wildcard's value alone, where a lookahead on
what follows the value sees nothing and excludes nothing: it does so only for a rule already chosen by the whole
path).
"""

from __future__ import annotations

import functools
import re

from brainpipe import benchmarks as bench
from brainpipe.pipeline import grid_cells

#: a wildcard constraint no name matches (no benchmark of a kind in this config)
NOTHING = "(?!)"
#: a benchmark identifier as brainpipe.benchmarks.IDENTIFIER reads it: Family.region-metric (neural) or
#: Family-metric (behaviour)
IDENTIFIER = r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9]+)?-[a-z_0-9]+(?:-[a-z_0-9]+)*"
#: the folders of results/ beside the models' folders (results/<model>/...)
RESULT_FOLDERS = ("ceilings", "activations", "assemblies", "stimuli_on_screen", "benchmarks", "plots", "gram",
                  "behaviour", "properties")
_NOT_A_RESULT_FOLDER = f"(?!(?:{'|'.join(RESULT_FOLDERS)})/)"
#: a model name: any folder name but a result folder
MODEL = _NOT_A_RESULT_FOLDER + "[^/]+"


def alternatives(names) -> str:
    """A pattern matching exactly one of ``names`` (in the order given where one is a prefix of another), or nothing
    when there are none."""
    names = list(names)
    if not names:
        return NOTHING
    ordered = sorted(set(names))  # a name that is a prefix of others is a prefix of the one after it
    if any(b.startswith(a) for a, b in zip(ordered, ordered[1:])):
        return "|".join(map(re.escape, names))  # the order given decides between a name and its extension
    return prefix_tree(names)


def prefix_tree(names) -> str:
    """An alternation of ``names`` as a prefix tree ('Allen2022_fmri_train|Allen2022_fmri_test' →
    'Allen2022_fmri_t(?:rain|est)'), longest first where a name is a prefix of another, as :func:`_longest_first`
    orders a plain one: it matches the same strings, and Python's ``re`` compiles it several times faster, which every
    ``snakemake`` start pays for each rule whose output pattern embeds one (the ~300 identifiers and ~400 data sets
    and stimulus sets of the catalog)."""
    tree: dict = {}
    for name in names:
        node = tree
        for char in name:
            node = node.setdefault(char, {})
        node[""] = {}  # a name ends here

    def pattern(node) -> str:
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        if "" in node:  # a name may end here: the longer names are tried first (a greedy '?')
            return f"(?:{'|'.join(branches)})?"
        return branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"

    return pattern(tree) if tree else NOTHING


def _longest_first(names) -> list[str]:
    """Names sorted longest first, so that an alternation never stops at a prefix of the name."""
    return sorted(names, key=len, reverse=True)


def _none_of(names, followed_by: str = r"(?:/|\.json)") -> str:
    """A lookahead refusing each of ``names`` where it ends a name in a path (followed by ``followed_by``: a folder
    or a score file), or no lookahead for none."""
    names = list(names)
    return f"(?!(?:{prefix_tree(names)}){followed_by})" if names else ""


class Patterns:
    def __init__(self, plan):
        self.plan = plan

    @functools.cached_property
    def _verbatim(self) -> list[str]:
        """Brain-Score's identifiers kept verbatim (Behaviour.identifier: BMD2024.texture_1Behavioral-...,
        Scialom2024_rgbEngineeringAccuracy with no '-<metric>'), longest first."""
        return _longest_first(bench.base.verbatim_identifiers(self.plan.registry.families))

    @functools.cached_property
    def model(self) -> str:
        """Any model but a finished one (pipeline/finished_models.py: its files are read as they are, and no rule
        makes them): the {model} wildcard of every rule."""
        return _NOT_A_RESULT_FOLDER + _none_of(self.plan.finished_models, followed_by="/") + "[^/]+"

    @functools.cached_property
    def benchmark(self) -> str:
        """Any benchmark identifier: the {benchmark} wildcard of every rule."""
        return "|".join([IDENTIFIER] + ([prefix_tree(self._verbatim)] if self._verbatim else []))

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
        benchmarks, benchmarks averaged over sessions and object solution times, which have rules of their own; any
        of Brain-Score's verbatim identifiers but the threshold ones."""
        thresholds = self._thresholds
        # excluded by a lookahead on the whole identifier and what follows it in a path
        pattern = (_none_of(self.plan.temporal.ost_benchmarks) + _none_of(self.sessions_benchmarks)
                   + _none_of(thresholds) + f"(?!{self._properties_family})" + IDENTIFIER)
        verbatim = [i for i in self._verbatim if i not in thresholds]
        return "(?:" + "|".join([pattern] + ([prefix_tree(verbatim)] if verbatim else [])) + ")"

    @functools.cached_property
    def _behaviour_benchmarks(self) -> list[str]:
        """Behavioural benchmarks but the threshold ones, built-in and declared in config, longest first."""
        thresholds = set(self._thresholds)
        return _longest_first(i for family in self.plan.families if family.behaviours
                              for i in bench.registry.family_identifiers(family) if i not in thresholds)

    @functools.cached_property
    def behaviour_benchmark(self) -> str:
        """Behavioural benchmarks but the threshold ones: each scores in one job from the task output, the human data
        and the ceiling (score_behaviour in behaviour.smk)."""
        return prefix_tree(self._behaviour_benchmarks)

    @functools.cached_property
    def ost_benchmark(self) -> str:
        """Object solution times (Kar2019-ost): their ceiling, layer scores and headline come from temporal.smk's OST
        rules."""
        return alternatives(self.plan.temporal.ost_benchmarks)

    @functools.cached_property
    def generic_headline_benchmark(self) -> str:
        """The benchmarks whose headline the generic score rule writes: all but the behavioural ones scored in one
        job (:attr:`behaviour_benchmark`) and the object solution times (:attr:`ost_benchmark`)."""
        return _none_of(self._behaviour_benchmarks + self.plan.temporal.ost_benchmarks) + f"(?:{self.benchmark})"

    @functools.cached_property
    def sessions_benchmark(self) -> str:
        return alternatives(self.sessions_benchmarks)

    @functools.cached_property
    def threshold_benchmark(self) -> str:
        return alternatives(self.plan.threshold.benchmarks)

    # --- models -------------------------------------------------------------------------------------------------

    @functools.cached_property
    def temporal_model(self) -> str:
        """Temporal models (model_zoo entries with a time_mapping): activations_temporal writes their layer files."""
        return alternatives(m for m in self.plan.temporal.models if m not in self.plan.finished_models)

    @functools.cached_property
    def static_model(self) -> str:
        """Every other model: the activations rules write its layer files (results/activations/<model>/...)."""
        refused = sorted(set(self.plan.temporal.models) | set(self.plan.finished_models))
        return _NOT_A_RESULT_FOLDER + _none_of(refused, followed_by="/") + "[^/]+"

    # --- the grid's cells -----------------------------------------------------------------------------------------

    @functools.cached_property
    def scored_model(self) -> str:
        """The model of a headline the score rules write (score, score_behaviour, score_ost): any model, but not in an
        empty cell. A constraint on one wildcard cannot name a pair; this lookahead on the model reads the benchmark
        that follows it in results/<model>/<benchmark>.json, the cells grouped by model."""
        by_model = {}
        for cell in self.plan.grid.empty_cells:
            model, benchmark = cell.split("/", 1)
            if model not in self.plan.finished_models:
                by_model.setdefault(model, []).append(benchmark)
        cells = "|".join(f"{re.escape(model)}/(?:{prefix_tree(by_model[model])})" for model in sorted(by_model))
        return (_NOT_A_RESULT_FOLDER + _none_of(self.plan.finished_models, followed_by="/")
                + (f"(?!(?:{cells})\\.json)" if cells else "") + "[^/]+")

    # --- data sets ------------------------------------------------------------------------------------------------

    @functools.cached_property
    def ost_dataset(self) -> str:
        """Object solution times fetched from Brain-Score (fetch_ost_assembly)."""
        return alternatives(self.plan.temporal.ost_datasets)

    @functools.cached_property
    def fetched_dataset(self) -> str:
        """The catalog's data sets but the object solution times: fetch_assembly downloads them."""
        ost = set(self.plan.temporal.ost_datasets)
        return alternatives(d for d in self.plan.sources.catalog.assemblies if d not in ost)
