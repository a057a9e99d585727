# Stage 6: one job per cross-validation fold (and per scored layer): fit on the fold's train stimuli,
# correlate on its test stimuli. Folds of one model × benchmark can share a cluster allocation (group).


rule fit_fold:
    input:
        source=PLAN.scores.fold_source,
        target=lambda wildcards: PLAN.recordings.prepared(wildcards, "target"),
    output:
        "results/{model}/{benchmark}/layers/{layer}/fold{fold}.json",
    params:
        code=stage_code("fit_fold"),
        definition=PLAN.definition,
        metric=lambda wildcards: PLAN.benchmark(wildcards.benchmark).metric,
        settings=lambda wildcards: PLAN.benchmark(wildcards.benchmark).settings,
        device=config.get("device", "auto"),
    group:
        "folds"
    threads: 1
    resources:
        mem_mb=lambda wildcards, input: fold_mem_mb(PLAN.benchmark(wildcards.benchmark), input.source, input.target),
        runtime=30,
    benchmark:
        "logs/timing/fit_fold/{model}/{benchmark}/{layer}/fold{fold}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/fit_fold/{model}/{benchmark}/{layer}/fold{fold}.log",
    script:
        "../scripts/fit_fold.py"
