# Stage 6 for families with a fixed train/test design in two data sets (Family.train_test.dataset; Brain-Score's
# TrainTestNeuralBenchmark): the test recordings' ceiling per subject, then one fit per model × layer on the train
# data set's recordings, scored on the test data set's. The overall ceiling is the ordinary ceiling stage's.


rule subject_ceilings:
    input:
        repetitions=lambda wildcards: PLAN.recordings.prepared(wildcards, "repetitions"),
    output:
        "results/ceilings/subjects/{benchmark}.json",
    params:
        code=stage_code("subject_ceilings"),
        definition=PLAN.definition,
        subject_coord=lambda wildcards: PLAN.benchmark(wildcards.benchmark).family.subject_coord,
        n_splits=10,
        random_state=1,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/subject_ceilings/{benchmark}.tsv"
    log:
        "logs/subject_ceilings/{benchmark}.log",
    script:
        "../scripts/subject_ceilings.py"


rule fit_train_test:
    input:
        train_source=PLAN.activations.train_source,
        test_source=PLAN.activations.benchmark_layer_file,
        train_target=PLAN.recordings.train_target,
        test_target=lambda wildcards: PLAN.recordings.prepared(wildcards, "target"),
        subject_ceilings="results/ceilings/subjects/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}/train_test.json",
    params:
        code=stage_code("fit_train_test"),
        definition=PLAN.definition,
        metric=lambda wildcards: PLAN.benchmark(wildcards.benchmark).metric,
        alphas=lambda wildcards: list(PLAN.benchmark(wildcards.benchmark).family.train_test.alphas or []),
        ridge_alpha=lambda wildcards: PLAN.benchmark(wildcards.benchmark).settings["ridge_alpha"],
        subject_coord=lambda wildcards: PLAN.benchmark(wildcards.benchmark).family.subject_coord,
    threads: 1
    resources:
        mem_mb=lambda wildcards, input: mb([input.train_source, input.test_source], factor=3),
        runtime=60,
    benchmark:
        "logs/timing/fit_train_test/{model}/{benchmark}/{layer}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/fit_train_test/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/fit_train_test.py"


rule prepare_time_points:
    input:
        "resources/assemblies/{dataset}.nc",
    output:
        target="results/assemblies/{dataset}/{region}-points/target.nc",
        repetitions="results/assemblies/{dataset}/{region}-points/repetitions.nc",
    params:
        code=stage_code("prepare_time_points"),
        time_points=lambda wildcards: list(PLAN.dataset_family(wildcards.dataset).time_points),
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/prepare_time_points/{dataset}/{region}.tsv"
    log:
        "logs/prepare_time_points/{dataset}/{region}.log",
    script:
        "../scripts/prepare_time_points.py"


# Recordings published as separate train and test files (Family.train_test.files: Allen2022): joined once into one data set
# and one stimulus set, which every later stage (prepare_assembly, activations, folds, ceiling) reads as any other.


rule join_train_test_assembly:
    input:
        unpack(PLAN.recordings.joined_assembly_parts),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=stage_code("join_train_test_assembly"),
        parts=lambda wildcards: [list(part) for part in PLAN.recordings.joined_family(wildcards.dataset).train_test.files],
    wildcard_constraints:
        dataset=alternatives(PLAN.recordings.joined_datasets()),
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=2.5),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/join_train_test_assembly/{dataset}.tsv"
    log:
        "logs/join_train_test_assembly/{dataset}.log",
    script:
        "../scripts/join_train_test_assembly.py"


rule join_train_test_stimuli:
    input:
        unpack(PLAN.recordings.joined_stimuli_parts),
    output:
        directory("resources/stimuli/{stimulus_set}"),
    params:
        code=stage_code("join_train_test_stimuli"),
    wildcard_constraints:
        stimulus_set=alternatives(PLAN.recordings.joined_stimulus_sets()),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/join_train_test_stimuli/{stimulus_set}.log",
    script:
        "../scripts/join_train_test_stimuli.py"
