"""The real workflow, end to end, on the tiny config: runs, second run idle, one-parameter change reruns only
the affected benchmark's jobs, and bad config fails at parse time naming the key."""

import json
import re
import shutil

import pytest
import yaml

import brainpipe
from brainpipe.api import _merged
from workflow_runs import ROOT, TINY, file_times, job_counts, planned_outputs, snakemake, with_config


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    path = with_config(tmp_path_factory.mktemp("workflow"))
    snakemake(path)
    return path


def test_grid_scores(workdir):
    summary = (workdir / "results" / "summary.tsv").read_text().splitlines()
    assert len(summary) == 1 + 6  # 2 models × (2 neural + 1 behavioural benchmark)
    for model, layer in (("pixels", "pixels"), ("alexnet_untrained", "features.12")):
        score = json.loads((workdir / "results" / model / "SyntheticShapes.IT-pls.json").read_text())
        assert score["layer"] == layer
        assert score["benchmark"] == "SyntheticShapes.IT-pls" and score["model"] == model
        assert len(score["per_fold"]) == 3
        assert 0 < score["ceiling"] < 1
        assert score["score"] == pytest.approx(score["raw"] ** 2 / score["ceiling"])
        assert score["versions"]["torch"].startswith("2.13")
        assert score["data"]["access"] == "all"  # SyntheticShapes has no public/private parts
    placed = list((workdir / "results" / "stimuli_on_screen").iterdir())
    assert [p.name for p in placed] == ["SyntheticShapes--target8.00--source10.00"]
    layers = sorted(p.name for p in (workdir / "results/activations/alexnet_untrained" / placed[0].name).glob("*.nc"))
    assert layers == ["classifier.5.nc", "features.12.nc", "features.7.nc"]  # + the behavioural readout


def test_second_run_schedules_nothing(workdir):
    result = snakemake(workdir, "-n")
    assert "Nothing to be done" in result.stdout + result.stderr


def test_defaults_written_out_give_the_same_cache_keys(workdir, tmp_path):
    """Rule params carry the resolved settings: stating every default explicitly (ridge_alpha and visual_degrees
    spelt as integers) plans no job."""
    stated = tmp_path / "defaults.yaml"
    defaults = ("splits: 3, train_size: 0.9, random_state: 1, pls_components: 25, ridge_alpha: 1, "
                "visual_degrees: 10")
    stated.write_text(f"benchmark_settings:\n  SyntheticShapes.IT-pls: {{{defaults}}}\n"
                      f"  SyntheticShapes.V4-pls: {{{defaults}}}\n")
    result = snakemake(workdir, "-n", configfiles=(TINY, stated))
    assert "Nothing to be done" in result.stdout + result.stderr, planned_outputs(result)


def test_parameter_change_reruns_only_that_benchmark(workdir, tmp_path):
    override = tmp_path / "change.yaml"
    override.write_text("benchmark_settings:\n  SyntheticShapes.IT-pls: {splits: 3, pls_components: 10}\n"
                        "  SyntheticShapes.V4-pls: {splits: 3}\n")
    result = snakemake(workdir, "-n", configfiles=(TINY, override))
    outputs = planned_outputs(result)
    assert outputs, result.stdout
    rerun = [o for o in outputs if "SyntheticShapes.IT-pls" in o]
    assert rerun and all("SyntheticShapes.V4-pls" not in o for o in outputs), outputs
    assert not any(o.startswith(("results/activations", "results/ceilings", "resources/")) for o in outputs), outputs
    grid_tables = [o for o in outputs if o not in rerun]
    assert all(o.startswith(("results/summary.tsv", "results/leaderboard", "results/plots")) for o in grid_tables), outputs


@pytest.mark.parametrize("override, key, value", [
    ("models: [alexnett]\n", "models[0]", "alexnett"),
    ("model_zoo:\n  alexnet_untrained:\n    architecture: alexnet\n    weights: null\n"
     "    layers: {IT: features.99}\n", "model_zoo.alexnet_untrained.layers.IT", "features.99"),
    ("benchmarks: [SyntheticShapes.IT-plz]\n", "benchmarks[0]", "plz"),
], ids=["unknown-model", "unknown-layer", "unknown-metric"])
def test_bad_config_fails_at_parse_time_naming_the_key(tmp_path, override, key, value):
    bad = tmp_path / "bad.yaml"
    bad.write_text(override)
    result = snakemake(with_config(tmp_path), "-n", configfiles=(TINY, bad), check=False)
    assert result.returncode != 0
    assert key in result.stdout + result.stderr and value in result.stdout + result.stderr


