"""The headline OST score of a model: the committed layer's, with provenance; NaN (null) with the reason for a
static model."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_json, write_json
from brainpipe.pipeline.headline import headline
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.provenance import versions

with logged(snakemake.log[0], "score_ost"):
    w, p = snakemake.wildcards, snakemake.params
    per_layer = {score["layer"]: score for score in map(read_json, snakemake.input.layers)}
    # a static model's layers have no score: its sweep's best_layer is null
    result = headline(per_layer, p.committed, p.model_spec, p.benchmark_info, p.data, versions())
    write_json(result, snakemake.output[0])
    shown = "NaN" if result["score"] is None else f"{result['score']:.4f}"
    print(f"{w.model} × {w.benchmark}: {shown} (layer {p.committed})"
          + (f": {result['reason']}" if result.get("reason") else ""))
