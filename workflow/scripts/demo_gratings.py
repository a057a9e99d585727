"""Draw one SyntheticGratings stimulus set (brainpipe's offline properties demo)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.stimuli import write_stimulus_table
from brainpipe.io import atomic_directory
from brainpipe.pipeline.logs import logged
from brainpipe.properties import demo

with logged(snakemake.log[0], "demo_gratings"):
    table, images = demo.generate_stimuli(snakemake.wildcards.kind, image_size=snakemake.params.image_size)
    with atomic_directory(snakemake.output[0]) as folder:
        (folder / "images").mkdir()
        for filename, image in zip(table["filename"], images):
            image.save(folder / filename)
        write_stimulus_table(table, folder)
    print(f"drew {len(table)} {snakemake.wildcards.kind} gratings into {snakemake.output[0]}")
