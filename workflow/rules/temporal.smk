# Time-resolved models and object solution times (src/brainpipe/models/temporal.py, neural/ost.py).
#
# A model_zoo entry with a `time_mapping` is temporal: its layer files hold one response per model time step
# (presentation × neuroid × time_bin, coordinate time_step), written by `activations_temporal` in one forward pass
# per batch for all steps. Each benchmark then reads the steps mapped onto its own time bins (`time_bins`: the
# region's time_mapping, Brain-Score's nearest-start matching): one bin (70-170 ms) for static benchmarks, the
# benchmark's 10-ms bins for spantime metrics and OST. Static models' files, rules and params are untouched.
#
# Object solution times (Kar2019-ost): the recordings are fetched as Brain-Score ships them (decoder × presentation,
# `fetch_ost_assembly`), prepared once (`ost_target`: unique ids, decoder svm, truth = image_label), and each
# model × layer is scored by its own job (`ost`, cached), ceiled by the fixed .79 (`ceiling_ost`, `score_layer_ost`).
import re

from brainpipe.models.model_sources import ModelSourceError
from brainpipe.benchmarks.ost_family import is_ost
from brainpipe.models.temporal import is_temporal, parse_time_mapping

TEMPORAL_MODELS = sorted(name for name, spec in config["model_zoo"].items() if is_temporal(spec))
OST_BENCHMARKS = sorted(f"{f.name}-ost" for f in REGISTRY.families.values() if is_ost(f))
OST_DATASETS = sorted({f.dataset for f in REGISTRY.families.values() if is_ost(f) and f.source == "brainio"})
DEMO_OST_DATASETS = sorted({f.dataset for f in REGISTRY.families.values() if is_ost(f) and f.source == "demo"})
NOTHING = "(?!)"  # a wildcard constraint no name matches (no temporal model / no OST benchmark in this config)


def _alternatives(names):
    return "|".join(map(re.escape, names)) or NOTHING


def time_mapping_of(model_name):
    try:
        return parse_time_mapping(get_model(model_name), model_name)
    except ModelSourceError as error:
        raise WorkflowError(str(error)) from None


for _name in TEMPORAL_MODELS:  # a malformed map, overlapping bins or an unmapped committed region stop the run now
    _mapping = time_mapping_of(_name)
    _unmapped = sorted(set(get_model(_name)["layers"]) - set(_mapping))
    if _unmapped:
        raise WorkflowError(f"config model_zoo.{_name}.time_mapping: no time bins for region(s) {_unmapped} that "
                            f"model_zoo.{_name}.layers commits; map each committed region's steps to time bins")


for _name in (m for m in config["models"] if m in TEMPORAL_MODELS):  # not wired yet: say so before any job
    for _identifier in config["benchmarks"]:
        if get_benchmark(_identifier).kind == "behaviour":
            raise WorkflowError(f"config models: {_name} is temporal (model_zoo.{_name}.time_mapping) and "
                                f"{_identifier} is behavioural; behavioural tasks on temporal models are not wired "
                                f"yet: score {_name} on neural benchmarks, or give a static entry for behaviour")


def is_temporal_model(model_name):
    return model_name in TEMPORAL_MODELS


def requested_bins(benchmark):
    """The (start, end) bins a benchmark records: the static window as one bin, else its temporal bins (Brain-Score:
    start_recording(region, time_bins))."""
    family = benchmark.family
    if benchmark.kind in ("temporal", "ost"):
        start, end = family.temporal_window
        return [(t, t + family.temporal_bin) for t in range(int(start), int(end), int(family.temporal_bin))]
    return [tuple(family.time_window)]


def window_key(benchmark):
    bins = requested_bins(benchmark)
    if len(bins) == 1:
        return f"{bins[0][0]}-{bins[0][1]}"
    return f"{bins[0][0]}-{bins[-1][1]}x{bins[0][1] - bins[0][0]}"


def timed_layer_file(model_name, benchmark, layer):
    """A temporal model's layer, its steps mapped onto the benchmark's bins for the benchmark's region."""
    return (f"results/activations/{model_name}/{stimuli_key(model_name, benchmark)}/timed/{benchmark.region}/"
            f"{window_key(benchmark)}/{layer}.nc")


