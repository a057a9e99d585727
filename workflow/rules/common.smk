# Shared by every rule: config validation, wildcard constraints, and the plan that maps a target (model, benchmark)
# onto the files it needs (PLAN: src/brainpipe/pipeline/plan, whose methods the rules use as input and params
# functions). All lookups go through src/brainpipe, so the workflow and a Python user agree on what a benchmark or a
# model is.
from pathlib import Path

from snakemake.common import NOTHING_TO_BE_DONE_MSG
from snakemake.logging import logger
from snakemake.utils import validate

# brainpipe is this checkout's src/brainpipe: the Snakefile puts it first on sys.path and PYTHONPATH.
from brainpipe.pipeline import finished_models, fork_server, grid_cells, parse_cache
from brainpipe.pipeline.scheduler_timers import cancel_scheduler_timers
from brainpipe.pipeline.benchmark_selectors import config_benchmarks
from brainpipe.pipeline.declared_files import (DeclaredDataError, StaleSha1, check_declared_behaviour,
                                              check_declared_sha1s)
from brainpipe.pipeline.declared_regions import check_declared_regions
from brainpipe.data import screen
from brainpipe.models.model_sources import keep_digests_in
from brainpipe.pipeline.plan import PlanError, WorkflowPlan
from brainpipe.pipeline.plan.patterns import alternatives
from brainpipe.pipeline.plan.resources import extraction_runtime_min, fold_mem_mb, mb, score_mem_mb, task_mem_mb
from brainpipe.pipeline.workflow_config import (ConfigError, check_committed_regions, check_config,
                                                check_config_structure, load_registry)
# each rule's `code` param: the fingerprint of the code its stage computes with (src/brainpipe/pipeline/stage_code.json)
from brainpipe.pipeline.stage_code import stage_code

CONFIG_SCHEMA = REPOSITORY / "workflow/schemas/config.schema.yaml"  # REPOSITORY: the Snakefile's folder
try:  # unknown keys (with the nearest valid one), empty grid, reserved model names, types: one line each
    check_config_structure(config, CONFIG_SCHEMA)
except ConfigError as error:
    raise WorkflowError(str(error)) from None
validate(config, schema=str(CONFIG_SCHEMA))  # passes now; fills in the schema's defaults
try:  # suite:, family:, parent:, glob and !exclusion entries -> plain identifiers, before anything reads the grid
    config["benchmarks"] = config_benchmarks(config)
except ConfigError as error:
    raise WorkflowError(str(error)) from None
if workflow.is_main_process:  # names are checked once, before scheduling; cluster jobs re-read the workflow
    # architectures' layer names and weights checks that passed before, the rules' library code fingerprints and the
    # digests of weights and model files, kept per user (pipeline/parse_cache.py)
    parse_cache.use(parse_cache.user_cache_path())
    keep_digests_in(parse_cache)
    try:
        check_config(config)  # builds each model's architecture to check layer names (~1 s per model, uncached)
    except ConfigError as error:
        raise WorkflowError(str(error)) from None

onstart:
    # a local run: one warm process computes the jobs (each job script hands itself over to it), so that a grid's
    # hundreds of short jobs do not each import xarray, scikit-learn and torch again (pipeline/fork_server.py); the
    # Snakefile may have started it already. Jobs run elsewhere (a cluster executor): none, before any is submitted
    if workflow.is_main_process and workflow.local_exec and not workflow.touch:
        fork_server.start()
    else:
        fork_server.stop()


REGISTRY = load_registry(config)  # every benchmark family: built-ins, config benchmark_zoo, benchmark_plugins
PLAN = WorkflowPlan(config, REGISTRY)  # what each job reads and writes (src/brainpipe/pipeline/plan)
try:  # a region no model commits (a typo) stops here, before any job, not as a missing file at the report
    if workflow.is_main_process:  # first: a declared region its local recordings lack (a typo made everywhere)
        check_declared_regions(config, REGISTRY, Path(".snakemake/brainpipe/declared_regions.json"))
    check_committed_regions(config, REGISTRY)
    # a model or benchmark config skip_benchmarks does not know: before the score rules' constraints read the
    # grid's empty cells (PLAN.patterns.scored_model)
    grid_cells.skipped_benchmarks(config, REGISTRY)
    if workflow.is_main_process:  # a declared file edited after its entry was written: its own sha1 key named
        check_declared_sha1s(config, Path(".snakemake/brainpipe/declared_sha1.json"))
        # trials naming unknown stimuli, or answers outside the labels: refused now, not by a ceiling job that
        # Snakemake has already emptied of its previous output
        check_declared_behaviour(config, Path(".snakemake/brainpipe/declared_sha1.json"))
except (ConfigError, StaleSha1, DeclaredDataError) as error:
    raise WorkflowError(str(error)) from None


# Models the last whole run of this grid finished, with nothing changed since (config, code, files): their files are
# read as they are and none of their jobs is planned (src/brainpipe/pipeline/finished_models.py). Planning a finished
# grid of 50 models × every Brain-Score benchmark went from minutes to seconds; a command that asks for more than a
# plain run (--forceall, --forcerun, --report, --summary, ...) or config skip_finished_models: false plans them all.
FINISHED_CODE = None  # the code digest the record keys on, in the process that records (not a cluster job's)
if workflow.is_main_process and config["skip_finished_models"]:
    FINISHED_CODE = finished_models.code_digest(finished_models.code_folders(REPOSITORY))
    PLAN.finished_models = frozenset(finished_models.skipped(config, FINISHED_CODE, sys.argv))
    if PLAN.finished_models:
        logger.info(finished_models.start_message(PLAN.finished_models, config["models"]))
    # a run or dry run that finds nothing to do says so and returns without onsuccess: every model is finished then
    finished_models.record_when_nothing_to_do(logger, NOTHING_TO_BE_DONE_MSG,
                                              lambda: finished_models.record_run(workflow, config, FINISHED_CODE))


onsuccess:
    # a run of the whole grid (the default target) ended well: every model is finished as its files are now (a run
    # that failed records its complete models: report.smk's onerror)
    finished_models.record_run(workflow, config, FINISHED_CODE)
    cancel_scheduler_timers()  # Snakemake's last job-rate timer would hold the exit for up to 1 s (its docstring)


wildcard_constraints:
    # a model name is any folder name except the result folders that sit beside the models' folders
    model=PLAN.patterns.model,
    # Family.region-metric (neural) or Family-metric (behaviour), or one of Brain-Score's identifiers kept verbatim
    benchmark=PLAN.patterns.benchmark,
    layer="[^/]+",
    fold="[0-9]+",
    region="[A-Za-z0-9]+",
    timing="static|temporal",


# the activations stage's code fingerprint, a param of every rule that runs a network (activations.smk, temporal.smk,
# threshold.smk: PLAN.activations.params)
ACTIVATIONS_CODE = stage_code("activations")
# the cluster time limit (minutes) of an extraction job, from its stimulus folders' images, at least 60 (activations.smk,
# temporal.smk: pipeline/plan/resources.py, extraction_runtime_min)
EXTRACTION_RUNTIME = lambda wildcards, input: extraction_runtime_min(input, config["extraction_images_per_minute"])
