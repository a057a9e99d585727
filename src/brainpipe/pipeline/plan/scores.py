"""Folds, ceilings and scores (workflow/rules/fit_fold.smk, ceiling.smk, score.smk): what a fold job reads and which
folds a layer's score averages, how the ceiling job computes the ceiling, which layers a headline score reads, and
the model and data facts a score JSON records."""

from __future__ import annotations

from brainpipe.models.model_sources import model_provenance
from brainpipe.neural.metrics import uses_gram
from brainpipe.pipeline.model_layers import layers_for_sweep
from .errors import PlanError


class Scores:
    def __init__(self, plan):
        self.plan = plan

    @staticmethod
    def ceiling_method(benchmark) -> str:
        """How the ceiling job computes the ceiling: a plugin's own, a declared fixed number, none, or from the data."""
        family = benchmark.family
        if benchmark.kind in ("custom", "behaviour"):
            return benchmark.kind
        if family.ceiling == "none":
            return "none"
        if family.ceiling == "predictor_consistency":  # reverse predictivity's split-half ceiling
            return "predictor_consistency"
        if benchmark.metric == "rdm" and family.subject_coord:  # inter-subject RDM consistency (Li2026)
            return "rdm_subjects"
        if str(family.ceiling).startswith("median_of:"):  # a per-neuroid reliability in the data (Li2026)
            return "coordinate_median"
        if isinstance(family.ceiling, float):
            return "fixed"
        if benchmark.kind == "representational":
            return benchmark.metric.removesuffix("_cv")  # split-half consistency of the same similarity
        return "internal_consistency"

    def fold_source(self, wildcards) -> str:
        """What a fold job reads: the layer's Gram matrix for regressions that can use it, else the activations
        (for behaviour: the model's task output)."""
        plan = self.plan
        b = plan.benchmark(wildcards.benchmark)
        if b.kind == "behaviour":
            return plan.behaviour.output(wildcards.model, b)
        if uses_gram(b):
            return plan.activations.benchmark_layer_file(wildcards).replace("results/activations/", "results/gram/", 1)
        return plan.activations.benchmark_layer_file(wildcards)

    def fold_files(self, wildcards) -> list[str]:
        """The fold results a layer's score averages: one per cross-validation fold, or the one fit of a train/test
        family on its train data set, scored on the test one (train_test.smk)."""
        b = self.plan.benchmark(wildcards.benchmark)
        layer = f"results/{wildcards.model}/{wildcards.benchmark}/layers/{wildcards.layer}"
        if b.family.train_test and b.family.train_test.dataset:
            return [f"{layer}/train_test.json"]
        return [f"{layer}/fold{fold}.json" for fold in range(b.n_folds)]

    def scored_layers(self, model_name: str, benchmark) -> list[str]:
        """The layers a model's headline score on ``benchmark`` reads: its committed layer and the region's sweep (the
        readout layer for behaviour; none for an empty cell)."""
        plan = self.plan
        if f"{model_name}/{benchmark.identifier}" in plan.grid.empty_cells:  # an empty cell scores no layer
            return []
        if benchmark.kind == "behaviour":
            return [plan.behaviour.layer_of(model_name, benchmark)]
        spec = plan.model(model_name)
        committed = spec["layers"].get(benchmark.model_region)
        if committed is None:
            raise PlanError(f"model {model_name!r} commits no layer to region {benchmark.model_region!r} "
                            f"(config model_zoo.{model_name}.layers)")
        return sorted(set([committed] + layers_for_sweep(spec, benchmark.model_region)))

    def layer_scores(self, wildcards) -> list[str]:
        """The layer score files a headline (or a sweep table) of ``wildcards.model`` × ``wildcards.benchmark``
        reads (:meth:`scored_layers`)."""
        layers = self.scored_layers(wildcards.model, self.plan.benchmark(wildcards.benchmark))
        return [f"results/{wildcards.model}/{wildcards.benchmark}/layers/{layer}.json" for layer in layers]

    def committed_layer(self, model_name: str, benchmark) -> str:
        """The layer a model commits to the benchmark's region (its readout layer for behaviour)."""
        if benchmark.kind == "behaviour":
            return self.plan.behaviour.layer_of(model_name, benchmark)
        return self.plan.model(model_name)["layers"][benchmark.model_region]

    def model_spec(self, model_name: str, benchmark) -> dict:
        """The model_spec of a headline score: the model's entry with provenance, its sweep narrowed to the
        benchmark's region (none for behaviour), so that editing another region's sweep does not rewrite this
        score."""
        spec = model_provenance(self.plan.model(model_name), ".", model_name)
        sweep = spec.pop("sweep", None) or {}
        if benchmark.kind != "behaviour" and benchmark.model_region in sweep:
            spec["sweep"] = {benchmark.model_region: sweep[benchmark.model_region]}
        return spec

    def data(self, benchmark) -> dict:
        """The ``data`` of a headline score: which recordings (public or private access), stimuli, degrees and
        settings it read, with the fetched files' names and sha1s."""
        family = benchmark.family
        return {"dataset": family.dataset, "access": benchmark.access, "stimulus_set": family.stimulus_set,
                **({"fitting_stimulus_set": family.readout.stimulus_set} if family.readout else {}),
                "visual_degrees": benchmark.visual_degrees, "settings": benchmark.recorded_settings,
                "files": self.plan.sources.data_files(benchmark)}

    def ost_data(self, benchmark) -> dict:
        """The ``data`` of an object solution time headline (score_ost): as :meth:`data`, with the time bins and the
        number of trials, and the settings as given."""
        family = benchmark.family
        return {"dataset": family.dataset, "access": benchmark.access, "stimulus_set": family.stimulus_set,
                "visual_degrees": benchmark.visual_degrees,
                "time_bins": [list(b) for b in self.plan.temporal.requested_bins(benchmark)],
                "number_of_trials": family.number_of_trials, "settings": benchmark.settings,
                "files": self.plan.sources.data_files(benchmark)}
