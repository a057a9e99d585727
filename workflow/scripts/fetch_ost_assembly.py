"""Download (or reuse) an OST assembly (decoder × presentation, Brain-Score's Kar2019 format) and check it."""

from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.data.fetch import fetch_file, timeout_s
from brainpipe.data.ost_data import load_ost_assembly
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fetch_ost_assembly") as log:
    data = snakemake.config.get("data") or {}
    p = snakemake.params
    known = catalog.load_catalog(registry=benchmarks.from_config(snakemake.config))
    entry = known.with_checksums({name: sha1 for name, sha1 in p.files.items() if sha1}).assembly(
        snakemake.wildcards.dataset)
    nc = fetch_file(entry.file, data.get("cache_dir", "resources/cache"), catalog.base_url(data.get("base_url")),
                    local_overrides=data.get("local_files") or {}, progress=log,
                    timeout=timeout_s(data.get("timeout_s")))
    assembly = load_ost_assembly(nc, f"{snakemake.input.stimuli}/{CSV_NAME}")
    assembly.attrs["stimulus_set_identifier"] = entry.stimulus_set
    write_netcdf(assembly, snakemake.output[0])
    print(f"{entry.identifier}: {dict(assembly.sizes)} -> {snakemake.output[0]}", file=log)
