"""Aggregate one layer's folds with the benchmark's ceiling."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.io import read_json, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.scoring import aggregate

with logged(snakemake.log[0], "score_layer"):
    w = snakemake.wildcards
    folds = [read_json(path) for path in snakemake.input.folds]
    ceiling = read_json(snakemake.input.ceiling)
    result = aggregate(benchmarks.load(w.benchmark, snakemake.config), folds, ceiling)
    result.update(model=w.model, benchmark=w.benchmark, layer=w.layer)
    write_json(result, snakemake.output[0])
    if result.get("pls_components_capped"):
        print(f"WARNING: {result['pls_components_capped']['why']}")
    print(f"{w.model} {w.benchmark} {w.layer}: score {result['score']:.4f} (raw {result['raw']:.4f})"
          + (f"; no score: {result['reason']}" if result.get("reason") else ""))
