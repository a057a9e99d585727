"""Figures of the report: one model's per-layer sweep (rule sweep_plot), the per-fold spread (rule folds_plot) or
one data set's per-condition results (rule conditions_plot)."""

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.report import plot_conditions, plot_folds, plot_sweep, read_sweep_table

with logged(snakemake.log[0], snakemake.rule):
    p = snakemake.params
    with atomic_path(snakemake.output[0]) as temporary:
        if snakemake.rule == "sweep_plot":
            tables = {b: read_sweep_table(path) for b, path in zip(p.benchmarks, snakemake.input)}
            plot_sweep(tables, snakemake.wildcards.model, temporary)
        elif snakemake.rule == "conditions_plot":
            plot_conditions([read_json(path) for path in snakemake.input], temporary, snakemake.wildcards.dataset,
                            models=p.models)
        else:
            plot_folds([read_json(path) for path in snakemake.input], temporary, models=p.models,
                       benchmarks=p.benchmarks)
    print(f"wrote {snakemake.output[0]}")
