# Stage 7: folds + ceiling -> a score per layer; the committed layer's score is the headline; a summary table
# of the grid. Partial targets: activations, ceilings, scores.
from brainpipe.pipeline import grid_cells


# Cells of the grid a model cannot do (a model without logits on a label task, a temporal model on a behavioural
# one, a static model on object solution times) or that config skip_benchmarks leaves out: decided here, at plan
# time (pipeline/grid_cells.py); the empty_cell rule is the only one for their files.
# Benchmarks whose data need a file the user supplies and has not (the catalog and data.local_files): every
# model's cell is empty, and no ceiling job is planned for them (PLAN.grid.unavailable_benchmarks).
try:
    EMPTY_CELLS = PLAN.grid.empty_cells
except ConfigError as error:
    raise WorkflowError(str(error)) from None


rule empty_cell:
    """A model × benchmark cell the model cannot do: its score JSON with score null and the reason; nothing runs."""
    output:
        "results/{cell}.json",
    params:
        code=stage_code("empty_cell"),
        reason=lambda wildcards: EMPTY_CELLS[wildcards.cell],
        benchmark_info=lambda wildcards: PLAN.benchmark(wildcards.cell.split("/", 1)[1]).metadata(),
        ceiling=lambda wildcards: grid_cells.fixed_ceiling(PLAN.benchmark(wildcards.cell.split("/", 1)[1])),
    wildcard_constraints:
        # a finished model's empty cells are read as they are (common.smk: PLAN.finished_models)
        cell=grid_cells.cell_pattern([c for c in EMPTY_CELLS if c.split("/", 1)[0] not in PLAN.finished_models]),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/empty_cell/{cell}.log",
    script:
        "../scripts/empty_cell.py"


rule score_layer:
    input:
        folds=PLAN.scores.fold_files,
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=stage_code("score_layer"),
        definition=PLAN.definition,
    wildcard_constraints:
        benchmark=PLAN.patterns.generic_benchmark,  # other kinds of benchmark have rules of their own
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
        layers=PLAN.scores.layer_scores,
    output:
        "results/{model}/{benchmark}.json",
    params:
        code=stage_code("score"),
        committed=lambda wildcards: PLAN.scores.committed_layer(wildcards.model, PLAN.benchmark(wildcards.benchmark)),
        # the entry plus source_sha1 / weights_sha256 of your own model file and weights_file (provenance)
        model_spec=lambda wildcards: PLAN.scores.model_spec(wildcards.model, PLAN.benchmark(wildcards.benchmark)),
        data=lambda wildcards: PLAN.scores.data(PLAN.benchmark(wildcards.benchmark)),
        benchmark_info=lambda wildcards: PLAN.benchmark(wildcards.benchmark).metadata(),
    wildcard_constraints:
        model=PLAN.patterns.scored_model,  # the grid's empty cells: empty_cell
        # behavioural benchmarks: score_behaviour (behaviour.smk); object solution times: score_ost (below)
        benchmark=PLAN.patterns.generic_headline_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score/{model}/{benchmark}.tsv"
    log:
        "logs/score/{model}/{benchmark}.log",
    script:
        "../scripts/score.py"


# The headline of an object-solution-time benchmark (Kar2019-ost): the score rule's, with the OST data's description
use rule score as score_ost with:
    params:
        data=lambda wildcards: PLAN.scores.ost_data(PLAN.benchmark(wildcards.benchmark)),
    wildcard_constraints:
        model=PLAN.patterns.scored_model,  # the grid's empty cells: empty_cell
        benchmark=PLAN.patterns.ost_benchmark,


rule summary:
    input:
        PLAN.grid.scores(),
    output:
        "results/summary.tsv",
    params:
        code=stage_code("summary"),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/summary.log",
    script:
        "../scripts/summary.py"


rule activations_all:
    """Partial target: every activations layer file the grid needs."""
    input:
        lambda wildcards: PLAN.grid.activations(),


rule ceilings:
    """Partial target: the ceiling of every benchmark in the grid (whose data are there)."""
    input:
        PLAN.grid.ceilings(),


rule scores:
    """Partial target: every score of the grid, without the summary table."""
    input:
        PLAN.grid.scores(),
