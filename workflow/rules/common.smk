# Shared by every rule: config validation, wildcard constraints, and the input functions that map a target
# (model, benchmark) onto the files it needs. All lookups go through src/brainpipe, so the workflow and a
# Python user agree on what a benchmark or a model is.
import functools
import os
from collections import namedtuple
from pathlib import Path

from snakemake.utils import validate

# brainpipe is this checkout's src/brainpipe: the Snakefile puts it first on sys.path and PYTHONPATH.
from brainpipe import benchmarks as bench
from brainpipe.pipeline import fork_server, parse_cache
from brainpipe.pipeline.benchmark_selectors import config_benchmarks
from brainpipe.pipeline.declared_files import (DeclaredDataError, StaleSha1, check_declared_behaviour,
                                              check_declared_sha1s)
from brainpipe.pipeline.declared_regions import check_declared_regions
from brainpipe.data import screen
from brainpipe.neural.metrics import spantime_sample_space_bytes, uses_gram
from brainpipe.models.model_sources import (keep_digests_in, model_definition, model_provenance, source_sha1,
                                           weights_sha256)
from brainpipe.behaviour.ceiled import declared_ceiling
from brainpipe.behaviour.stages import task_key, task_spec
from brainpipe.pipeline.workflow_config import (ConfigError, behaviour_layer, check_committed_regions, check_config,
                                                check_config_structure, extraction_group, layer_set_rule, layers_for_sweep,
                                                library_code, load_layer_sets, load_registry, plan_layer_sets)

CONFIG_SCHEMA = REPOSITORY / "workflow/schemas/config.schema.yaml"  # REPOSITORY: the Snakefile's folder
try:  # unknown keys (with the nearest valid one), empty grid, reserved model names, types: one line each
    check_config_structure(config, CONFIG_SCHEMA)
except ConfigError as error:
    raise WorkflowError(str(error)) from None
validate(config, schema=str(CONFIG_SCHEMA))  # passes now; fills in the schema's defaults
try:  # suite:, family:, parent:, glob and !exclusion entries -> plain identifiers, before anything reads the grid
    config["benchmarks"] = config_benchmarks(config)
except ConfigError as error:
    raise WorkflowError(str(error)) from None
if workflow.is_main_process:  # names are checked once, before scheduling; cluster jobs re-read the workflow
    # architectures' layer names and weights checks that passed before, the rules' library code fingerprints and the
    # digests of weights and model files, kept per user (pipeline/parse_cache.py)
    parse_cache.use(parse_cache.user_cache_path())
    keep_digests_in(parse_cache)
    try:
        check_config(config)  # builds each model's architecture to check layer names (~1 s per model, uncached)
    except ConfigError as error:
        raise WorkflowError(str(error)) from None

onstart:
    # a local run: one warm process computes the jobs (each job script hands itself over to it), so that a grid's
    # hundreds of short jobs do not each import xarray, scikit-learn and torch again (pipeline/fork_server.py); the
    # Snakefile may have started it already. Jobs run elsewhere (a cluster executor): none, before any is submitted
    if workflow.is_main_process and workflow.local_exec and not workflow.touch:
        fork_server.start()
    else:
        fork_server.stop()


REGISTRY = load_registry(config)  # every benchmark family: built-ins, config benchmark_zoo, benchmark_plugins
try:  # a region no model commits (a typo) stops here, before any job, not as a missing file at the report
    if workflow.is_main_process:  # first: a declared region its local recordings lack (a typo made everywhere)
        check_declared_regions(config, REGISTRY, Path(".snakemake/brainpipe/declared_regions.json"))
    check_committed_regions(config, REGISTRY)
    if workflow.is_main_process:  # a declared file edited after its entry was written: its own sha1 key named
        check_declared_sha1s(config, Path(".snakemake/brainpipe/declared_sha1.json"))
        # trials naming unknown stimuli, or answers outside the labels: refused now, not by a ceiling job that
        # Snakemake has already emptied of its previous output
        check_declared_behaviour(config, Path(".snakemake/brainpipe/declared_sha1.json"))
except (ConfigError, StaleSha1, DeclaredDataError) as error:
    raise WorkflowError(str(error)) from None


wildcard_constraints:
    # a model name is any folder name except the result folders that sit beside the models' folders
    model="(?!(?:ceilings|activations|assemblies|stimuli_on_screen|benchmarks|plots|gram|behaviour|properties)/)[^/]+",
    # Family.region-metric (neural) or Family-metric (behaviour); as brainpipe.benchmarks.IDENTIFIER
    # or one of Brain-Score's identifiers kept verbatim (Behaviour.identifier: BMD2024.texture_1Behavioral-...)
    benchmark="|".join(["[A-Za-z0-9_]+(?:\.[A-Za-z0-9]+)?-[a-z_0-9]+(?:-[a-z_0-9]+)*"] + [
        __import__("re").escape(i) for i in sorted(bench.base.verbatim_identifiers(REGISTRY.families), key=len,
                                                   reverse=True)]),
    layer="[^/]+",
    fold="[0-9]+",
    region="[A-Za-z0-9]+",
    timing="static|temporal",


