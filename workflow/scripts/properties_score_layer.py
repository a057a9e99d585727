"""A layer's properties score: ks_similarity of the model's property with the recorded one, over the ceiling."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_json, read_netcdf, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.properties import stages

with logged(snakemake.log[0], "properties_score_layer"):
    w, p, i = snakemake.wildcards, snakemake.params, snakemake.input
    data_values, bins = stages.neural_property(read_netcdf(i.data), p.property, i.data)
    model_table = read_netcdf(i.model, required_coords=("responsive",))
    reason = stages.unresponsive_reason(model_table)
    if reason:  # a null score that says why (the headline carries it), not a failed job
        result = stages.unscored_property(reason, read_json(i.ceiling), p.property, len(data_values))
    else:
        model_values = stages.model_property_values(model_table, p.property, i.model)
        result = stages.property_score(model_values, data_values, bins, read_json(i.ceiling), p.seed, p.property)
    result.update(model=w.model, benchmark=w.benchmark, layer=w.layer)
    write_json(result, snakemake.output[0])
    print(f"{w.model} {w.benchmark} {w.layer}: " + (f"no score ({reason})" if reason else
          f"score {result['score']:.4f} (raw {result['raw']:.4f}, {result['n_units']} units)"))
