# Stage 5: the benchmark's ceiling, computed once and shared by every model.


rule ceiling:
    input:
        repetitions=lambda wildcards: prepared(wildcards, "repetitions"),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=library_code("neural/ceiling", "data/assembly", "neural/representational", "neural/stats", "benchmarks/custom",
                          "behaviour/stages", "behaviour/ceiled", "behaviour/result", "behaviour/i1i2",
                          "behaviour/error_consistency", "behaviour/accuracy"),
        definition=benchmark_definition,
        fixed=lambda wildcards: get_benchmark(wildcards.benchmark).family.ceiling,
        method=lambda wildcards: ceiling_method(get_benchmark(wildcards.benchmark)),
        subject_coord=lambda wildcards: get_benchmark(wildcards.benchmark).family.subject_coord,
        n_splits=10,
        random_state=1,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    wildcard_constraints:
        benchmark=NOT_PROPERTIES_BENCHMARK,  # properties benchmarks: workflow/rules/properties.smk
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/ceiling/{benchmark}.tsv"
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/ceiling.py"
