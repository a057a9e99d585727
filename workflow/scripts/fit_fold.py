"""Fit and score one cross-validation fold of one layer."""

import time

import torch

from brainpipe import benchmarks
from brainpipe.io import read_netcdf, write_json
from brainpipe.logs import logged
from brainpipe.metrics import run_fold
from brainpipe.models import resolve_device

with logged(snakemake.log[0], "fit_fold"):
    torch.set_num_threads(snakemake.threads)
    w, p = snakemake.wildcards, snakemake.params
    benchmark = benchmarks.parse(w.benchmark, p.settings)
    layer_file = f"{snakemake.input.activations}/{w.layer}.nc"
    source = read_netcdf(layer_file, required_coords=("stimulus_id", "neuroid_id"))
    target = read_netcdf(snakemake.input.target, required_coords=("stimulus_id", "neuroid_id"))
    started = time.perf_counter()
    result = run_fold(benchmark, source, target, int(w.fold), device=resolve_device(p.device))
    result.update(model=w.model, benchmark=w.benchmark, layer=w.layer, metric=p.metric,
                  seconds=round(time.perf_counter() - started, 3))
    write_json(result, snakemake.output[0])
    print(f"fold {w.fold}: {source.sizes['neuroid']} features -> {target.sizes['neuroid']} neuroids, "
          f"{result['n_train']} train / {result['n_test']} test, {result['seconds']} s")
