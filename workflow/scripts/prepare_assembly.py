"""Select a region and time window; write the repetition-averaged target and the per-trial copy."""

from brainpipe.data import assembly
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "prepare_assembly"):
    source = snakemake.input[0]
    recordings = read_netcdf(source)
    target, repetitions = assembly.prepare(recordings, snakemake.wildcards.region,
                                           time_window=tuple(snakemake.params.time_window),
                                           bin_size=snakemake.params.bin_size, source=source)
    write_netcdf(target, snakemake.output.target)
    write_netcdf(repetitions, snakemake.output.repetitions)
    print(f"{snakemake.wildcards.region}: target {dict(target.sizes)}, trials {dict(repetitions.sizes)}")
