"""Figures of the report: one model's per-layer sweep of one parent's benchmarks (rule sweep_plot), the per-fold
spread of one parent's benchmarks (rule folds_plot) or one data set's per-condition results (rule conditions_plot)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.figures import (plot_condition_tables, plot_conditions, plot_folds, plot_sweep,
                                        plot_thresholds, read_condition_tables)
from brainpipe.pipeline.report import THRESHOLD_METRICS, read_sweep_table

with logged(snakemake.log[0], snakemake.rule):
    p = snakemake.params
    with atomic_path(snakemake.output[0]) as temporary:
        if snakemake.rule == "sweep_plot":
            tables = {b: read_sweep_table(path) for b, path in zip(p.benchmarks, snakemake.input)}
            plot_sweep(tables, snakemake.wildcards.model, temporary, title=snakemake.wildcards.group)
        elif snakemake.rule == "conditions_plot":
            headlines = [read_json(path) for path in snakemake.input.scores]
            if snakemake.input.task:  # accuracy per condition from task outputs and human data (Scialom2024, Baker2022)
                tables = read_condition_tables(headlines, snakemake.input.task, snakemake.input.human, snakemake.config)
                plot_condition_tables(tables, temporary, snakemake.wildcards.dataset, models=p.models)
            else:
                # threshold benchmarks (Malania2007): model vs human thresholds per condition
                plot = (plot_thresholds if all(h.get("metric") in THRESHOLD_METRICS for h in headlines)
                        else plot_conditions)
                plot(headlines, temporary, snakemake.wildcards.dataset, models=p.models)
        else:
            plot_folds([read_json(path) for path in snakemake.input], temporary, models=p.models,
                       benchmarks=p.benchmarks)
    print(f"wrote {snakemake.output[0]}")
