"""Every shell command in README.md and in the documentation's pages (docs/*.md, tests/docs_text.py) is exercised:
parsed from their ```bash blocks (and the inline `snakemake ...` / `brainpipe ...` commands of their prose), then
dry-run (`snakemake ... -n`, `make -n`) or, where
cheap, run. Commands that need root, a network or a finished grid are listed in ELSEWHERE with the test that covers
them; a README command that is in neither place fails this file, so a new command cannot go untested.

The README's description of the score JSON is checked against a real score file (slow: one real run)."""

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import docs_text

ROOT = Path(__file__).resolve().parents[1]
# README.md and every docs/ page, one text: a command is checked wherever it is shown
README = docs_text.text()
BIN = Path(sys.executable).parent
TINY = ROOT / "tests" / "configs" / "tiny.yaml"

# Commands not run here, each with what covers it.
ELSEWHERE = {
    "sudo .venv/bin/pytest -m slurm tests/test_slurm.py -s": "tests/test_slurm.py itself (root + Debian)",
    'python -c "import torchvision; torchvision.models.alexnet(weights=\'IMAGENET1K_V1\')"':
        "needs the network (download.pytorch.org); loading weights from $TORCH_HOME: "
        "tests/test_real_data_workflow.py::test_torchvision_loads_weights_from_torch_home",
    "brainpipe commit-layers alexnet_untrained --region IT --benchmark SyntheticShapes.IT-pls --layers "
    "features.2,features.7,features.12": "changes the config it runs on: tests/test_layer_commitment.py::"
    "test_commit_layers_end_to_end runs it on a copy",
    "brainpipe check MyExperiment2024.IT-pls": "needs a declared MyExperiment2024: "
        "tests/test_own_benchmark.py::test_brainpipe_check_runs_the_two_targets",
    "brainpipe package --name MyExperiment2024 --images my_experiment/images --stimuli my_experiment/stimuli.csv "
    "--responses my_experiment/responses.nc --coords region=brain_area,repetition=trial --visual-degrees 8 "
    "--stratification category_name --out data/MyExperiment2024": "needs my_experiment/: "
        "tests/test_packaging.py::test_printed_entry_scores_in_a_real_workflow_run (on a generated experiment)",
    "python examples/lab_export/make_export.py my_lab_export": "tests/test_lab_export.py (the lab fixture)",
    "brainpipe package --name MyLab2024 --images my_lab_export/images --stimuli my_lab_export/image_table.csv "
    "--responses my_lab_export/responses.npy --trials my_lab_export/trials.csv --neuroids my_lab_export/neurons.csv "
    "--choices my_lab_export/choices.csv --stratification object --visual-degrees 8 --out data/MyLab2024 --coords "
    "stimulus_id=image,repetition=rep,neuroid_id=unit,region=area,subject=participant,choice=response,"
    "truth=correct_label,condition=noise_level": "tests/test_lab_export.py runs this command (the lab fixture) and "
        "scores the printed entries",
    "brainpipe list --config FILE": "FILE is a placeholder: tests/test_cli.py::"
        "test_list_names_line_and_column_of_a_yaml_error_in_config runs it on an overlay with a tab",
    "snakemake --report report.html": "needs a finished grid; report inputs (leaderboard, plots): tests/test_report.py",
    ".venv/bin/python tests/reference/suite_store.py --scale small --out /tmp/suite-store":
        "tests/reference/test_suite_table.py::test_brainpipe_side_from_the_store_reproduces_the_committed_rows runs "
        "it (into a temporary folder)",
    ".venv/bin/python tests/reference/suite_table.py --store /tmp/suite-store --families Rajalingham2020 "
    "Geirhos2021colour 'Baker2022*' Gifford2022 Coggan2024_fMRI": "needs the reference venv (make reference-venv) "
        "for Brain-Score's side; brainpipe's side of two of these families (--side brainpipe): "
        "tests/reference/test_suite_table.py::test_brainpipe_side_from_the_store_reproduces_the_committed_rows",
    ".venv/bin/python perf/bench_suite.py --store /tmp/suite-store --benchmarks suite:brainscore "
    "'!family:Zerbe2026_fmri_persubject'": "the whole suite for three models (about an hour on 2 cores): "
        "tests/reference/test_suite_table.py::test_the_suite_grid_plans_every_benchmark_and_runs_a_sample_to_a_score_"
        "or_a_reason plans this selection for the three models and runs a sample of it with the same script",
    ".venv/bin/python perf/bench_suite.py --store /tmp/suite-store --models alexnet_untrained --benchmarks "
    "suite:brainscore '!family:Zerbe2026_fmri_persubject' --work /tmp/finished-grid": "one model × the suite (about "
        "10 minutes on 2 cores): tests/reference/test_suite_table.py::test_the_suite_grid_plans_every_benchmark_and_"
        "runs_a_sample_to_a_score_or_a_reason runs the same script with --work on a sample",
    ".venv/bin/python perf/bench_finished_planning.py --work /tmp/finished-grid --models 50": "needs the run above: "
        "tests/reference/test_suite_table.py::test_the_suite_grid_plans_every_benchmark_and_runs_a_sample_to_a_score_"
        "or_a_reason runs it with --models 3 on its sample's finished run",
    ".venv/bin/python perf/bench_behaviour.py": "every behavioural family cold through the workflow (several "
        "minutes, past this file's 10-minute limit on a loaded machine); the same code runs for one family in the "
        "README's --only command, run here",
    ".venv/bin/python perf/bench_headline.py": "the full-size run (about 6 minutes on a quiet machine, past this file's "
        "10-minute limit on a loaded one); the same code at --scale 0.1, the README's next command, runs here",
    ".venv/bin/python perf/bench_vs_brainscore.py": "Brain-Score's side needs the reference venv (make reference-venv), "
        "which this suite does not build, and the full-size rounds take about 15 minutes: brainpipe's side of the same "
        "script, the README's next command, runs here; tests/test_bench_vs_brainscore.py checks its figures",
    ".venv/bin/python perf/bench_vs_brainscore.py --store /tmp/suite-store --rounds 1 --identifiers "
    "Geirhos2021colour-top1 Geirhos2021colour-error_consistency": "needs the reference venv and a suite store: "
        "brainpipe's side of the same script on a suite store runs in tests/reference/test_suite_table.py::"
        "test_bench_vs_brainscore_on_the_store_scores_as_the_committed_row; tests/test_bench_vs_brainscore.py checks "
        "its argument checks and the one-group rule",
    ".venv/bin/python perf/bench_vs_brainscore.py --store /tmp/suite-store --groups all --rounds 1 --json "
    "suite-vs-brainscore.json": "needs the reference venv and a suite store, and both sides of every group take about "
        "an hour here: brainpipe's side of the same mode for two groups runs in tests/reference/test_suite_table.py::"
        "test_bench_vs_brainscore_runs_the_store_group_by_group; tests/test_bench_vs_brainscore.py checks its argument "
        "checks and its sums",
    ".venv/bin/python tests/reference/suite_store.py --scale large --out /tmp/suite-store-large":
        "tests/reference/test_suite_table.py::test_the_larger_store_differs_only_where_a_writer_has_a_larger_size "
        "runs it for two groups (into a temporary folder), at both scales",
    ".venv/bin/python perf/bench_vs_brainscore.py --store /tmp/suite-store-large --groups MajajHong2015 Muzellec2026 "
    "FreemanZiemba2013 Li2026 Cadena2017 Cadena2017mask Hebart2023_fmri Papale2025 Gifford2022 Kar2019 --rounds 1 "
    "--json large.json": "needs the reference venv and the larger store, and Brain-Score's side takes about half an "
        "hour here: the same mode on the small store, brainpipe's side, runs in tests/reference/test_suite_table.py::"
        "test_bench_vs_brainscore_runs_the_store_group_by_group",
    "brainpipe score pixels SyntheticShapes.IT-pls": "a whole workflow run from an installed wheel: "
        "tests/test_wheel.py::test_the_installed_wheel_scores_the_demo_outside_the_checkout; in a checkout: "
        "tests/test_score_command.py",
    "snakemake --cores 8 results/alexnet/MajajHong2015.IT-pls.json":
        "the real run needs the network; dry-run here, and the same pipeline on a local HTTP server: "
        "tests/test_real_data_workflow.py::test_alexnet_on_majajhong_it_downloads_checks_and_scores",
    **{f".venv/bin/python -m brainpipe.pipeline.stage_code {command}": "record and bump rewrite the committed table: "
       "tests/pipeline/test_stage_code.py::test_the_documented_commands_do_what_the_docs_say runs the three as shown, "
       "in a copy" for command in ("check", "record fit_fold", "bump fit_fold")},
}
# Where a command is also run for real elsewhere (the dry run here checks the README's spelling of it).
ALSO_RUN_BY = {"make demo": "tests/test_workflow.py (the grid end to end)", "make test": "this suite",
               "make docs": "tests/test_docs.py (the same strict build)",
               "make test-slurm": "tests/test_slurm.py", "make test-slow": "CI (.ci/run)"}