# asked for by every job's input and params functions (2,400 times for 44 benchmarks); a parse has one config
@functools.cache
def get_benchmark(identifier):
    """Parse a benchmark id with its config overrides; a bad id stops the run with the parser's message."""
    try:
        settings = (config.get("benchmark_settings") or {}).get(identifier)
        family = identifier.split("-", 1)[0].split(".", 1)[0]
        split = ((config.get("data") or {}).get("splits") or {}).get(family)
        benchmark = REGISTRY.benchmark(identifier, settings, split)
    except ValueError as error:
        raise WorkflowError(f"benchmark {identifier}: {error}") from None
    if settings and benchmark.family.sessions:  # (Family.sessions) its jobs are its sessions': so are its settings
        raise WorkflowError(f"config benchmark_settings.{identifier}: {identifier} averages its sessions' scores; "
                            f"give the settings to each session instead: {', '.join(benchmark.family.sessions)}")
    return benchmark


def get_model(name):
    zoo = config["model_zoo"]
    if name not in zoo:
        raise WorkflowError(f"model {name!r} is not in config model_zoo; known: {sorted(zoo)}")
    return zoo[name]


def timing(benchmark):
    if benchmark.family.time_points:  # time points scored as neuroids (train_test.smk: prepare_time_points)
        return "points"
    if benchmark.family.consistency_threshold is not None:  # neuroids and stimuli selected (prepare_selected_assembly)
        return "selected"
    if benchmark.kind == "temporal" and benchmark.family.time_alignment:  # resampled bins (prepare_aligned_assembly)
        return "aligned"
    return "temporal" if benchmark.kind == "temporal" else "static"


def prepared(wildcards, kind):
    b = get_benchmark(wildcards.benchmark)
    if b.kind == "behaviour":  # the human data, prepared once per data set (target and ceiling alike)
        return f"results/assemblies/{b.family.dataset}/behaviour.nc"
    if b.family.source == "stimuli":  # no recordings (Islam2021): the stimulus set's columns, target and trials alike
        return f"results/assemblies/{b.family.dataset}/stimuli.nc"
    return f"results/assemblies/{b.family.dataset}/{b.region}-{timing(b)}/{kind}.nc"


def stimuli_key(model_name, benchmark, stimulus_set=None):
    """The stimulus folder a model sees: the original set when degrees agree (Brain-Score makes no copy)."""
    target = float(get_model(model_name).get("visual_degrees", 8))
    source = float(benchmark.visual_degrees)
    stimulus_set = stimulus_set or benchmark.family.stimulus_set
    return stimulus_set if target == source else screen.placed_identifier(stimulus_set, target, source)


# ---- behaviour: the model's task output is a stage of its own (results/behaviour/<model>/<task>/<stimuli>.nc),
# computed from the cached activations of its readout (or logits) layer, shared by every benchmark that needs it.

def behaviour_layer_of(model_name, benchmark):
    try:
        return behaviour_layer(get_model(model_name), benchmark.behaviour.task, ".", model_name)
    except ConfigError as error:
        raise WorkflowError(f"{benchmark.identifier}: {error}") from None


def fitting_key(model_name, benchmark):
    """The other stimuli a task reads, as the model saw them: the fitting stimuli of a probabilities readout, or
    the base images of a label task masked by a base condition (Kato2026); None for the others."""
    family = benchmark.family
    base = dict(benchmark.behaviour.options).get("base_stimulus_set")
    if benchmark.behaviour.task == "label" and base:
        return stimuli_key(model_name, benchmark, base)
    if benchmark.behaviour.task != "probabilities":
        return None
    return stimuli_key(model_name, benchmark, family.fitting_stimulus_set)


def behaviour_output(model_name, benchmark):
    """The task output a behavioural benchmark compares with the human data."""
    task = task_key(benchmark.behaviour, benchmark.family, fitting_key(model_name, benchmark))
    return f"results/behaviour/{model_name}/{task}/{stimuli_key(model_name, benchmark)}.nc"


