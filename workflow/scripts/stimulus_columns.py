"""A neural benchmark's target built from its stimulus set's own columns (no recordings: Islam2021)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.stimulus_columns import stimulus_columns
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "stimulus_columns"):
    target = stimulus_columns(f"{snakemake.input[0]}/{CSV_NAME}")
    write_netcdf(target, snakemake.output[0])
    print(f"{snakemake.input[0]}: {target.sizes['presentation']} stimuli, columns {sorted(map(str, target.coords))}")
