"""The headline score of a model on a benchmark: the committed layer's score, plus provenance."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_json, write_json
from brainpipe.pipeline.headline import best_layer
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.provenance import versions

with logged(snakemake.log[0], "score"):
    w, p = snakemake.wildcards, snakemake.params
    per_layer = {score["layer"]: score for score in map(read_json, snakemake.input.layers)}
    result = dict(per_layer[p.committed])
    result["layer"] = p.committed
    result["model_spec"] = p.model_spec
    result.update(p.benchmark_info)  # version, parent, bibtex_key, origin, definition
    result["data"] = p.data  # which recordings (public or private split) and the benchmark's settings
    if len(per_layer) > 1:
        result["sweep"] = {layer: r["score"] for layer, r in per_layer.items()}
        result["best_layer"] = best_layer(result["sweep"])  # null where no layer has a score
    result["versions"] = versions()
    write_json(result, snakemake.output[0])
    score = result["score"]  # null where the ceiling is NaN (Cadena2017-mask, as Brain-Score's)
    print(f"{w.model} × {w.benchmark}: {'NaN' if score is None else f'{score:.4f}'} (layer {p.committed})")
