"""One model's per-layer scores on one benchmark, shallow to deep, with the committed and the best layer flagged."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.report import sweep_table, write_sweep_table

with logged(snakemake.log[0], "sweep_table"):
    w, p = snakemake.wildcards, snakemake.params
    table = sweep_table([read_json(path) for path in snakemake.input.layers], p.committed, p.order)
    with atomic_path(snakemake.output[0]) as temporary:
        write_sweep_table(table, temporary)
    best = table.loc[table["best"], "layer"].tolist()
    print(f"{w.model} × {w.benchmark}: {len(table)} layers, committed {p.committed}, best {best}")
    print(table.to_string(index=False))
