"""Behavioural benchmarks (workflow/rules/behaviour.smk): the model's task output is a stage of its own
(results/behaviour/<model>/<task>/<stimuli>.nc), computed from the cached activations of its readout (or logits)
layer and shared by every benchmark that needs it; the headline compares it with the human data (or with a stimulus
set's own columns) and the ceiling."""

from __future__ import annotations

import functools

from brainpipe import benchmarks as bench
from brainpipe.behaviour.ceiled import declared_ceiling
from brainpipe.behaviour.stages import task_key, task_spec
from brainpipe.pipeline.model_layers import behaviour_layer
from brainpipe.pipeline.workflow_config import ConfigError
from .errors import PlanError


class Behaviour:
    def __init__(self, plan):
        self.plan = plan
        # benchmark_of_output's index, per model: {task output: benchmark} and how many candidates it covers
        self._outputs: dict[str, dict] = {}
        self._scanned: dict[str, int] = {}
        self._layers: dict[tuple, str] = {}  # layer_of's answers, per (model, task)

    def layer_of(self, model_name: str, benchmark) -> str:
        """The model's layer a behavioural benchmark's task reads (its readout or logits layer)."""
        task = benchmark.behaviour.task
        # asked by every task, fold and score job of a behavioural benchmark: once per model and task (each time
        # it reads the architecture's layer names from the parse cache); an error is not kept, it names the benchmark
        if (model_name, task) not in self._layers:
            try:
                self._layers[(model_name, task)] = behaviour_layer(self.plan.model(model_name), task, ".", model_name)
            except ConfigError as error:
                raise PlanError(f"{benchmark.identifier}: {error}") from None
        return self._layers[(model_name, task)]

    def fitting_key(self, model_name: str, benchmark) -> str | None:
        """The other stimuli a task reads, as the model saw them: the fitting stimuli of a probabilities readout, or
        the base images of a label task masked by a base condition (Kato2026); None for the others."""
        activations = self.plan.activations
        base = dict(benchmark.behaviour.options).get("base_stimulus_set")
        if benchmark.behaviour.task == "label" and base:
            return activations.stimuli_key(model_name, benchmark, base)
        if benchmark.behaviour.task != "probabilities":
            return None
        return activations.stimuli_key(model_name, benchmark, benchmark.family.readout.stimulus_set)

    def output(self, model_name: str, benchmark) -> str:
        """The task output a behavioural benchmark compares with the human data."""
        task = task_key(benchmark.behaviour, benchmark.family, self.fitting_key(model_name, benchmark))
        return f"results/behaviour/{model_name}/{task}/{self.plan.activations.stimuli_key(model_name, benchmark)}.nc"

    def benchmark_of_output(self, wildcards):
        """A benchmark (the grid's first, else any known) whose task output is the file of ``wildcards`` (model,
        task, stimuli); its definition fixes the task's inputs."""
        model = wildcards.model
        wanted = f"results/behaviour/{model}/{wildcards.task}/{wildcards.stimuli}.nc"
        # Asked twice per task job (its input and its params): scanning every behavioural benchmark's output each
        # time made planning a grid of all of Brain-Score's benchmarks quadratic-ish (3 s of a 3-model grid). The
        # candidates' outputs are indexed per model instead, in candidate order and only as far as a lookup needs:
        # the first candidate with an output wins, as in a scan, and a candidate that raises does so at the same
        # lookup (the position only advances past a candidate once its output is known).
        outputs = self._outputs.setdefault(model, {})
        candidates = self._behavioural_candidates
        while wanted not in outputs and self._scanned.get(model, 0) < len(candidates):
            position = self._scanned.get(model, 0)
            b = self.plan.benchmark(candidates[position])
            outputs.setdefault(self.output(model, b), b)
            self._scanned[model] = position + 1
        if wanted in outputs:
            return outputs[wanted]
        raise PlanError(f"no behavioural benchmark produces {wanted}")

    @functools.cached_property
    def _behavioural_candidates(self) -> list[str]:
        """The identifiers :meth:`benchmark_of_output` tries, in order: the grid's, then every other known one; only
        those of a behavioural family."""
        plan = self.plan
        grid = plan.config["benchmarks"]
        in_grid = set(grid)
        candidates = list(grid) + [i for i in plan.registry.identifiers() if i not in in_grid]
        verbatim_ids = bench.base.verbatim_identifiers(plan.registry.families)
        behavioural = []
        for identifier in candidates:
            verbatim = verbatim_ids.get(identifier)
            family = plan.registry.families.get(verbatim[0] if verbatim else identifier.split("-", 1)[0])
            if family is not None and family.behaviours:
                behavioural.append(identifier)
        return behavioural

    def task_inputs(self, wildcards) -> dict:
        """The task reads one layer (its readout or logits) of the activations: only that file is an input, so
        adding a layer to the model's sweep does not rerun the task."""
        layer_file = self.plan.activations.layer_file
        b = self.benchmark_of_output(wildcards)
        family = b.family
        layer = self.layer_of(wildcards.model, b)
        inputs = {"features": layer_file(wildcards.model, wildcards.stimuli, layer)}
        if b.behaviour.task == "probabilities":
            key = self.fitting_key(wildcards.model, b)
            inputs["fitting"] = layer_file(wildcards.model, key, layer)
            inputs["fitting_stimuli"] = f"resources/stimuli/{family.readout.stimulus_set}"
            if b.behaviour.metric == "value_delta":  # each test image's image_number and block
                inputs["test_stimuli"] = f"resources/stimuli/{family.stimulus_set}"
        spec = task_spec(b)
        if b.behaviour.task == "odd_one_out" or spec.get("labels_from_truth"):  # triplets; Kato2026's label set
            inputs["human"] = f"results/assemblies/{family.dataset}/behaviour.nc"
        if spec.get("triplet_images") == "by_row":  # Hebart2023: upstream picks the triplet images by row (checked)
            inputs["test_stimuli"] = f"resources/stimuli/{family.stimulus_set}"
        if spec.get("stimulus_columns"):  # a label task that copies test stimulus columns (Baker2022)
            inputs["test_stimuli"] = f"resources/stimuli/{family.stimulus_set}"
        if spec.get("base_stimulus_set"):  # Kato2026: the base images' logits and truth, the test set's order
            inputs["base"] = layer_file(wildcards.model, self.fitting_key(wildcards.model, b), layer)
            inputs["base_stimuli"] = f"resources/stimuli/{spec['base_stimulus_set']}"
            inputs["test_stimuli"] = f"resources/stimuli/{family.stimulus_set}"
        return inputs

    def task_spec(self, wildcards) -> dict:
        """What the task output depends on besides its inputs (a param: editing it reruns the task)."""
        b = self.benchmark_of_output(wildcards)
        return {**task_spec(b), "layer": self.layer_of(wildcards.model, b)}

    @staticmethod
    def stimulus_truth_column(family) -> str:
        """The ground-truth column of a target built from a stimulus set (ObjectNet: synset), as the family's
        benchmarks declare it."""
        return dict(family.behaviours[0].options).get("truth_column", "truth")

    def truth_column(self, wildcards) -> str | None:
        """A target built from the stimulus set (:meth:`target`): its ground-truth column; None for human data."""
        family = self.plan.benchmark(wildcards.benchmark).family
        return self.stimulus_truth_column(family) if family.source == "stimuli" else None

    def target(self, wildcards) -> str:
        """What a behavioural headline compares the model with: the prepared human data, or for a family without
        human data (Family.source 'stimuli': ImageNet, ObjectNet, the engineering accuracies) its stimulus folder,
        whose table the score job turns into the target itself (the stimulus_target stage's file, without its
        job)."""
        family = self.plan.benchmark(wildcards.benchmark).family
        if family.source == "stimuli":
            return f"resources/stimuli/{family.stimulus_set}"
        return self.plan.recordings.prepared(wildcards, "target")

    def computed_ceiling(self, wildcards) -> list[str]:
        """The ceiling file a behavioural benchmark's score job reads: none where the benchmark declares its ceiling
        (a number, e.g. 1.0 for accuracy: no ceiling job)."""
        if declared_ceiling(self.plan.benchmark(wildcards.benchmark).behaviour) is not None:
            return []
        return [f"results/ceilings/{wildcards.benchmark}.json"]

    def condition_table_files(self, datasets, tables, dataset: str, kind: str) -> list[str]:
        """What a per-condition figure (the conditions_plot job) reads besides score JSONs: for each (model,
        benchmark) of brainpipe.pipeline.report.condition_table_pairs, the model's task output (``kind`` 'task') or
        the benchmark's prepared human data ('human'): the files its fold job compared."""
        from types import SimpleNamespace

        from brainpipe.pipeline.report import condition_table_pairs

        plan = self.plan
        pairs = condition_table_pairs(datasets, tables, plan.config["models"], dataset, plan.grid.empty_cells)
        if kind == "task":
            return [self.output(model, plan.benchmark(benchmark)) for model, benchmark in pairs]
        return [plan.recordings.prepared(SimpleNamespace(benchmark=benchmark), "target") for _, benchmark in pairs]
