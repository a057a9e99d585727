# Stage 2: the recordings as a NetCDF DataArray, then per-benchmark preparation (region, time window,
# repetition averaging for the metric target; trials kept for the ceiling).



rule demo_assembly:
    input:
        "resources/stimuli/SyntheticShapes",
    output:
        "resources/assemblies/SyntheticShapes.nc",
    params:
        code=stage_code("demo_assembly"),
        # fixed key orders (per region: V4, IT), as Snakemake compares params as text
        simulation=lambda wildcards: {k: PLAN.recordings.by_region(config["synthetic_shapes"][k])
                                      for k in ("neuroids", "repetitions", "noise", "seed")
                                      if k in config["synthetic_shapes"]},
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/demo_assembly.log",
    script:
        "../scripts/demo_assembly.py"


rule prepare_assembly:
    input:
        "resources/assemblies/{dataset}.nc",
    output:
        target="results/assemblies/{dataset}/{region}-{timing}/target.nc",
        repetitions="results/assemblies/{dataset}/{region}-{timing}/repetitions.nc",
    params:
        code=stage_code("prepare_assembly"),
        time_window=lambda wildcards: PLAN.recordings.window(wildcards)[0],
        bin_size=lambda wildcards: PLAN.recordings.window(wildcards)[1],
        # files with overlapping bins (Sanghavi2020) are read at the one bin equal to the window
        exact_time_bin=lambda wildcards: wildcards.timing == "static"
        and PLAN.dataset_family(wildcards.dataset).exact_time_bin,
        # neuroids kept by a per-neuroid coordinate (Li2026: reliability_window > 0.4); one response per stimulus
        neuroid_filter=lambda wildcards: [list(f) for f in PLAN.dataset_family(wildcards.dataset).neuroid_filter],
        single_response=lambda wildcards: PLAN.dataset_family(wildcards.dataset).single_response,
        # stimuli shown to only some neuroids dropped (Cadena2017)
        drop_nan_presentations=lambda wildcards: PLAN.dataset_family(wildcards.dataset).drop_nan_presentations,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/prepare_assembly/{dataset}/{region}-{timing}.tsv"
    log:
        "logs/prepare_assembly/{dataset}/{region}-{timing}.log",
    script:
        "../scripts/prepare_assembly.py"


rule prepare_aligned_assembly:
    """A temporal benchmark whose file's bins Brain-Score resamples (Family.temporal.alignment 'portion':
    MajajHong2015.temporal's 20-ms windows sliding by 10 ms) onto Temporal.bin-ms bins from the window's start to
    the file's end (brainpipe.data.time_align), then prepared as prepare_assembly prepares the others."""
    input:
        "resources/assemblies/{dataset}.nc",
    output:
        target="results/assemblies/{dataset}/{region}-aligned/target.nc",
        repetitions="results/assemblies/{dataset}/{region}-aligned/repetitions.nc",
    params:
        code=stage_code("prepare_aligned_assembly"),
        start=lambda wildcards: PLAN.dataset_family(wildcards.dataset).temporal.window[0],
        bin_size=lambda wildcards: PLAN.dataset_family(wildcards.dataset).temporal.bin,
        alignment=lambda wildcards: PLAN.dataset_family(wildcards.dataset).temporal.alignment,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/prepare_aligned_assembly/{dataset}/{region}.tsv"
    log:
        "logs/prepare_aligned_assembly/{dataset}/{region}.log",
    script:
        "../scripts/prepare_aligned_assembly.py"


rule stimulus_columns:
    """The target (and ceiling trials) of a neural benchmark without recordings (Islam2021): its stimulus set's
    columns, one presentation per image in the CSV's order."""
    input:
        lambda wildcards: f"resources/stimuli/{PLAN.dataset_family(wildcards.dataset).stimulus_set}",
    output:
        "results/assemblies/{dataset}/stimuli.nc",
    params:
        code=stage_code("stimulus_columns"),
    wildcard_constraints:
        dataset=alternatives(PLAN.recordings.stimulus_column_datasets()),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/stimulus_columns/{dataset}.tsv"
    log:
        "logs/stimulus_columns/{dataset}.log",
    script:
        "../scripts/stimulus_columns.py"


rule prepare_selected_assembly:
    """Families whose recordings are prepared with a selection (Family.selection; Igustibagus2024):
    the time bin, the neuroids whose split-half consistency exceeds the threshold, then the scored stimuli."""
    input:
        "resources/assemblies/{dataset}.nc",
    output:
        target="results/assemblies/{dataset}/{region}-selected/target.nc",
        repetitions="results/assemblies/{dataset}/{region}-selected/repetitions.nc",
    params:
        code=stage_code("prepare_selected_assembly"),
        time_window=lambda wildcards: list(PLAN.dataset_family(wildcards.dataset).time_window),
        exact_time_bin=lambda wildcards: PLAN.dataset_family(wildcards.dataset).exact_time_bin,
        threshold=lambda wildcards: PLAN.dataset_family(wildcards.dataset).selection.consistency_threshold,
        include=lambda wildcards: [[c, list(v)]
                                   for c, v in PLAN.dataset_family(wildcards.dataset).selection.presentation_filter],
        n_splits=10,
        random_state=1,
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/prepare_selected_assembly/{dataset}/{region}.tsv"
    log:
        "logs/prepare_selected_assembly/{dataset}/{region}.log",
    script:
        "../scripts/prepare_selected_assembly.py"
