"""A temporal file resampled onto Brain-Score's contiguous bins (brainpipe.data.time_align), then the region's target
(repetitions averaged) and trials, as prepare_assembly writes them."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.time_align import prepare_aligned
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "prepare_aligned_assembly"):
    source = snakemake.input[0]
    target, repetitions = prepare_aligned(read_netcdf(source), snakemake.wildcards.region,
                                          width=int(snakemake.params.bin_size), start=int(snakemake.params.start),
                                          mode=snakemake.params.alignment,
                                          source=source)
    write_netcdf(target, snakemake.output.target)
    write_netcdf(repetitions, snakemake.output.repetitions)
    bins = list(zip(target["time_bin_start"].values.tolist(), target["time_bin_end"].values.tolist()))
    print(f"{snakemake.wildcards.region}: target {dict(target.sizes)}, trials {dict(repetitions.sizes)}, "
          f"bins {bins[0]}..{bins[-1]}")
