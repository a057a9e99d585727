"""The fixed ceiling of an OST benchmark (Brain-Score: Score(.79), "computed offline by Kohitij Kar"; no error)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.benchmarks.ceilings import declared
from brainpipe.io import write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "ceiling_ost"):
    # 'none' for simulated data (score = raw), else Brain-Score's number
    write_json(declared(snakemake.params.fixed, origin="Brain-Score's"), snakemake.output[0])
