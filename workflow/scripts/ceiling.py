"""The ceiling of a benchmark's recordings: split-half consistency, a declared number, none, or a plugin's own."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged

# the modules that read and compute on the data (xarray, pandas: ≈0.4 s of a job) are imported where used: a
# declared ceiling (accuracy benchmarks: 1.0) reads no data

with logged(snakemake.log[0], "ceiling"):
    p = snakemake.params
    if p.method == "behaviour":  # the metric's own ceiling on the prepared human data, or a declared number
        from brainpipe.behaviour.ceiled import DECLARED, ceiling_json, declared_ceiling

        benchmark = benchmarks.load(snakemake.wildcards.benchmark, snakemake.config)
        declared = declared_ceiling(benchmark.behaviour)
        if declared is None:  # the human data's choices are checked here and by fit_fold (stages.raw_score)
            from brainpipe.behaviour import stages

            human = read_netcdf(snakemake.input.repetitions, required_coords=("stimulus_id",))
            human.attrs["source"] = snakemake.input.repetitions
        result = ceiling_json(declared, DECLARED) if declared is not None else ceiling_json(
            stages.ceiling(benchmark, human), f"{benchmark.behaviour.metric} ceiling of the human data")
    else:
        trials = read_netcdf(snakemake.input.repetitions,
                             required_coords=("stimulus_id", "repetition", "neuroid_id"))
        # joined train/test files (brainpipe.data.train_test) carry a 'split' coordinate; so may a declared data set
        # scored with *_split metrics, whose ceiling reads every trial: the family says which
        family = benchmarks.load(snakemake.wildcards.benchmark, snakemake.config).family if "split" in trials.coords else None
        if family is not None and family.splits:
            from brainpipe.data.assembly import average_repetitions
            from brainpipe.data.train_test import held_out_trials

            # Brain-Score's TrainTestNeuralBenchmark ceils on the test repetitions; its RSABenchmark on all images
            # with their repetitions averaged
            trials = held_out_trials(trials) if p.method == "internal_consistency" else average_repetitions(trials)
    if p.method == "behaviour":
        pass
    elif p.method == "internal_consistency":
        from brainpipe.neural.ceiling import internal_consistency

        result = internal_consistency(trials, p.n_splits, p.random_state, groups=family.score_per if family else None)
    elif p.method == "fixed":  # declared in the benchmark's definition (e.g. a published noise ceiling)
        result = {"ceiling": float(p.fixed), "error": 0.0, "method": "fixed (declared)"}
    elif p.method == "coordinate_median":  # the median of a per-neuroid reliability of the scored neuroids (Li2026)
        from brainpipe.neural.ceiling import coordinate_median

        coordinate = str(p.fixed).split(":", 1)[1]
        if coordinate not in trials.coords:
            raise ValueError(f"{snakemake.input.repetitions}: no neuroid coordinate {coordinate!r} for the ceiling")
        result = dict(coordinate_median(trials[coordinate].values), method=f"median of {coordinate}")
    elif p.method == "rdm_subjects":  # each subject's RDM against the mean RDM of all (Brain-Score's RSACeiling)
        from brainpipe.neural.representational import subject_rdm_ceiling

        subject = p.subject_coord
        if subject not in trials.coords:
            raise ValueError(f"{snakemake.input.repetitions}: no neuroid coordinate {subject!r} (one RDM per subject)")
        result = dict(subject_rdm_ceiling(trials.transpose("presentation", "neuroid").values, trials[subject].values),
                      error=0.0, method=f"inter-subject RDM consistency over {subject} (upper bound)")
    elif p.method == "predictor_consistency":  # reverse predictivity (Brain-Score's SplitHalfPredictorConsistency)
        from brainpipe.neural.ceiling import split_half_predictor_consistency

        result = split_half_predictor_consistency(trials.transpose("presentation", "neuroid").values,
                                                  trials["stimulus_id"].values, trials["repetition"].values)
    elif p.method == "none":  # no ceiling: the score is the raw value
        result = {"ceiling": 1.0, "error": 0.0, "method": "none"}
    elif p.method == "custom":
        from brainpipe.benchmarks.custom import checked_result

        benchmark = benchmarks.load(snakemake.wildcards.benchmark, snakemake.config)
        where = benchmark.family.origin
        result = checked_result(benchmark.family.plugin.ceiling(trials), ("ceiling", "error"), where, "ceiling")
        result.setdefault("error", 0.0)
        result["method"] = f"custom ({where})"
    else:
        import numpy as np

        from brainpipe.neural.representational import representational_ceiling

        _, stimulus_index = np.unique(trials["stimulus_id"].values.astype(str), return_inverse=True)
        result = representational_ceiling(p.method, trials.transpose("presentation", "neuroid").values,
                                          trials["repetition"].values, stimulus_index,
                                          n_splits=p.n_splits, random_state=p.random_state)
        result["method"] = f"split-half {p.method} consistency"
    result["benchmark"] = snakemake.wildcards.benchmark
    write_json(result, snakemake.output[0])
    print(f"ceiling {snakemake.wildcards.benchmark}: {result['ceiling']}")
