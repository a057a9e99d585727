"""Download (or reuse from the cache) a data set of human thresholds (a PropertyAssembly: one per subject),
sha1-checked, and write it as NetCDF."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour.threshold_stages import human_thresholds
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.fetching import fetch_dataset_file
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fetch_thresholds") as log:
    entry, nc = fetch_dataset_file(snakemake.config, snakemake.wildcards.dataset, snakemake.params.files, log)
    assembly = read_netcdf(nc)
    subjects, values = human_thresholds(assembly, f"{nc} ({entry.identifier})")
    write_netcdf(assembly, snakemake.output[0])
    print(f"{entry.identifier}: {len(subjects)} subjects -> {snakemake.output[0]}", file=log)
