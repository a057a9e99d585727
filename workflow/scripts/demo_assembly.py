"""Simulate SyntheticShapes recordings for the drawn stimuli."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data import demo
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.data.stimuli import load_image, read_stimulus_set

with logged(snakemake.log[0], "demo_assembly"):
    table = read_stimulus_set(snakemake.input[0])
    images = [load_image(path) for path in table["path"]]
    assembly = demo.simulate_assembly(table, images, **snakemake.params.simulation)
    write_netcdf(assembly, snakemake.output[0])
    print(f"simulated {assembly.sizes['neuroid']} neuroids × {assembly.sizes['presentation']} presentations")
