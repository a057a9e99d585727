"""Download (or reuse) an OST assembly (decoder × presentation, Brain-Score's Kar2019 format) and check it."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.ost_data import load_ost_assembly
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import write_netcdf
from brainpipe.pipeline.fetching import fetch_dataset_file
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fetch_ost_assembly") as log:
    p = snakemake.params
    entry, nc = fetch_dataset_file(snakemake.config, snakemake.wildcards.dataset, p.files, log)
    assembly = load_ost_assembly(nc, f"{snakemake.input.stimuli}/{CSV_NAME}")
    assembly.attrs["stimulus_set_identifier"] = entry.stimulus_set
    write_netcdf(assembly, snakemake.output[0])
    print(f"{entry.identifier}: {dict(assembly.sizes)} -> {snakemake.output[0]}", file=log)
