"""A lab's export as it comes (examples/lab_export/make_export.py: the lab's own column names, trial-level
recordings as a trials table + trials × neurons array or a long CSV, the humans' choices as trial rows) is packaged
by `brainpipe package` and scored on neural AND behavioural benchmarks from the printed config entries alone: no
plugin, no converter, no file under src/ or workflow/ touched (README "Your own benchmark", issue 23)."""

import json
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
import yaml

from workflow_runs import ROOT, planned_outputs, snakemake, with_config

sys.path.insert(0, str(ROOT / "examples" / "lab_export"))
from make_export import make_export  # noqa: E402
from lab_export_fixtures import COORDS, entries, lab_command, package


def write_config(workdir, zoo, benchmarks, name="lab.yaml"):
    config = {"models": ["alexnet_untrained"], "benchmarks": benchmarks, "batch_size": 32,
              "benchmark_settings": {b: {"splits": 3} for b in benchmarks if b.endswith("-pls")},
              "benchmark_zoo": zoo}
    (workdir / name).write_text(yaml.safe_dump(config))
    return (ROOT / "tests/configs/tiny.yaml", workdir / name)


NEURAL_AND_CHOICES = ("--responses", "my_lab_export/responses.npy", "--trials", "my_lab_export/trials.csv", "--neuroids",
                      "my_lab_export/neurons.csv", "--choices", "my_lab_export/choices.csv", "--coords", COORDS,
                      "--stratification", "object")
#: README "Packaging your data", the worked example (tests/test_readme_commands.py lists it as run here)
README_PACKAGE = ("brainpipe package --name MyLab2024 --images my_lab_export/images --stimuli "
                  "my_lab_export/image_table.csv --responses my_lab_export/responses.npy --trials "
                  "my_lab_export/trials.csv --neuroids my_lab_export/neurons.csv --choices my_lab_export/choices.csv "
                  "--stratification object --visual-degrees 8 --out data/MyLab2024 --coords " + COORDS)
BENCHMARKS = ["MyLab2024.IT-pls", "MyLab2024Behaviour-error_consistency", "MyLab2024Behaviour-accuracy"]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    workdir = with_config(tmp_path_factory.mktemp("lab"))
    make_export(workdir / "my_lab_export")
    printed = package(workdir, *shlex.split(README_PACKAGE)[2:]).stdout  # the README's command, as it stands
    return workdir, printed


def test_the_readme_shows_the_command_run_here():
    import docs_text

    assert (README_PACKAGE, "bash block") in docs_text.commands()
    assert ({*shlex.split(README_PACKAGE)[2:]} ==
            {*map(str, lab_command(Path("my_lab_export"), *NEURAL_AND_CHOICES))})


def test_export_packaged_as_it_comes(lab):
    """One command: the recordings (trials table + array) and the choices, the lab's column names mapped by
    --coords; two entries to paste, sharing one stimulus set."""
    workdir, printed = lab
    zoo = entries(printed)
    assert set(zoo) == {"MyLab2024", "MyLab2024Behaviour"}
    assert zoo["MyLab2024"]["regions"] == ["V4", "IT"] and zoo["MyLab2024"]["ceiling"] == "internal_consistency"
    behaviour = zoo["MyLab2024Behaviour"]
    assert behaviour["stimulus_set"] == "MyLab2024" and behaviour["stimuli"] == zoo["MyLab2024"]["stimuli"]
    assert (behaviour["task"], behaviour["labels"]) == ("label", ["bird", "boat", "car", "dog"])
    assert behaviour["metrics"] == ["error_consistency", "accuracy", "accuracy_distance"]
    assert "V4: 6, IT: 10" in printed and "320 human trials (label task, 4 subjects)" in printed
    human = xr.open_dataarray(workdir / "data/MyLab2024/assy_MyLab2024Behaviour.nc").load()
    choices = pd.read_csv(workdir / "my_lab_export/choices.csv")
    assert list(human.values) == list(choices["response"])
    assert list(human["subject"].values) == list(choices["participant"])
    assert list(human["condition"].values) == list(choices["noise_level"])


