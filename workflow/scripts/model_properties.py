"""One property set of a model: the units in the RF as firing rates -> unit × property, with the threshold mask."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.stimuli import read_stimulus_set
from brainpipe.io import read_json, read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.properties import stages
from brainpipe.properties.sets import property_function

with logged(snakemake.log[0], "model_properties"):
    i, p = snakemake.input, snakemake.params
    stimuli = read_stimulus_set(i.stimuli, check_files=False)
    responses = stages.responses_on(read_netcdf(i.activations, required_coords=("stimulus_id",)), stimuli,
                                    i.activations)
    blank = stages.blank_response(read_netcdf(i.blank, required_coords=("stimulus_id",)), i.blank)
    positions = read_netcdf(i.positions, required_coords=("neuroid_id",))
    try:
        table = stages.model_properties(property_function(p.property_set), responses, blank, stimuli, positions,
                                        read_json(i.affine), p.property_set)
    except ValueError as error:
        raise ValueError(f"{i.stimuli}: {error}") from None
    write_netcdf(table, snakemake.output[0])
    print(f"{p.property_set}: {table.sizes['neuroid']} units in the RF, {int(table['responsive'].sum())} pass "
          f"{table.attrs['threshold_rule']}")
