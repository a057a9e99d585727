"""The prepared recordings (workflow/rules/assembly.smk, train_test.smk, behaviour.smk): which prepared file a
benchmark reads, the time window a data set is prepared at, the data sets each preparation rule makes, and the
train/test files joined into one data set (Family.train_test.files: Allen2022)."""

from __future__ import annotations

import functools

from .errors import PlanError


class Recordings:
    def __init__(self, plan):
        self.plan = plan

    def preparation(self, benchmark) -> str:
        """How a neural benchmark's recordings are prepared: the ``<kind>`` of their folder
        results/assemblies/<data set>/<region>-<kind>/, one rule per kind."""
        family = benchmark.family
        if family.time_points:  # time points scored as neuroids (train_test.smk: prepare_time_points)
            return "points"
        if family.selection is not None:  # neuroids and stimuli selected (prepare_selected_assembly)
            return "selected"
        if benchmark.kind == "temporal" and family.temporal and family.temporal.alignment:
            return "aligned"  # resampled bins (prepare_aligned_assembly)
        return "temporal" if benchmark.kind == "temporal" else "static"

    def prepared(self, wildcards, kind: str) -> str:
        """The prepared file (``kind`` 'target' or 'repetitions') of the benchmark ``wildcards.benchmark``."""
        b = self.plan.benchmark(wildcards.benchmark)
        if b.kind == "behaviour":  # the human data, prepared once per data set (target and ceiling alike)
            return f"results/assemblies/{b.family.dataset}/behaviour.nc"
        if b.family.source == "stimuli":  # no recordings (Islam2021): the stimulus set's columns, target and trials
            return f"results/assemblies/{b.family.dataset}/stimuli.nc"
        return f"results/assemblies/{b.family.dataset}/{b.region}-{self.preparation(b)}/{kind}.nc"

    def train_target(self, wildcards) -> str:
        """A train/test family's prepared train recordings (the region's, averaged over any repetitions)."""
        b = self.plan.benchmark(wildcards.benchmark)
        return f"results/assemblies/{b.family.train_test.dataset}/{b.region}-{self.preparation(b)}/target.nc"

    def window(self, wildcards) -> tuple:
        """(time window, bin width) of the family whose data set ``wildcards.dataset`` is, at ``wildcards.timing``
        (static: its window and no bin; temporal: its temporal window and bin)."""
        families = [f for f in self.plan.families  # (a family averaging sessions borrows a session's data set)
                    if wildcards.dataset in f.recorded_datasets and not f.sessions]
        if not families:
            raise PlanError(f"no benchmark family uses data set {wildcards.dataset!r}")
        family = families[0]
        if wildcards.timing == "static":
            return list(family.time_window), None
        if family.temporal is None:
            raise PlanError(f"data set {wildcards.dataset!r} has no time-resolved recordings for temporal metrics")
        return list(family.temporal.window), family.temporal.bin

    def behavioural_datasets(self) -> list[str]:
        """Data sets of human trials (rule prepare_behaviour); not the targets built from a stimulus set."""
        return sorted({f.dataset for f in self.plan.families if f.behaviours and f.source != "stimuli"})

    def stimulus_target_datasets(self) -> list[str]:
        """Targets built from a stimulus set's own columns (the stimulus_target rule, e.g. Hermann2020 with no human
        data)."""
        return sorted({f.dataset for f in self.plan.families if f.behaviours and f.source == "stimuli"})

    def stimulus_column_datasets(self) -> list[str]:
        """Neural data sets without recordings (the stimulus_columns stage, e.g. Islam2021): the stimulus set's
        columns."""
        return sorted({f.dataset for f in self.plan.families if not f.behaviours and f.source == "stimuli"})

    def by_region(self, value):
        """A {region: value} mapping in the demo family's region order (other keys after, sorted); else as it is:
        Snakemake compares params as text, so a reordered config would rerun the demo."""
        if not isinstance(value, dict):
            return value
        regions = list(self.plan.registry.families["SyntheticShapes"].regions)
        order = lambda k: (regions.index(k) if k in regions else len(regions), k)
        return {k: value[k] for k in sorted(value, key=order)}

    # ---- train/test files joined into one data set (Family.train_test.files; workflow/rules/train_test.smk)

    @functools.cached_property
    def joined_families(self) -> list:
        return [f for f in self.plan.families if f.train_test and f.train_test.files]

    def joined_datasets(self) -> list[str]:
        return sorted({f.dataset for f in self.joined_families})

    def joined_stimulus_sets(self) -> list[str]:
        return sorted({f.stimulus_set for f in self.joined_families})

    def joined_family(self, dataset=None, stimulus_set=None):
        return next(f for f in self.joined_families
                    if dataset in (None, f.dataset) and stimulus_set in (None, f.stimulus_set))

    def joined_assembly_parts(self, wildcards) -> dict:
        """{split: fetched assembly file} of a joined data set, in the family's order (train, test)."""
        return {split: f"resources/assemblies/{dataset}.nc"
                for split, dataset in self.joined_family(wildcards.dataset).train_test.files}

    def joined_stimuli_parts(self, wildcards) -> dict:
        """{split: fetched stimulus folder} of a joined stimulus set: each part's recordings' stimuli."""
        family = self.joined_family(stimulus_set=wildcards.stimulus_set)
        catalog = self.plan.sources.catalog
        return {split: f"resources/stimuli/{catalog.assembly(dataset).stimulus_set}"
                for split, dataset in family.train_test.files}
