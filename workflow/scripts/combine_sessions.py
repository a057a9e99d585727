"""A benchmark averaged over sessions: its ceiling, or one layer's score, from the sessions' (the sessions' means)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_json, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.sessions import combine_ceilings, combine_layers

with logged(snakemake.log[0], "combine_sessions"):
    w, sessions = snakemake.wildcards, snakemake.params.sessions
    if "layer" in w.keys():
        layers = [read_json(path) for path in snakemake.input.layers]
        result = combine_layers(sessions, layers, read_json(snakemake.input.ceiling))
        result.update(model=w.model, benchmark=w.benchmark, layer=w.layer)
        print(f"{w.model} {w.benchmark} {w.layer}: score {result['score']:.4f} (raw {result['raw']:.4f}), "
              f"the mean over {len(sessions)} sessions")
    else:
        result = combine_ceilings(sessions, [read_json(path) for path in snakemake.input])
        print(f"{w.benchmark}: ceiling {result['ceiling']:.4f}, the mean over {len(sessions)} sessions")
    write_json(result, snakemake.output[0])
