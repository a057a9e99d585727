"""The headline score of a model on a benchmark: the committed layer's score, plus provenance."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_json, write_json
from brainpipe.pipeline.headline import headline
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.provenance import versions

with logged(snakemake.log[0], snakemake.rule):
    w, p = snakemake.wildcards, snakemake.params
    per_layer = {score["layer"]: score for score in map(read_json, snakemake.input.layers)}
    result = headline(per_layer, p.committed, p.model_spec, p.benchmark_info, p.data, versions())
    write_json(result, snakemake.output[0])
    score = result["score"]  # null where the ceiling is NaN (Cadena2017-mask, as Brain-Score's), with its reason
    print(f"{w.model} × {w.benchmark}: {'NaN' if score is None else f'{score:.4f}'} (layer {p.committed})"
          + (f": {result['reason']}" if score is None else ""))
