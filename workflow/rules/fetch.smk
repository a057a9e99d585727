# Stage 0 (real data): Brain-Score's public files -> the stimulus folder and the raw assembly that the demo rules
# write for SyntheticShapes, so every later stage is the same for real and simulated data.
#   snakemake --cores 1 fetch     pre-fetch everything the config grid needs (e.g. on a login node)
# Downloads land in <data.cache_dir>/<sha1>/<file> and are checked against the catalog's sha1
# (src/brainpipe/data/catalog.py); a cached file with the right sha1 is never downloaded again.
#
# Rerun policy: the sha1s are params (a catalog or checksum change reruns the fetch and everything after it).
# Where downloads come from (data.base_url or $BRAINPIPE_DATA_URL, data.cache_dir) is read by the scripts from
# the config instead: a mirror or a moved cache serves the same bytes (sha1 checked), so it must not re-extract
# activations of every model. Files on disk (data.local_files, declared benchmark_zoo files) are the user's and
# can change under the same name: their paths are inputs and their sha1s on disk params, so pointing an entry at
# another file, or changing the file's bytes, reruns the fetch and what follows (a cleaned copy, say).
import re

from brainpipe.data import catalog as brainio_catalog


LOCAL_FILES = (config.get("data") or {}).get("local_files") or {}
try:  # the catalog, with the test-only checksum overrides (data.checksums_override) and local files' own sha1s
    CATALOG = brainio_catalog.load_catalog((config.get("data") or {}).get("checksums_override"), registry=REGISTRY)
except ValueError as error:
    raise WorkflowError(f"config data.checksums_override: {error}") from None
try:
    CATALOG = CATALOG.with_checksums(brainio_catalog.local_checksums(LOCAL_FILES))
except ValueError as error:
    raise WorkflowError(f"config data.local_files: {error}") from None

# Stimulus folders and raw assemblies of every downloaded data set the config grid's benchmarks use (the input
# of the partial target `fetch`). The benchmark families name their data by catalog key; a family whose data set
# or stimulus set the catalog does not know stops the workflow here, before any download.
GRID_DATA = set()
_GRID_FAMILIES = {get_benchmark(identifier).family for identifier in config["benchmarks"]}
# a benchmark averaged over sessions (Family.sessions) reads its sessions' data
_GRID_FAMILIES |= {get_benchmark(s).family for _family in list(_GRID_FAMILIES) for s in _family.sessions}
for _family in _GRID_FAMILIES:
    if _family.source == "stimuli":  # a target built from the stimulus set (Hermann2020): no recordings
        GRID_DATA |= {f"resources/stimuli/{s}" for s in _family.stimulus_sets}
        continue
    if _family.source != "brainio":
        continue
    if _family.splits:  # train and test files joined into one data set (train_test.smk): the parts are fetched
        GRID_DATA |= {f"resources/assemblies/{d}.nc" for _, d in _family.splits}
        GRID_DATA |= {f"resources/stimuli/{CATALOG.assembly(d).stimulus_set}" for _, d in _family.splits}
        continue
    if _family.properties:  # a property table (workflow/rules/properties.smk) and every stimulus set it is mapped on
        GRID_DATA |= {f"resources/properties/{m.dataset}" + ".nc" for m in _family.properties}
        GRID_DATA |= {f"resources/stimuli/{s}" for s in _family.stimulus_sets}
        continue
    try:
        _entry = CATALOG.assembly(_family.dataset)
    except ValueError as error:
        raise WorkflowError(f"benchmark family data set: {error}") from None
    if _entry.stimulus_set != _family.stimulus_set:
        raise WorkflowError(f"data set {_family.dataset!r}: benchmark family shows stimulus set "
                            f"{_family.stimulus_set!r}, the catalog's recordings refer to {_entry.stimulus_set!r}")
    GRID_DATA |= {f"resources/stimuli/{_family.stimulus_set}", f"resources/assemblies/{_family.dataset}.nc"}
    if _family.fitting_stimulus_set:  # a behavioural readout's fitting images
        GRID_DATA.add(f"resources/stimuli/{_family.fitting_stimulus_set}")
    if _family.train_dataset:  # a train/test family's train recordings and stimuli
        GRID_DATA |= {f"resources/stimuli/{_family.train_stimulus_set}",
                      f"resources/assemblies/{_family.train_dataset}.nc"}


rule fetch_stimuli:
    input:
        lambda wildcards: sorted(on_disk(stimulus_files(wildcards)).values()),
    output:
        directory("resources/stimuli/{stimulus_set}"),
    params:
        code=library_code("data/fetch", "data/catalog", "data/stimuli"),
        # object name -> sha1: a catalog or checksum change reruns the job (and everything downstream)
        files=lambda wildcards: {remote.name: remote.sha1 for remote in stimulus_files(wildcards)},
        on_disk=lambda wildcards: on_disk_sha1(stimulus_files(wildcards)),
    wildcard_constraints:
        stimulus_set="|".join(map(re.escape, CATALOG.stimulus_sets)),
    resources:
        downloads=1,
        runtime=60,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/fetch_stimuli/{stimulus_set}.tsv"
    log:
        "logs/fetch_stimuli/{stimulus_set}.log",
    script:
        "../scripts/fetch_stimuli.py"


rule fetch_assembly:
    input:
        stimuli=lambda wildcards: f"resources/stimuli/{CATALOG.assembly(wildcards.dataset).stimulus_set}",
        # (all_files: the file and any parts read with it, e.g. one assembly per subject)
        local=lambda wildcards: sorted(on_disk(CATALOG.assembly(wildcards.dataset).all_files).values()),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=library_code("data/fetch", "data/catalog", "data/reindex", "behaviour/data"),
        files=lambda wildcards: {remote.name: remote.sha1 for remote in CATALOG.assembly(wildcards.dataset).all_files},
        on_disk=lambda wildcards: on_disk_sha1(CATALOG.assembly(wildcards.dataset).all_files),
        stimulus_set=lambda wildcards: CATALOG.assembly(wildcards.dataset).stimulus_set,
        # a declared data set's coordinate names in its file (brainpipe name -> file name)
        coords=lambda wildcards: dict(family_of_dataset(wildcards.dataset).coords),
        # a load-time fix for files without brainpipe's coordinates (brainpipe.data.reindex; Bracci2019)
        reindex=lambda wildcards: family_of_dataset(wildcards.dataset).reindex,
        behavioural=lambda wildcards: family_of_dataset(wildcards.dataset).is_behavioural,
    wildcard_constraints:
        dataset="|".join(map(re.escape, CATALOG.assemblies)),
    resources:
        downloads=1,
        runtime=60,
        # Sizes UNVERIFIED: MajajHong2015 public is 256 × 148480 float32 (~150 MB) plus metadata; FreemanZiemba2013
        # public 205 × 300 × 2700 spike counts (up to 1.3 GB as int64 in memory).
        mem_mb=8000,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/fetch_assembly/{dataset}.tsv"
    log:
        "logs/fetch_assembly/{dataset}.log",
    script:
        "../scripts/fetch_assembly.py"


rule fetch:
    """Partial target: download and unpack every data file the config grid needs, and nothing else."""
    input:
        sorted(GRID_DATA),