def test_same_numbers_as_before_benchmark_plugins(workdir):
    """Every score of the tiny grid equals the one the pre-plugin code computed (tests/data/, commit 998e483)."""
    reference = json.loads((ROOT / "tests" / "data" / "tiny_reference_scores.json").read_text())
    reference.pop("_about")
    assert len(reference) == 4  # the neural scores; behaviour came later (tests/test_behaviour_workflow.py)
    for key, expected in reference.items():
        model, benchmark = key.split("/")
        score = json.loads((workdir / "results" / model / f"{benchmark}.json").read_text())
        for field in ("score", "raw", "ceiling", "error"):
            assert score[field] == pytest.approx(expected[field], rel=1e-9, abs=1e-12), (key, field)
        assert score["per_fold"] == pytest.approx(expected["per_fold"], rel=1e-9, abs=1e-12)


def declared_localrules():
    """Rule names of the Snakefile's `localrules:` block."""
    block = re.search(r"^localrules:\n((?:    \w+,\n)+)", (ROOT / "Snakefile").read_text(), flags=re.M)
    assert block, "the Snakefile declares no localrules block"
    return re.findall(r"(\w+),", block.group(1))


def test_profile_names_the_workflows_localrules():
    profile = (ROOT / "profiles" / "slurm" / "config.yaml").read_text()
    described = re.search(r"^#\s+localrules: (.+)$", profile, flags=re.M)
    assert described, "profiles/slurm/config.yaml does not list the localrules"
    assert [name.strip() for name in described.group(1).split(",")] == declared_localrules()
    assert {"summary", "leaderboard", "fetch", "fetch_stimuli", "fetch_assembly"} <= set(declared_localrules())


def test_summary_and_leaderboard_run_on_the_submitting_host_under_slurm(workdir):
    """With the SLURM executor (no SLURM on this machine: a submitted job fails with 'sacct' missing) the grid's
    tables are rebuilt on the host: they are localrules, not cluster jobs."""
    result = snakemake(workdir, "--executor", "slurm", "--jobs", "1", "--slurm-init-seconds-before-status-checks",
                       "1", "--forcerun", "summary", "leaderboard", "--", "results/summary.tsv",
                       "results/leaderboard.html", check=False)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "localrule summary:" in output and "localrule leaderboard:" in output, output[-3000:]


def test_pls_components_above_the_training_size_are_reported(workdir, tmp_path):
    """pls_components 1000 on 144 training images: the folds fit 143 components, and the job's log and the score
    JSON say so (a copy of the finished grid: only the folds and scores of that benchmark rerun)."""
    copy = tmp_path / "grid"
    shutil.copytree(workdir, copy, symlinks=True)  # copy2 keeps the mtimes: the cached stages stay cached
    override = tmp_path / "pls.yaml"
    override.write_text("benchmark_settings:\n  SyntheticShapes.IT-pls: {splits: 3, pls_components: 1000}\n")
    snakemake(copy, "--", "results/pixels/SyntheticShapes.IT-pls.json", configfiles=(TINY, override))
    score = json.loads((copy / "results/pixels/SyntheticShapes.IT-pls.json").read_text())
    capped = score["pls_components_capped"]
    assert (capped["requested"], capped["used"]) == (1000, 143), capped
    log = (copy / "logs/fit_fold/pixels/SyntheticShapes.IT-pls/pixels/fold0.log").read_text()
    assert "WARNING: SyntheticShapes.IT-pls: pls_components 1000" in log and "fitted with 143 components" in log


BROKEN_MODEL = '''
import torch


class Boom(torch.nn.Module):
    def forward(self, x):
        raise RuntimeError("this test model fails on every image")


def build():
    return torch.nn.Sequential(Boom(), torch.nn.Conv2d(3, 4, 7, stride=4), torch.nn.Flatten(), torch.nn.LazyLinear(10))
'''


def test_a_partly_failed_grid_rebuilds_the_tables_naming_the_missing_scores(workdir, tmp_path):
    """--keep-going with a model whose extraction fails: the other models' scores are in summary.tsv and the
    leaderboard, the failed model's cells are named missing (the previous run's tables are not left behind)."""
    copy = tmp_path / "grid"
    shutil.copytree(workdir, copy, symlinks=True)
    (copy / "models").mkdir()
    (copy / "models" / "broken.py").write_text(BROKEN_MODEL)
    overlay = tmp_path / "broken.yaml"
    overlay.write_text("models: [pixels, alexnet_untrained, broken]\nmodel_zoo:\n  broken:\n"
                       "    architecture: models/broken.py:build\n    visual_degrees: 8\n"
                       "    layers: {V4: '1', IT: '1'}\n    behavioral_readout_layer: '2'\n")
    result = snakemake(copy, "--keep-going", configfiles=(TINY, overlay), check=False)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "3 score(s) of the grid missing: broken × SyntheticShapes.V4-pls" in output, output[-3000:]
    summary = (copy / "results" / "summary.tsv").read_text().splitlines()
    assert summary[0].split("\t")[-1] == "status" and len(summary) == 1 + 6 + 3
    missing = [line.split("\t") for line in summary if line.endswith("\tmissing")]
    assert sorted((row[0], row[1]) for row in missing) == [
        ("broken", "SyntheticShapes.IT-pls"), ("broken", "SyntheticShapes.V4-pls"),
        ("broken", "SyntheticShapesBehaviour-i2n")]
    page = (copy / "results" / "leaderboard.html").read_text()
    assert "Incomplete grid: 3 score(s) missing" in page and "broken &times; SyntheticShapes.IT-pls" in page
    assert ">broken</th>" in page and ">pixels</th>" in page


