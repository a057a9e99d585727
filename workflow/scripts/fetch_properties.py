"""Download (or reuse from the cache) a Brain-Score property table (a PropertyAssembly NetCDF), sha1-checked."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.fetching import fetch_dataset_file
from brainpipe.pipeline.logs import logged
from brainpipe.properties.stages import checked_property_data

with logged(snakemake.log[0], "fetch_properties") as log:
    p = snakemake.params
    entry, nc = fetch_dataset_file(snakemake.config, snakemake.wildcards.dataset, p.files, log)
    table = checked_property_data(read_netcdf(nc), f"{nc} ({entry.identifier})", p.properties)
    write_netcdf(table, snakemake.output[0])
    print(f"{entry.identifier}: {table.sizes['neuroid']} neurons × {table.sizes['neuronal_property']} properties "
          f"-> {snakemake.output[0]}", file=log)
