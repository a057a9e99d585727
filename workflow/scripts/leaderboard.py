"""The grid's headline scores as a leaderboard: CSV (one row per model, one column per benchmark, ceilings in the
last row) and a self-contained HTML page."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from pathlib import Path

from brainpipe.io import atomic_path, read_json
from brainpipe.pipeline.logs import logged
from brainpipe.pipeline.leaderboard_page import leaderboard_html
from brainpipe.pipeline.report import leaderboard, write_leaderboard_csv

with logged(snakemake.log[0], "leaderboard"):
    p = snakemake.params
    headlines = [read_json(path) for path in snakemake.input.scores]
    ceilings = {}
    for path in snakemake.input.ceilings:
        ceiling = read_json(path)
        ceilings[ceiling.get("benchmark", Path(path).stem)] = ceiling
    table = leaderboard(headlines, ceilings, models=p.models, benchmarks=p.benchmarks, simulated=p.simulated,
                        facts=p.facts)
    with atomic_path(snakemake.output.csv) as temporary:
        write_leaderboard_csv(table, temporary)
    with atomic_path(snakemake.output.html) as temporary:
        temporary.write_text(leaderboard_html(table, headlines, ceilings, simulated=p.simulated, facts=p.facts))
    print(table.to_string(float_format=lambda v: f"{v:.4f}"))
