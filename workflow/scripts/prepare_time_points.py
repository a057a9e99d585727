"""An EEG file's time points as neuroids (brainpipe.data.time_points), then the region's target (repetitions
averaged) and trials, as prepare_assembly writes them."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data import assembly
from brainpipe.data.time_points import time_points_as_neuroids
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "prepare_time_points"):
    source = snakemake.input[0]
    start, stop, expected = snakemake.params.time_points
    points = time_points_as_neuroids(read_netcdf(source), start, stop, int(expected))
    window = (int(points["time_bin_start"].values[0]), int(points["time_bin_end"].values[0]))
    target, repetitions = assembly.prepare(points, snakemake.wildcards.region, time_window=window, source=source)
    write_netcdf(target, snakemake.output.target)
    write_netcdf(repetitions, snakemake.output.repetitions)
    print(f"{snakemake.wildcards.region}: target {dict(target.sizes)}, trials {dict(repetitions.sizes)}")
