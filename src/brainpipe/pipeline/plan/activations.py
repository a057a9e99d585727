"""Stimulus folders and activation layer files (workflow/rules/activations.smk, place_on_screen.smk): the folder a
model sees for a benchmark (the original set, or a copy placed on its screen), the layer files a job reads, the
layers extracted per model × stimulus folder, and the rules that write several of them in one forward pass."""

from __future__ import annotations

import functools
import hashlib
import os
from collections import namedtuple
from pathlib import Path

from brainpipe.data import screen
from brainpipe.models.model_sources import model_definition, source_sha1, weights_sha256
from brainpipe.pipeline.model_layers import behaviour_layer, layers_for_sweep
from brainpipe.pipeline.workflow_config import ConfigError

#: where the main process saves the sets of layer files that one activations job writes together, for cluster jobs
LAYER_SET_PLANS = Path(".snakemake/brainpipe/activation_layer_sets")

#: one activations rule: its name, input (a function of the wildcards, or folders), output pattern or files,
#: ``folder(wildcards)`` = (model, stimulus folder) its params describe, log and benchmark (timing) files
ActivationsRule = namedtuple("ActivationsRule", "name input output folder log benchmark")


class Activations:
    def __init__(self, plan):
        self.plan = plan
        self._model_layers: dict[tuple, list[str]] = {}  # model_layers' answers

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
        stimuli = self.stimuli_key(wildcards.model, b, b.family.train_test.stimulus_set)
        if self.plan.temporal.is_temporal_model(wildcards.model):
            # as the test side (benchmark_layer_file): its steps on the benchmark's bins, so that both sides have the
            # same features (the raw file holds every step)
            return self.plan.temporal.timed_layer_file(wildcards.model, b, wildcards.layer, stimuli)
        return self.layer_file(wildcards.model, stimuli, wildcards.layer)

    def model_layers(self, model_name: str, stimulus_set: str) -> list[str]:
        """Every layer extracted for a model on one stimulus set: its committed layers for the regions of the
        benchmark families that use that set, plus sweep layers. Independent of the grid, so adding a benchmark
        never re-extracts activations."""
        # asked for each folder of the grid (and by each layer-set plan): the config and registry are fixed for the
        # plan's life, so once per (model, stimulus set); a copy, since callers may extend the list
        key = (model_name, stimulus_set)
        if key not in self._model_layers:
            self._model_layers[key] = self._layers_of(model_name, stimulus_set)
        return list(self._model_layers[key])

    @functools.cached_property
    def _families_by_stimulus_set(self) -> dict[str, list]:
        """{stimulus set: the families that use it (Family.stimulus_sets)}, in the registry's order."""
        by_set = {}
        for family in self.plan.families:
            for stimulus_set in family.stimulus_sets:
                by_set.setdefault(stimulus_set, []).append(family)
        return by_set

    def _layers_of(self, model_name: str, stimulus_set: str) -> list[str]:
        spec = self.plan.model(model_name)
        families = self._families_by_stimulus_set.get(stimulus_set, [])
        # (a recorded region a model does not name is read from the layer of the model region the family maps it to)
        regions = {dict(f.model_regions).get(r, r) for f in families for r in f.regions}
        layers = [spec["layers"][r] for r in sorted(regions) if r in spec["layers"]]
        for region in sorted(regions):
            layers += layers_for_sweep(spec, region)
        # behaviour: the readout (or logits) layer of every task a behavioural family runs on this set (test or
        # fitting)
        tasks = {b.task for f in families if f.behaviours for b in f.behaviours}
        for task in sorted(tasks):
            try:
                layers.append(behaviour_layer(spec, task, ".", model_name))
            except ConfigError:
                pass  # e.g. pixels has no logits: its label benchmarks stop with that message when they are asked for
        return sorted(set(layers))

    def layer_sets(self, main_process: bool, cores) -> list[list[str]]:
        """The sets of layer files that one activations job each writes together (activations.smk): in the main
        process, every grid folder's missing layers when more than one is missing, a behavioural paper's folders
        together, and the sets across folders written before (:func:`plan_layer_sets`; saved as plans); in a
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


# --- activations: one output per layer file, several missing layers of a model in one job ---------------------------
# Each layer file results/activations/<model>/<stimuli>/<layer>.nc is an output of its own, so adding a layer to a
# sweep leaves the other layers' files (and all that was computed from them) alone. Where several layers of one
# model × stimulus folder are missing at once (a fresh grid, a sweep added), one job writes them all in a single
# forward pass: activations.smk defines a rule for that set of files. The set depends on what is on disk when the
# main Snakemake process plans; a cluster job re-reads the workflow later, when some of those files may exist, so
# the main process saves each set as a plan that job processes define their rules from. A set may span a behavioural
# paper's stimulus folders (extraction_group); its job's input is then all of those folders, and Snakemake records
# that list with each file it wrote: such a plan is kept while its files exist, so that they keep that job as their
# producer (the per-layer rule's input is one folder, and Snakemake's input trigger would extract them again).

def missing_layer_sets(folders, exists, groups=None, jobs_at_once=1):
    """The missing layer files that one job each writes together, as sorted lists: per activations folder, or, for
    folders that ``groups`` puts together (:func:`extraction_group`), per model × group, split into at most
    ``jobs_at_once`` jobs (as many as can run at once: on 8 cores four extraction jobs still run side by side); only
    sets of more than one file (a single missing file is the per-layer rule's).

    folders: {(model, stimuli): [layer file, ...]} the grid needs; exists: path -> bool; groups: {(model, stimuli):
    group key or None}.
    """
    sets, grouped = [], {}
    for folder, files in folders.items():
        missing = {file for file in files if not exists(file)}
        group = (groups or {}).get(folder)
        if group is None:
            sets.append(missing)
        elif missing:
            grouped.setdefault((folder[0], group), {})[folder] = missing
    for members in grouped.values():
        ordered = sorted(members)
        parts = min(len(ordered), max(1, jobs_at_once))
        sets += [set().union(*(members[folder] for folder in ordered[k::parts])) for k in range(parts)]
    return [sorted(missing) for missing in sets if len(missing) > 1]


def extraction_group(family):
    """The key under which a model's missing layer files of ``family``'s stimulus folders are extracted in one job
    (the model loaded once, one process), or None (a job per stimulus folder).

    A behavioural paper's stimulus sets (the families of one module, config entry or plugin: ``Family.origin``) are
    small, hundreds to a few thousand images each (Geirhos2021's raw and on-screen sets, Scialom2024's 20
    conditions, Malania2007's 19 sets): there a job's fixed cost, importing torch and torchvision and reading the
    weights (≈3 s on a CPU), is most of its time, so they share one. Families that say
    ``extract_per_stimulus_set`` (ImageNet, ImageNet-C, ObjectNet) and every neural family keep a job per stimulus
    folder: parallel, and each within a cluster job's runtime."""
    if not family.is_behavioural or family.extract_per_stimulus_set:
        return None
    return family.origin


def layer_set_rule(outputs):
    """The name of the rule that writes ``outputs`` together: keyed by the files, so that a plan saved by one
    Snakemake process names the same rule in another."""
    digest = hashlib.sha1("\n".join(sorted(outputs)).encode()).hexdigest()[:10]
    return f"activations_layers_{digest}"


def plan_layer_sets(folder, folders, exists, groups=None, jobs_at_once=1):
    """In the main process: the sets of layer files to extract together, saved as ``folder/<rule name>.json`` for
    cluster jobs; exactly these plans remain in ``folder``.

    A saved plan that spans stimulus folders and has any of its files on disk is kept (its files keep the job that
    wrote them, with its list of input folders; if some are missing, that job writes them all again); the missing
    files no kept plan covers are grouped afresh (:func:`missing_layer_sets`, same arguments); every other plan (a
    finished set within one folder, a set never run) is removed.
    """
    import json
    import os

    folder = Path(folder)
    kept = [files for files in load_layer_sets(folder)
            if len({Path(file).parent for file in files}) > 1 and any(exists(file) for file in files)]
    covered = {file for files in kept for file in files}
    remaining = {key: [file for file in files if file not in covered] for key, files in folders.items()}
    sets = kept + missing_layer_sets(remaining, exists, groups, jobs_at_once)
    folder.mkdir(parents=True, exist_ok=True)
    wanted = {f"{layer_set_rule(outputs)}.json": outputs for outputs in sets}
    for name, outputs in wanted.items():
        plan = folder / name
        if not plan.exists():
            temporary = plan.with_name(f".{plan.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps(sorted(outputs)))
            temporary.replace(plan)  # a job reading plans never sees half a file
    for plan in folder.glob("activations_layers_*.json"):
        if plan.name not in wanted:
            plan.unlink(missing_ok=True)
    return sets


def load_layer_sets(folder):
    """Every saved set of layer files (see :func:`plan_layer_sets`)."""
    import json

    sets = []
    for plan in sorted(Path(folder).glob("activations_layers_*.json")):
        try:
            sets.append(json.loads(plan.read_text()))
        except (OSError, ValueError):  # pruned by the main process meanwhile: its job is done
            continue
    return sets
