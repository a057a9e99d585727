"""An empty cell of the grid: a model × benchmark the model cannot do (decided at plan time,
src/brainpipe/pipeline/grid_cells.py). Writes its score JSON, score null with the reason."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import write_json
from brainpipe.pipeline.grid_cells import empty_score
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.provenance import versions

with logged(snakemake.log[0], "empty_cell"):
    model, benchmark = snakemake.wildcards.cell.split("/", 1)
    write_json(empty_score(model, benchmark, snakemake.params.reason, snakemake.params.benchmark_info, versions(),
                           snakemake.params.ceiling), snakemake.output[0])
    print(f"{model} × {benchmark}: empty cell: {snakemake.params.reason}")