def bins_of_key(key):
    if "x" in key:
        span, width = key.split("x")
        start, end = map(int, span.split("-"))
        return [(t, t + int(width)) for t in range(start, end, int(width))]
    start, end = map(int, key.split("-"))
    return [(start, end)]


def ost_source(wildcards):
    """What the OST job reads: a temporal model's layer on the 18 bins, a static model's single response."""
    b = get_benchmark(wildcards.benchmark)
    if is_temporal_model(wildcards.model):
        return timed_layer_file(wildcards.model, b, wildcards.layer)
    return layer_file(wildcards.model, stimuli_key(wildcards.model, b), wildcards.layer)


ruleorder: activations_temporal > activations
ruleorder: fetch_ost_assembly > fetch_assembly
ruleorder: ceiling_ost > ceiling
ruleorder: score_layer_ost > score_layer
ruleorder: score_ost > score


rule activations_temporal:
    input:
        stimuli_folder,
    output:
        "results/activations/{model}/{stimuli}/{layer}.nc",
    params:
        **activations_params(lambda wildcards: (wildcards.model, wildcards.stimuli)),
        temporal_code=library_code("models/temporal"),
    wildcard_constraints:
        model=_alternatives(TEMPORAL_MODELS),
        stimuli="[^/]+",
    threads: 2
    resources:
        mem_mb=8000,
        runtime=60,
        gpu=lambda wildcards: 1 if config.get("device", "auto") in ("auto", "cuda") else 0,
    benchmark:
        "logs/timing/activations_temporal/{model}/{stimuli}/{layer}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/activations_temporal/{model}/{stimuli}/{layer}.log",
    script:
        "../scripts/activations_temporal.py"


rule time_bins:
    input:
        "results/activations/{model}/{stimuli}/{layer}.nc",
    output:
        "results/activations/{model}/{stimuli}/timed/{region}/{window}/{layer}.nc",
    params:
        code=library_code("models/temporal"),
        # the region's step -> bin map (editing it re-maps the stored steps; the network does not run again)
        region_bins=lambda wildcards: {int(step): list(window) for step, window
                                       in time_mapping_of(wildcards.model).get(wildcards.region, {}).items()},
        requested=lambda wildcards: [list(b) for b in bins_of_key(wildcards.window)],
    wildcard_constraints:
        model=_alternatives(TEMPORAL_MODELS),
        stimuli="[^/]+",
        window="[0-9]+-[0-9]+(?:x[0-9]+)?",
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=2),
    benchmark:
        "logs/timing/time_bins/{model}/{stimuli}/{region}/{window}/{layer}.tsv"
    log:
        "logs/time_bins/{model}/{stimuli}/{region}/{window}/{layer}.log",
    script:
        "../scripts/time_bins.py"


rule gram_timed:
    input:
        "results/activations/{model}/{stimuli}/timed/{region}/{window}/{layer}.nc",
    output:
        "results/gram/{model}/{stimuli}/timed/{region}/{window}/{layer}.nc",
    params:
        code=library_code("neural/regression", "neural/gram_fit", "models/devices", "neural/metrics"),
        device=config.get("device", "auto"),
    wildcard_constraints:
        model=_alternatives(TEMPORAL_MODELS),
        stimuli="[^/]+",
    threads: 2
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=1.5),
    log:
        "logs/gram/{model}/{stimuli}/timed/{region}/{window}/{layer}.log",
    script:
        "../scripts/gram.py"


