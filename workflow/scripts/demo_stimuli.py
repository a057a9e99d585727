"""Draw the SyntheticShapes stimulus set (brainpipe's offline demo)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data import demo
from brainpipe.io import atomic_directory
from brainpipe.pipeline.logs import logged
from brainpipe.data.stimuli import write_stimulus_table

with logged(snakemake.log[0], "demo_stimuli"):
    table, images = demo.generate_stimuli(**snakemake.params.shapes)
    with atomic_directory(snakemake.output[0]) as folder:
        (folder / "images").mkdir()
        for filename, image in zip(table["filename"], images):
            image.save(folder / filename)
        write_stimulus_table(table, folder)
    print(f"drew {len(table)} images of {table.object_name.nunique()} objects into {snakemake.output[0]}")
