"""The report's per-condition figure of one data set: accuracy per condition from the task outputs and the
human data, thresholds per condition, or the scores' per-condition values (brainpipe.pipeline.figures)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.figures import plot_data_set_conditions
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], snakemake.rule), atomic_path(snakemake.output[0]) as temporary:
    plot_data_set_conditions([read_json(path) for path in snakemake.input.scores], snakemake.input.task,
                             snakemake.input.human, snakemake.config, temporary, snakemake.wildcards.dataset,
                             models=snakemake.params.models)
print(f"wrote {snakemake.output[0]}")
