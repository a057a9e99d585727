# Stage 8: the report. Per-layer sweep tables, the leaderboard (CSV + HTML) and figures, registered for
# `snakemake --report report.html`. Table logic: src/brainpipe/pipeline/report.py; figures: src/brainpipe/pipeline/figures.py. Partial target: plots.
# Report labels: ONE label per result, its value unique within the (sub)category. Snakemake's report turns any
# second label with exactly two values, each on half the results (CSV/HTML, table/plot), into an on/off toggle
# and then looks up rows that do not exist: the page stays blank ("reading 'mime_type'" in the console).
from brainpipe.pipeline import report as reporting
from brainpipe.pipeline.workflow_config import architecture_layers



rule sweep_table:
    """A model's score on one benchmark for every layer it scores (config model_zoo.<model>.sweep)."""
    input:
        layers=lambda wildcards: expand("results/{{model}}/{{benchmark}}/layers/{layer}.json",
                                        layer=scored_layers(wildcards.model, get_benchmark(wildcards.benchmark))),
    output:
        report("results/{model}/{benchmark}/sweep.tsv", caption="../report/sweep_table.rst", category="Layer sweeps",
               subcategory="{model}", labels={"result": "{benchmark} (table)"}),
    params:
        committed=lambda wildcards: get_model(wildcards.model)["layers"][get_benchmark(wildcards.benchmark).model_region],
        order=lambda wildcards: list(architecture_layers(get_model(wildcards.model)["architecture"])),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/sweep_table/{model}/{benchmark}.log",
    script:
        "../scripts/sweep_table.py"


rule leaderboard:
    input:
        scores=grid_scores(),
        ceilings=expand("results/ceilings/{benchmark}.json", benchmark=config["benchmarks"]),
    output:
        csv=report("results/leaderboard.csv", caption="../report/leaderboard_csv.rst", category="Leaderboard",
                   labels={"file": "leaderboard.csv"}),
        html=report("results/leaderboard.html", caption="../report/leaderboard.rst", category="Leaderboard",
                    labels={"file": "leaderboard.html"}),
    params:
        models=config["models"],
        benchmarks=config["benchmarks"],
        # benchmarks on generated data (the demo): left out of the means when the grid also scores real data
        simulated=simulated_benchmarks(),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/leaderboard.log",
    script:
        "../scripts/leaderboard.py"


rule sweep_plot:
    input:
        lambda wildcards: expand("results/{{model}}/{benchmark}/sweep.tsv",
                                 benchmark=reporting.swept_benchmarks(config, wildcards.model)),
    output:
        report("results/plots/sweep_{model}.png", caption="../report/sweep.rst", category="Layer sweeps",
               subcategory="{model}", labels={"result": "all swept benchmarks (plot)"}),
    params:
        benchmarks=lambda wildcards: reporting.swept_benchmarks(config, wildcards.model),
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/sweep_{model}.log",
    script:
        "../scripts/plots.py"


rule folds_plot:
    input:
        grid_scores(),
    output:
        report("results/plots/folds.png", caption="../report/folds.rst", category="Per-fold spread",
               labels={"figure": "per-fold spread"}),
    params:
        models=config["models"],
        benchmarks=config["benchmarks"],
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/folds.log",
    script:
        "../scripts/plots.py"


# data set -> its benchmarks in the grid scored per condition (error consistency, accuracy)
CONDITION_DATASETS = reporting.condition_datasets(get_benchmark(b) for b in config["benchmarks"])
# benchmarks whose figure computes model and human accuracy per condition from the task output and the human data
CONDITION_TABLES = reporting.condition_tables_of(get_benchmark(b) for b in config["benchmarks"])
# every file of the report (rule plots, and rule all in the Snakefile)
REPORT_TARGETS = reporting.targets(config, [get_benchmark(b) for b in config["benchmarks"]])


rule conditions_plot:
    """Error consistency and accuracy per condition of one data set, models as lines (src/brainpipe/pipeline/figures.py).
    Accuracy-distance and accuracy-delta benchmarks (Scialom2024, Baker2022): one figure per parent, model and human
    accuracy per condition computed here from each task output and human data (inputs ``task``, ``human``; empty for
    the other figures, whose inputs are the score JSONs alone)."""
    input:
        scores=lambda wildcards: reporting.condition_inputs(CONDITION_DATASETS, config["models"], wildcards.dataset),
        task=lambda wildcards: condition_table_files(CONDITION_DATASETS, CONDITION_TABLES, wildcards.dataset, "task"),
        human=lambda wildcards: condition_table_files(CONDITION_DATASETS, CONDITION_TABLES, wildcards.dataset, "human"),
    output:
        report("results/plots/conditions_{dataset}.png", caption="../report/conditions.rst",
               category="Per-condition behaviour", labels={"data set": "{dataset}"}),
    params:
        models=config["models"],
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/plots/conditions_{dataset}.log",
    script:
        "../scripts/plots.py"


rule plots:
    """Partial target: the leaderboard, sweep tables and every figure of the report."""
    input:
        REPORT_TARGETS,


onerror:
    # A run that partly failed (--keep-going, as the SLURM profile sets, runs every job it can) would leave the
    # previous run's tables behind, with no sign that scores are missing: rebuild them from the score files that
    # exist and name the missing ones (src/brainpipe/pipeline/report.py write_grid_tables). The next successful run
    # replaces them, since the missing scores it produces are newer.
    _missing = reporting.write_grid_tables(grid_scores(), expand("results/ceilings/{benchmark}.json",
                                                                 benchmark=config["benchmarks"]),
                                           config["models"], config["benchmarks"], "results/summary.tsv",
                                           "results/leaderboard.csv", "results/leaderboard.html",
                                           simulated=simulated_benchmarks())
    if _missing:
        print(f"brainpipe: {len(_missing)} score(s) of the grid missing: "
              + ", ".join(f"{model} × {benchmark}" for model, benchmark in _missing)
              + ". results/summary.tsv and results/leaderboard.html were rebuilt from the scores that exist and name "
              "them (status 'missing').", file=sys.stderr)