# --- per-layer activations: a sweep edit reruns only the new layers' jobs ------------------------------------------

AGGREGATION = {"score", "sweep_table", "sweep_plot", "summary", "leaderboard", "folds_plot", "plots", "all"}


def test_sweep_edits_rerun_only_the_new_layers(workdir, tmp_path, monkeypatch):
    """The tiny grid after a full run (copied with Snakemake's records): adding two layers to alexnet_untrained's IT
    sweep extracts just those two, in one job, and schedules only their Gram matrices, folds and layer scores and
    the IT headline; a layer already extracted for V4 (features.7) is reused, its Gram too. No file of an untouched
    layer is rewritten. One more layer is one single-layer job; removing layers reruns only the aggregation. The
    README's "What a sweep edit reruns" quotes these counts."""
    work = tmp_path / "work"
    shutil.copytree(workdir, work, symlinks=True)  # copy2: mtimes kept, so Snakemake sees the same state
    sweep = tmp_path / "sweep.yaml"

    def with_sweep(*layers):
        sweep.write_text("model_zoo:\n  alexnet_untrained:\n    sweep: {IT: [" + ", ".join(layers) + "]}\n")
        return (TINY, sweep)

    before = file_times(work)
    added = snakemake(work, "-n", configfiles=with_sweep("features.5", "features.7", "features.9", "features.12"))
    assert job_counts(added) == {"activations_layers": 1, "gram": 2, "fit_fold": 9, "score_layer": 3, "score": 1,
                                 "sweep_table": 1, "sweep_plot": 1, "summary": 1, "leaderboard": 1, "folds_plot": 1,
                                 "all": 1}, job_counts(added)
    layer_files = [o for o in planned_outputs(added) if o.startswith("results/activations/")]
    assert len(layer_files) == 1, layer_files  # one job writes both new layers: one forward pass
    assert sorted(layer_files[0].split(", ")) == [f"results/activations/alexnet_untrained/SyntheticShapes--target8.00"
                                                  f"--source10.00/{layer}.nc" for layer in ("features.5", "features.9")]
    snakemake(work, configfiles=with_sweep("features.5", "features.7", "features.9", "features.12"))
    after = file_times(work)
    rewritten = {path for path in before if after[path] != before[path]}
    assert rewritten == {"results/alexnet_untrained/SyntheticShapes.IT-pls.json"}, sorted(rewritten)

    # one more layer: a single-layer job (its counts also show that nothing of the previous edit is left to do)
    one_more = snakemake(work, "-n", configfiles=with_sweep("features.2", "features.5", "features.7", "features.9",
                                                           "features.12"))
    assert job_counts(one_more) == {"activations": 1, "gram": 1, "fit_fold": 3, "score_layer": 1, "score": 1,
                                    "sweep_table": 1, "sweep_plot": 1, "summary": 1, "leaderboard": 1,
                                    "folds_plot": 1, "all": 1}, job_counts(one_more)

    removed = snakemake(work, "-n", configfiles=with_sweep("features.7", "features.12"))
    assert set(job_counts(removed)) <= AGGREGATION, job_counts(removed)
    snakemake(work, configfiles=with_sweep("features.7", "features.12"))
    rewritten = {path for path, time in file_times(work).items() if after.get(path) != time}
    assert rewritten <= {"results/alexnet_untrained/SyntheticShapes.IT-pls.json",
                         "results/alexnet_untrained/SyntheticShapes.IT-pls/sweep.tsv"}, sorted(rewritten)

    # brainpipe.score after the command line, with the same config: everything is reused, nothing rewritten
    merged = {}
    for config in (ROOT / "config" / "config.yaml", TINY, sweep):
        merged = _merged(merged, yaml.safe_load(config.read_text()))
    # key order kept: a param that is a dict (e.g. demo_stimuli's settings) is compared by its repr
    (tmp_path / "merged.yaml").write_text(yaml.safe_dump(merged, sort_keys=False))
    settled = file_times(work)
    monkeypatch.chdir(work)
    score = brainpipe.score("alexnet_untrained", "SyntheticShapes.IT-pls", config=tmp_path / "merged.yaml")
    assert file_times(work) == settled
    assert score.attrs["sweep"] and score.attrs["model_spec"]["sweep"] == {"IT": ["features.7", "features.12"]}
