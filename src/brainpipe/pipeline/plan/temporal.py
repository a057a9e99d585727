"""Time-resolved models and object solution times (workflow/rules/temporal.smk; brainpipe.models.temporal,
neural/ost.py): which models are temporal, the bins a benchmark records and the layer file a temporal model's steps
are mapped onto them in, and what the OST job reads."""

from __future__ import annotations

import functools

from brainpipe.benchmarks.ost_family import is_ost
from brainpipe.models.model_sources import ModelSourceError
from brainpipe.models.temporal import is_temporal, parse_time_mapping
from .errors import PlanError


class Temporal:
    def __init__(self, plan):
        self.plan = plan

    @functools.cached_property
    def models(self) -> list[str]:
        """The config's temporal models (a model_zoo entry with a time_mapping)."""
        return sorted(name for name, spec in self.plan.config["model_zoo"].items() if is_temporal(spec))

    @functools.cached_property
    def _model_set(self) -> frozenset:
        return frozenset(self.models)

    @functools.cached_property
    def ost_benchmarks(self) -> list[str]:
        return sorted(f"{f.name}-ost" for f in self.plan.families if is_ost(f))

    @functools.cached_property
    def ost_datasets(self) -> list[str]:
        """Data sets of object solution times fetched from Brain-Score (fetch_ost_assembly)."""
        return sorted({f.dataset for f in self.plan.families if is_ost(f) and f.source == "brainio"})

    @functools.cached_property
    def demo_ost_datasets(self) -> list[str]:
        """Simulated object solution times (demo_ost_assembly)."""
        return sorted({f.dataset for f in self.plan.families if is_ost(f) and f.source == "demo"})

    def is_temporal_model(self, model_name: str) -> bool:
        return model_name in self._model_set

    def time_mapping_of(self, model_name: str) -> dict:
        """A temporal model's region -> {step: (start, end)} map (config model_zoo.<model>.time_mapping)."""
        try:
            return parse_time_mapping(self.plan.model(model_name), model_name)
        except ModelSourceError as error:
            raise PlanError(str(error)) from None

    def check_time_mappings(self) -> None:
        """A malformed map, overlapping bins or an unmapped committed region of any temporal model stops the run
        before any job (PlanError naming the model_zoo key)."""
        for name in self.models:
            mapping = self.time_mapping_of(name)
            unmapped = sorted(set(self.plan.model(name)["layers"]) - set(mapping))
            if unmapped:
                raise PlanError(f"config model_zoo.{name}.time_mapping: no time bins for region(s) {unmapped} that "
                                f"model_zoo.{name}.layers commits; map each committed region's steps to time bins")

    @staticmethod
    def requested_bins(benchmark) -> list[tuple]:
        """The (start, end) bins a benchmark records: the static window as one bin, else its temporal bins
        (Brain-Score: start_recording(region, time_bins))."""
        family = benchmark.family
        if benchmark.kind in ("temporal", "ost"):
            (start, end), width = family.temporal.window, family.temporal.bin
            return [(t, t + width) for t in range(int(start), int(end), int(width))]
        return [tuple(family.time_window)]

    def benchmark_bins(self, wildcards) -> list[list]:
        """The bins the benchmark ``wildcards.benchmark`` records, as [start, end] lists (a param)."""
        return [list(b) for b in self.requested_bins(self.plan.benchmark(wildcards.benchmark))]

    def region_bins(self, wildcards) -> dict:
        """A temporal model's step -> [start, end] map for ``wildcards.region`` (empty for a region it does not
        map)."""
        mapping = self.time_mapping_of(wildcards.model).get(wildcards.region, {})
        return {int(step): list(window) for step, window in mapping.items()}

    def window_key(self, benchmark) -> str:
        """The folder name of a benchmark's bins: ``start-end`` for one bin, ``start-endxwidth`` for several."""
        bins = self.requested_bins(benchmark)
        if len(bins) == 1:
            return f"{bins[0][0]}-{bins[0][1]}"
        return f"{bins[0][0]}-{bins[-1][1]}x{bins[0][1] - bins[0][0]}"

    @staticmethod
    def bins_of_key(key: str) -> list[tuple]:
        """The bins a :meth:`window_key` names."""
        if "x" in key:
            span, width = key.split("x")
            start, end = map(int, span.split("-"))
            return [(t, t + int(width)) for t in range(start, end, int(width))]
        start, end = map(int, key.split("-"))
        return [(start, end)]

    def timed_layer_file(self, model_name: str, benchmark, layer: str, stimuli: str | None = None) -> str:
        """A temporal model's layer, its steps mapped onto the benchmark's bins for the model region the benchmark's
        region is read from (the region itself, or the one its family maps it to: Bracci2019's posteriorVTC → IT,
        whose committed layer and time bins the model has). ``stimuli``: another stimulus folder than the
        benchmark's (a train/test family's train stimuli)."""
        stimuli = stimuli or self.plan.activations.stimuli_key(model_name, benchmark)
        region = dict(benchmark.family.model_regions).get(benchmark.region, benchmark.region)
        return (f"results/activations/{model_name}/{stimuli}/timed/{region}/"
                f"{self.window_key(benchmark)}/{layer}.nc")

    def ost_target(self, wildcards) -> str:
        """The prepared object solution times of an OST benchmark's data set."""
        return f"results/assemblies/{self.plan.benchmark(wildcards.benchmark).family.dataset}/ost/target.nc"

    def ost_source(self, wildcards) -> str:
        """What the OST job reads: a temporal model's layer on the 18 bins, a static model's single response."""
        b = self.plan.benchmark(wildcards.benchmark)
        if self.is_temporal_model(wildcards.model):
            return self.timed_layer_file(wildcards.model, b, wildcards.layer)
        activations = self.plan.activations
        return activations.layer_file(wildcards.model, activations.stimuli_key(wildcards.model, b), wildcards.layer)
