"""The ceiling of a threshold benchmark from the human thresholds (brainpipe.behaviour.threshold_stages.ceiling)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour.threshold_stages import ceiling, human_thresholds
from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "threshold_ceiling"):
    p = snakemake.params
    humans = {name: human_thresholds(read_netcdf(path), path) for name, path in snakemake.input.items()}
    result = ceiling(p.metric, humans, p.settings)
    result["benchmark"] = snakemake.wildcards.benchmark
    write_json(result, snakemake.output[0])
    print(f"ceiling {snakemake.wildcards.benchmark}: {result['ceiling']}")
