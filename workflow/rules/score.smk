# Stage 7: folds + ceiling -> a score per layer; the committed layer's score is the headline; a summary table
# of the grid. Partial targets: activations, ceilings, scores.


rule score_layer:
    input:
        folds=fold_files,
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=library_code("pipeline/scoring", "benchmarks/base", "behaviour/ceiled", "behaviour/normalise",
                          "behaviour/result"),
        definition=benchmark_definition,
    wildcard_constraints:
        benchmark=NOT_PROPERTIES_BENCHMARK,  # properties benchmarks: workflow/rules/properties.smk
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score_layer/{model}/{benchmark}/{layer}.tsv"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/score_layer.py"


rule score:
    input:
        layers=lambda wildcards: expand("results/{{model}}/{{benchmark}}/layers/{layer}.json",
                                        layer=scored_layers(wildcards.model, get_benchmark(wildcards.benchmark))),
    output:
        "results/{model}/{benchmark}.json",
    params:
        code=library_code("pipeline/headline"),
        committed=lambda wildcards: committed_layer(wildcards.model, get_benchmark(wildcards.benchmark)),
        # the entry plus source_sha1 / weights_sha256 of your own model file and weights_file (provenance)
        model_spec=lambda wildcards: score_model_spec(wildcards.model, get_benchmark(wildcards.benchmark)),
        data=lambda wildcards: score_data(get_benchmark(wildcards.benchmark)),
        benchmark_info=lambda wildcards: get_benchmark(wildcards.benchmark).metadata(),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score/{model}/{benchmark}.tsv"
    log:
        "logs/score/{model}/{benchmark}.log",
    script:
        "../scripts/score.py"


rule summary:
    input:
        grid_scores(),
    output:
        "results/summary.tsv",
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/summary.log",
    script:
        "../scripts/summary.py"


rule activations_all:
    """Partial target: every activations layer file the grid needs."""
    input:
        lambda wildcards: grid_activations(),


rule ceilings:
    """Partial target: the ceiling of every benchmark in the grid."""
    input:
        expand("results/ceilings/{benchmark}.json", benchmark=config["benchmarks"]),


rule scores:
    """Partial target: every score of the grid, without the summary table."""
    input:
        grid_scores(),
