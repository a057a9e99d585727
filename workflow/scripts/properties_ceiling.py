"""The ceiling of a properties benchmark: NeuronalPropertyCeiling of the recorded property (seeded bootstrap)."""

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
