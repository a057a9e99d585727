"""The fixed ceiling of an OST benchmark (Brain-Score: Score(.79), "computed offline by Kohitij Kar"; no error)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "ceiling_ost"):
    fixed = snakemake.params.fixed
    result = ({"ceiling": 1.0, "error": 0.0, "method": "none"} if fixed == "none" else  # simulated data: score = raw
              {"ceiling": float(fixed), "error": 0.0, "method": "fixed (Brain-Score's)"})
    write_json(result, snakemake.output[0])
