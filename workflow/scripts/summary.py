"""One table of the grid's scores, printed and written as TSV."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import sys

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.report import summary_table

with logged(snakemake.log[0], "summary"):
    table = summary_table([read_json(path) for path in snakemake.input])
    with atomic_path(snakemake.output[0]) as temporary:
        table.to_csv(temporary, sep="\t", index=False, float_format="%.4f")
    text = table.to_string(index=False, float_format=lambda v: f"{v:.4f}")
    print(text)
    # also on the terminal (logged() sends stderr to the log): the table is what `make demo` ends with
    print(f"\nbrainpipe scores ({snakemake.output[0]}):\n{text}", file=sys.__stderr__)