def behaviour_benchmark(wildcards):
    """A benchmark (the grid's first, else any known) whose task output is this file; its definition fixes
    the task's inputs."""
    wanted = f"results/behaviour/{wildcards.model}/{wildcards.task}/{wildcards.stimuli}.nc"
    candidates = list(config["benchmarks"]) + [i for i in REGISTRY.identifiers() if i not in config["benchmarks"]]
    verbatim_ids = bench.base.verbatim_identifiers(REGISTRY.families)
    for identifier in candidates:
        verbatim = verbatim_ids.get(identifier)
        family = REGISTRY.families.get(verbatim[0] if verbatim else identifier.split("-", 1)[0])
        if family is None or not family.behaviours:
            continue
        b = get_benchmark(identifier)
        if behaviour_output(wildcards.model, b) == wanted:
            return b
    raise WorkflowError(f"no behavioural benchmark produces {wanted}")


def behaviour_task_inputs(wildcards):
    """The task reads one layer (its readout or logits) of the activations: only that file is an input, so
    adding a layer to the model's sweep does not rerun the task."""
    b = behaviour_benchmark(wildcards)
    layer = behaviour_layer_of(wildcards.model, b)
    inputs = {"features": layer_file(wildcards.model, wildcards.stimuli, layer)}
    if b.behaviour.task == "probabilities":
        key = fitting_key(wildcards.model, b)
        inputs["fitting"] = layer_file(wildcards.model, key, layer)
        inputs["fitting_stimuli"] = f"resources/stimuli/{b.family.fitting_stimulus_set}"
        if b.behaviour.metric == "value_delta":  # each test image's image_number and block
            inputs["test_stimuli"] = f"resources/stimuli/{b.family.stimulus_set}"
    spec = task_spec(b)
    if b.behaviour.task == "odd_one_out" or spec.get("labels_from_truth"):  # triplets; Kato2026's label set
        inputs["human"] = f"results/assemblies/{b.family.dataset}/behaviour.nc"
    if spec.get("triplet_images") == "by_row":  # Hebart2023: upstream picks the triplet images by row (checked)
        inputs["test_stimuli"] = f"resources/stimuli/{b.family.stimulus_set}"
    if spec.get("stimulus_columns"):  # a label task that copies test stimulus columns (Baker2022)
        inputs["test_stimuli"] = f"resources/stimuli/{b.family.stimulus_set}"
    if spec.get("base_stimulus_set"):  # Kato2026: the base images' logits and truth, the test set's order
        inputs["base"] = layer_file(wildcards.model, fitting_key(wildcards.model, b), layer)
        inputs["base_stimuli"] = f"resources/stimuli/{spec['base_stimulus_set']}"
        inputs["test_stimuli"] = f"resources/stimuli/{b.family.stimulus_set}"
    return inputs


def behaviour_task_spec(wildcards):
    """What the task output depends on besides its inputs (a param: editing it reruns the task)."""
    b = behaviour_benchmark(wildcards)
    return {**task_spec(b), "layer": behaviour_layer_of(wildcards.model, b)}


def behavioural_datasets():
    """Data sets of human trials (rule prepare_behaviour); not the targets built from a stimulus set."""
    return sorted({f.dataset for f in REGISTRY.families.values() if f.behaviours and f.source != "stimuli"})


def stimulus_target_datasets():
    """Targets built from a stimulus set's own columns (the stimulus_target rule, e.g. Hermann2020 with no human data)."""
    return sorted({f.dataset for f in REGISTRY.families.values() if f.behaviours and f.source == "stimuli"})


def stimulus_column_datasets():
    """Neural data sets without recordings (the stimulus_columns stage, e.g. Islam2021): the stimulus set's columns."""
    return sorted({f.dataset for f in REGISTRY.families.values() if not f.behaviours and f.source == "stimuli"})


def layer_file(model_name, stimuli, layer):
    """One layer's activations: each is an output of its own (activations.smk), so that the jobs computed from
    it depend on that file alone."""
    return f"results/activations/{model_name}/{stimuli}/{layer}.nc"


def benchmark_layer_file(wildcards):
    """The activations of the layer a fold job (or Gram) of this model × benchmark reads."""
    b = get_benchmark(wildcards.benchmark)
    if b.kind != "behaviour" and is_temporal_model(wildcards.model):  # temporal.smk: its steps on the benchmark's bins
        return timed_layer_file(wildcards.model, b, wildcards.layer)
    return layer_file(wildcards.model, stimuli_key(wildcards.model, b), wildcards.layer)


def stimuli_folder(wildcards):
    """Input of the activations rule: an original stimulus set or a placed copy."""
    return stimuli_path(wildcards.stimuli)


def stimuli_path(key):
    base = key.split("--target")[0]
    return f"resources/stimuli/{base}" if key == base else f"results/stimuli_on_screen/{key}"


