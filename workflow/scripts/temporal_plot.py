"""Per-time-bin curves of the temporal scores given as inputs (pipeline/temporal_report.py)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.temporal_report import plot

with logged(snakemake.log[0], "temporal_plot"):
    with atomic_path(snakemake.output[0]) as temporary:
        plot([read_json(path) for path in snakemake.input], temporary)
