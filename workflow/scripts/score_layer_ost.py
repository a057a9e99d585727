"""One layer's OST score: raw / ceiling, with the per-split values, and the reason where it is NaN."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.io import read_json, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.scoring import aggregate

with logged(snakemake.log[0], "score_layer_ost"):
    w = snakemake.wildcards
    ost = read_json(snakemake.input.folds)
    result = aggregate(benchmarks.load(w.benchmark, snakemake.config), [ost], read_json(snakemake.input.ceiling))
    result.update(model=w.model, benchmark=w.benchmark, layer=w.layer, per_split=ost["per_split"],
                  time_bin_start=ost["time_bin_start"], time_bin_end=ost["time_bin_end"])
    for key in ("solved_per_time_bin", "primate_solved_per_time_bin"):
        if key in ost:
            result[key] = ost[key]
    if ost.get("reason"):
        result["reason"] = ost["reason"]
    write_json(result, snakemake.output[0])
    print(f"{w.model} {w.benchmark} {w.layer}: score {result['score']} (raw {result['raw']})"
          + (f": {ost['reason']}" if ost.get("reason") else ""))
