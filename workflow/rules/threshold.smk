# Threshold benchmarks (Malania2007): human thresholds fetched once per data set; the model's readout layer on each
# stimulus set's microsaccade trials (Brain-Score's require_variance, brainpipe.models.microsaccades); one
# probabilities readout per (fitting set, test set) with the model's psychometric threshold; the ceiling and a
# layer's score from those (brainpipe.behaviour.threshold_stages). The headline score is the generic score rule's.


rule fetch_thresholds:
    input:
        local=lambda wildcards: sorted(on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/thresholds/{dataset}.nc",
    params:
        code=library_code("data/fetch", "data/catalog", "behaviour/threshold_stages"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
    wildcard_constraints:
        dataset="|".join(map(re.escape, THRESHOLD_DATASETS)) or "(?!)",
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
        lambda wildcards: stimuli_path(wildcards.stimuli),
    output:
        "results/trial_activations/{model}/{stimuli}/trials{trials}/{layer}.nc",
    params:
        **activations_params(lambda wildcards: (wildcards.model, wildcards.stimuli)),
        microsaccade_code=library_code("models/microsaccades", "behaviour/threshold_stages"),
        # the degrees the model's microsaccades are sized in (its own screen), and Brain-Score's batch size that
        # fixes which rows its labels land on
        model_degrees=lambda wildcards: float(get_model(wildcards.model).get("visual_degrees", 8)),
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
        unpack(threshold_readout_inputs),
    output:
        "results/thresholds/{model}/{layer}/{fitting}--trials{fitting_trials}/{stimuli}--trials{test_trials}.json",
    params:
        code=library_code("behaviour/threshold_stages", "behaviour/threshold", "behaviour/tasks"),
        settings=threshold_settings_of_readout,
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
        unpack(threshold_human_files),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=library_code("behaviour/threshold_stages", "behaviour/threshold"),
        definition=benchmark_definition,
        metric=lambda wildcards: threshold_of(wildcards).behaviour.metric,
        settings=lambda wildcards: threshold_stages.spec(threshold_of(wildcards)),
    wildcard_constraints:
        benchmark=THRESHOLD_BENCHMARK,
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
        readouts=threshold_readout_files,
        ceiling="results/ceilings/{benchmark}.json",
        humans=lambda wildcards: list(threshold_human_files(wildcards).values()),
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=library_code("behaviour/threshold_stages", "behaviour/threshold"),
        definition=benchmark_definition,
        metric=lambda wildcards: threshold_of(wildcards).behaviour.metric,
        settings=lambda wildcards: threshold_stages.spec(threshold_of(wildcards)),
        readouts=lambda wildcards: [list(pair) for pair in threshold_stages.readouts(threshold_of(wildcards))],
        datasets=lambda wildcards: threshold_datasets_of(threshold_of(wildcards)),
    wildcard_constraints:
        benchmark=THRESHOLD_BENCHMARK,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score_layer/{model}/{benchmark}/{layer}.tsv"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/threshold_score_layer.py"
