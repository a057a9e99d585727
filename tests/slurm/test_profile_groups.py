"""The slurm profile's job groups (profiles/slurm/config.yaml `groups:`) name rules of this workflow that run jobs
on the cluster; read from the files (the profile's YAML, workflow/rules/*.smk, the Snakefile), no SLURM needed.

A rule named in `groups:` that does not exist (misspelt, or renamed in the rules) is silently never grouped, and a
grouped localrule is silently submitted: Snakemake drops a rule in a group from localrules, so the downloads would
run on compute nodes (often without internet) and the tables would wait in the queue. tests/test_slurm.py runs the
groups on a real SLURM. The extraction rules activations_layers_<hash>, named after the config, take the group the
profile gives `activations` (workflow/rules/activations.smk): two dry runs of config/config.yaml check it, through
the profile and without one.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "profiles" / "slurm" / "config.yaml"
RULE_FILES = sorted((REPO / "workflow" / "rules").glob("*.smk")) + [REPO / "Snakefile"]
# a block of a rule, indented under it: what the rule does (a rule without one only collects inputs: `all`, `plots`)
RUNS = re.compile(r"^\s+(?:script|shell|run|wrapper|notebook|cwl):", flags=re.M)


def profile():
    return yaml.safe_load(PROFILE.read_text())


def rule_blocks():
    """{rule name: its text} for every `rule NAME:` / `checkpoint NAME:` of the workflow's files: the header line
    and the lines indented deeper than it."""
    blocks = {}
    for path in RULE_FILES:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            header = re.match(r"^(\s*)(?:rule|checkpoint) (\w+):", line)
            if not header:
                continue
            indent, body = len(header.group(1)), [line]
            for following in lines[i + 1:]:
                if following.strip() and len(following) - len(following.lstrip()) <= indent:
                    break
                body.append(following)
            blocks[header.group(2)] = "\n".join(body)
        for base, derived in re.findall(r"^use rule (\w+) as (\w+) with:", "\n".join(lines), flags=re.M):
            blocks[derived] = blocks[base]  # `use rule score as score_ost with:` runs score's script
    return blocks


def rules_named_in_code():
    """Rules defined under a name computed at parse time (activations.smk's `rule:` with `name: job.name`), found
    where the workflow looks them up by that name: `workflow.get_rule("activations")`."""
    return {name for path in RULE_FILES for name in re.findall(r'workflow\.get_rule\("(\w+)"\)', path.read_text())}


def localrules():
    block = re.search(r"^localrules:\n((?:    \w+,\n)+)", (REPO / "Snakefile").read_text(), flags=re.M)
    assert block, "the Snakefile declares no localrules block"
    return set(re.findall(r"(\w+),", block.group(1)))


def test_rule_parsing_finds_the_workflows_rules():
    """The parser below the other tests: it finds rules of every kind the groups rely on."""
    blocks = rule_blocks()
    assert {"fit_fold", "score", "ceiling", "prepare_assembly", "summary", "fetch_stimuli", "all"} <= set(blocks)
    assert "activations" in rules_named_in_code()
    assert RUNS.search(blocks["fit_fold"]) and not RUNS.search(blocks["all"])
    assert "downloads=" in blocks["fetch_stimuli"] and "downloads=" not in blocks["fit_fold"]


def test_grouped_rules_exist_and_run_on_the_cluster():
    groups = profile()["groups"]
    blocks, named_in_code, local = rule_blocks(), rules_named_in_code(), localrules()
    unknown = sorted(set(groups) - set(blocks) - named_in_code)
    assert not unknown, f"profiles/slurm groups rules the workflow does not define: {unknown}"
    grouped_local = sorted(set(groups) & local)
    assert not grouped_local, (f"grouped localrules {grouped_local}: a rule in a group is submitted to the cluster "
                               "(Snakemake ignores localrules for it)")
    downloads = sorted(rule for rule in groups if "downloads=" in blocks.get(rule, ""))
    assert not downloads, f"downloads {downloads} are grouped: they would run on compute nodes"
    collect_only = sorted(rule for rule in groups if rule in blocks and not RUNS.search(blocks[rule]))
    assert not collect_only, f"rules {collect_only} run nothing (inputs only); a group cannot hold them"


def test_group_components_name_the_profiles_groups():
    settings = profile()
    components = settings["group-components"]
    assert set(components) <= set(settings["groups"].values()), (
        f"group-components for groups no rule is in: {sorted(set(components) - set(settings['groups'].values()))}")
    assert all(isinstance(n, int) and n >= 1 for n in components.values()), components


def test_a_grouped_gpu_rule_gets_one_gpu_per_submission():
    """Grouped jobs that ask for a GPU are sized with the profile's `gpu` cap per submission (scope local): without
    it a group job asks for the sum of its extractions' GPUs; with scope global one GPU job runs in the whole run."""
    settings = profile()
    blocks = rule_blocks()
    gpu_rules = sorted(rule for rule in settings["groups"] if re.search(r"^\s+gpu=", blocks.get(rule, ""), re.M))
    assert gpu_rules, "no grouped rule declares gpu= (is trial_activations still in the features group?)"
    assert settings["resources"]["gpu"] == 1, settings["resources"]
    assert settings["set-resource-scopes"]["gpu"] == "local", settings.get("set-resource-scopes")
    assert isinstance(settings["cores"], int) and settings["cores"] >= 2, (
        "`cores` bounds the width of a group job; the extraction rules take 2 threads")


def planned_jobs(workdir, *args):
    """(rule, its group job's group or None) of each job of a dry run of config/config.yaml in a fresh folder."""
    env = {key: value for key, value in os.environ.items() if key != "SNAKEMAKE_PROFILE"}
    run = subprocess.run([str(Path(sys.executable).parent / "snakemake"), "-n", "-s", str(REPO / "Snakefile"),
                          "--directory", str(workdir), "--configfile", str(REPO / "config" / "config.yaml"), *args],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-3000:]
    plan = output.split("Job stats:", 2)[1]  # the jobs, between the first job stats table and the last
    jobs, group = [], None
    for line in plan.splitlines():
        if header := re.match(r"^(?:\[[^\]]*\] )?Group job (\S+) ", line):
            group = header.group(1)
        elif job := re.match(r"^(\s*)(?:local)?(?:rule|checkpoint) (\w+):$", line):
            group = group if job.group(1) else None  # a group's jobs are indented under its header
            jobs.append((job.group(2), group))
    return jobs


def test_every_extraction_job_is_in_the_group_of_activations(tmp_path):
    """Through the profile, the jobs of `activations` and of the activations_layers_<hash> rules (several layers in
    one pass: their names follow the config, so `groups:` cannot list them) are all in the group `groups:` gives
    `activations`, and so go to the cluster in its group jobs, not one sbatch each. A local dry run plans the same
    jobs in no group: the rules' group comes from the profile only."""
    extraction = re.compile(r"activations(_layers_\w+)?")
    through_profile = [job for job in planned_jobs(tmp_path / "slurm", "--profile", str(PROFILE.parent))
                       if extraction.fullmatch(job[0])]
    assert any(rule != "activations" for rule, _ in through_profile), (
        f"config/config.yaml plans no multi-layer extraction job, which this test needs: {through_profile}")
    assert {group for _, group in through_profile} == {profile()["groups"]["activations"]}, through_profile
    local = [job for job in planned_jobs(tmp_path / "local", "--cores", "2") if extraction.fullmatch(job[0])]
    assert sorted(rule for rule, _ in local) == sorted(rule for rule, _ in through_profile)
    assert not [job for job in local if job[1] is not None], local
