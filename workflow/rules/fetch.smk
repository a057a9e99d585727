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

# The catalog and the stimulus folders and raw assemblies of every downloaded data set the config grid's benchmarks
# use (the input of the partial target `fetch`; PLAN.sources.grid_data). The benchmark families name their data by
# catalog key; a family whose data set or stimulus set the catalog does not know stops the workflow here, before any
# download.
try:
    CATALOG = PLAN.sources.catalog
    GRID_DATA = PLAN.sources.grid_data()
except PlanError as error:
    raise WorkflowError(str(error)) from None


rule fetch_stimuli:
    input:
        lambda wildcards: sorted(PLAN.sources.on_disk(PLAN.sources.stimulus_files(wildcards)).values()),
    output:
        directory("resources/stimuli/{stimulus_set}"),
    params:
        code=stage_code("fetch_stimuli"),
        # object name -> sha1: a catalog or checksum change reruns the job (and everything downstream)
        files=lambda wildcards: {remote.name: remote.sha1 for remote in PLAN.sources.stimulus_files(wildcards)},
        on_disk=lambda wildcards: PLAN.sources.on_disk_sha1(PLAN.sources.stimulus_files(wildcards)),
    wildcard_constraints:
        stimulus_set=alternatives(CATALOG.stimulus_sets),
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
        local=lambda wildcards: sorted(PLAN.sources.on_disk(CATALOG.assembly(wildcards.dataset).all_files).values()),
    output:
        "resources/assemblies/{dataset}.nc",
    params:
        code=stage_code("fetch_assembly"),
        files=lambda wildcards: {remote.name: remote.sha1 for remote in CATALOG.assembly(wildcards.dataset).all_files},
        on_disk=lambda wildcards: PLAN.sources.on_disk_sha1(CATALOG.assembly(wildcards.dataset).all_files),
        stimulus_set=lambda wildcards: CATALOG.assembly(wildcards.dataset).stimulus_set,
        # a declared data set's coordinate names in its file (brainpipe name -> file name)
        coords=lambda wildcards: dict(PLAN.dataset_family(wildcards.dataset).coords),
        # a load-time fix for files without brainpipe's coordinates (brainpipe.data.reindex; Bracci2019)
        reindex=lambda wildcards: PLAN.dataset_family(wildcards.dataset).reindex,
        behavioural=lambda wildcards: PLAN.dataset_family(wildcards.dataset).is_behavioural,
    wildcard_constraints:
        dataset=PLAN.patterns.fetched_dataset,  # object solution times: fetch_ost_assembly (temporal.smk)
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

