"""A benchmark's target built from its stimulus set's own columns (no human data: Hermann2020's cue-conflict
shape and texture categories)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour.stimulus_targets import storable_stimulus_target
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "stimulus_target"):
    # (ImageNet's table has an unnamed index column, 'Unnamed: 0': not a NetCDF coordinate name)
    target = storable_stimulus_target(f"{snakemake.input[0]}/{CSV_NAME}", snakemake.params.truth_column)
    write_netcdf(target, snakemake.output[0])
    print(f"{snakemake.input[0]}: {target.sizes['presentation']} stimuli, columns {sorted(map(str, target.coords))}")
