# Stage 8: the report. Per-layer sweep tables, the leaderboard (CSV + HTML) and figures, registered for
# `snakemake --report report.html`. Table logic: src/brainpipe/pipeline/report.py; figures: src/brainpipe/pipeline/figures.py. Partial target: plots.
# Report labels: ONE label per result, its value unique within the (sub)category. Snakemake's report turns any
# second label with exactly two values, each on half the results (CSV/HTML, table/plot), into an on/off toggle
# and then looks up rows that do not exist: the page stays blank ("reading 'mime_type'" in the console).
from brainpipe.pipeline import report as reporting
from brainpipe.pipeline.workflow_config import architecture_layers

# one sweep and one per-fold figure per parent (at most a dozen benchmarks each: report.figure_groups)
REPORT_PARENTS = reporting.benchmark_parents(config["benchmarks"], [PLAN.benchmark(b) for b in config["benchmarks"]])
FOLD_GROUPS = reporting.figure_groups(config["benchmarks"], REPORT_PARENTS)


# neural or behavioural, metric, parent, data of each benchmark, from the definitions (config's registry)
GRID_FACTS = {b: reporting.benchmark_facts(PLAN.benchmark(b)) for b in config["benchmarks"]}


rule sweep_table:
    """A model's score on one benchmark for every layer it scores (config model_zoo.<model>.sweep)."""
    input:
        layers=PLAN.scores.layer_scores,
    output:
        report("results/{model}/{benchmark}/sweep.tsv", caption="../report/sweep_table.rst", category="Layer sweeps",
               subcategory="{model}", labels={"result": "{benchmark} (table)"}),
    params:
        code=stage_code("sweep_table"),
        committed=lambda wildcards: PLAN.model(wildcards.model)["layers"][
            PLAN.benchmark(wildcards.benchmark).model_region],
        order=lambda wildcards: list(architecture_layers(PLAN.model(wildcards.model)["architecture"])),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/sweep_table/{model}/{benchmark}.log",
    script:
        "../scripts/sweep_table.py"


rule leaderboard:
    input:
        scores=PLAN.grid.scores(),
        ceilings=PLAN.grid.ceilings(),  # score.smk: a benchmark whose data you have not supplied has none
    output:
        csv=report("results/leaderboard.csv", caption="../report/leaderboard_csv.rst", category="Leaderboard",
                   labels={"file": "leaderboard.csv"}),
        html=report("results/leaderboard.html", caption="../report/leaderboard.rst", category="Leaderboard",
                    labels={"file": "leaderboard.html"}),
    params:
        code=stage_code("leaderboard"),
        models=config["models"],
        benchmarks=config["benchmarks"],
        # benchmarks on generated data (the demo): left out of the means when the grid also scores real data
        simulated=PLAN.grid.simulated_benchmarks(),
        # neural or behavioural, metric, parent, data: from the definitions, not from keys of the score files
        facts=GRID_FACTS,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/leaderboard.log",
    script:
        "../scripts/leaderboard.py"


rule sweep_plot:
    """A model's per-layer sweep, one figure per parent of its swept benchmarks."""
    input:
        lambda wildcards: expand("results/{{model}}/{benchmark}/sweep.tsv",
                                 benchmark=reporting.sweep_group(config, REPORT_PARENTS, wildcards.model,
                                                                 wildcards.group)),
    output:
        report("results/plots/sweep/{model}/{group}.png", caption="../report/sweep.rst", category="Layer sweeps",
               subcategory="{model}", labels={"result": "{group} (plot)"}),
    params:
        code=stage_code("sweep_plot"),
        benchmarks=lambda wildcards: reporting.sweep_group(config, REPORT_PARENTS, wildcards.model, wildcards.group),
    wildcard_constraints:
        group=r"[A-Za-z0-9._-]+",
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/sweep/{model}/{group}.log",
    script:
        "../scripts/sweep_plot.py"


