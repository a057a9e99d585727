"""The internal-consistency ceiling of each subject's test recordings (brainpipe.neural.train_test)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import read_netcdf, write_json
from brainpipe.neural.train_test import subject_ceilings
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "subject_ceilings"):
    p = snakemake.params
    trials = read_netcdf(snakemake.input.repetitions, required_coords=("stimulus_id", "repetition", "neuroid_id"))
    if not p.subject_coord:
        groups = ["all"] * trials.sizes["neuroid"]
    elif p.subject_coord not in trials.coords:
        raise ValueError(f"{snakemake.input.repetitions}: no neuroid coordinate {p.subject_coord!r}")
    else:
        groups = trials[p.subject_coord].values.astype(str)
    result = subject_ceilings(trials, groups, p.n_splits, p.random_state)
    write_json({"benchmark": snakemake.wildcards.benchmark, "subject_coord": p.subject_coord, "subjects": result},
               snakemake.output[0])
    print({s: round(v["ceiling"], 4) for s, v in result.items()})
