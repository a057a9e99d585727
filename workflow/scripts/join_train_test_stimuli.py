"""Join a data set's train and test stimulus sets into one folder (each part's images under <split>/)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.train_test import join_stimulus_sets
from brainpipe.io import atomic_directory
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "join_train_test_stimuli"):
    parts = [(split, snakemake.input[split]) for split in snakemake.input.keys()]
    with atomic_directory(snakemake.output[0]) as staging:
        table = join_stimulus_sets(parts, staging)
    print(f"{snakemake.wildcards.stimulus_set}: {len(table)} stimuli from {', '.join(p for _, p in parts)}")