def test_long_csv_gives_the_same_recordings(lab, tmp_path):
    """The same recordings exported as one row per trial × neuron give the same assembly."""
    workdir, _ = lab
    package(workdir, *lab_command(Path("my_lab_export"), "--responses", "my_lab_export/responses_long.csv", "--coords", COORDS,
                                  out=tmp_path))
    trials = xr.open_dataarray(workdir / "data/MyLab2024/assy_MyLab2024.nc").load()
    long = xr.open_dataarray(tmp_path / "assy_MyLab2024.nc").load()

    def table(assembly):  # presentation × neuroid, indexed by (stimulus_id, repetition) and neuroid_id
        frame = assembly.to_pandas()
        frame.index = pd.MultiIndex.from_arrays([assembly["stimulus_id"].values, assembly["repetition"].values])
        frame.columns = assembly["neuroid_id"].values
        return frame.sort_index().sort_index(axis=1)
    # the CSV holds the float32 values as text: equal to float32 precision
    pd.testing.assert_frame_equal(table(trials), table(long), check_dtype=False, rtol=1e-6)


@pytest.fixture(scope="module")
def scored(lab):
    workdir, printed = lab
    configs = write_config(workdir, entries(printed), BENCHMARKS)
    snakemake(workdir, configfiles=configs)
    return workdir, configs


@pytest.mark.slow
def test_scored_on_neural_and_behaviour_from_the_entries(scored):
    workdir, _ = scored
    neural = json.loads((workdir / "results/alexnet_untrained/MyLab2024.IT-pls.json").read_text())
    assert np.isfinite(neural["score"]) and 0 < neural["ceiling"] <= 1
    for metric in ("error_consistency", "accuracy"):
        score = json.loads((workdir / f"results/alexnet_untrained/MyLab2024Behaviour-{metric}.json").read_text())
        assert score["benchmark"] == f"MyLab2024Behaviour-{metric}" and score["metric"] == metric
        assert score["task"] == "label" and score["layer"] == "classifier.6" and score["parent"] == "behavior"
        assert np.isfinite(score["score"]) and 0 < score["ceiling"] <= 1
        assert score["origin"] == "config benchmark_zoo.MyLab2024Behaviour"
        assert set(score["data"]["files"]) == {"assy_MyLab2024Behaviour.nc", "stimulus_MyLab2024.csv",
                                               "stimulus_MyLab2024.zip"}
    error_consistency = json.loads(
        (workdir / "results/alexnet_untrained/MyLab2024Behaviour-error_consistency.json").read_text())
    assert error_consistency["ceiling"] > 0.5  # the made-up people err on the same images
    assert {row["condition"] for row in error_consistency["per_condition"]} == {"clean", "noisy"}
    # one stimulus set for both entries: the images' activations are extracted once
    assert [p.name for p in (workdir / "results/activations/alexnet_untrained").iterdir()] == ["MyLab2024"]


@pytest.mark.slow
def test_edited_human_data_reruns_its_ceiling_and_scores_only(scored, tmp_path):
    """The human data file is a tracked input: re-packaged with one answer changed, the printed entry (new sha1)
    reruns the behavioural data, ceilings and scores, and no activations and no neural score."""
    workdir, _ = scored
    choices = pd.read_csv(workdir / "my_lab_export/choices.csv")
    choices.loc[0, "response"] = next(label for label in ("bird", "boat") if label != choices.loc[0, "response"])
    edited = workdir / "export_edited"
    edited.mkdir(exist_ok=True)
    choices.to_csv(edited / "choices.csv", index=False)
    args = list(NEURAL_AND_CHOICES)
    args[args.index("my_lab_export/choices.csv")] = "export_edited/choices.csv"
    printed = package(workdir, *lab_command(Path("my_lab_export"), *args)).stdout
    planned = planned_outputs(snakemake(workdir, "-n", configfiles=write_config(workdir, entries(printed),
                                                                                BENCHMARKS, "edited.yaml")))
    assert "results/ceilings/MyLab2024Behaviour-error_consistency.json" in planned
    assert "results/alexnet_untrained/MyLab2024Behaviour-accuracy.json" in planned
    assert not [p for p in planned if "activations" in p or "MyLab2024.IT" in p or "gram" in p], planned


@pytest.mark.slow
def test_identical_repackaging_reruns_nothing(scored):
    """Packaging the same export again (same sha1s, new modification times) leaves the files as they were."""
    workdir, configs = scored
    package(workdir, *lab_command(Path("my_lab_export"), *NEURAL_AND_CHOICES))
    assert planned_outputs(snakemake(workdir, "-n", configfiles=configs)) == []


