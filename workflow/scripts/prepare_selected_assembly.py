"""Select a region, its consistent neuroids and the scored stimuli; write the averaged target and the trials."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from functools import partial

from brainpipe.data.selection import prepare_selected
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.neural.neuroid_consistency import consistent_neuroids
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "prepare_selected_assembly"):
    p = snakemake.params
    source = snakemake.input[0]
    scores = partial(consistent_neuroids, n_splits=p.n_splits, random_state=p.random_state)
    target, repetitions = prepare_selected(read_netcdf(source), snakemake.wildcards.region, scores, p.threshold,
                                           include=[(c, tuple(v)) for c, v in p.include],
                                           time_window=tuple(p.time_window), exact_time_bin=p.exact_time_bin,
                                           source=source)
    write_netcdf(target, snakemake.output.target)
    write_netcdf(repetitions, snakemake.output.repetitions)
    print(f"{snakemake.wildcards.region}: target {dict(target.sizes)}, trials {dict(repetitions.sizes)}")
