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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
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
        code=library_code("pipeline/headline"),
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
    conda:
        "../envs/brainpipe.yaml"
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
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/temporal_plot.log",
    script:
        "../scripts/temporal_plot.py"
