"""The OST metric of one model layer against the primates' object solution times (neural/ost.py)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import time

import numpy as np
from threadpoolctl import threadpool_limits

from brainpipe.io import read_netcdf, write_json
from brainpipe.neural.metrics import positions
from brainpipe.neural.ost import ost_correlation
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "ost"), threadpool_limits(snakemake.threads):
    p, w = snakemake.params, snakemake.wildcards
    target = read_netcdf(snakemake.input.target, required_coords=("stimulus_id", "image_label", "truth", "i1"))
    source = read_netcdf(snakemake.input.source, required_coords=("stimulus_id",))
    bins = [tuple(b) for b in p.time_bins]
    rows = positions(source, target, f"activations {snakemake.input.source}", f"OST target {snakemake.input.target}")
    if "time_bin" in source.dims:
        features = source.transpose("presentation", "neuroid", "time_bin").values[rows]
        if features.shape[2] != len(bins):
            raise ValueError(f"{snakemake.input.source}: {features.shape[2]} time bins, the benchmark records "
                             f"{len(bins)}")
    else:  # a static model: its one response holds for every bin (Brain-Score's look_at gives it in each)
        features = np.repeat(source.values[rows][:, :, None], len(bins), axis=2)
    settings = p.settings
    started = time.perf_counter()
    result = ost_correlation(features, [b[0] for b in bins], target["image_label"].values.astype(str),
                             target["i1"].values, target.values, truths=target["truth"].values.astype(str),
                             random_state=int(settings.get("random_state", 1)))
    out = {"fold": 0, "value": result.score, "plugin_error": result.error, "per_split": result.per_split,
           "n_train": 0, "n_test": int(target.sizes["presentation"]), "bins_used": result.bins_used,
           "time_bin_start": [b[0] for b in bins], "time_bin_end": [b[1] for b in bins],
           "model": w.model, "benchmark": w.benchmark, "layer": w.layer, "metric": "ost",
           "seconds": round(time.perf_counter() - started, 3)}
    if result.reason:
        out["reason"] = result.reason
    else:  # per image: its predicted OST in the split that tested it (each image is tested in at most a few)
        ids = target["stimulus_id"].values.astype(str)
        out["predicted_ost"] = [{"split": k, "stimulus_id": ids[test].tolist(), "ost": osts.tolist()}
                                for k, (test, osts) in enumerate(zip(result.test_indices, result.predicted_osts))]
        # per bin: the share of the test images (over all splits) solved by the bin's end, model vs primates
        predicted = np.concatenate(result.predicted_osts)
        primate = np.concatenate([target.values[test] for test in result.test_indices])
        ends = np.array([b[1] for b in bins], dtype=float)
        with np.errstate(invalid="ignore"):
            out["solved_per_time_bin"] = [float(np.mean(predicted <= end)) for end in ends]
            out["primate_solved_per_time_bin"] = [float(np.mean(primate <= end)) for end in ends]
    write_json(out, snakemake.output[0])
    print(f"OST {w.model} {w.layer}: raw {result.score} ± {result.error} over {len(result.per_split)} splits, "
          f"{features.shape[1]} features × {features.shape[2]} bins, {out['seconds']} s"
          + (f"; {result.reason}" if result.reason else ""))
