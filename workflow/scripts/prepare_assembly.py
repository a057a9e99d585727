"""Select a region and time window; write the repetition-averaged target and the per-trial copy."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.data import assembly, catalog
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged


def cleaned_copy(config, dataset):
    """The config key that makes the workflow read a corrected copy of this data set's file (generated demo
    data has none: the generic advice)."""
    try:
        remote = catalog.load_catalog(registry=benchmarks.from_config(config)).assembly(dataset).file
    except ValueError:
        return assembly.CLEANED_COPY
    data = config.get("data") or {}
    return catalog.cleaned_copy_advice(remote, data.get("local_files"), data.get("cache_dir", "resources/cache"))


with logged(snakemake.log[0], "prepare_assembly"):
    source = snakemake.input[0]
    recordings = read_netcdf(source)
    target, repetitions = assembly.prepare(recordings, snakemake.wildcards.region,
                                           time_window=tuple(snakemake.params.time_window),
                                           bin_size=snakemake.params.bin_size, source=source,
                                           exact_time_bin=snakemake.params.exact_time_bin,
                                           neuroid_filter=[tuple(f) for f in snakemake.params.neuroid_filter],
                                           single_response=snakemake.params.single_response,
                                           drop_nan_presentations=snakemake.params.drop_nan_presentations,
                                           cleaned_copy=cleaned_copy(snakemake.config, snakemake.wildcards.dataset))
    write_netcdf(target, snakemake.output.target)
    write_netcdf(repetitions, snakemake.output.repetitions)
    print(f"{snakemake.wildcards.region}: target {dict(target.sizes)}, trials {dict(repetitions.sizes)}")
