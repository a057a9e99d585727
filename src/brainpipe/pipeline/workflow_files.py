"""Where the workflow is: the folder holding the Snakefile, workflow/ (rules, scripts, schemas, report texts, envs),
config/ and profiles/ that ``brainpipe.score``, ``brainpipe score`` and ``brainpipe check`` run.

Two layouts hold it:

- a checkout (a clone, or its editable install of ``make setup``): this file is <checkout>/src/brainpipe/, the
  workflow is <checkout>/ and its Snakefile puts <checkout>/src first on the path of every process;
- an installed wheel (``pip install brainpipe``): setup.py copies the workflow into the package, as
  <site-packages>/brainpipe/_workflow/, and its Snakefile runs the package around it.

Either way the workflow runs in the user's working directory: results/, resources/ (data, caches), logs/ and
.snakemake/ land there, and config/config.yaml there, when it exists, is the config (else the one shipped here).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # the brainpipe package (this module is in its pipeline/)
#: the folder a wheel's copy of the workflow is installed to (setup.py's build_py writes it)
SHIPPED = PACKAGE / "_workflow"
CONFIG = Path("config") / "config.yaml"


class WorkflowNotFound(FileNotFoundError):
    """Neither a checkout around this library nor a workflow shipped inside it."""


def checkout() -> Path | None:
    """The checkout this library runs from (its src/brainpipe is this package), or None for an installed one."""
    root = PACKAGE.parents[1]
    return root if PACKAGE == root / "src" / "brainpipe" and (root / "Snakefile").is_file() else None


def folder() -> Path:
    """The workflow's folder: the checkout's root, else the copy inside the installed package."""
    root = checkout()
    if root is not None:
        return root
    if (SHIPPED / "Snakefile").is_file():
        return SHIPPED
    raise WorkflowNotFound(
        f"brainpipe {PACKAGE} has no workflow: neither a checkout around it ({PACKAGE.parents[1]}/Snakefile) nor "
        f"the copy a wheel ships ({SHIPPED}/Snakefile). It was installed from a build that left the workflow out; "
        "reinstall it from a wheel built by `pip wheel` of the repository (or `pip install -e .` in a clone)")


def snakefile() -> Path:
    return folder() / "Snakefile"


def default_config() -> Path:
    """config/config.yaml of the working directory when it exists (the user's grid), else the workflow's own."""
    return CONFIG if CONFIG.is_file() else folder() / CONFIG


def check_installed_library(workflow_folder) -> None:
    """For the workflow shipped in a wheel: the brainpipe this process imported must be the package that holds
    ``workflow_folder`` (jobs run the same Python, so they import it too). Raises WorkflowNotFound naming both
    copies when another brainpipe (e.g. a clone on PYTHONPATH) came first."""
    package = Path(workflow_folder).resolve().parent
    if package != PACKAGE:
        raise WorkflowNotFound(
            f"the workflow in {workflow_folder} belongs to the brainpipe installed in {package}, but this Python "
            f"process imports brainpipe from {PACKAGE}. Run the snakemake of the environment brainpipe is installed "
            "in, without another brainpipe on PYTHONPATH")
