"""One table of the grid's scores, printed and written as TSV."""

import sys

import pandas as pd

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "summary"):
    rows = [read_json(path) for path in snakemake.input]
    # parent: the leaderboard group (region, or 'behavior' / a behavioural parent), so behavioural rows read apart
    table = pd.DataFrame([{**{k: r[k] for k in ("model", "benchmark", "layer", "score", "raw", "ceiling", "error")},
                           "parent": r.get("parent")} for r in rows])
    with atomic_path(snakemake.output[0]) as temporary:
        table.to_csv(temporary, sep="\t", index=False, float_format="%.4f")
    text = table.to_string(index=False, float_format=lambda v: f"{v:.4f}")
    print(text)
    # also on the terminal (logged() sends stderr to the log): the table is what `make demo` ends with
    print(f"\nbrainpipe scores ({snakemake.output[0]}):\n{text}", file=sys.__stderr__)