def model_layers(model_name, stimulus_set):
    """Every layer extracted for a model on one stimulus set: its committed layers for the regions of the
    benchmark families that use that set, plus sweep layers. Independent of the grid, so adding a benchmark
    never re-extracts activations."""
    spec = get_model(model_name)
    # (a recorded region a model does not name is read from the layer of the model region the family maps it to)
    regions = {dict(f.model_regions).get(r, r) for f in REGISTRY.families.values() if stimulus_set in f.stimulus_sets
               for r in f.regions}
    layers = [spec["layers"][r] for r in sorted(regions) if r in spec["layers"]]
    for region in sorted(regions):
        layers += layers_for_sweep(spec, region)
    # behaviour: the readout (or logits) layer of every task a behavioural family runs on this set (test or fitting)
    tasks = {b.task for f in REGISTRY.families.values() if f.behaviours and stimulus_set in f.stimulus_sets
             for b in f.behaviours}
    for task in sorted(tasks):
        try:
            layers.append(behaviour_layer(spec, task, ".", model_name))
        except ConfigError:
            pass  # e.g. pixels has no logits: its label benchmarks stop with that message when they are asked for
    return sorted(set(layers))


def grid_ceilings():
    """The ceiling file of each benchmark of the grid whose data are there (score.smk's UNAVAILABLE_BENCHMARKS, whose
    data need a file you supply and have not, have none)."""
    return expand("results/ceilings/{benchmark}.json",
                  benchmark=[b for b in config["benchmarks"] if b not in UNAVAILABLE_BENCHMARKS])


def scored_layers(model_name, benchmark):
    if f"{model_name}/{benchmark.identifier}" in EMPTY_CELLS:  # score.smk: an empty cell scores no layer
        return []
    if benchmark.kind == "behaviour":
        return [behaviour_layer_of(model_name, benchmark)]
    spec = get_model(model_name)
    committed = spec["layers"].get(benchmark.model_region)
    if committed is None:
        raise WorkflowError(f"model {model_name!r} commits no layer to region {benchmark.model_region!r} "
                            f"(config model_zoo.{model_name}.layers)")
    return sorted(set([committed] + layers_for_sweep(spec, benchmark.model_region)))


def score_model_spec(model_name, benchmark):
    """The model_spec of a headline score: the model's entry with provenance, its sweep narrowed to the benchmark's
    region (none for behaviour), so that editing another region's sweep does not rewrite this score."""
    spec = model_provenance(get_model(model_name), ".", model_name)
    sweep = spec.pop("sweep", None) or {}
    if benchmark.kind != "behaviour" and benchmark.model_region in sweep:
        spec["sweep"] = {benchmark.model_region: sweep[benchmark.model_region]}
    return spec


def score_data(benchmark):
    """The ``data`` of a headline score: which recordings (public or private split), stimuli, degrees and settings
    it read, with the fetched files' names and sha1s."""
    family = benchmark.family
    return {"dataset": family.dataset, "split": benchmark.split, "stimulus_set": family.stimulus_set,
            **({"fitting_stimulus_set": family.fitting_stimulus_set} if family.fitting_stimulus_set else {}),
            "visual_degrees": benchmark.visual_degrees, "settings": benchmark.recorded_settings,
            "files": data_files(benchmark)}


def committed_layer(model_name, benchmark):
    if benchmark.kind == "behaviour":
        return behaviour_layer_of(model_name, benchmark)
    return get_model(model_name)["layers"][benchmark.model_region]


def stimulus_truth_column(family):
    """The ground-truth column of a target built from a stimulus set (ObjectNet: synset), as the family's benchmarks
    declare it."""
    return dict(family.behaviours[0].options).get("truth_column", "truth")


def behaviour_target(wildcards):
    """What a behavioural headline compares the model with: the prepared human data, or for a family without human
    data (Family.source 'stimuli': ImageNet, ObjectNet, the engineering accuracies) its stimulus folder, whose table
    the score job turns into the target itself (the stimulus_target stage's file, without its job)."""
    family = get_benchmark(wildcards.benchmark).family
    if family.source == "stimuli":
        return f"resources/stimuli/{family.stimulus_set}"
    return prepared(wildcards, "target")


def computed_ceiling(wildcards):
    """The ceiling file a behavioural benchmark's score job reads: none where the benchmark declares its ceiling (a
    number, e.g. 1.0 for accuracy: no ceiling job)."""
    if declared_ceiling(get_benchmark(wildcards.benchmark).behaviour) is not None:
        return []
    return [f"results/ceilings/{wildcards.benchmark}.json"]


def fold_source(wildcards):
    """What a fold job reads: the layer's Gram matrix for regressions that can use it, else the activations
    (for behaviour: the model's task output)."""
    b = get_benchmark(wildcards.benchmark)
    if b.kind == "behaviour":
        return behaviour_output(wildcards.model, b)
    if uses_gram(b):
        return benchmark_layer_file(wildcards).replace("results/activations/", "results/gram/", 1)
    return benchmark_layer_file(wildcards)


