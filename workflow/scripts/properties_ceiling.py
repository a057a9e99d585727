"""The ceiling of a properties benchmark: NeuronalPropertyCeiling of the recorded property (seeded bootstrap)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.properties import stages

with logged(snakemake.log[0], "properties_ceiling"):
    p = snakemake.params
    data = read_netcdf(snakemake.input.data)
    values, bins = stages.neural_property(data, p.property, snakemake.input.data)
    result = stages.property_ceiling(values, bins, p.seed, p.property)
    result["benchmark"] = snakemake.wildcards.benchmark
    write_json(result, snakemake.output[0])
    print(f"ceiling {snakemake.wildcards.benchmark}: {result['ceiling']}")
