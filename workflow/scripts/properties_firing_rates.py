"""Fit the affine map from activations to firing rates on the orientation gratings, over the units in the RF."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.stimuli import read_stimulus_set
from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.properties import stages

with logged(snakemake.log[0], "properties_firing_rates"):
    i = snakemake.input
    stimuli = read_stimulus_set(i.orientation_stimuli, check_files=False)
    responses = stages.responses_on(read_netcdf(i.orientation, required_coords=("stimulus_id",)), stimuli,
                                    i.orientation)
    blank = stages.blank_response(read_netcdf(i.blank, required_coords=("stimulus_id",)), i.blank)
    positions = read_netcdf(i.positions, required_coords=("neuroid_id",))
    try:
        result = stages.firing_rate_map(positions, responses, blank, stimuli, snakemake.params.region)
    except ValueError as error:
        raise ValueError(f"{i.orientation}: {error}") from None
    write_json(result, snakemake.output[0])
    print(f"{result['n_in_receptive_field']} of {result['n_units']} units in the RF; firing rate = "
          f"{result['slope']:.6g} × activation + {result['offset']:.6g}")
