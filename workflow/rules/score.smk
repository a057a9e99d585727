# Stage 7: folds + ceiling -> a score per layer; the committed layer's score is the headline; a summary table
# of the grid. Partial targets: activations, ceilings, scores.
from brainpipe.pipeline import grid_cells


# Cells of the grid a model cannot do (a model without logits on a label task, a temporal model on a behavioural
# one) or that config skip_benchmarks leaves out: decided here, at plan time (pipeline/grid_cells.py); the
# empty_cell rule is the only one for their files.
# benchmarks whose data need a file the user supplies and has not (fetch.smk's CATALOG and LOCAL_FILES): every
# model's cell is empty, and no ceiling job is planned for them
UNAVAILABLE_BENCHMARKS = grid_cells.unavailable_benchmarks(config["benchmarks"], get_benchmark, CATALOG,
                                                           brainio_catalog.local_paths(LOCAL_FILES))
try:
    EMPTY_CELLS = grid_cells.empty_cells(config["models"], config["benchmarks"], get_model, get_benchmark,
                                         is_temporal_model, grid_cells.skipped_benchmarks(config, REGISTRY),
                                         UNAVAILABLE_BENCHMARKS)
except ConfigError as error:
    raise WorkflowError(str(error)) from None



ruleorder: empty_cell > score_behaviour
ruleorder: empty_cell > score_ost
ruleorder: empty_cell > score


rule empty_cell:
    """A model × benchmark cell the model cannot do: its score JSON with score null and the reason; nothing runs."""
    output:
        "results/{cell}.json",
    params:
        reason=lambda wildcards: EMPTY_CELLS[wildcards.cell],
        benchmark_info=lambda wildcards: get_benchmark(wildcards.cell.split("/", 1)[1]).metadata(),
    wildcard_constraints:
        cell=grid_cells.cell_pattern(EMPTY_CELLS),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/empty_cell/{cell}.log",
    script:
        "../scripts/empty_cell.py"


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
    """Partial target: the ceiling of every benchmark in the grid (whose data are there)."""
    input:
        grid_ceilings(),


rule scores:
    """Partial target: every score of the grid, without the summary table."""
    input:
        grid_scores(),
