"""Moving library code reruns nothing, changing it reruns its stages: the tiny grid run for real, then the code moved
in a copy, then changed (issue 38 §5; src/brainpipe/pipeline/stage_code.py)."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"


def code_copy(destination):
    """The workflow, library and profiles (profiles/default: the rerun triggers), copied."""
    destination.mkdir()
    for name in ("Snakefile", "workflow", "src", "config", "profiles"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, destination / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, destination / name)
    return destination


def environment(code):
    return {**{k: v for k, v in os.environ.items() if k != "SNAKEMAKE_PROFILE"}, "PYTHONPATH": str(code / "src")}


def snakemake(code, workdir, *args):
    command = [SNAKEMAKE, "-s", str(code / "Snakefile"), "--directory", str(workdir), "--cores", "2",
               "--configfile", str(TINY), *args]
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir, env=environment(code))
    assert result.returncode == 0, f"{command} failed:\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
    return result.stdout + result.stderr


def stage_code(code, *args):
    """``python -m brainpipe.pipeline.stage_code ARGS`` in the copy: (exit status, output)."""
    done = subprocess.run([sys.executable, "-m", "brainpipe.pipeline.stage_code", *args], capture_output=True,
                          text=True, cwd=code, env=environment(code))
    return done.returncode, done.stdout + done.stderr


def planned(plan):
    """rule -> the reasons of its planned jobs, from a dry run's output (a group's jobs, e.g. the folds, indented)."""
    jobs, rule = {}, None
    for line in plan.splitlines():
        if match := re.fullmatch(r"\s*(?:local)?rule (\w+):", line):
            rule = match.group(1)
            jobs.setdefault(rule, set())
        elif rule and (match := re.fullmatch(r"\s+reason: (.+?)\s*", line)):
            jobs[rule].add(match.group(1))
    return jobs


@pytest.mark.slow  # one real run of the tiny grid (~1-2 min on 2 cores) and three dry runs
def test_moved_code_reruns_nothing_and_changed_code_reruns_its_stages(tmp_path):
    code = code_copy(tmp_path / "code")
    assert stage_code(code, "record")[0] == 0  # the copy's table as of the copy's code (which may be mid-edit)
    work = tmp_path / "work"
    (work / "config").mkdir(parents=True)
    shutil.copy(ROOT / "config" / "config.yaml", work / "config" / "config.yaml")
    snakemake(code, work)
    assert "Nothing to be done" in snakemake(code, work, "-n")

    # PLS's solver choice (a function and the constants it reads) moved from neural/regression.py to
    # models/devices.py, which every stage listing either module lists too (fit_fold, gram, gram_timed), its docstring
    # reworded; and a comment added to the fold job's script (newer than every output now)
    regression = code / "src/brainpipe/neural/regression.py"
    devices = code / "src/brainpipe/models/devices.py"
    text = regression.read_text()
    found = re.search(r"^# Cost model of the two PLS paths.*?^    return \"kernel\" if kernel < features else "
                      r"\"features\"\n", text, flags=re.M | re.S)
    assert found, "neural/regression.py no longer has _pls_solver as this test moves it: pick another function"
    moved = found.group(0)
    importing = "from brainpipe.models.devices import resolve_device"
    assert importing in text and '``"kernel"`` or ``"features"`` for PLS' in moved and "if p < 2 * n:" in moved
    regression.write_text(text.replace(moved, "").replace(importing, "from brainpipe.models.devices import "
                                                                     "_pls_solver, resolve_device"))
    devices.write_text(devices.read_text() + "\n\n" + moved.replace('``"kernel"`` or ``"features"`` for PLS',
                                                                      "The PLS path (kernel or features)"))
    script = code / "workflow/scripts/fit_fold.py"
    script.write_text(script.read_text() + "# (a comment)\n")
    status, said = stage_code(code, "check")
    assert status == 0, f"the move changed a stage's digest:\n{said}"
    assert stage_code(code, "record") == (0, "")  # recording again: no digest changes
    plan = snakemake(code, work, "-n")
    assert "Nothing to be done" in plan, plan[-3000:]

    # a computing expression changed, not recorded: the stages that list the module rerun, what follows them too
    devices.write_text(devices.read_text().replace("if p < 2 * n:", "if p < 3 * n:"))
    status, said = stage_code(code, "check")
    assert status == 1 and {"fit_fold:", "gram:", "gram_timed:"} <= set(said.split()), said
    jobs = planned(snakemake(code, work, "-n"))
    # the Gram jobs rerun for their params; a fold job's reason reads "updated input" (its Gram: Snakemake names the
    # first reason it finds; that the fold stage's own param changed too, `check` said above)
    assert {"gram", "fit_fold", "score_layer", "score"} <= set(jobs), jobs
    assert all(reason.startswith("Params have changed") for reason in jobs["gram"]), jobs
    assert not [rule for rule in jobs if rule.startswith(("activations", "ceiling", "demo_"))], jobs
