"""The report's per-fold spread of one parent's benchmarks, every model of the grid."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.figures import plot_folds
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], snakemake.rule), atomic_path(snakemake.output[0]) as temporary:
    p = snakemake.params
    plot_folds([read_json(path) for path in snakemake.input], temporary, models=p.models, benchmarks=p.benchmarks)
print(f"wrote {snakemake.output[0]}")
