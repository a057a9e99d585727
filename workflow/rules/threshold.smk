# Threshold benchmarks (Malania2007): human thresholds fetched once per data set; the model's readout layer on each
# stimulus set's microsaccade trials (Brain-Score's require_variance, brainpipe.models.microsaccades); one
# probabilities readout per (fitting set, test set) with the model's psychometric threshold; the ceiling and a
# layer's score from those (brainpipe.behaviour.threshold_stages). The headline score is the generic score rule's.


rule fetch_thresholds:
    input:
        local=lambda wildcards: sorted(PLAN.sources.on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/thresholds/{dataset}.nc",
    params:
        code=stage_code("fetch_thresholds"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: PLAN.sources.on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
    wildcard_constraints:
        dataset=alternatives(PLAN.threshold.datasets),
    resources:
        downloads=1,
        runtime=60,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/fetch_thresholds/{dataset}.tsv"
    log:
        "logs/fetch_thresholds/{dataset}.log",
    script:
        "../scripts/threshold_fetch.py"


rule trial_activations:
    input:
        PLAN.activations.stimuli_folder,
    output:
        "results/trial_activations/{model}/{stimuli}/trials{trials}/{layer}.nc",
    params:
        **PLAN.activations.params(ACTIVATIONS_CODE),
        microsaccade_code=stage_code("trial_activations.microsaccade_code"),
        # the degrees the model's microsaccades are sized in (its own screen), and Brain-Score's batch size that
        # fixes which rows its labels land on
        model_degrees=lambda wildcards: float(PLAN.model(wildcards.model).get("visual_degrees", 8)),
        order_batch_size=64,
    wildcard_constraints:
        stimuli="[^/]+",
        trials="[0-9]+",
        layer="[^/]+",
    threads: 2
    resources:
        mem_mb=8000,
        runtime=60,
        gpu=lambda wildcards: 1 if config.get("device", "auto") in ("auto", "cuda") else 0,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/trial_activations/{model}/{stimuli}/trials{trials}/{layer}.tsv"
    log:
        "logs/trial_activations/{model}/{stimuli}/trials{trials}/{layer}.log",
    script:
        "../scripts/trial_activations.py"


rule threshold_readout:
    input:
        unpack(PLAN.threshold.readout_inputs),
    output:
        "results/thresholds/{model}/{layer}/{fitting}--trials{fitting_trials}/{stimuli}--trials{test_trials}.json",
    params:
        code=stage_code("threshold_readout"),
        settings=PLAN.threshold.readout_settings,
    wildcard_constraints:
        fitting="[^/]+?",
        stimuli="[^/]+?",
        fitting_trials="[0-9]+",
        test_trials="[0-9]+",
        layer="[^/]+",
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/threshold_readout/{model}/{layer}/{fitting}--trials{fitting_trials}/{stimuli}--trials{test_trials}.tsv"
    log:
        "logs/threshold_readout/{model}/{layer}/{fitting}--trials{fitting_trials}/{stimuli}--trials{test_trials}.log",
    script:
        "../scripts/threshold_readout.py"


rule threshold_ceiling:
    input:
        unpack(PLAN.threshold.human_files),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=stage_code("threshold_ceiling"),
        definition=PLAN.definition,
        metric=PLAN.threshold.metric,
        settings=PLAN.threshold.settings,
    wildcard_constraints:
        benchmark=PLAN.patterns.threshold_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/ceiling/{benchmark}.tsv"
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/threshold_ceiling.py"


rule threshold_score_layer:
    input:
        readouts=PLAN.threshold.readout_files,
        ceiling="results/ceilings/{benchmark}.json",
        humans=lambda wildcards: list(PLAN.threshold.human_files(wildcards).values()),
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=stage_code("threshold_score_layer"),
        definition=PLAN.definition,
        metric=PLAN.threshold.metric,
        settings=PLAN.threshold.settings,
        readouts=PLAN.threshold.readouts,
        datasets=PLAN.threshold.benchmark_datasets,
    wildcard_constraints:
        benchmark=PLAN.patterns.threshold_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score_layer/{model}/{benchmark}/{layer}.tsv"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/threshold_score_layer.py"
