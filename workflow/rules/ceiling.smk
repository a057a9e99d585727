# Stage 5: the benchmark's ceiling, computed once and shared by every model.


rule ceiling:
    input:
        repetitions=lambda wildcards: PLAN.recordings.prepared(wildcards, "repetitions"),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=stage_code("ceiling"),
        definition=PLAN.definition,
        fixed=lambda wildcards: PLAN.benchmark(wildcards.benchmark).family.ceiling,
        method=lambda wildcards: PLAN.scores.ceiling_method(PLAN.benchmark(wildcards.benchmark)),
        subject_coord=lambda wildcards: PLAN.benchmark(wildcards.benchmark).family.subject_coord,
        n_splits=10,
        random_state=1,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    wildcard_constraints:
        benchmark=PLAN.patterns.generic_benchmark,  # other kinds of benchmark have rules of their own
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/ceiling/{benchmark}.tsv"
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/ceiling.py"
