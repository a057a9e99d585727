"""The OST target: unique stimulus ids, one decoder, truth = image_label (Brain-Score's Kar2019 preparation)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.ost_data import prepare_target
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "ost_target"):
    assembly = read_netcdf(snakemake.input.assembly, required_coords=("stimulus_id", "image_label", "i1"))
    target = prepare_target(assembly, snakemake.params.decoder)
    write_netcdf(target, snakemake.output[0])
    print(f"{target.sizes['presentation']} images ({target.attrs['duplicates_dropped']} duplicate ids dropped), "
          f"decoder {snakemake.params.decoder}")
