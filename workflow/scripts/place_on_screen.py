"""Write a copy of a stimulus set placed on screen at the model's visual angle."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_directory
from brainpipe.pipeline.logs import logged
from brainpipe.data.screen import place_on_screen

with logged(snakemake.log[0], "place_on_screen"):
    with atomic_directory(snakemake.output[0]) as folder:
        table = place_on_screen(snakemake.input[0], folder, snakemake.params.target, snakemake.params.source)
    print(f"placed {len(table)} images: {snakemake.params.source}° -> {snakemake.params.target}°")
