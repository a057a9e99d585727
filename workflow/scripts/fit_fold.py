"""Fit and score one cross-validation fold of one layer (from its Gram matrix where the metric allows), or a
behavioural benchmark's one comparison: the benchmark's kind picks how (brainpipe.benchmarks.folds)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from threadpoolctl import threadpool_limits

from brainpipe import benchmarks
from brainpipe.benchmarks.folds import FoldJob, fit_fold
from brainpipe.io import write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fit_fold"), threadpool_limits(snakemake.threads):
    w, p = snakemake.wildcards, snakemake.params
    job = FoldJob(source=snakemake.input.source, target=snakemake.input.target, fold=int(w.fold), layer=w.layer,
                  device=p.device, threads=snakemake.threads,
                  record=dict(model=w.model, benchmark=w.benchmark, layer=w.layer, metric=p.metric))
    result, lines = fit_fold(benchmarks.load(w.benchmark, snakemake.config), job)
    write_json(result, snakemake.output[0])
    for line in lines:
        print(line)
