"""Upgrading from 0.1.0 (the flat library) to 0.2.0 (packages by concern), as a user does it: a grid completed with
0.1.0, then the new code in place (files newer than the results, as after `git pull`).

What must hold (CHANGELOG.md, "Upgrading from 0.1.0"): every result path is unchanged, so the new workflow plans
no job whose output is new — only jobs whose code fingerprint or script changed; nothing computes differently, so
`snakemake --touch` once marks the existing results current and the next `snakemake -n` has nothing to do.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"
#: The last commit of 0.1.0 on main (before the library moved into packages).
RELEASE_0_1_0 = "05ede687ad0ef06595416168feae1b0fc4a6098b"


def checkout_of(commit, destination):
    """The tracked files of ``commit`` (from this clone's history), written now."""
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True)
    if found.returncode != 0:
        pytest.skip(f"this clone lacks commit {commit} (0.1.0); a shallow clone? `git fetch --unshallow`")
    archive = destination.with_suffix(".tar")
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), commit], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(destination, filter="data")
    return destination


def current_code(destination):
    """This checkout's workflow and library, copied now (new modification times, as `git pull` gives them), with
    profiles/default, which Snakemake reads beside the Snakefile (the rerun triggers)."""
    destination.mkdir()
    for name in ("Snakefile", "workflow", "src", "config", "profiles"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, copy_function=shutil.copy,
                            ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, destination / name)
    return destination


def snakemake(code, workdir, *args):
    command = [SNAKEMAKE, "-s", str(code / "Snakefile"), "--directory", str(workdir), "--cores", "2",
               "--configfile", str(TINY), *args]
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir,
                            env={**os.environ, "PYTHONPATH": str(code / "src")})
    assert result.returncode == 0, f"{command} failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
    return result.stdout + result.stderr


@pytest.mark.slow  # two real runs of the tiny grid (~2 min on 2 cores)
def test_results_of_0_1_0_stay_valid_after_the_upgrade(tmp_path):
    old = checkout_of(RELEASE_0_1_0, tmp_path / "old")
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    shutil.copy(old / "config" / "config.yaml", work / "config" / "config.yaml")  # the user's config, as it was
    snakemake(old, work)
    results = {p: p.read_bytes() for p in (work / "results").rglob("*.json")}
    assert len([p for p in results if p.parent.name != "ceilings" and "layers" not in p.parts]) >= 6

    new = current_code(tmp_path / "new")
    plan = snakemake(new, work, "-n")
    planned = re.findall(r"^\s+output: (.+)$", plan, flags=re.M)
    outputs = [path.strip() for line in planned for path in line.split(", ")]
    # the report's per-fold and sweep figures are one per parent now (results/plots/folds/<parent>.png, replacing
    # folds.png; issue 40): drawings of the scores, made anew; every result path is as it was
    figures = ("results/plots/folds/", "results/plots/sweep/")
    missing = [path for path in outputs if not (work / path).exists() and not path.startswith(figures)]
    assert not missing, f"0.2.0 plans outputs 0.1.0 did not write (a result path changed): {missing}"
    reasons = set(re.findall(r"^\s+reason: (.+)$", plan, flags=re.M))
    assert reasons and all(re.fullmatch(r"(?i)(Code|Params) have changed.*|Code has changed.*|Params have changed.*|"
                                        r".*input files updated by "
                                        r"another job.*|Missing output files: results/plots/(folds|sweep)/[^,]+",
                                        reason) for reason in reasons), reasons

    snakemake(new, work, "--touch")
    drawn = snakemake(new, work)  # only the new figures are missing: drawn from the touched scores
    assert not set(re.findall(r"^\s*(?:local)?rule (\w+):", drawn, flags=re.M)) - {"folds_plot", "sweep_plot", "all"}, \
        drawn[-3000:]
    assert "Nothing to be done" in snakemake(new, work, "-n")
    assert {p: p.read_bytes() for p in results} == results  # touched, not rewritten


#: The last commit before the inside redesign of issue 38 (rules' logic in src/brainpipe/pipeline/plan, registries,
#: per-stage code fingerprints).
BEFORE_REDESIGN = "8567fba"
#: Report jobs that had no code param before the redesign (their scripts were covered by Snakemake's code trigger,
#: which profiles/default now leaves to the stage params): drawn again once, from the same scores, in seconds.
REPORT_RULES = {"summary", "leaderboard", "sweep_table", "sweep_plot", "folds_plot", "conditions_plot", "all"}
#: The headline jobs: their params carry the family's provenance for the score JSON, whose `origin` names the
#: family's module, now under brainpipe.benchmarks.families: each headline is written once more from the same folds
#: and ceiling (a fraction of a second each), with the same numbers.
HEADLINE_RULES = {"score", "score_behaviour", "score_ost"}


@pytest.mark.slow  # two real runs of the tiny grid's config and a dry run (~3 min on 2 cores)
def test_the_redesign_reruns_nothing_that_computes_a_number(tmp_path):
    """A grid completed with the code before the redesign plans, with the code after it, no job that computes a
    number (activations, Gram matrices, folds, ceilings, per-layer scores): the stage params read the fingerprints
    they read before. The headlines written again hold the same numbers."""
    old = checkout_of(BEFORE_REDESIGN, tmp_path / "old")
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    shutil.copy(old / "config" / "config.yaml", work / "config" / "config.yaml")  # the user's config, as it was
    snakemake(old, work)
    headlines = {p: json.loads(p.read_text()) for p in (work / "results").glob("*/*.json")
                 if p.parent.name not in ("ceilings", "plots")}
    computed = {p: p.read_bytes() for p in (work / "results").rglob("*") if p.is_file() and p not in headlines
                and p.suffix in (".json", ".nc")}
    assert len(headlines) >= 6 and len(computed) > 20

    new = current_code(tmp_path / "new")
    plan = snakemake(new, work, "-n")
    planned = set(re.findall(r"^\s*(?:local)?rule (\w+):", plan, flags=re.M))  # grouped jobs (folds) are indented
    assert planned <= REPORT_RULES | HEADLINE_RULES, \
        f"the redesign reruns {sorted(planned - REPORT_RULES - HEADLINE_RULES)}:\n{plan[-4000:]}"
    snakemake(new, work)
    assert {p: p.read_bytes() for p in computed} == computed  # nothing that computes was rewritten
    for path, before in headlines.items():
        after = json.loads(path.read_text())
        assert {k: after.get(k) for k in ("score", "raw", "ceiling", "error", "layer")} == \
            {k: before.get(k) for k in ("score", "raw", "ceiling", "error", "layer")}, path
