# Behaviour: the human data (simulated for the demo, else fetched) prepared once per data set, and the model's
# task (label / probabilities / odd_one_out) as its own cached stage, computed from the cached activations of the
# model's readout or logits layer. The ceiling rule computes a behavioural benchmark's ceiling as any other's; its
# headline is one job (score_behaviour): one readout layer and one comparison, no folds to fit
# (brainpipe.behaviour.stages). fit_fold and score_layer still write that comparison and layer score on request.


rule demo_behaviour:
    """SIMULATED human 2AFC match-to-sample behaviour on the SyntheticShapes images (the offline demo)."""
    input:
        "resources/stimuli/SyntheticShapes",
    output:
        "resources/assemblies/SyntheticShapesBehaviour.nc",
    params:
        code=stage_code("demo_behaviour"),
        seed=lambda wildcards: config["synthetic_shapes"].get("seed", 0),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/demo_behaviour/SyntheticShapesBehaviour.tsv"
    log:
        "logs/demo_behaviour.log",
    script:
        "../scripts/demo_behaviour.py"


rule prepare_behaviour:
    input:
        "resources/assemblies/{dataset}.nc",
    output:
        "results/assemblies/{dataset}/behaviour.nc",
    params:
        code=stage_code("prepare_behaviour"),
        exclude_conditions=lambda wildcards: list(PLAN.dataset_family(wildcards.dataset).exclude_conditions),
        # a declared data set's coordinate names in its file (brainpipe name -> file name)
        coords=lambda wildcards: dict(PLAN.dataset_family(wildcards.dataset).coords),
    wildcard_constraints:
        dataset=alternatives(PLAN.recordings.behavioural_datasets()),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/prepare_behaviour/{dataset}.tsv"
    log:
        "logs/prepare_behaviour/{dataset}.log",
    script:
        "../scripts/prepare_behaviour.py"


rule behaviour_task:
    input:
        unpack(PLAN.behaviour.task_inputs),
    output:
        "results/behaviour/{model}/{task}/{stimuli}.nc",
    params:
        code=stage_code("behaviour_task"),
        spec=PLAN.behaviour.task_spec,
    wildcard_constraints:
        task="[^/]+",
        stimuli="[^/]+",
    resources:
        mem_mb=lambda wildcards, input: task_mem_mb(PLAN.behaviour.task_spec(wildcards), dict(input.items())),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/behaviour_task/{model}/{task}/{stimuli}.tsv"
    log:
        "logs/behaviour_task/{model}/{task}/{stimuli}.log",
    script:
        "../scripts/behaviour_task.py"


rule stimulus_target:
    """The target of a benchmark without human data (Hermann2020): its stimulus set's columns, one presentation per
    image, written where prepared human data would be."""
    input:
        lambda wildcards: f"resources/stimuli/{PLAN.dataset_family(wildcards.dataset).stimulus_set}",
    output:
        "results/assemblies/{dataset}/behaviour.nc",
    params:
        code=stage_code("stimulus_target"),
        # the ground-truth column (ObjectNet: synset), declared by the family's benchmarks
        truth_column=lambda wildcards: PLAN.behaviour.stimulus_truth_column(PLAN.dataset_family(wildcards.dataset)),
    wildcard_constraints:
        dataset=alternatives(PLAN.recordings.stimulus_target_datasets()),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/stimulus_target/{dataset}.tsv"
    log:
        "logs/stimulus_target/{dataset}.log",
    script:
        "../scripts/stimulus_target.py"


rule score_behaviour:
    """A behavioural benchmark's headline in one job: the model's task output compared with the human data (what
    fit_fold writes as fold 0), ceiled as score_layer does (the ceiling job's file, or the declared number), with
    the score rule's provenance. The layer is the model's readout (or logits) layer for the task. A benchmark
    without human data reads its stimulus set's table instead of the stimulus_target stage's file."""
    input:
        source=lambda wildcards: PLAN.behaviour.output(wildcards.model, PLAN.benchmark(wildcards.benchmark)),
        target=PLAN.behaviour.target,
        ceiling=PLAN.behaviour.computed_ceiling,
    output:
        "results/{model}/{benchmark}.json",
    params:
        code=stage_code("score_behaviour"),
        definition=PLAN.definition,
        metric=lambda wildcards: PLAN.benchmark(wildcards.benchmark).metric,
        committed=lambda wildcards: PLAN.scores.committed_layer(wildcards.model, PLAN.benchmark(wildcards.benchmark)),
        model_spec=lambda wildcards: PLAN.scores.model_spec(wildcards.model, PLAN.benchmark(wildcards.benchmark)),
        data=lambda wildcards: PLAN.scores.data(PLAN.benchmark(wildcards.benchmark)),
        benchmark_info=lambda wildcards: PLAN.benchmark(wildcards.benchmark).metadata(),
        # a target built from the stimulus set (PLAN.behaviour.target): its ground-truth column; null for human data
        truth_column=PLAN.behaviour.truth_column,
    wildcard_constraints:
        model=PLAN.patterns.scored_model,  # the grid's empty cells: empty_cell (score.smk)
        benchmark=PLAN.patterns.behaviour_benchmark,
    resources:
        mem_mb=lambda wildcards, input: score_mem_mb(input),  # a stimulus folder counts by its table
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score/{model}/{benchmark}.tsv"
    log:
        "logs/score/{model}/{benchmark}.log",
    script:
        "../scripts/score_behaviour.py"
