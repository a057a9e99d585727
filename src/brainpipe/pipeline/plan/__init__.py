"""The plan of a grid's jobs: which files each stage reads and writes, and with which params, decided from the config
and the benchmark definitions. workflow/rules/*.smk hold the rules; the logic their input, params and resources
functions ran lives here, where pytest reaches it (tests/pipeline/test_workflow_plan.py and test_plan_<module>.py
build plans from config dicts). ``WorkflowPlan(config, registry)`` is built once per parse (common.smk's ``PLAN``)
and the rules use its methods as input and params functions; it never imports Snakemake, so what needs Snakemake's
objects (``workflow``: whether this is the main process, its cores) is passed in.

* ``workflow_plan.py``: ``WorkflowPlan``, its lookups (a benchmark with its settings, cached; a model's entry; the
  family of a data set) and its parts, one module each:
* ``sources.py`` (catalog, files read in place, what ``fetch`` downloads), ``recordings.py`` (prepared data sets),
  ``activations.py`` (stimulus folders, layer files, layers extracted together), ``temporal.py``, ``behaviour.py``,
  ``scores.py`` (folds, ceilings, headline scores), ``grid.py`` (the grid's targets and empty cells),
  ``patterns.py`` (wildcard constraints), ``properties.py``, ``threshold.py``;
* ``resources.py``: memory estimates; ``errors.py``: ``PlanError``, what a target the plan cannot make raises;
  ``signatures.py``: the rules' functions' signatures, read once per parse for Snakemake (the Snakefile's last lines).
"""

from .errors import PlanError
from .workflow_plan import WorkflowPlan

__all__ = ["PlanError", "WorkflowPlan"]
