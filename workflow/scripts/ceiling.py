"""Split-half ceiling of a benchmark's recordings."""

import numpy as np

from brainpipe.ceiling import internal_consistency
from brainpipe.io import read_netcdf, write_json
from brainpipe.logs import logged

with logged(snakemake.log[0], "ceiling"):
    p = snakemake.params
    trials = read_netcdf(snakemake.input.repetitions, required_coords=("stimulus_id", "repetition", "neuroid_id"))
    if p.method == "internal_consistency":
        result = internal_consistency(trials, p.n_splits, p.random_state)
    else:
        from brainpipe.representational import representational_ceiling

        _, stimulus_index = np.unique(trials["stimulus_id"].values.astype(str), return_inverse=True)
        result = representational_ceiling(p.method, trials.transpose("presentation", "neuroid").values,
                                          trials["repetition"].values, stimulus_index,
                                          n_splits=p.n_splits, random_state=p.random_state)
        result["method"] = f"split-half {p.method} consistency"
    result["benchmark"] = snakemake.wildcards.benchmark
    write_json(result, snakemake.output[0])
    print(f"ceiling {snakemake.wildcards.benchmark}: {result['ceiling']}")
