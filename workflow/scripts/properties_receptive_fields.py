"""Map each unit's receptive field from its activations to the receptive-field gratings and the blank."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.stimuli import read_stimulus_set
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.properties import stages

with logged(snakemake.log[0], "properties_receptive_fields"):
    i = snakemake.input
    stimuli = read_stimulus_set(i.rf_stimuli, check_files=False)
    activations = read_netcdf(i.rf, required_coords=("stimulus_id",))
    rf = stages.responses_on(activations, stimuli, i.rf)
    blank = stages.blank_response(read_netcdf(i.blank, required_coords=("stimulus_id",)), i.blank)
    positions = stages.receptive_field_positions(rf, blank, stimuli, activations["neuroid_id"].values)
    write_netcdf(positions, snakemake.output[0])
    mapped = int((~positions.isnull().any("axis")).sum())
    print(f"receptive fields of {positions.sizes['neuroid']} units ({mapped} with a positive response)")
