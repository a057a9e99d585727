"""Simulate object solution times for the SyntheticShapes images (the offline OST demo)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.demo_ost import simulate_ost
from brainpipe.data.stimuli import read_stimulus_set
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "demo_ost_assembly"):
    assembly = simulate_ost(read_stimulus_set(snakemake.input[0]), **snakemake.params.simulation)
    write_netcdf(assembly, snakemake.output[0])
    print(f"simulated OSTs of {assembly.sizes['presentation']} images")
