"""A layer's score on a threshold benchmark: the model's thresholds against the humans', over the ceiling
(brainpipe.behaviour.threshold_stages.layer_score)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour.threshold_stages import human_thresholds, layer_score
from brainpipe.io import read_json, read_netcdf, write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "threshold_score_layer"):
    w, p, i = snakemake.wildcards, snakemake.params, snakemake.input
    thresholds = {tuple(pair): read_json(path) for pair, path in zip(p.readouts, i.readouts)}
    humans = {name: human_thresholds(read_netcdf(path), path) for name, path in zip(p.datasets, i.humans)}
    result = layer_score(p.metric, thresholds, humans, read_json(i.ceiling), p.settings)
    result.update(model=w.model, benchmark=w.benchmark, layer=w.layer)
    write_json(result, snakemake.output[0])
    print(f"{w.model} {w.benchmark} {w.layer}: score {result['score']:.4f} (raw {result['raw']:.4f})")
