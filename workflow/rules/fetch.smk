# Stage 0 (real data): Brain-Score's public files -> the stimulus folder and the raw assembly that the demo rules
# write for SyntheticShapes, so every later stage is the same for real and simulated data.
#   snakemake --cores 1 fetch     pre-fetch everything the config grid needs (e.g. on a login node)
# Downloads land in <data.cache_dir>/<sha1>/<file> and are checked against the catalog's sha1
# (src/brainpipe/catalog.py); a cached file with the right sha1 is never downloaded again.
#
# Rerun policy: the sha1s are params (a catalog or checksum change reruns the fetch and everything after it).
# Where the files come from (data.base_url or $BRAINPIPE_DATA_URL, data.cache_dir, data.local_files) is read
# by the scripts from the config instead: a mirror, a moved cache or a local copy of the same file (same sha1,
# checked) cannot change a result, so it must not re-extract activations of every model.
import re

from brainpipe import catalog as brainio_catalog


def data_setting(key, default=None):
    return (config.get("data") or {}).get(key, default)


def brainio():
    """The catalog with the test-only checksum overrides of config data.checksums_override applied."""
    try:
        return brainio_catalog.load_catalog(data_setting("checksums_override"))
    except ValueError as error:
        raise WorkflowError(f"config data.checksums_override: {error}") from None


CATALOG = brainio()


def one_of(keys):
    """A wildcard regex matching exactly one of ``keys`` (dots literal)."""
    return "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))


def stimulus_set_of_dataset(wildcards):
    return f"resources/stimuli/{CATALOG.assembly(wildcards.dataset).stimulus_set}"


def fetched_files(stimulus_set=None, dataset=None):
    """Object name -> sha1 of what one job fetches: the params that make a checksum change rerun it."""
    if stimulus_set is not None:
        entry = CATALOG.stimulus_set(stimulus_set)
        return {entry.csv.name: entry.csv.sha1, entry.zip.name: entry.zip.sha1}
    entry = CATALOG.assembly(dataset)
    return {entry.file.name: entry.file.sha1}


def grid_data():
    """Stimulus folders and raw assemblies of every downloaded data set the config grid's benchmarks use."""
    targets = set()
    for identifier in config["benchmarks"]:
        family = get_benchmark(identifier).family
        if family.source != "brainio":
            continue
        entry = CATALOG.assembly(family.dataset)  # ValueError if benchmarks.py names a data set the catalog lacks
        if entry.stimulus_set != family.stimulus_set:
            raise WorkflowError(f"benchmark {identifier}: family stimulus set {family.stimulus_set!r} differs from "
                                f"the catalog's {entry.stimulus_set!r} for data set {family.dataset!r}")
        targets.add(f"resources/stimuli/{family.stimulus_set}")
        targets.add(f"resources/assemblies/{family.dataset}.nc")
    return sorted(targets)


rule fetch_stimuli:
    output:
        directory("resources/stimuli/{stimulus_set}"),
    params:
        files=lambda wildcards: fetched_files(stimulus_set=wildcards.stimulus_set),
    wildcard_constraints:
        stimulus_set=one_of(CATALOG.stimulus_sets),
    resources:
        downloads=1,
        runtime=60,
    log:
        "logs/fetch_stimuli/{stimulus_set}.log",
    script:
        "../scripts/fetch_stimuli.py"


rule fetch_assembly:
    input:
        stimulus_set_of_dataset,
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        files=lambda wildcards: fetched_files(dataset=wildcards.dataset),
        stimulus_set=lambda wildcards: CATALOG.assembly(wildcards.dataset).stimulus_set,
    wildcard_constraints:
        dataset=one_of(CATALOG.assemblies),
    resources:
        downloads=1,
        runtime=60,
        # UNVERIFIED size: the public MajajHong2015 values are 256 × 148480 float32 (~150 MB) plus metadata.
        mem_mb=8000,
    log:
        "logs/fetch_assembly/{dataset}.log",
    script:
        "../scripts/fetch_assembly.py"


rule fetch:
    """Partial target: download and unpack every data file the config grid needs, and nothing else."""
    input:
        grid_data(),
