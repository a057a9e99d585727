# brainpipe: score vision models against brain data, one file per stage.
#   snakemake --cores 2                                  the grid in config/config.yaml
#   snakemake --cores 2 results/<model>/<benchmark>.json  one score
#   snakemake --cores 2 activations_all | ceilings | scores | fetch   partial targets
#   snakemake --cores 2 plots                            leaderboard, sweep tables, figures
#   snakemake --report report.html                       leaderboard, sweeps, per-fold/per-condition plots (after a run)
import os
import sys
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")

# This checkout's folder: the one of this file, also when another workflow uses it as a module (`module x:
# snakefile: "path/to/brainpipe/Snakefile"`), where workflow.basedir is the outer workflow's folder.
SOURCE = workflow.current_basedir
if "://" in SOURCE.get_path_or_uri(secret_free=True):  # github(...) or a URL: no src/ on this machine to import
    raise WorkflowError(
        f"brainpipe used as a module from {SOURCE.get_path_or_uri(secret_free=True)}: its library (src/brainpipe, "
        "imported by every job) is not fetched with the Snakefile. Clone brainpipe (at a tag) and point the module "
        "at the clone's Snakefile: `module brainpipe: snakefile: \"path/to/brainpipe/Snakefile\"`, as README "
        "'Using brainpipe inside your own workflow' shows.")
REPOSITORY = Path(SOURCE.get_path_or_uri(secret_free=False))
# A checkout (src/ beside this file), or the copy of this workflow inside an installed brainpipe
# (<site-packages>/brainpipe/_workflow, written by setup.py), which runs the package around it.
CHECKOUT = (REPOSITORY / "src" / "brainpipe").is_dir()

# This checkout's library, in this process and in every job. Jobs run scripts in new Python processes whose
# Snakemake preamble *appends* to sys.path, so an installed brainpipe (e.g. an editable install of another
# clone) would win there while the rerun fingerprints come from this checkout: PYTHONPATH goes first.
LIBRARY = REPOSITORY / "src"
if CHECKOUT:
    sys.path.insert(0, str(LIBRARY))
from brainpipe.pipeline.workflow_config import ConfigError, check_yaml_file, use_library_in_jobs
from brainpipe.pipeline.workflow_files import WorkflowNotFound, check_installed_library

try:
    if CHECKOUT:
        use_library_in_jobs(LIBRARY)
    else:  # jobs run this Python, whose site-packages hold the package: it must be the one around this folder
        check_installed_library(REPOSITORY)
    if os.path.exists("config/config.yaml"):  # Snakemake's own YAML message names neither the file nor the line
        check_yaml_file("config/config.yaml")
except (ConfigError, WorkflowNotFound) as error:
    raise WorkflowError(str(error)) from None

# Local runs: one warm process computes the jobs, so that each short job does not import xarray, scikit-learn and
# torch again (src/brainpipe/pipeline/fork_server.py). Started here, beside the parsing and planning, where the
# command line plainly runs jobs on this machine; else (or, where the executor turns out to be another, stopped) at
# onstart, in common.smk.
if workflow.is_main_process:
    from brainpipe.pipeline import fork_server

    if fork_server.plainly_local_run(sys.argv):
        fork_server.start()


# The working directory's config/config.yaml; the installed workflow, run where there is none (a first run in an
# empty folder), reads its own, as brainpipe.score does.
CONFIG_FILE = "config/config.yaml"
if not CHECKOUT and not os.path.exists(CONFIG_FILE):
    CONFIG_FILE = str(REPOSITORY / CONFIG_FILE)


configfile: CONFIG_FILE


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/stimuli.smk"
include: "workflow/rules/fetch.smk"
include: "workflow/rules/common_temporal.smk"
include: "workflow/rules/temporal.smk"  # before activations.smk: its layer sets leave temporal models out
include: "workflow/rules/assembly.smk"
include: "workflow/rules/train_test.smk"  # train/test designs: joined files (Allen2022), two data sets (Hebart2023_fmri)
include: "workflow/rules/place_on_screen.smk"
include: "workflow/rules/activations.smk"
include: "workflow/rules/behaviour.smk"
include: "workflow/rules/ceiling.smk"
include: "workflow/rules/gram.smk"
include: "workflow/rules/fit_fold.smk"
include: "workflow/rules/score.smk"
include: "workflow/rules/sessions.smk"  # benchmarks averaged over sessions (Cowley2026)
include: "workflow/rules/common_properties.smk"
include: "workflow/rules/properties.smk"
include: "workflow/rules/common_threshold.smk"  # threshold benchmarks (Malania2007)
include: "workflow/rules/threshold.smk"
include: "workflow/rules/report.smk"


# Run on the host where snakemake runs (the login node), never submitted to a cluster: tables and figures that take
# seconds (a cluster job would wait in the queue for longer), and the downloads (compute nodes often have no
# internet). profiles/slurm/config.yaml lists the same rules (tests/test_workflow.py checks that both agree).
localrules:
    summary,
    leaderboard,
    sweep_table,
    sweep_plot,
    folds_plot,
    conditions_plot,
    fetch,
    fetch_stimuli,
    fetch_assembly,
    fetch_properties,
    fetch_thresholds,
    fetch_ost_assembly,
    empty_cell,
    temporal_plot,


rule all:
    input:
        "results/summary.tsv",
        REPORT_TARGETS,
    default_target: True


# Snakemake reads an input, params or resources function's signature at every call, several times per planned job:
# read once here (src/brainpipe/pipeline/plan/signatures.py says how; the plan is the same).
from brainpipe.pipeline.plan.signatures import remember_signatures, rule_functions

remember_signatures(rule_functions(workflow.rules))
