"""Download (or reuse from the cache) a Brain-Score assembly, merge its stimulus metadata, write it as NetCDF."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.data.brainio import load_assembly
from brainpipe.data.download import fetch_file, timeout_s
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.data.stimuli import CSV_NAME

with logged(snakemake.log[0], "fetch_assembly") as log:
    data = snakemake.config.get("data") or {}
    p = snakemake.params
    known = catalog.load_catalog(registry=benchmarks.from_config(snakemake.config))  # built-in + declared data
    entry = known.with_checksums({name: sha1 for name, sha1 in p.files.items() if sha1}).assembly(
        snakemake.wildcards.dataset)
    base = catalog.base_url(data.get("base_url"))
    nc, *parts = [fetch_file(remote, data.get("cache_dir", "resources/cache"), base,
                             local_overrides=data.get("local_files") or {}, progress=log,
                             timeout=timeout_s(data.get("timeout_s"))) for remote in entry.all_files]
    parts = {remote.name: path for remote, path in zip(entry.parts, parts)}  # read by the family's reindex
    if p.behavioural:  # a BehavioralAssembly: presentation only (trials or triplets), no neuroid dimension
        from brainpipe.behaviour.data import load_behaviour

        assembly = load_behaviour(nc, f"{snakemake.input.stimuli}/{CSV_NAME}", stimulus_set_identifier=p.stimulus_set)
        assembly.attrs.pop("source", None)
        what = "behaviour"
    else:
        assembly = load_assembly(nc, f"{snakemake.input.stimuli}/{CSV_NAME}", stimulus_set_identifier=p.stimulus_set,
                                 coords=p.coords, reindex=p.reindex, parts=parts)
        what = f"regions {sorted(set(assembly['region'].values.astype(str).tolist()))}"
    write_netcdf(assembly, snakemake.output[0])
    print(f"{entry.identifier}: {dict(assembly.sizes)}, {what} -> {snakemake.output[0]}", file=log)
