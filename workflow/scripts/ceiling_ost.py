"""The fixed ceiling of an OST benchmark (Brain-Score: Score(.79), "computed offline by Kohitij Kar"; no error)."""

from brainpipe.io import write_json
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "ceiling_ost"):
    write_json({"ceiling": float(snakemake.params.fixed), "error": 0.0, "method": "fixed (Brain-Score's)"},
               snakemake.output[0])
