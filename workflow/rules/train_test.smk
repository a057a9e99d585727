# Recordings published as separate train and test files (Family.splits: Allen2022): joined once into one data set
# and one stimulus set, which every later stage (prepare_assembly, activations, folds, ceiling) reads as any other.


rule join_train_test_assembly:
    input:
        unpack(joined_assembly_parts),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=library_code("data/train_test"),
        splits=lambda wildcards: [list(part) for part in joined_family(wildcards.dataset).splits],
    wildcard_constraints:
        dataset="|".join(map(re.escape, JOINED_DATASETS)),
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
        unpack(joined_stimuli_parts),
    output:
        directory("resources/stimuli/{stimulus_set}"),
    params:
        code=library_code("data/train_test", "data/stimuli"),
    wildcard_constraints:
        stimulus_set="|".join(map(re.escape, JOINED_STIMULUS_SETS)),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/join_train_test_stimuli/{stimulus_set}.log",
    script:
        "../scripts/join_train_test_stimuli.py"
