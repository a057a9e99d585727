"""Download (or reuse from the cache) a Brain-Score property table (a PropertyAssembly NetCDF), sha1-checked."""

from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.data.fetch import fetch_file, timeout_s
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.properties.stages import checked_property_data

with logged(snakemake.log[0], "fetch_properties") as log:
    data = snakemake.config.get("data") or {}
    p = snakemake.params
    known = catalog.load_catalog(registry=benchmarks.from_config(snakemake.config))
    entry = known.with_checksums({name: sha1 for name, sha1 in p.files.items() if sha1}).assembly(
        snakemake.wildcards.dataset)
    nc = fetch_file(entry.file, data.get("cache_dir", "resources/cache"), catalog.base_url(data.get("base_url")),
                    local_overrides=data.get("local_files") or {}, progress=log,
                    timeout=timeout_s(data.get("timeout_s")))
    table = checked_property_data(read_netcdf(nc), f"{nc} ({entry.identifier})", p.properties)
    write_netcdf(table, snakemake.output[0])
    print(f"{entry.identifier}: {table.sizes['neuroid']} neurons × {table.sizes['neuronal_property']} properties "
          f"-> {snakemake.output[0]}", file=log)
