# Benchmarks averaged over separately recorded sessions (Family.sessions; Brain-Score's Cowley2026
# _CombinedNeuralBenchmark): each session is an ordinary benchmark (its own data set, folds, ceiling and layer
# scores); the combined benchmark's ceiling and layer scores are the sessions' means (brainpipe.pipeline.sessions),
# and the ordinary score rule picks its committed layer. PLAN.patterns.generic_benchmark keeps these identifiers
# out of the ordinary ceiling and score_layer rules.


rule combine_sessions_ceiling:
    input:
        lambda wildcards: expand("results/ceilings/{session}.json", session=PLAN.sessions_of(wildcards.benchmark)),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=stage_code("combine_sessions_ceiling"),
        definition=PLAN.definition,
        sessions=lambda wildcards: PLAN.sessions_of(wildcards.benchmark),
    wildcard_constraints:
        benchmark=PLAN.patterns.sessions_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/combine_sessions.py"


rule combine_sessions_layer:
    input:
        layers=lambda wildcards: expand("results/{model}/{session}/layers/{layer}.json", model=wildcards.model,
                                        session=PLAN.sessions_of(wildcards.benchmark), layer=wildcards.layer),
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=stage_code("combine_sessions_layer"),
        definition=PLAN.definition,
        sessions=lambda wildcards: PLAN.sessions_of(wildcards.benchmark),
    wildcard_constraints:
        benchmark=PLAN.patterns.sessions_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/combine_sessions.py"