rule folds_plot:
    """The per-fold spread of one parent's benchmarks."""
    input:
        lambda wildcards: expand("results/{model}/{benchmark}.json", model=config["models"],
                                 benchmark=reporting.figure_group(FOLD_GROUPS, wildcards.group, "folds")),
    output:
        report("results/plots/folds/{group}.png", caption="../report/folds.rst", category="Per-fold spread",
               labels={"figure": "{group}"}),
    params:
        code=stage_code("folds_plot"),
        models=config["models"],
        benchmarks=lambda wildcards: reporting.figure_group(FOLD_GROUPS, wildcards.group, "folds"),
    wildcard_constraints:
        group=r"[A-Za-z0-9._-]+",
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/folds/{group}.log",
    script:
        "../scripts/folds_plot.py"


# data set -> its benchmarks in the grid scored per condition (error consistency, accuracy)
CONDITION_DATASETS = reporting.condition_datasets(PLAN.benchmark(b) for b in config["benchmarks"])
# benchmarks whose figure computes model and human accuracy per condition from the task output and the human data
CONDITION_TABLES = reporting.condition_tables_of(PLAN.benchmark(b) for b in config["benchmarks"])
# every file of the report (rule plots, and rule all in the Snakefile)
REPORT_TARGETS = reporting.targets(config, [PLAN.benchmark(b) for b in config["benchmarks"]], EMPTY_CELLS)


rule conditions_plot:
    """Error consistency and accuracy per condition of one data set, models as lines (src/brainpipe/pipeline/figures.py).
    Accuracy-distance and accuracy-delta benchmarks (Scialom2024, Baker2022): one figure per parent, model and human
    accuracy per condition computed here from each task output and human data (inputs ``task``, ``human``; empty for
    the other figures, whose inputs are the score JSONs alone)."""
    input:
        scores=lambda wildcards: reporting.condition_inputs(CONDITION_DATASETS, config["models"], wildcards.dataset,
                                                            EMPTY_CELLS),
        task=lambda wildcards: PLAN.behaviour.condition_table_files(CONDITION_DATASETS, CONDITION_TABLES,
                                                                    wildcards.dataset, "task"),
        human=lambda wildcards: PLAN.behaviour.condition_table_files(CONDITION_DATASETS, CONDITION_TABLES,
                                                                     wildcards.dataset, "human"),
    output:
        report("results/plots/conditions_{dataset}.png", caption="../report/conditions.rst",
               category="Per-condition behaviour", labels={"data set": "{dataset}"}),
    params:
        code=stage_code("conditions_plot"),
        models=config["models"],
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/conditions_{dataset}.log",
    script:
        "../scripts/conditions_plot.py"


rule plots:
    """Partial target: the leaderboard, sweep tables and every figure of the report."""
    input:
        REPORT_TARGETS,


onerror:
    # A run that partly failed (--keep-going, as the SLURM profile sets, runs every job it can) would leave the
    # previous run's tables behind, with no sign that scores are missing, or show a score file this run had to
    # recompute and could not as current: rebuild them from the score files that exist, naming the missing ones and
    # the stale ones (a file whose settings or definition differ from what the score rule would write now), and say
    # exactly what was written (src/brainpipe/pipeline/leaderboard_page.py write_grid_tables). The next successful run
    # replaces them.
    _expected = reporting.expected_scores(workflow.rules, config["models"], config["benchmarks"])
    try:
        from brainpipe.pipeline.leaderboard_page import write_grid_tables

        _tables = write_grid_tables(PLAN.grid.scores(), PLAN.grid.ceilings(),
                                    config["models"], config["benchmarks"], "results/summary.tsv",
                                    "results/leaderboard.csv", "results/leaderboard.html",
                                    simulated=PLAN.grid.simulated_benchmarks(), expected=_expected, facts=GRID_FACTS)
        print(_tables.message(), file=sys.stderr)
    except Exception as _error:  # the run has failed already: say why the tables were not rebuilt, add no traceback
        print(f"brainpipe: the tables were not rebuilt ({type(_error).__name__}: {_error}); results/summary.tsv "
              "and the leaderboard are as the last run that wrote them left them, if any.", file=sys.stderr)
    # the models none of whose jobs is left undone are finished all the same: the next start does not plan them
    # (common.smk, pipeline/finished_models.py)
    finished_models.record_run(workflow, config, FINISHED_CODE)
    cancel_scheduler_timers()  # as at onsuccess (common.smk)
