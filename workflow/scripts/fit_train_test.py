"""Fit one layer on the train data set's recordings, score it on the test data set's, per subject
(brainpipe.neural.train_test)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import time

from threadpoolctl import threadpool_limits

from brainpipe.io import read_json, read_netcdf, write_json
from brainpipe.neural.metrics import align
from brainpipe.neural.train_test import fit_train_test, subject_scores
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fit_train_test"), threadpool_limits(snakemake.threads):
    w, p, i = snakemake.wildcards, snakemake.params, snakemake.input
    coords = ("stimulus_id", "neuroid_id")
    train_target, test_target = (read_netcdf(path, required_coords=coords) for path in (i.train_target,
                                                                                         i.test_target))
    train_source = align(read_netcdf(i.train_source, required_coords=("stimulus_id",)), train_target,
                         "train activations", "train recordings")
    test_source = align(read_netcdf(i.test_source, required_coords=("stimulus_id",)), test_target,
                        "test activations", "test recordings")
    if list(train_target["neuroid_id"].values) != list(test_target["neuroid_id"].values):
        raise ValueError(f"{i.train_target} and {i.test_target} hold different neuroids (or in another order)")
    groups = train_target[p.subject_coord].values.astype(str) if p.subject_coord else None
    started = time.perf_counter()
    result = fit_train_test(p.metric, train_source.transpose("presentation", ...).values.reshape(
                                train_source.sizes["presentation"], -1),
                            train_target.transpose("presentation", "neuroid").values,
                            test_source.transpose("presentation", ...).values.reshape(
                                test_source.sizes["presentation"], -1),
                            test_target.transpose("presentation", "neuroid").values,
                            groups=groups, alphas=p.alphas or None, alpha=p.ridge_alpha)
    ceilings = read_json(i.subject_ceilings)["subjects"]
    per_subject = result["per_subject"]
    result.update(fold=0, n_train=int(train_target.sizes["presentation"]),
                  n_test=int(test_target.sizes["presentation"]),
                  test_stimulus_ids=test_target["stimulus_id"].values.astype(str).tolist(),
                  neuroid_id=test_target["neuroid_id"].values.astype(str).tolist(),
                  subjects=subject_scores(per_subject, ceilings), model=w.model, benchmark=w.benchmark,
                  layer=w.layer, metric=p.metric, seconds=round(time.perf_counter() - started, 3))
    write_json(result, snakemake.output[0])
    print(f"{w.benchmark} {w.layer}: {train_source.sizes['presentation']} train / "
          f"{test_source.sizes['presentation']} test stimuli, score {result['subjects']['score']:.4f}")
