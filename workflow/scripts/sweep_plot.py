"""The report's per-layer sweep figure of one model on one parent's benchmarks."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path
from brainpipe.pipeline.figures import plot_sweep
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.report import read_sweep_table

with logged(snakemake.log[0], snakemake.rule), atomic_path(snakemake.output[0]) as temporary:
    tables = {b: read_sweep_table(path) for b, path in zip(snakemake.params.benchmarks, snakemake.input)}
    plot_sweep(tables, snakemake.wildcards.model, temporary, title=snakemake.wildcards.group)
print(f"wrote {snakemake.output[0]}")