rule fetch_ost_assembly:
    input:
        stimuli=lambda wildcards: f"resources/stimuli/{CATALOG.assembly(wildcards.dataset).stimulus_set}",
        local=lambda wildcards: sorted(on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=library_code("data/fetch", "data/catalog", "data/ost_data"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
    wildcard_constraints:
        dataset=_alternatives(OST_DATASETS),
    resources:
        downloads=1,
    log:
        "logs/fetch_assembly/{dataset}.log",
    script:
        "../scripts/fetch_ost_assembly.py"


rule demo_ost_assembly:
    input:
        "resources/stimuli/SyntheticShapes",
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=library_code("data/demo_ost", "data/stimuli"),
        simulation=lambda wildcards: {"seed": config["synthetic_shapes"].get("seed", 0)},
    wildcard_constraints:
        dataset=_alternatives(DEMO_OST_DATASETS),
    log:
        "logs/demo_ost_assembly/{dataset}.log",
    script:
        "../scripts/demo_ost_assembly.py"


rule ost_target:
    input:
        assembly="resources/assemblies/{dataset}.nc",
    output:
        "results/assemblies/{dataset}/ost/target.nc",
    params:
        code=library_code("data/ost_data"),
        decoder="svm",
    wildcard_constraints:
        dataset=_alternatives(OST_DATASETS + DEMO_OST_DATASETS),
    log:
        "logs/ost_target/{dataset}.log",
    script:
        "../scripts/ost_target.py"


rule ost:
    input:
        source=ost_source,
        target=lambda wildcards: f"results/assemblies/{get_benchmark(wildcards.benchmark).family.dataset}/ost/target.nc",
    output:
        "results/{model}/{benchmark}/layers/{layer}/ost.json",
    params:
        code=library_code("neural/ost", "neural/ost_classifier", "neural/splits", "neural/metrics"),
        definition=benchmark_definition,
        time_bins=lambda wildcards: [list(b) for b in requested_bins(get_benchmark(wildcards.benchmark))],
        settings=lambda wildcards: get_benchmark(wildcards.benchmark).settings,
    wildcard_constraints:
        benchmark=_alternatives(OST_BENCHMARKS),
    threads: 2
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=3),
    benchmark:
        "logs/timing/ost/{model}/{benchmark}/{layer}.tsv"
    log:
        "logs/ost/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/ost.py"


rule ceiling_ost:
    output:
        "results/ceilings/{benchmark}.json",
    params:
        definition=benchmark_definition,
        fixed=lambda wildcards: get_benchmark(wildcards.benchmark).family.ceiling,
    wildcard_constraints:
        benchmark=_alternatives(OST_BENCHMARKS),
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/ceiling_ost.py"


rule score_layer_ost:
    input:
        folds="results/{model}/{benchmark}/layers/{layer}/ost.json",
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=library_code("pipeline/scoring", "benchmarks/base"),
        definition=benchmark_definition,
    wildcard_constraints:
        benchmark=_alternatives(OST_BENCHMARKS),
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/score_layer_ost.py"



rule score_ost:
    input:
        layers=lambda wildcards: expand("results/{{model}}/{{benchmark}}/layers/{layer}.json",
                                        layer=scored_layers(wildcards.model, get_benchmark(wildcards.benchmark))),
    output:
        "results/{model}/{benchmark}.json",
    params:
        committed=lambda wildcards: committed_layer(wildcards.model, get_benchmark(wildcards.benchmark)),
        model_spec=lambda wildcards: score_model_spec(wildcards.model, get_benchmark(wildcards.benchmark)),
        data=lambda wildcards: {"dataset": get_benchmark(wildcards.benchmark).family.dataset,
                                "split": get_benchmark(wildcards.benchmark).split,
                                "stimulus_set": get_benchmark(wildcards.benchmark).family.stimulus_set,
                                "visual_degrees": get_benchmark(wildcards.benchmark).visual_degrees,
                                "time_bins": [list(b) for b in requested_bins(get_benchmark(wildcards.benchmark))],
                                "number_of_trials": get_benchmark(wildcards.benchmark).family.number_of_trials,
                                "settings": get_benchmark(wildcards.benchmark).settings,
                                "files": data_files(get_benchmark(wildcards.benchmark))},
        benchmark_info=lambda wildcards: get_benchmark(wildcards.benchmark).metadata(),
    wildcard_constraints:
        benchmark=_alternatives(OST_BENCHMARKS),
    log:
        "logs/score/{model}/{benchmark}.log",
    script:
        "../scripts/score_ost.py"

# The offline temporal demo (`make demo`): the recurrent demo network on the simulated object solution times and
# on the SyntheticShapes IT time course, the static alexnet on OST (NaN with its reason), and their per-bin curves.
TEMPORAL_DEMO_SCORES = ["results/recurrent_demo/SyntheticShapesOST-ost.json",
                        "results/recurrent_demo/SyntheticShapes.IT-spantime_pls.json",
                        "results/alexnet_untrained/SyntheticShapesOST-ost.json"]


rule temporal_plot:
    input:
        TEMPORAL_DEMO_SCORES,
    output:
        "results/plots/time_bins_demo.png",
    log:
        "logs/temporal_plot.log",
    script:
        "../scripts/temporal_plot.py"
