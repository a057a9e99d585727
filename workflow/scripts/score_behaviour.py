"""A behavioural benchmark's headline score in one job: the one comparison of the model's task output with the human
data, ceiled, with provenance (what fit_fold, score_layer and score write for it, in one job instead of three)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import time

from brainpipe import benchmarks
from brainpipe.behaviour import stages
from brainpipe.behaviour.ceiled import DECLARED, ceiling_json, declared_ceiling
from brainpipe.behaviour.stimulus_targets import stored_stimulus_target
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import as_json, read_json, read_netcdf, write_json
from brainpipe.pipeline.headline import headline
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.provenance import versions
from brainpipe.pipeline.scoring import aggregate

with logged(snakemake.log[0], "score_behaviour"):
    w, p, resources = snakemake.wildcards, snakemake.params, snakemake.resources
    benchmark = benchmarks.load(w.benchmark, snakemake.config)
    started = time.perf_counter()
    model = read_netcdf(snakemake.input.source, required_coords=("stimulus_id",))
    if p.truth_column is None:  # prepared human data
        human = read_netcdf(snakemake.input.target, required_coords=("stimulus_id",))
    else:  # no human data: the stimulus set's table, exactly as the stimulus_target stage would store it
        human = stored_stimulus_target(f"{snakemake.input.target}/{CSV_NAME}", p.truth_column, resources.tmpdir)
    human.attrs["source"] = snakemake.input.target
    # each part exactly as its own stage writes it and the next reads it back (JSON: NaN as null)
    fold = as_json(dict(stages.comparison(benchmark, model, human), model=w.model, benchmark=w.benchmark,
                        layer=p.committed, metric=p.metric, seconds=round(time.perf_counter() - started, 3)))
    declared = declared_ceiling(benchmark.behaviour)
    ceiling = read_json(snakemake.input.ceiling[0]) if declared is None else as_json(ceiling_json(declared, DECLARED))
    layer = as_json(dict(aggregate(benchmark, [fold], ceiling), model=w.model, benchmark=w.benchmark,
                         layer=p.committed))
    result = headline({p.committed: layer}, p.committed, p.model_spec, p.benchmark_info, p.data, versions())
    write_json(result, snakemake.output[0])
    print(f"{benchmark.behaviour.metric}: " + (f"no comparison: {fold['reason']}" if fold.get("reason") else
          f"raw {fold['value']:.4f} on {fold['n_test']} human presentations"))
    score = result["score"]
    print(f"{w.model} × {w.benchmark}: {'NaN' if score is None else f'{score:.4f}'} (layer {p.committed})"
          + (f": {result['reason']}" if score is None else ""))