def condition_table_files(datasets, tables, dataset, kind):
    """What a per-condition figure (the conditions_plot job) reads besides score JSONs: for each (model, benchmark) of
    brainpipe.pipeline.report.condition_table_pairs, the model's task output (``kind`` 'task') or the benchmark's
    prepared human data ('human'): the files its fold job compared."""
    from types import SimpleNamespace

    from brainpipe.pipeline.report import condition_table_pairs

    pairs = condition_table_pairs(datasets, tables, config["models"], dataset, EMPTY_CELLS)  # score.smk's
    if kind == "task":
        return [behaviour_output(model, get_benchmark(benchmark)) for model, benchmark in pairs]
    return [prepared(SimpleNamespace(benchmark=benchmark), "target") for _, benchmark in pairs]


def fold_files(wildcards):
    b = get_benchmark(wildcards.benchmark)
    if b.family.train_dataset:  # one fit on a train data set, scored on the test one (train_test.smk)
        return ["results/{model}/{benchmark}/layers/{layer}/train_test.json".format(**wildcards)]
    return expand("results/{{model}}/{{benchmark}}/layers/{{layer}}/fold{fold}.json", fold=range(b.n_folds))


def train_test_source_train(wildcards):
    """The activations of the layer on a train/test family's train stimuli (train_test.smk)."""
    b = get_benchmark(wildcards.benchmark)
    return layer_file(wildcards.model, stimuli_key(wildcards.model, b, b.family.train_stimulus_set), wildcards.layer)


def train_test_target_train(wildcards):
    """A train/test family's prepared train recordings (the region's, averaged over any repetitions)."""
    b = get_benchmark(wildcards.benchmark)
    return f"results/assemblies/{b.family.train_dataset}/{b.region}-{timing(b)}/target.nc"


def grid_folders():
    """(model, stimulus folder, the benchmark that shows it) for every model of the grid and every stimulus folder
    it sees (fitting, train and session sets included)."""
    for m in config["models"]:
        for identifier in config["benchmarks"]:
            b = get_benchmark(identifier)
            keys = [stimuli_key(m, b)]
            if b.kind == "behaviour" and fitting_key(m, b):
                keys.append(fitting_key(m, b))
            if b.family.train_dataset:  # a train/test family's train stimuli
                keys.append(stimuli_key(m, b, b.family.train_stimulus_set))
            keys += [stimuli_key(m, get_benchmark(s)) for s in b.family.sessions]  # each session's (Cowley2026)
            yield from ((m, key, b) for key in keys)


def grid_layer_files():
    """{(model, stimulus folder): its layer files} of the grid; the layers are model_layers', independent of the
    grid's benchmarks."""
    folders = {}
    for m, key, _ in grid_folders():
        if (m, key) not in folders:
            folders[(m, key)] = [layer_file(m, key, layer) for layer in model_layers(m, key.split("--target")[0])]
    return folders


def extraction_groups():
    """{(model, stimulus folder): the key of the folders extracted together with it, or None}: a behavioural
    paper's folders share one (workflow_config.extraction_group)."""
    groups = {}
    for m, key, b in grid_folders():
        groups[(m, key)] = groups.get((m, key)) or extraction_group(b.family)
    return groups


def grid_activations():
    """Every activation layer file of the grid."""
    return sorted({file for files in grid_layer_files().values() for file in files})


LAYER_SET_PLANS = Path(".snakemake/brainpipe/activation_layer_sets")


