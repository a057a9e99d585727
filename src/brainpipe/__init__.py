"""brainpipe: Brain-Score-style evaluation of vision models against brain data.

A plain library (no Snakemake imports). The Snakemake workflow in ``workflow/`` calls it stage by stage;
a Python user can call the same functions in-process.
"""

__version__ = "0.1.0"