@pytest.mark.slow
def test_two_alternative_and_odd_one_out_choices(lab):
    """The other two tasks from the same export: 2AFC trials (a distractor per trial: probabilities task, i2n
    with its computed split-half ceiling) and odd-one-out triplets (the ceiling given as a number)."""
    workdir, _ = lab
    pairs = package(workdir, *lab_command(
        Path("my_lab_export"), "--choices", "my_lab_export/pairs.csv", "--coords",
        "stimulus_id=image,subject=participant,choice=response,truth=correct_label,distractor=other",
        name="MyLabPairs", out="data/MyLabPairs")).stdout
    triplets = package(workdir, *lab_command(
        Path("my_lab_export"), "--choices", "my_lab_export/triplets.csv", "--ceiling", 0.8, "--coords",
        "stimulus_id=image,subject=participant,choice=odd,image_1=first,image_2=second,image_3=third",
        name="MyLabTriplets", out="data/MyLabTriplets")).stdout
    zoo = {**entries(pairs), **entries(triplets)}
    assert zoo["MyLabPairs"]["fitting_label_column"] == "category" and zoo["MyLabPairs"]["task"] == "probabilities"
    # a trials file of your own with its own names: behaviour.coords maps them, as assembly.coords does
    human = xr.open_dataarray(workdir / "data/MyLabPairs/assy_MyLabPairs.nc").load().rename(subject="participant")
    human.to_netcdf(workdir / "own_names.nc")
    zoo["MyLabPairs"]["behaviour"] = {"file": "own_names.nc", "coords": {"subject": "participant"}}
    zoo["MyLabPairs"]["metrics"] = ["i2n", "i1"]  # the printed entry offers i2n; the user adds i1
    benchmarks = ["MyLabPairs-i2n", "MyLabPairs-i1", "MyLabTriplets-odd_one_out_match"]
    snakemake(workdir, configfiles=write_config(workdir, zoo, benchmarks, "tasks.yaml"))
    i2n = json.loads((workdir / "results/alexnet_untrained/MyLabPairs-i2n.json").read_text())
    assert i2n["task"] == "probabilities" and i2n["layer"] == "classifier.5" and np.isfinite(i2n["score"])
    assert i2n["formula"] == "mean over splits of raw_k / sqrt(ceiling_k)" and 0 < i2n["ceiling"] <= 1
    i1 = json.loads((workdir / "results/alexnet_untrained/MyLabPairs-i1.json").read_text())
    assert i1["metric"] == "i1" and i1["task"] == "probabilities" and np.isfinite(i1["score"]) and i1["raw"] != i2n["raw"]
    match = json.loads((workdir / "results/alexnet_untrained/MyLabTriplets-odd_one_out_match.json").read_text())
    assert match["ceiling"] == 0.8 and 0 <= match["score"] <= 1 and match["task"] == "odd_one_out"


@pytest.mark.slow
def test_check_warns_about_a_ceiling_too_low_to_score_against(scored):
    """Choices that agree between people no more than chance give an error-consistency ceiling near 0: `brainpipe
    check` passes the range check but warns, states the threshold and why, and how many subjects per stimulus the
    metric needs. (The entry shares MyLab2024's stimulus set, so the model's task output is reused.)"""
    workdir, configs = scored
    choices = pd.read_csv(workdir / "my_lab_export/choices.csv")
    rng = np.random.default_rng(0)
    choices["response"] = rng.permutation(choices["response"].to_numpy())  # answers unrelated to the images
    choices.to_csv(workdir / "noisy.csv", index=False)
    noisy = entries(package(workdir, *lab_command(Path("my_lab_export"), "--choices", "noisy.csv", "--coords", COORDS,
                                                  name="MyLabNoisy", out="data/MyLabNoisy")).stdout)["MyLabNoisy"]
    config = yaml.safe_load((workdir / "lab.yaml").read_text())
    zoo = config["benchmark_zoo"]
    zoo["MyLabNoisy"] = {**noisy, "stimuli": zoo["MyLab2024"]["stimuli"], "stimulus_set": "MyLab2024"}
    (workdir / "noisy.yaml").write_text(yaml.safe_dump(config))
    run = subprocess.run([sys.executable, "-m", "brainpipe", "check", "MyLabNoisy-error_consistency", "--model",
                          "alexnet_untrained", "--config", "noisy.yaml"], cwd=workdir, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "ok    ceiling" in run.stdout
    assert "WARN  ceiling" in run.stdout and "is below 0.2" in run.stdout and "mostly noise" in run.stdout
    assert "needs at least 2 subjects per stimulus" in run.stdout and "4–4 (median 4) subjects" in run.stdout
