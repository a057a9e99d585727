"""Stimulus folders and activation layer files (workflow/rules/activations.smk, place_on_screen.smk): the folder a
model sees for a benchmark (the original set, or a copy placed on its screen), the layer files a job reads, the
layers extracted per model × stimulus folder, and the rules that write several of them in one forward pass."""

from __future__ import annotations

import os
from collections import namedtuple
from pathlib import Path

from brainpipe.data import screen
from brainpipe.models.model_sources import model_definition, source_sha1, weights_sha256
from brainpipe.pipeline.workflow_config import (ConfigError, behaviour_layer, layer_set_rule, layers_for_sweep,
                                                load_layer_sets, plan_layer_sets)

#: where the main process saves the sets of layer files that one activations job writes together, for cluster jobs
LAYER_SET_PLANS = Path(".snakemake/brainpipe/activation_layer_sets")

#: one activations rule: its name, input (a function of the wildcards, or folders), output pattern or files,
#: ``folder(wildcards)`` = (model, stimulus folder) its params describe, log and benchmark (timing) files
ActivationsRule = namedtuple("ActivationsRule", "name input output folder log benchmark")


class Activations:
    def __init__(self, plan):
        self.plan = plan

    def stimuli_key(self, model_name: str, benchmark, stimulus_set: str | None = None) -> str:
        """The stimulus folder a model sees: the original set when degrees agree (Brain-Score makes no copy)."""
        target = float(self.plan.model(model_name).get("visual_degrees", 8))
        source = float(benchmark.visual_degrees)
        stimulus_set = stimulus_set or benchmark.family.stimulus_set
        return stimulus_set if target == source else screen.placed_identifier(stimulus_set, target, source)

    @staticmethod
    def stimuli_path(key: str) -> str:
        """A stimulus folder's path: an original set under resources/, a placed copy under results/."""
        base = key.split("--target")[0]
        return f"resources/stimuli/{base}" if key == base else f"results/stimuli_on_screen/{key}"

    def stimuli_folder(self, wildcards) -> str:
        """Input of the activations rule: an original stimulus set or a placed copy."""
        return self.stimuli_path(wildcards.stimuli)

    @staticmethod
    def layer_file(model_name: str, stimuli: str, layer: str) -> str:
        """One layer's activations: each is an output of its own (activations.smk), so that the jobs computed from
        it depend on that file alone."""
        return f"results/activations/{model_name}/{stimuli}/{layer}.nc"

    def benchmark_layer_file(self, wildcards) -> str:
        """The activations of the layer a fold job (or Gram) of this model × benchmark reads."""
        b = self.plan.benchmark(wildcards.benchmark)
        if b.kind != "behaviour" and self.plan.temporal.is_temporal_model(wildcards.model):
            # temporal.smk: its steps on the benchmark's bins
            return self.plan.temporal.timed_layer_file(wildcards.model, b, wildcards.layer)
        return self.layer_file(wildcards.model, self.stimuli_key(wildcards.model, b), wildcards.layer)

    def train_source(self, wildcards) -> str:
        """The activations of the layer on a train/test family's train stimuli (train_test.smk)."""
        b = self.plan.benchmark(wildcards.benchmark)
        return self.layer_file(wildcards.model, self.stimuli_key(wildcards.model, b, b.family.train_stimulus_set),
                               wildcards.layer)

    def model_layers(self, model_name: str, stimulus_set: str) -> list[str]:
        """Every layer extracted for a model on one stimulus set: its committed layers for the regions of the
        benchmark families that use that set, plus sweep layers. Independent of the grid, so adding a benchmark
        never re-extracts activations."""
        spec = self.plan.model(model_name)
        families = self.plan.families
        # (a recorded region a model does not name is read from the layer of the model region the family maps it to)
        regions = {dict(f.model_regions).get(r, r) for f in families if stimulus_set in f.stimulus_sets
                   for r in f.regions}
        layers = [spec["layers"][r] for r in sorted(regions) if r in spec["layers"]]
        for region in sorted(regions):
            layers += layers_for_sweep(spec, region)
        # behaviour: the readout (or logits) layer of every task a behavioural family runs on this set (test or
        # fitting)
        tasks = {b.task for f in families if f.behaviours and stimulus_set in f.stimulus_sets for b in f.behaviours}
        for task in sorted(tasks):
            try:
                layers.append(behaviour_layer(spec, task, ".", model_name))
            except ConfigError:
                pass  # e.g. pixels has no logits: its label benchmarks stop with that message when they are asked for
        return sorted(set(layers))

    def layer_sets(self, main_process: bool, cores) -> list[list[str]]:
        """The sets of layer files that one activations job each writes together (activations.smk): in the main
        process, every grid folder's missing layers when more than one is missing, a behavioural paper's folders
        together, and the sets across folders written before (workflow_config.plan_layer_sets; saved as plans); in a
        cluster job (``main_process`` false), the saved plans, since files may have appeared since the main process
        planned. ``cores``: Snakemake's --cores (an int, or None where not given)."""
        if not main_process:
            return load_layer_sets(LAYER_SET_PLANS)
        # a temporal model's layers are written by activations_temporal (temporal.smk), one rule per layer
        temporal = self.plan.temporal
        static = {folder: files for folder, files in self.plan.grid.layer_files().items()
                  if not temporal.is_temporal_model(folder[0])}
        # extraction jobs take 2 threads: as many grouped jobs as run at once (none grouped across folders where the
        # cores are not given, e.g. a cluster run, whose jobs each have a node)
        groups = self.plan.grid.extraction_groups() if isinstance(cores, int) else None
        return plan_layer_sets(LAYER_SET_PLANS, static, os.path.exists, groups, max(1, (cores or 2) // 2))

    def rules(self, main_process: bool, cores) -> list[ActivationsRule]:
        """The per-layer rule, then one rule (without wildcards, so Snakemake prefers it) per set of layer files to
        extract together (:meth:`layer_sets`)."""
        rules = [ActivationsRule("activations", self.stimuli_folder, "results/activations/{model}/{stimuli}/{layer}.nc",
                                 self.folder_of,
                                 "logs/activations/{model}/{stimuli}/{layer}.log",
                                 "logs/timing/activations/{model}/{stimuli}/{layer}.tsv")]
        for outputs in self.layer_sets(main_process, cores):
            # results/activations/<model>/<stimuli>/<layer>.nc; a set may span a behavioural paper's stimulus folders
            model_name = Path(outputs[0]).parts[2]
            folders = sorted({Path(output).parts[3] for output in outputs})
            name = layer_set_rule(outputs)
            logged_as = folders[0] if len(folders) == 1 else name
            rules.append(ActivationsRule(name, [self.stimuli_path(stimuli) for stimuli in folders], outputs,
                                         lambda wildcards, folder=(model_name, folders[0]): folder,
                                         f"logs/activations/{model_name}/{logged_as}.log",
                                         f"logs/timing/activations/{model_name}/{logged_as}.tsv"))
        return rules

    @staticmethod
    def folder_of(wildcards) -> tuple[str, str]:
        """(model, stimulus folder) of a job whose output pattern names both."""
        return wildcards.model, wildcards.stimuli

    def params(self, code: str, folder=None) -> dict:
        """The params of the activations in ``folder(wildcards)`` = (model, stimulus folder) (default
        :meth:`folder_of`): what the values depend on (``code``: the stage's code fingerprint; the model's whole
        resolved definition, its code and weights files), never which layers."""
        config = self.plan.config
        folder = folder or self.folder_of
        name = lambda wildcards: folder(wildcards)[0]
        spec = lambda wildcards: self.plan.model(name(wildcards))
        return dict(
            code=code,
            architecture=lambda wildcards: spec(wildcards)["architecture"],
            weights=lambda wildcards: spec(wildcards).get("weights"),
            seed=lambda wildcards: spec(wildcards).get("seed", 0),
            # the whole resolved definition (source, weights, weights_file, preprocessing with defaults filled in)
            model=lambda wildcards: model_definition(spec(wildcards)),
            # editing your own model's .py file, or replacing its weights_file, reruns its activations and what follows
            source_sha1=lambda wildcards: source_sha1(spec(wildcards), ".", name(wildcards)),
            weights_sha256=lambda wildcards: weights_sha256(spec(wildcards), ".", name(wildcards)),
            device=config.get("device", "auto"),
            batch_size=config.get("batch_size", 64),
        )
