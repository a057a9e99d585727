"""Human behavioural data ready for scoring: excluded conditions dropped, condition as text, no missing values."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.behaviour.data import prepare_behaviour
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "prepare_behaviour"):
    raw = read_netcdf(snakemake.input[0], required_coords=("stimulus_id",))
    for ours, theirs in snakemake.params.coords.items():  # a declared file's own names (behaviour.coords)
        if theirs not in raw.coords:
            raise ValueError(f"{snakemake.input[0]}: no coordinate {theirs!r}, which the declaration's behaviour.coords "
                             f"maps to {ours!r}; the file has {sorted(map(str, raw.coords))}")
        raw = raw.rename({theirs: ours})
    human = prepare_behaviour(raw, snakemake.params.exclude_conditions, name=snakemake.input[0])
    human.attrs.pop("source", None)  # where it came from is the input file; the output names itself
    write_netcdf(human, snakemake.output[0])
    print(f"{snakemake.input[0]}: {raw.sizes['presentation']} -> {human.sizes['presentation']} presentations")
