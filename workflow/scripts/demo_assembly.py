"""Simulate SyntheticShapes recordings for the drawn stimuli."""

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
