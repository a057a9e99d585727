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


rule activations_temporal:
    input:
        PLAN.activations.stimuli_folder,
    output:
        "results/activations/{model}/{stimuli}/{layer}.nc",
    params:
        **PLAN.activations.params(ACTIVATIONS_CODE),
        temporal_code=stage_code("activations_temporal.temporal_code"),
    wildcard_constraints:
        model=PLAN.patterns.temporal_model,  # other models' layer files: the activations rules (activations.smk)
        stimuli="[^/]+",
    threads: 2
    resources:
        mem_mb=8000,
        runtime=EXTRACTION_RUNTIME,  # minutes, from the job's images (common.smk)
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
        code=stage_code("time_bins"),
        # the region's step -> bin map (editing it re-maps the stored steps; the network does not run again)
        region_bins=PLAN.temporal.region_bins,
        requested=lambda wildcards: [list(b) for b in PLAN.temporal.bins_of_key(wildcards.window)],
    wildcard_constraints:
        model=PLAN.patterns.temporal_model,
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
        code=stage_code("gram_timed"),
        device=config.get("device", "auto"),
    wildcard_constraints:
        model=PLAN.patterns.temporal_model,
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
        local=lambda wildcards: sorted(PLAN.sources.on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=stage_code("fetch_ost_assembly"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: PLAN.sources.on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
    wildcard_constraints:
        dataset=PLAN.patterns.ost_dataset,  # the other fetched data sets: fetch_assembly
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
        code=stage_code("demo_ost_assembly"),
        simulation=lambda wildcards: {"seed": config["synthetic_shapes"].get("seed", 0)},
    wildcard_constraints:
        dataset=alternatives(PLAN.temporal.demo_ost_datasets),
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
        code=stage_code("ost_target"),
        decoder="svm",
    wildcard_constraints:
        dataset=alternatives(PLAN.temporal.ost_datasets + PLAN.temporal.demo_ost_datasets),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/ost_target/{dataset}.log",
    script:
        "../scripts/ost_target.py"


rule ost:
    input:
        source=PLAN.temporal.ost_source,
        target=PLAN.temporal.ost_target,
    output:
        "results/{model}/{benchmark}/layers/{layer}/ost.json",
    params:
        code=stage_code("ost"),
        definition=PLAN.definition,
        time_bins=PLAN.temporal.benchmark_bins,
        settings=lambda wildcards: PLAN.benchmark(wildcards.benchmark).settings,
    wildcard_constraints:
        benchmark=PLAN.patterns.ost_benchmark,
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
        code=stage_code("ceiling_ost"),
        definition=PLAN.definition,
        fixed=lambda wildcards: PLAN.benchmark(wildcards.benchmark).family.ceiling,
    wildcard_constraints:
        benchmark=PLAN.patterns.ost_benchmark,
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
        code=stage_code("score_layer_ost"),
        definition=PLAN.definition,
    wildcard_constraints:
        benchmark=PLAN.patterns.ost_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/score_layer_ost.py"



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
    params:
        code=stage_code("temporal_plot"),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/temporal_plot.log",
    script:
        "../scripts/temporal_plot.py"
