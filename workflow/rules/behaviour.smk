# Behaviour: the human data (simulated for the demo, else fetched) prepared once per data set, and the model's
# task (label / probabilities / odd_one_out) as its own cached stage, computed from the cached activations of the
# model's readout or logits layer. The ceiling, fit_fold (one comparison), score_layer and score rules then treat
# behavioural benchmarks like the others (brainpipe.behaviour.stages).


rule demo_behaviour:
    """SIMULATED human 2AFC match-to-sample behaviour on the SyntheticShapes images (the offline demo)."""
    input:
        "resources/stimuli/SyntheticShapes",
    output:
        "resources/assemblies/SyntheticShapesBehaviour.nc",
    params:
        code=library_code("behaviour/demo", "data/stimuli"),
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
        code=library_code("behaviour/data", "behaviour/_common"),
        exclude_conditions=lambda wildcards: list(family_of_dataset(wildcards.dataset).exclude_conditions),
        # a declared data set's coordinate names in its file (brainpipe name -> file name)
        coords=lambda wildcards: dict(family_of_dataset(wildcards.dataset).coords),
    wildcard_constraints:
        dataset="|".join(map(re.escape, behavioural_datasets())) or "(?!)",
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
        unpack(behaviour_task_inputs),
    output:
        "results/behaviour/{model}/{task}/{stimuli}.nc",
    params:
        code=library_code("behaviour/stages", "behaviour/tasks", "data/stimuli"),
        spec=behaviour_task_spec,
    wildcard_constraints:
        task="[^/]+",
        stimuli="[^/]+",
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=6),
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
        lambda wildcards: f"resources/stimuli/{family_of_dataset(wildcards.dataset).stimulus_set}",
    output:
        "results/assemblies/{dataset}/behaviour.nc",
    params:
        code=library_code("behaviour/data", "behaviour/_common"),
        # the ground-truth column (ObjectNet: synset), declared by the family's benchmarks
        truth_column=lambda wildcards: dict(family_of_dataset(wildcards.dataset).behaviours[0].options).get(
            "truth_column", "truth"),
    wildcard_constraints:
        dataset="|".join(map(re.escape, stimulus_target_datasets())) or "(?!)",
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/stimulus_target/{dataset}.tsv"
    log:
        "logs/stimulus_target/{dataset}.log",
    script:
        "../scripts/stimulus_target.py"