COMMANDS = docs_text.commands()


def mirror(tmp_path):
    """A working copy of the repository layout (links; config copied) to run README commands in."""
    path = tmp_path / "repo"
    path.mkdir()
    for name in ("Snakefile", "workflow", "src", "profiles", "tests", "perf", "Makefile"):
        (path / name).symlink_to(ROOT / name)
    (path / "config").mkdir()
    (path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    return path


def environment():
    env = {k: v for k, v in os.environ.items() if k not in ("SNAKEMAKE_PROFILE", "PYTHONPATH")}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"  # `snakemake`, `brainpipe`, `python`: this venv
    return env


def run(argv, cwd, timeout=300, shell=False):
    result = subprocess.run(argv, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=timeout,
                            shell=shell)
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{argv} failed ({result.returncode}):\n{output[-4000:]}"
    return output


def test_readme_has_the_commands_this_file_knows():
    assert len(COMMANDS) >= 15, COMMANDS
    listed = {command for command, _ in COMMANDS}
    stale = set(ELSEWHERE) - listed
    assert not stale, f"ELSEWHERE names commands the README no longer has: {stale}"


def marked(command):
    """Snakemake starts take 5-60 s each on a loaded machine: all but the README's SLURM CI command (which once
    failed: --directory without the default config file) run with -m slow."""
    slow = command.startswith((".venv/bin/", "snakemake")) and "<repo>" not in command
    return pytest.param(command, marks=pytest.mark.slow) if slow else command


@pytest.mark.parametrize("command", [marked(c) for c, _ in COMMANDS])
def test_readme_command(command, tmp_path):
    if command in ELSEWHERE and not command.startswith("snakemake"):
        pytest.skip(f"covered elsewhere: {ELSEWHERE[command]}")
    repo = mirror(tmp_path)
    if command.startswith("make "):  # with the README's variables (e.g. TORCH=cpu)
        output = run(["make", "-n", *command.split()[1:]], cwd=ROOT)
        assert output.strip(), f"make -n {command[5:]} prints nothing"
        return
    if command.startswith("python -c "):  # a check the README suggests in the venv: it runs
        assert run([str(BIN / "python"), *shlex.split(command)[1:]], cwd=repo).strip()
        return
    if command == "source .venv/bin/activate":
        run(["bash", "-c", f"source {BIN / 'activate'} && command -v snakemake brainpipe"], cwd=repo)
        return
    if "<<'EOF'" in command:  # the calibration snippet: runs (no benchmark files yet: prints nothing)
        run(command, cwd=repo, shell=True)
        return
    command = command.replace(".venv/bin/", f"{BIN}/")
    argv = shlex.split(command.replace("<repo>", str(repo)).replace("<tmp>", str(tmp_path / "run")))
    if argv[0] == "brainpipe":
        output = run([str(BIN / "brainpipe"), *argv[1:]], cwd=repo)
        assert output.strip()
        return
    if argv[0].endswith("snakemake") and "--lint" in argv:
        assert "Congratulations" in run(argv, cwd=repo)
        return
    if argv[0].endswith("python") and "perf/" in command:
        # --jobs-overhead repeats every empty job kind (best of 3): one repetition runs the same code, a third of
        # the time (CI's budget)
        repeats = ["--repeat", "1"] if "--jobs-overhead" in argv and "--repeat" not in argv else []
        output = run([*argv, *repeats], cwd=repo, timeout=600)
        assert "best of 1" in output if repeats else output.strip()
        return
    assert argv[0].endswith("snakemake"), f"no rule in this test for README command {command!r}"
    if "--report" in argv:
        pytest.skip(f"covered elsewhere: {ELSEWHERE[command]}")
    argv[0] = str(BIN / "snakemake")
    if "--unlock" in argv:  # unlocking has no dry run: it runs (an unlocked folder stays unlocked)
        assert "Unlocked working directory" in run(argv, cwd=repo)
        return
    output = run([*argv, "-n"], cwd=repo)
    assert "Job stats" in output or "Nothing to be done" in output, output[-3000:]


@pytest.mark.slow  # one real run of a pixels score on the tiny grid
def test_readme_describes_the_score_json(tmp_path):
    files_page = (ROOT / "docs/operations/files.md").read_text()  # the full table of outputs (README: a summary)
    row = next(line for line in files_page.splitlines() if line.startswith("| `results/<model>/<benchmark>.json`"))
    described = set(re.findall(r"`([a-z_]+)`", row))
    conditional = {"sweep", "best_layer", "time_bin_start", "time_bin_end", "pls_components_capped", "requested",
                   "used", "why", "reason", "empty_cell"} | {n for n in described
                                                                               if n.endswith("_per_time_bin")}
    behavioural = {"metric", "task", "details", "per_condition", "fitting_stimulus_set"}  # described as what behavioural benchmarks add
    conditional |= {"details", "per_condition"}  # only families that have them (value_delta, Geirhos2021)
    repo = mirror(tmp_path)
    run([str(BIN / "snakemake"), "results/pixels/SyntheticShapes.IT-pls.json",
         "results/pixels/SyntheticShapesBehaviour-i2n.json", "--cores", "2",
         "--configfile", "config/config.yaml", str(TINY)], cwd=repo, timeout=600)
    score = json.loads((repo / "results/pixels/SyntheticShapes.IT-pls.json").read_text())
    present = set(score) | set(score["data"])
    assert present <= described, f"the README does not describe {sorted(present - described)}"
    assert described - conditional - behavioural <= present, f"the README describes keys the JSON lacks: " \
                                                             f"{sorted(described - conditional - behavioural - present)}"
    assert "parameters" not in score and "settings" in score["data"]
    behaviour = json.loads((repo / "results/pixels/SyntheticShapesBehaviour-i2n.json").read_text())
    present = set(behaviour) | set(behaviour["data"])
    assert present <= described, f"the README does not describe {sorted(present - described)}"
    assert {"metric", "task"} <= present
