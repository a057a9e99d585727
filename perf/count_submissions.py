"""How many cluster submissions a grid makes through a profile's job groups, and what each asks for: a dry run, parsed.

Usage::

    .venv/bin/python perf/count_submissions.py                     # 1 and 10 models × suite:brainscore, profiles/slurm
    .venv/bin/python perf/count_submissions.py --models 50         # the issue's size (~10 min, 1.5 GB on 2 cores)
    .venv/bin/snakemake -n --quiet reason --profile profiles/slurm > dry.txt 2>&1   # Snakemake logs to stderr
    .venv/bin/python perf/count_submissions.py --dry-run dry.txt   # a dry run you already have (no requests in it)

The grids are perf/bench_planning.py's: N untrained alexnets (seeds 0..N-1) × ``suite:brainscore`` less ImageNet-top1,
each planned in a fresh folder (no results/: every job is needed) through the profile. Snakemake's dry run prints
each job, and each group job as ``Group job <group> ...`` followed by its jobs, indented. A submission is a group
job, or a job outside any group that is neither one of the Snakefile's ``localrules`` (run on the submitting host)
nor a rule without output (``all``: nothing runs). Printed per grid: the jobs; those on the host (or running
nothing); ``ungrouped``, the sbatch calls one job each would make; the submissions with the groups (group jobs and
single jobs); the largest group's jobs; wall and CPU seconds of the dry run and the peak resident memory of its
largest process, with the load average before it (the dry run prints every job, so it takes longer than
perf/bench_planning.py's quiet one); per group, the group's submissions and the largest request of any of them
(CPUs, MB, minutes, GPUs), sized as Snakemake sizes it for the cluster under the profile's ``cores``.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_planning import overlay, timed_run  # noqa: E402  (perf/ is a folder of scripts, not a package)

# the dry run's job headers: "[timestamp]" on its own line, then "rule NAME:"; a group's header line holds both
GROUP = re.compile(r"^(?:\[[^\]]*\] )?Group job (\S+) \(jobs in lexicogr\. order\):$")
JOB = re.compile(r"^(\s*)(?:local)?(?:rule|checkpoint) (\w+):$")
# what each group job would ask sbatch for, printed by the worker below after the group's jobs
GROUP_RESOURCES = re.compile(r"^\s+group resources: threads=(\d+) mem_mb=(\d+) runtime=(\d+) gpu=(\d+)$")


def snakemake_showing_group_resources(argv: list[str]) -> None:
    """Snakemake's command line (``--snakemake ARGS``), in this process, with one line more per group job of a dry
    run: the threads, mem_mb, runtime (minutes) and gpu its sbatch would ask for. Snakemake computes them
    (GroupResources.basic_layered)
    as for a cluster run: jobs that can run side by side fill layers of at most `cores` threads (the profile's), a
    layer asks for the sum of its jobs' memory, the submission for its widest layer, and runtime adds up over the
    layers. A dry run itself counts as local execution, where Snakemake adds memory and threads over all layers
    instead, and it prints a group's jobs but not what it asks for: hence this line."""
    from snakemake import jobs
    from snakemake.cli import main
    from snakemake.logging import logger
    from snakemake.resources import GroupResources

    log_info = jobs.GroupJob.log_info

    def log_info_with_resources(group):
        log_info(group)
        resources = GroupResources.basic_layered(toposorted_jobs=group.toposorted,
                                                 constraints=group.dag.workflow.global_resources, run_local=False,
                                                 additive_resources=["runtime"], sortby=["runtime"])
        logger.info(f"    group resources: threads={resources.get('_cores', 0)} mem_mb={resources.get('mem_mb', 0)} "
                    f"runtime={resources.get('runtime', 0)} gpu={resources.get('gpu', 0)}")

    jobs.GroupJob.log_info = log_info_with_resources
    main(argv)


def localrules(snakefile: Path = REPO / "Snakefile") -> list[str]:
    """The rule names of the Snakefile's ``localrules:`` block (one name and a comma per line)."""
    block = re.search(r"^localrules:\n((?:    \w+,\n)+)", snakefile.read_text(), flags=re.M)
    if block is None:
        raise SystemExit(f"{snakefile} has no localrules: block")
    return re.findall(r"(\w+),", block.group(1))


def parse_dry_run(text: str, local: set[str]) -> dict:
    """Submissions of a dry run's output: group jobs, and single jobs that are not local and run something."""
    groups: list[dict] = []  # {"group": id, "rules": Counter, "resources": (threads, mem_mb, runtime, gpu)}
    singles: list[dict] = []  # {"rule": name, "output": bool}
    current = None  # the job whose block is being read (its "output:" line tells whether it runs anything)
    in_group = False
    for line in text.splitlines():
        header = GROUP.match(line)
        if header:
            groups.append({"group": header.group(1), "rules": Counter(), "resources": None})
            in_group, current = True, None
            continue
        job = JOB.match(line)
        if job:
            indented = bool(job.group(1))
            if indented and in_group:
                groups[-1]["rules"][job.group(2)] += 1
                current = None
            else:
                in_group = False
                current = {"rule": job.group(2), "output": False}
                singles.append(current)
            continue
        sizes = GROUP_RESOURCES.match(line)
        if sizes and groups:
            groups[-1]["resources"] = tuple(map(int, sizes.groups()))
            continue
        if current is not None and line.lstrip().startswith("output:"):
            current["output"] = True
        if line.startswith(("Job stats:", "Reasons:")):
            in_group, current = False, None
    submitted = [job["rule"] for job in singles if job["rule"] not in local and job["output"]]
    grouped_jobs = sum(sum(group["rules"].values()) for group in groups)
    stats = re.search(r"^total\s+(\d+)$", text, flags=re.M)
    return {
        "jobs": grouped_jobs + len(singles),
        "job_stats_total": int(stats.group(1)) if stats else None,
        "host_jobs": len(singles) - len(submitted),
        "group_jobs": len(groups),
        "grouped_jobs": grouped_jobs,
        "single_jobs": len(submitted),
        "submissions": len(groups) + len(submitted),
        "groups_by_id": Counter(group["group"] for group in groups),
        "largest_group": max((sum(group["rules"].values()) for group in groups), default=0),
        "singles_by_rule": Counter(submitted),
        # per group id: the largest request of any of its submissions, resource by resource
        "largest_request": {gid: tuple(max(group["resources"][i] for group in groups
                                           if group["group"] == gid and group["resources"]) for i in range(4))
                            for gid in {group["group"] for group in groups if group["resources"]}},
    }


def dry_run(models: int, benchmarks: list[str], profile: str) -> tuple[str, dict]:
    """Plan the N-model grid in a fresh folder through the profile; (output, wall / CPU / peak memory)."""
    with tempfile.TemporaryDirectory(prefix="count_submissions_") as folder:
        config = Path(folder) / "grid.yaml"
        config.write_text(yaml.safe_dump(overlay(models, benchmarks)))
        command = [sys.executable, __file__, "--snakemake", "-n", "--quiet", "reason", "-s", str(REPO / "Snakefile"),
                   "--directory", folder, "--configfile", str(REPO / "config" / "config.yaml"), str(config),
                   "--profile", str(REPO / profile)]
        result, cost = timed_run(command, folder)
    if result.returncode != 0:
        raise SystemExit(f"snakemake -n failed for {models} model(s):\n{(result.stdout + result.stderr)[-3000:]}")
    return result.stdout + result.stderr, cost


def report(label: str, counts: dict, timing: dict | None = None) -> None:
    groups = ", ".join(f"{group} {n}" for group, n in sorted(counts["groups_by_id"].items()))
    top = ", ".join(f"{rule} {n}" for rule, n in counts["singles_by_rule"].most_common(6))
    ungrouped = counts["grouped_jobs"] + counts["single_jobs"]
    line = (f"{label:>8} {counts['jobs']:>7} {counts['host_jobs']:>6} {ungrouped:>9} {counts['submissions']:>7} "
            f"{counts['group_jobs']:>7} {counts['single_jobs']:>7} {counts['largest_group']:>8}")
    if timing:
        line += f" {timing['wall_s']:>7.1f} {timing['cpu_s']:>7.1f} {timing['peak_mb']:>8.0f} {timing['load']:>5.1f}"
    print(line, flush=True)
    print(f"{'':>8} groups: {groups or '-'}; single submissions, most: {top or '-'}", flush=True)
    for gid, (threads, mem_mb, runtime, gpu) in sorted(counts["largest_request"].items()):
        print(f"{'':>8} largest request of a '{gid}' submission: {threads} CPUs, {mem_mb} MB, {runtime} min, "
              f"{gpu} GPU (each the largest over its submissions)", flush=True)
    if counts["job_stats_total"] is not None and counts["job_stats_total"] != counts["jobs"]:
        raise SystemExit(f"parsed {counts['jobs']} jobs, but the dry run's job stats say {counts['job_stats_total']}")


HEADER = (f"{'models':>8} {'jobs':>7} {'host':>6} {'ungrouped':>9} {'submit':>7} {'groups':>7} {'single':>7} "
          f"{'largest':>8} {'wall s':>7} {'CPU s':>7} {'peak MB':>8} {'load':>5}")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--snakemake"]:  # the dry run itself, in the child process that dry_run() measures
        snakemake_showing_group_resources(argv[1:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--benchmarks", nargs="+", default=["suite:brainscore", "!ImageNet-top1"])
    parser.add_argument("--profile", default="profiles/slurm", help="a profile folder, relative to the repository")
    parser.add_argument("--dry-run", type=Path, help="count this dry run's output (file, or - for stdin) instead")
    args = parser.parse_args(argv)
    local = set(localrules())
    if args.dry_run is not None:
        text = sys.stdin.read() if str(args.dry_run) == "-" else args.dry_run.read_text()
        print(HEADER.split("  wall")[0])
        report("-", parse_dry_run(text, local))
        return 0
    print(f"submissions of N models × {' '.join(args.benchmarks)} through --profile {args.profile}; "
          f"{os.cpu_count()} cores")
    print(HEADER)
    for models in args.models:
        text, timing = dry_run(models, args.benchmarks, args.profile)
        report(str(models), parse_dry_run(text, local), timing)
    return 0


if __name__ == "__main__":
    sys.exit(main())
