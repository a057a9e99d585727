# Stage 2: the recordings as a NetCDF DataArray, then per-benchmark preparation (region, time window,
# repetition averaging for the metric target; trials kept for the ceiling).


rule demo_assembly:
    input:
        "resources/stimuli/SyntheticShapes",
    output:
        "resources/assemblies/SyntheticShapes.nc",
    params:
        simulation=lambda wildcards: {k: config["synthetic_shapes"][k]
                                      for k in ("neuroids", "repetitions", "noise", "seed")
                                      if k in config["synthetic_shapes"]},
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
        time_window=lambda wildcards: prepare_window(wildcards)[0],
        bin_size=lambda wildcards: prepare_window(wildcards)[1],
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=4),
    log:
        "logs/prepare_assembly/{dataset}/{region}-{timing}.log",
    script:
        "../scripts/prepare_assembly.py"


def prepare_window(wildcards):
    """Time window (and bin width for temporal benchmarks) of the family whose data set this is."""
    families = [f for f in bench.FAMILIES.values() if f.dataset == wildcards.dataset]
    if not families:
        raise WorkflowError(f"no benchmark family uses data set {wildcards.dataset!r}")
    family = families[0]
    return list(family.time_window), (family.temporal_bin if wildcards.timing == "temporal" else None)
