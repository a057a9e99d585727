"""Fit and score one cross-validation fold of one layer (from its Gram matrix where the metric allows)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import time

from threadpoolctl import threadpool_limits

from brainpipe import benchmarks
from brainpipe.models.devices import resolve_device
from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged
from brainpipe.neural.components import check_components
from brainpipe.neural.metrics import run_fold, run_fold_gram, uses_gram
from brainpipe.io.netcdf_arrays import read_arrays

with logged(snakemake.log[0], "fit_fold"), threadpool_limits(snakemake.threads):
    w, p = snakemake.wildcards, snakemake.params
    benchmark = benchmarks.load(w.benchmark, snakemake.config)
    if benchmark.kind == "behaviour":  # the model's task output vs the human data: one comparison, no fitting here
        from brainpipe.behaviour import stages

        started = time.perf_counter()
        model = read_netcdf(snakemake.input.source, required_coords=("stimulus_id",))
        human = read_netcdf(snakemake.input.target, required_coords=("stimulus_id",))
        human.attrs["source"] = snakemake.input.target
        result = stages.comparison(benchmark, model, human)
        result.update(model=w.model, benchmark=w.benchmark, layer=w.layer, metric=p.metric,
                      seconds=round(time.perf_counter() - started, 3))
        write_json(result, snakemake.output[0])
        print(f"{benchmark.behaviour.metric}: raw {result['value']:.4f} on {result['n_test']} human presentations")
    else:
        # Fits from a Gram matrix (pls, ridge, ridgecv, linear), representational and custom metrics compute in
        # numpy on the CPU; only regressions over the activations themselves (torch) use the configured device.
        device = "cpu"
        if benchmark.kind not in ("representational", "custom") and not uses_gram(benchmark):
            import torch

            torch.set_num_threads(snakemake.threads)
            device = resolve_device(p.device)
        # A fit from the Gram needs only arrays: read without xarray (and pandas), a third of such a job's time
        read = read_arrays if uses_gram(benchmark) else read_netcdf
        target = read(snakemake.input.target, required_coords=("stimulus_id", "neuroid_id"))
        started = time.perf_counter()
        if benchmark.kind == "custom":  # a plugin's compare() on the layer's activations, in the target's order
            from brainpipe.benchmarks.custom import checked_result
            from brainpipe.neural.metrics import align

            source = read_netcdf(snakemake.input.source, required_coords=("stimulus_id",))
            where = benchmark.family.origin
            compared = checked_result(benchmark.family.plugin.compare(align(source, target), target),
                                      ("raw", "error", "score"), where, "compare")
            result = {"fold": 0, "value": compared["raw"], "plugin_error": compared.get("error"),
                      "n_train": 0, "n_test": target.sizes["presentation"]}
            if benchmark.normalisation == "own":  # the plugin ceils it itself (per subject, then averaged)
                if "score" not in compared:
                    raise ValueError(f"{where}: compare() must return 'score' (normalisation 'own')")
                result.update(plugin_score=compared["score"],
                              plugin_details={k: v for k, v in compared.items() if k not in ("raw", "error", "score")})
            features = source.sizes["neuroid"]
        elif uses_gram(benchmark):
            source = read_arrays(snakemake.input.source, required_coords=("stimulus_id",))
            check_components(benchmark, int(source.attrs.get("n_features", 0)) or None, w.layer)
            result = run_fold_gram(benchmark, source, target, int(w.fold), device=device)
            features = source.attrs.get("n_features", "?")
        else:
            source = read_netcdf(snakemake.input.source, required_coords=("stimulus_id", "neuroid_id"))
            check_components(benchmark, source.sizes["neuroid"], w.layer)
            result = run_fold(benchmark, source, target, int(w.fold), device=device)
            features = source.sizes["neuroid"]
        result.update(model=w.model, benchmark=w.benchmark, layer=w.layer, metric=p.metric,
                      seconds=round(time.perf_counter() - started, 3))
        write_json(result, snakemake.output[0])
        if result.get("pls_components_capped"):
            print(f"WARNING: {result['pls_components_capped']['why']}")
        print(f"fold {w.fold}: {features} features -> {target.sizes['neuroid']} neuroids, "
              f"{result['n_train']} train / {result['n_test']} test, {result['seconds']} s")
