"""Every job `snakemake -n` plans, as one JSON line each: rule, wildcards, input, output, params, resources, threads,
log. Two dumps of the same grid, before and after a change to the planning code, compare with ``--compare``: equal
files mean the change left every job as it was (the check of perf/bench_planning.py's speed-ups).

Usage::

    .venv/bin/python perf/dump_jobs.py OUT.jsonl                       # the repository's config, in a fresh folder
    .venv/bin/python perf/dump_jobs.py OUT.jsonl --models 3            # + bench_planning's overlay: 3 models × suite
    .venv/bin/python perf/dump_jobs.py --compare BEFORE.jsonl AFTER.jsonl
    .venv/bin/python perf/dump_jobs.py --compare BEFORE.jsonl AFTER.jsonl --ignore-stage-code   # see compare()

The workflow is planned through Snakemake's Python API (snakemake.api, as `snakemake -n` does: the dry-run
pseudo-executor) in a fresh working folder (no results/: every job of the grid is planned), and the jobs are read off
the DAG it built, params included (which `snakemake -n` does not print). Values that are not JSON (a Path, a
Snakemake object) are written as their ``repr``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "perf"))


def _plain(value):
    """A JSON-able form of a param or resource value (dicts keep their keys' order; sorting is json.dumps')."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)


def _named(namedlist) -> dict:
    """A Snakemake Namedlist (input, output, params, resources, log) as its positional items and its names."""
    return {"items": [_plain(v) for v in namedlist], "names": {k: _plain(v) for k, v in namedlist.items()}}


def jobs(workdir: Path, configfiles: list[Path]) -> list[dict]:
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import (ConfigSettings, DAGSettings, OutputSettings, Quietness, ResourceSettings)

    # the Snakefile starts its job server for a command line that plainly runs jobs (fork_server.plainly_local_run,
    # which reads sys.argv): this is a dry run
    sys.argv = [sys.argv[0], "--dry-run"]
    with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
        workflow_api = api.workflow(resource_settings=ResourceSettings(cores=1),
                                    config_settings=ConfigSettings(configfiles=configfiles),
                                    snakefile=REPO / "Snakefile", workdir=workdir)
        dag_api = workflow_api.dag(DAGSettings())
        dag_api.execute_workflow(pseudo_executor="dryrun")
        dag = workflow_api._workflow.dag  # the API returns nothing: the jobs are read off the workflow's DAG
        rows = []
        for job in dag.jobs:
            rows.append({"rule": job.rule.name, "wildcards": dict(job.wildcards_dict), "input": _named(job.input),
                         "output": _named(job.output), "params": _named(job.params),
                         "resources": _named(job.resources), "threads": job.threads, "log": _named(job.log)})
    return sorted(rows, key=lambda row: (row["rule"], row["output"]["items"], json.dumps(row, sort_keys=True)))


#: a stage code param of code edited and not yet recorded: ``<version>+<digest now>`` (pipeline/stage_code.py)
UNRECORDED_STAGE_CODE = re.compile(r'"([0-9a-f]{12})\+[0-9a-f]{12}"')


def compare(before: Path, after: Path, ignore_stage_code: bool = False) -> int:
    """Whether two dumps list the same jobs; ``ignore_stage_code``: read a stage code param of unrecorded edits
    (``<version>+<digest>``) as its ``<version>``, so that edits elsewhere in the library made between the dumps
    (the code params of the stages that compute with those modules) do not hide what the planning change did."""
    old = before.read_text().splitlines()
    new = after.read_text().splitlines()
    if ignore_stage_code:
        old, new = ([UNRECORDED_STAGE_CODE.sub(r'"\1"', line) for line in lines] for lines in (old, new))
    if old == new:
        print(f"identical: {len(old)} jobs")
        return 0
    removed, added = sorted(set(old) - set(new)), sorted(set(new) - set(old))
    print(f"DIFFERENT: {len(old)} jobs before, {len(new)} after; {len(removed)} only before, {len(added)} only after")
    for line in removed[:5]:
        print("- " + line[:2000])
    for line in added[:5]:
        print("+ " + line[:2000])
    return 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--models", type=int, help="add perf/bench_planning.py's overlay of this many models")
    parser.add_argument("--benchmarks", nargs="+", default=["suite:brainscore", "!ImageNet-top1"])
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--ignore-stage-code", action="store_true",
                        help="with --compare: read stage code params '<version>+<digest>' as '<version>'")
    args = parser.parse_args(argv)
    if args.compare:
        return compare(*args.compare, ignore_stage_code=args.ignore_stage_code)
    if args.out is None:
        parser.error("give OUT.jsonl or --compare BEFORE AFTER")
    with tempfile.TemporaryDirectory(prefix="dump_jobs_") as folder:
        configfiles = [REPO / "config" / "config.yaml"]
        if args.models:
            from bench_planning import overlay

            grid = Path(folder) / "grid.yaml"
            grid.write_text(yaml.safe_dump(overlay(args.models, args.benchmarks)))
            configfiles.append(grid)
        rows = jobs(Path(folder), configfiles)
    # the working folder is a fresh temporary one each time: written as <workdir>, so that two dumps compare
    text = "".join(json.dumps(row, sort_keys=True) + "\n" for row in rows).replace(folder, "<workdir>")
    args.out.write_text(text)
    print(f"{len(rows)} jobs -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
