"""Simulate human match-to-sample behaviour (Rajalingham2018-like 2AFC trials) on the SyntheticShapes images."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour import demo
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.data.stimuli import read_stimulus_set

with logged(snakemake.log[0], "demo_behaviour"):
    table = read_stimulus_set(snakemake.input[0], check_files=False)
    assembly = demo.simulate_match_to_sample(table, seed=snakemake.params.seed)
    write_netcdf(assembly, snakemake.output[0])
    print(f"simulated {assembly.sizes['presentation']} 2AFC trials on {len(table)} images")
