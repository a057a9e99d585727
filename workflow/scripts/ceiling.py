"""The ceiling of a benchmark's recordings or human data by the method the workflow names (params.method):
split-half consistency, a declared number, none, a plugin's own, ... (brainpipe.benchmarks.ceilings)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.benchmarks.ceilings import ceiling_of
from brainpipe.io import write_json
from brainpipe.pipeline.logs import logged

# the modules that read and compute on the data (xarray, pandas: ≈0.4 s of a job) are imported by the method that
# uses them: a declared ceiling (accuracy benchmarks: 1.0) reads no data

with logged(snakemake.log[0], "ceiling"):
    p, name = snakemake.params, snakemake.wildcards.benchmark
    benchmark = benchmarks.load(name, snakemake.config)
    result = ceiling_of(p.method, snakemake.input.repetitions, benchmark, p.n_splits, p.random_state)
    result["benchmark"] = name
    write_json(result, snakemake.output[0])
    print(f"ceiling {name}: {result['ceiling']}")
