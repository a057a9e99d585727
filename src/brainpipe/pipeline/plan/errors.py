"""The error a plan raises for a target the config and the benchmark definitions cannot plan."""

from brainpipe.pipeline.workflow_config import ConfigError


class PlanError(ConfigError):
    """A file or job the grid's definitions cannot plan (an unknown model or data set, a bad benchmark id, a file no
    benchmark produces), in one line naming the config key or the file. The rule files turn it into Snakemake's
    WorkflowError where they call the plan while they are read; from an input or params function Snakemake shows it as
    ``PlanError: <message>`` with the job's wildcards."""
