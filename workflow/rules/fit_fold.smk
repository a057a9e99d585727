# Stage 6: one job per cross-validation fold (and per scored layer): fit on the fold's train stimuli,
# correlate on its test stimuli. Folds of one model × benchmark can share a cluster allocation (group).


rule fit_fold:
    input:
        source=fold_source,
        target=lambda wildcards: prepared(wildcards, "target"),
    output:
        "results/{model}/{benchmark}/layers/{layer}/fold{fold}.json",
    params:
        code=library_code("neural/metrics", "neural/regression", "neural/gram_fit", "models/devices", "io/netcdf_arrays", "neural/representational",
                          "neural/mask_regression",
                          "neural/splits", "neural/stats", "benchmarks/base", "benchmarks/custom", "behaviour/stages", "behaviour/ceiled", "behaviour/result", "behaviour/i1i2",
                          "behaviour/error_consistency", "behaviour/accuracy", "behaviour/odd_one_out"),
        definition=benchmark_definition,
        metric=lambda wildcards: get_benchmark(wildcards.benchmark).metric,
        settings=lambda wildcards: get_benchmark(wildcards.benchmark).settings,
        device=config.get("device", "auto"),
    group:
        "folds"
    threads: 1
    resources:
        mem_mb=fold_mem_mb,
        runtime=30,
    benchmark:
        "logs/timing/fit_fold/{model}/{benchmark}/{layer}/fold{fold}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/fit_fold/{model}/{benchmark}/{layer}/fold{fold}.log",
    script:
        "../scripts/fit_fold.py"