def layer_sets():
    """The sets of layer files that one activations job each writes together (activations.smk): in the main
    process, every grid folder's missing layers when more than one is missing, a behavioural paper's folders
    together, and the sets across folders written before (workflow_config.plan_layer_sets; saved as plans); in a
    cluster job, the saved plans, since files may have appeared since the main process planned."""
    if not workflow.is_main_process:
        return load_layer_sets(LAYER_SET_PLANS)
    # a temporal model's layers are written by activations_temporal (temporal.smk), one rule per layer
    static = {folder: files for folder, files in grid_layer_files().items() if not is_temporal_model(folder[0])}
    # extraction jobs take 2 threads: as many grouped jobs as run at once (none grouped across folders where the
    # cores are not given, e.g. a cluster run, whose jobs each have a node)
    cores = workflow._cores
    groups = extraction_groups() if isinstance(cores, int) else None
    return plan_layer_sets(LAYER_SET_PLANS, static, os.path.exists, groups, max(1, (cores or 2) // 2))


ActivationsRule = namedtuple("ActivationsRule", "name input output folder log benchmark")


def activations_rules():
    """The per-layer rule, then one rule (without wildcards, so Snakemake prefers it) per set of layer files to
    extract together."""
    rules_ = [ActivationsRule("activations", stimuli_folder, "results/activations/{model}/{stimuli}/{layer}.nc",
                              lambda wildcards: (wildcards.model, wildcards.stimuli),
                              "logs/activations/{model}/{stimuli}/{layer}.log",
                              "logs/timing/activations/{model}/{stimuli}/{layer}.tsv")]
    for outputs in layer_sets():
        # results/activations/<model>/<stimuli>/<layer>.nc; a set may span a behavioural paper's stimulus folders
        model_name = Path(outputs[0]).parts[2]
        folders = sorted({Path(output).parts[3] for output in outputs})
        name = layer_set_rule(outputs)
        logged_as = folders[0] if len(folders) == 1 else name
        rules_.append(ActivationsRule(name, [stimuli_path(stimuli) for stimuli in folders], outputs,
                                      lambda wildcards, folder=(model_name, folders[0]): folder,
                                      f"logs/activations/{model_name}/{logged_as}.log",
                                      f"logs/timing/activations/{model_name}/{logged_as}.tsv"))
    return rules_


def activations_params(folder):
    """The params of the activations in ``folder(wildcards)`` = (model, stimulus folder): what the values depend
    on (the model's whole resolved definition, its code and weights files, the library), never which layers."""
    name = lambda wildcards: folder(wildcards)[0]
    spec = lambda wildcards: get_model(name(wildcards))
    return dict(
        code=library_code("models/brain_model", "models/model_sources", "models/preprocessing", "models/activations",
                          "data/stimuli", "models/_torchvision"),
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


def same_resources_as_per_layer_rule(name):
    """--set-resources / --set-threads (e.g. the slurm profile's `activations: gpu: 0`) name the per-layer rule:
    a job that extracts several layers asks for the same."""
    if name != "activations":
        workflow.get_rule(name).resources = workflow.get_rule("activations").resources.copy()


def grid_scores():
    return expand("results/{model}/{benchmark}.json", model=config["models"], benchmark=config["benchmarks"])


def mb(paths, factor=1.0, floor=1000):
    """Memory estimate (MB) from input sizes, for cluster schedulers: factor × size + floor."""
    total = 0
    for path in paths:
        path = Path(path)
        if path.is_dir():
            total += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        elif path.exists():
            total += path.stat().st_size
    return int(floor + factor * total / 1e6)


def prepare_window(wildcards):
    """Time window (and bin width for temporal benchmarks) of the family whose data set this is."""
    families = [f for f in REGISTRY.families.values()  # (a family averaging sessions borrows a session's data set)
                if wildcards.dataset in (f.dataset, f.private_dataset, f.train_dataset) and not f.sessions]
    if not families:
        raise WorkflowError(f"no benchmark family uses data set {wildcards.dataset!r}")
    family = families[0]
    if wildcards.timing == "static":
        return list(family.time_window), None
    if family.temporal_window is None:
        raise WorkflowError(f"data set {wildcards.dataset!r} has no time-resolved recordings for temporal metrics")
    return list(family.temporal_window), family.temporal_bin


def ceiling_method(benchmark):
    """How the ceiling job computes the ceiling: a plugin's own, a declared fixed number, none, or from the data."""
    if benchmark.kind in ("custom", "behaviour"):
        return benchmark.kind
    if benchmark.family.ceiling == "none":
        return "none"
    if benchmark.family.ceiling == "predictor_consistency":  # reverse predictivity's split-half ceiling
        return "predictor_consistency"
    if benchmark.metric == "rdm" and benchmark.family.subject_coord:  # inter-subject RDM consistency (Li2026)
        return "rdm_subjects"
    if str(benchmark.family.ceiling).startswith("median_of:"):  # a per-neuroid reliability in the data (Li2026)
        return "coordinate_median"
    if isinstance(benchmark.family.ceiling, float):
        return "fixed"
    if benchmark.kind == "representational":
        return benchmark.metric.removesuffix("_cv")  # split-half consistency of the same similarity
    return "internal_consistency"


def family_of_dataset(dataset):
    families = [f for f in REGISTRY.families.values() if (dataset in (f.dataset, f.private_dataset, f.train_dataset)
                or dataset in dict(f.splits).values()) and not f.sessions]  # a train or test file of a joined data
    # set (Allen2022); not a family averaging sessions (Family.sessions), which borrows its first session's
    if not families:
        raise WorkflowError(f"no benchmark family uses data set {dataset!r}")
    return families[0]


def benchmark_definition(wildcards):
    """Fingerprint of the family's definition (module, config entry or plugin file), its version and ceiling,
    passed as a parameter: editing one family reruns its benchmarks' jobs and nothing else."""
    b = get_benchmark(wildcards.benchmark)
    return {"family": b.family.fingerprint, "version": b.version, "ceiling": b.family.ceiling}


def data_files(benchmark):
    """Object name -> sha1 of every file a benchmark's data comes from (recorded in its score JSON);
    None for a declared local file without a declared sha1, and {} for generated (demo) data."""
    family = benchmark.family
    if family.source == "stimuli":  # the target is the stimulus set itself
        remotes = [f for s in sorted(family.stimulus_sets) for f in (CATALOG.stimulus_set(s).csv,
                                                                     CATALOG.stimulus_set(s).zip)]
        return {remote.name: remote.sha1 for remote in remotes}
    if family.source != "brainio":
        return {}
    if family.sessions:  # averaged over sessions (Family.sessions): every session's files
        return {name: sha1 for s in family.sessions for name, sha1 in data_files(get_benchmark(s)).items()}
    if family.splits:  # joined train/test files: each part's recordings and stimuli
        remotes = []
        for _, dataset in family.splits:
            entry = CATALOG.assembly(dataset)
            remotes += [entry.file, CATALOG.stimulus_set(entry.stimulus_set).csv,
                        CATALOG.stimulus_set(entry.stimulus_set).zip]
        return {remote.name: remote.sha1 for remote in remotes}
    assembly = CATALOG.assembly(family.dataset)
    remotes = list(assembly.all_files)  # a data set read from several files lists them all (Zerbe2026)
    if family.train_dataset:  # a train/test family's train recordings
        remotes += list(CATALOG.assembly(family.train_dataset).all_files)
    for stimulus_set in sorted(family.stimulus_sets - {family.private_stimulus_set} | {family.stimulus_set}):
        if family.properties and stimulus_set not in CATALOG.stimulus_sets:
            continue  # a declared properties family mapping units on the demo's generated gratings
        stimuli = CATALOG.stimulus_set(stimulus_set)
        remotes += [stimuli.csv, stimuli.zip]
    return {remote.name: remote.sha1 for remote in remotes}


# ---- files read in place (fetch.smk; LOCAL_FILES and CATALOG are defined there)

def stimulus_files(wildcards):
    entry = CATALOG.stimulus_set(wildcards.stimulus_set)
    return (entry.csv, entry.zip)


def on_disk(remotes):
    """Object name -> path of the files read in place (data.local_files first, as the fetch does; declared paths)."""
    paths = brainio_catalog.local_paths(LOCAL_FILES)
    found = {remote.name: paths.get(remote.name, remote.path) for remote in remotes}
    return {name: path for name, path in found.items() if path is not None}


def on_disk_sha1(remotes):
    """Object name -> sha1 of each file read in place, as it is on disk now (None: no file; the fetch says so).
    Digests are kept while a file's size and times are unchanged (.snakemake/brainpipe/local_sha1.json)."""
    return {name: brainio_catalog.file_sha1(path, ".snakemake/brainpipe/local_sha1.json")
            for name, path in on_disk(remotes).items()}


def fold_mem_mb(wildcards, input):
    """Memory of a fold job (MB): three times its inputs, plus, for a spantime fit solved in sample space, its
    (bin × stimulus) matrices (read from the files' headers; Snakemake evaluates this again once they exist)."""
    source = str(input.source)
    estimate = mb([source, input.target], factor=3)
    b = get_benchmark(wildcards.benchmark)
    if b.kind != "temporal" or not (Path(source).is_file() and Path(input.target).is_file()):
        return estimate
    from brainpipe.io.netcdf_arrays import dimension_sizes

    target, layer = dimension_sizes(input.target), dimension_sizes(source)
    extra = spantime_sample_space_bytes(b, target["presentation"], target["time_bin"], layer["neuroid"])
    return estimate + int(extra / 1e6)


# ---- properties benchmarks (Brain-Score's PropertiesBenchmark; workflow/rules/properties.smk): their ceiling and
# layer score come from the properties rules, so the neural ceiling and score_layer rules exclude their identifiers.
import re as _re

PROPERTIES_FAMILIES = sorted(name for name, family in REGISTRY.families.items() if family.properties)
_PROPERTIES_FAMILY = f"(?:{'|'.join(map(_re.escape, PROPERTIES_FAMILIES or ['(?!)']))})-"
PROPERTIES_BENCHMARK = f"{_PROPERTIES_FAMILY}[a-z_0-9]+"
# a lookahead on '<family>-' (family names hold no '-'); '$' would not work: Snakemake embeds the wildcard's pattern
# in the whole path's
NOT_PROPERTIES_BENCHMARK = f"(?!{_PROPERTIES_FAMILY})" r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9]+)?-[a-z_0-9]+(?:-[a-z_0-9]+)*"
# Threshold benchmarks (Malania2007.short2-threshold_elevation) have their own ceiling and layer-score rules too
# (workflow/rules/threshold.smk): excluded here by a lookahead on the whole identifier and what follows it in a path
_THRESHOLD_IDS = sorted((b.identifier for family in REGISTRY.families.values() for b in family.behaviours
                         if b.identifier and b.metric in ("threshold", "threshold_elevation")),
                        key=len, reverse=True)
if _THRESHOLD_IDS:
    NOT_PROPERTIES_BENCHMARK = (f"(?!(?:{'|'.join(map(_re.escape, _THRESHOLD_IDS))})(?:/|\\.json))"
                                + NOT_PROPERTIES_BENCHMARK)
# Behavioural benchmarks (but the threshold ones) score in one job from the task output, the human data and the
# ceiling (score_behaviour in workflow/rules/behaviour.smk): their identifiers, built-in and declared in config
BEHAVIOUR_BENCHMARK = "|".join(_re.escape(i) for i in sorted(
    (i for family in REGISTRY.families.values() if family.behaviours
     for i in bench.registry.family_identifiers(family) if i not in _THRESHOLD_IDS), key=len, reverse=True)) or "(?!)"
# Benchmarks averaged over sessions (Family.sessions: Cowley2026.V4-pls) have their own ceiling and layer-score rules
# (workflow/rules/sessions.smk): excluded here as the threshold benchmarks are
SESSIONS_IDS = sorted((i for family in REGISTRY.families.values() if family.sessions
                       for i in bench.registry.family_identifiers(family)), key=len, reverse=True)
if SESSIONS_IDS:
    NOT_PROPERTIES_BENCHMARK = (f"(?!(?:{'|'.join(map(_re.escape, SESSIONS_IDS))})(?:/|\\.json))"
                                + NOT_PROPERTIES_BENCHMARK)
# ... or one of Brain-Score's identifiers kept verbatim (Scialom2024_rgbEngineeringAccuracy has no '-<metric>')
NOT_PROPERTIES_BENCHMARK = "(?:" + "|".join([NOT_PROPERTIES_BENCHMARK] + [
    _re.escape(i) for i in sorted(bench.base.verbatim_identifiers(REGISTRY.families), key=len, reverse=True)
    if i not in _THRESHOLD_IDS]) + ")"


def by_region(value):
    """A {region: value} mapping in the demo family's region order (other keys after, sorted); else as it is."""
    if not isinstance(value, dict):
        return value
    regions = list(REGISTRY.families["SyntheticShapes"].regions)
    return {k: value[k] for k in sorted(value, key=lambda k: (regions.index(k) if k in regions else len(regions), k))}


def simulated_benchmarks():
    """The grid's benchmarks whose family generates its data (source 'demo', e.g. SyntheticShapes)."""
    return [b for b in config["benchmarks"] if get_benchmark(b).family.source == "demo"]


# ---- train/test files joined into one data set (Family.splits; workflow/rules/train_test.smk)

JOINED_FAMILIES = [f for f in REGISTRY.families.values() if f.splits]
JOINED_DATASETS = sorted({f.dataset for f in JOINED_FAMILIES}) or ["(?!)"]
JOINED_STIMULUS_SETS = sorted({f.stimulus_set for f in JOINED_FAMILIES}) or ["(?!)"]


def joined_family(dataset=None, stimulus_set=None):
    return next(f for f in JOINED_FAMILIES if dataset in (None, f.dataset) and stimulus_set in (None, f.stimulus_set))


def joined_assembly_parts(wildcards):
    """{split: fetched assembly file} of a joined data set, in the family's order (train, test)."""
    return {split: f"resources/assemblies/{dataset}.nc" for split, dataset in joined_family(wildcards.dataset).splits}


def joined_stimuli_parts(wildcards):
    """{split: fetched stimulus folder} of a joined stimulus set: each part's recordings' stimuli."""
    family = joined_family(stimulus_set=wildcards.stimulus_set)
    return {split: f"resources/stimuli/{CATALOG.assembly(dataset).stimulus_set}" for split, dataset in family.splits}


# ---- benchmarks averaged over sessions (Family.sessions; workflow/rules/sessions.smk)

SESSIONS_BENCHMARK = "|".join(map(_re.escape, SESSIONS_IDS)) or "(?!)"


def sessions_of(identifier):
    """The session benchmarks a combined benchmark averages, in the family's order."""
    return list(get_benchmark(identifier).family.sessions)
