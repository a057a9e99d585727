"""The errors a lab's own data meets (issue 23), each stopped early with one message that names the file, key or
value and says what to do; where Brain-Score has a behaviour, brainpipe's is checked against it."""

import os
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
import yaml

import brainpipe
from brainpipe import benchmarks as bench
from brainpipe.behaviour.ceiling_advice import LOW_CEILING, ceiling_advice
from brainpipe.pipeline.declared_files import StaleSha1, check_declared_sha1s
from brainpipe.pipeline.layer_commitment import selection_warning
from lab_export_fixtures import COORDS, entries, lab_command
from lab_export_fixtures import package as run_package
from workflow_runs import ROOT, snakemake, with_config

sys.path.insert(0, str(ROOT / "examples" / "lab_export"))
from make_export import make_export  # noqa: E402

NEURAL = ("--responses", "export/responses.npy", "--trials", "export/trials.csv", "--neuroids", "export/neurons.csv",
          "--coords", COORDS)


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    workdir = with_config(tmp_path_factory.mktemp("errors"))
    make_export(workdir / "export")
    return workdir


def test_a_region_with_one_odd_neuroid_is_refused_with_the_counts(export, tmp_path):
    """`Ti` among `IT`: packaging lists the regions with their counts and refuses a region with fewer neuroids
    than rdm/cka need, unless told otherwise (--min-neuroids 1)."""
    neurons = pd.read_csv(export / "export/neurons.csv")
    neurons.loc[neurons.index[-1], "area"] = "Ti"
    neurons.to_csv(tmp_path / "neurons.csv", index=False)
    args = list(NEURAL)
    args[args.index("export/neurons.csv")] = tmp_path / "neurons.csv"
    run = run_package(export, *lab_command(Path("export"), *args, out=tmp_path / "out"), check=False)
    assert run.returncode == 1 and not (tmp_path / "out/assy_MyLab2024.nc").exists()
    assert "region 'Ti' has 1 neuroid(s) (regions: V4: 6, IT: 9, Ti: 1)" in run.stderr
    assert "--min-neuroids 1" in run.stderr
    kept = run_package(export, *lab_command(Path("export"), *args, "--min-neuroids", 1, out=tmp_path / "out"))
    assert entries(kept.stdout)["MyLab2024"]["regions"] == ["V4", "IT", "Ti"]


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_a_region_no_model_commits_stops_at_parse_time_and_deletes_nothing(export, tmp_path):
    """A benchmark of a region the grid's model commits no layer to (a typo) used to pass `snakemake -n` and then
    fail as missing files, deleting the previous leaderboard: now the workflow does not start, and says why (the
    declared region is not in the recordings)."""
    zoo = entries(run_package(export, *lab_command(Path("export"), *NEURAL, "--min-neuroids", 1)).stdout)
    zoo["MyLab2024"]["regions"] = ["V4", "IT", "Ti"]
    config = export / "typo.yaml"
    config.write_text(yaml.safe_dump({"models": ["alexnet_untrained"], "benchmark_zoo": zoo,
                                      "benchmarks": ["MyLab2024.IT-pls", "MyLab2024.Ti-pls"]}))
    (export / "results").mkdir(exist_ok=True)
    (export / "results/leaderboard.csv").write_text("model,score\nprevious,1\n")
    for extra in (("-n",), ()):
        run = snakemake(export, *extra, configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
        assert run.returncode != 0
        message = run.stdout + run.stderr
        # the entry's region is checked against its local recordings first (issue 37 item 10): the typo is named
        # where it was made, with the nearest region (a region the data hold but no model commits:
        # tests/test_grid_cells.py)
        assert "config benchmark_zoo.MyLab2024.regions: region 'Ti' is not in" in message
        assert "did you mean 'IT'" in message
        assert "Missing files" not in message
    assert (export / "results/leaderboard.csv").read_text() == "model,score\nprevious,1\n"


def test_a_stale_sha1_names_the_entry_key_and_the_command_that_reprints_it(export, tmp_path):
    """A declared file edited after its entry was written stops the workflow at its start, naming the entry's own
    sha1 key (not the advice for Brain-Score's files under data.local_files), and deletes nothing."""
    zoo = entries(run_package(export, *lab_command(Path("export"), *NEURAL, "--choices", "export/choices.csv",
                                                   out=tmp_path)).stdout)
    cache = tmp_path / "sha1s.json"
    check_declared_sha1s({"benchmark_zoo": zoo}, cache)  # as packaged: fine
    human = tmp_path / "assy_MyLab2024Behaviour.nc"
    human.write_bytes(human.read_bytes() + b" ")  # the file changed, the entry did not
    with pytest.raises(StaleSha1) as caught:
        check_declared_sha1s({"benchmark_zoo": zoo}, cache)
    message = str(caught.value)
    assert message.startswith("config benchmark_zoo.MyLab2024Behaviour.behaviour.sha1: ")
    assert f"sha1sum {human}" in message and "brainpipe package" in message
    assert "data.local_files" not in message and "Brain-Score" not in message
    # through the workflow: stops before any job, with the same message
    config = export / "stale.yaml"
    config.write_text(yaml.safe_dump({"models": ["alexnet_untrained"], "benchmark_zoo": zoo,
                                      "benchmarks": ["MyLab2024Behaviour-accuracy"]}))
    run = snakemake(export, "-n", configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0 and "config benchmark_zoo.MyLab2024Behaviour.behaviour.sha1" in run.stdout + run.stderr
    assert human.is_file()


def test_identical_repackaging_keeps_the_files(export, tmp_path):
    """Same content, new run: the files keep their modification times, so nothing downstream reruns
    (tests/test_lab_export.py checks the dry run after a whole scoring run)."""
    args = lab_command(Path("export"), *NEURAL, "--choices", "export/choices.csv", out=tmp_path)
    run_package(export, *args)
    before = {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()}
    os.utime(export / "export/choices.csv")  # a new export of the same data
    run_package(export, *args)
    assert {path.name: path.stat().st_mtime_ns for path in tmp_path.iterdir()} == before


def test_sklearn_pls_refuses_more_components_than_features():
    """What Brain-Score does (its PLS is sklearn's PLSRegression): it does not clamp, it refuses."""
    from sklearn.cross_decomposition import PLSRegression

    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="upper bound is 16"):
        PLSRegression(25, scale=False).fit(rng.random((40, 16)), rng.random((40, 3)))


TINY_NET = """import torch.nn as nn


def build():
    return nn.Sequential(nn.Conv2d(3, 4, 5, stride=4), nn.AdaptiveAvgPool2d(2), nn.Flatten())
"""


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_a_layer_with_fewer_features_than_pls_components_fails_at_the_fold(tmp_path):
    """16 features, pls_components 25: the fold stops naming layer, features and components (Brain-Score's PLS
    refuses, see above), instead of null per-fold values and a formatting error at the score."""
    workdir = with_config(tmp_path)
    (workdir / "tiny_net.py").write_text(TINY_NET)
    config = workdir / "tiny_net.yaml"
    config.write_text(yaml.safe_dump({
        "models": ["tiny_net"], "benchmarks": ["SyntheticShapes.IT-pls"],
        "model_zoo": {"tiny_net": {"architecture": "tiny_net.py:build", "weights": None, "seed": 0,
                                   "layers": {"IT": "2"}}}}))
    run = snakemake(workdir, configfiles=(ROOT / "tests/configs/tiny.yaml", config), check=False)
    assert run.returncode != 0
    log = run.stdout + run.stderr
    assert "SyntheticShapes.IT-pls: layer '2' has 16 features, fewer than pls_components = 25" in log
    assert "benchmark_settings.SyntheticShapes.IT-pls.pls_components to at most 16" in log
    assert "NoneType.__format__" not in log and not (workdir / "results/tiny_net/SyntheticShapes.IT-pls.json").exists()


def _human(subjects, stimuli, rng, consistent):
    """Label trials of 4 classes, 40 % errors; ``consistent``: everyone errs on the same images with the same
    answer, else each person at random."""
    labels = ["bird", "boat", "car", "dog"]
    hard = rng.random(stimuli) < 0.4
    rows = []
    for subject in range(subjects):
        for i in range(stimuli):
            truth, lure = labels[i % 4], labels[(i + 1) % 4]
            wrong = hard[i] if consistent else rng.random() < 0.4
            rows.append((f"s{subject}", f"img{i}", lure if wrong else truth, truth))
    frame = pd.DataFrame(rows, columns=["subject", "stimulus_id", "choice", "truth"])
    coords = {c: ("presentation", frame[c].to_numpy(object)) for c in ("subject", "stimulus_id", "truth")}
    coords["condition"] = ("presentation", np.full(len(frame), "all", dtype=object))
    return xr.DataArray(frame["choice"].to_numpy(object), dims=("presentation",), coords=coords)


def test_a_behavioural_ceiling_below_the_threshold_is_warned_with_what_the_metric_needs():
    from brainpipe.behaviour import metrics
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    family, _, _ = declared_behaviour_family("Noisy", {
        "stimuli": {"csv": "s.csv", "zip": "s.zip"}, "behaviour": {"file": "b.nc"}, "task": "label",
        "labels": ["bird", "boat", "car", "dog"], "metrics": ["error_consistency", "accuracy"], "visual_degrees": 8})
    benchmark = bench.base.build("Noisy-error_consistency", {"Noisy": family})
    rng = np.random.default_rng(1)
    noisy = _human(2, 40, rng, consistent=False)
    ceiling = metrics.ceiling("error_consistency", noisy).score
    assert ceiling < LOW_CEILING
    advice = ceiling_advice(benchmark, ceiling, noisy)
    assert f"below {LOW_CEILING}" in advice[0] and "mostly noise" in advice[0] and "0.318" in advice[0]
    assert "needs at least 2 subjects per stimulus" in advice[1] and "2–2 (median 2) subjects" in advice[1]
    steady = _human(6, 40, rng, consistent=True)
    assert metrics.ceiling("error_consistency", steady).score > LOW_CEILING
    assert ceiling_advice(benchmark, metrics.ceiling("error_consistency", steady).score, steady) == []
    fixed = bench.base.build("Noisy-accuracy", {"Noisy": family})  # a declared ceiling (1) says nothing of the data
    assert ceiling_advice(fixed, 0.05, noisy) == []


def test_score_with_other_settings_than_the_config_refuses_for_a_grid_model(tmp_path, monkeypatch):
    """brainpipe.score('alexnet_untrained', ..., pls_components=10) would overwrite the grid's result for the
    config's settings: it refuses before running anything and says where the settings belong."""
    monkeypatch.chdir(with_config(tmp_path))
    with pytest.raises(ValueError) as caught:
        brainpipe.score("alexnet_untrained", "SyntheticShapes.IT-pls", pls_components=10)
    message = str(caught.value)
    assert "results/alexnet_untrained/SyntheticShapes.IT-pls.json is the grid's score" in message
    assert "pls_components=25" in message and "benchmark_settings.SyntheticShapes.IT-pls" in message
    assert not (tmp_path / "results").exists()


def test_commit_layers_warns_when_it_selects_on_the_reported_data(export):
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    warning = selection_warning(config, ["SyntheticShapes.IT-pls"], "IT")
    assert "SyntheticShapes.IT-pls" in warning and "selects layers on the public recordings" in warning
    assert "reports on the private recordings" in warning
    # selecting on other data (held-out images, declared on their own) than the grid reports: nothing to warn
    zoo = entries(run_package(export, *lab_command(Path("export"), *NEURAL)).stdout)
    config = {**config, "benchmark_zoo": zoo, "benchmarks": ["SyntheticShapes.IT-pls"]}
    assert selection_warning(config, ["MyLab2024.IT-pls"], "IT") is None


BEHAVIOUR_ENTRY = {"stimuli": {"csv": "s.csv", "zip": "s.zip"}, "behaviour": {"file": "b.nc"}, "task": "label",
                   "labels": ["bird", "boat"], "visual_degrees": 8}


@pytest.mark.parametrize("change, message", [
    ({"task": "labels"}, "unknown task 'labels' (did you mean 'label'?)"),
    ({"metrics": ["i2n"]}, "metric 'i2n' compares the 'probabilities' task's output, but task is 'label'"),
    ({"metrics": ["error_consistancy"]}, "did you mean 'error_consistency'?"),
    ({"labels": ["bird", "greeble"]}, "label 'greeble' has no ImageNet class mapping"),
    ({"labels": {"greeble": [1000]}}, "labels.greeble: expected a list of ImageNet class indices (0-999)"),
    ({"task": "odd_one_out", "labels": None}, "only the label task reads labels"),
    ({"ceiling": 1.5}, "expected computed or a number in (0, 1]"),
    ({"behaviour": {"file": "b.nc", "coords": {"stimulus_id": "image"}}}, "unknown key 'stimulus_id'"),
    ({"regions": ["IT"]}, "unknown key 'regions'"),
])
def test_malformed_behaviour_declarations_name_the_key(change, message):
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    entry = {**BEHAVIOUR_ENTRY, **change}
    with pytest.raises(ValueError) as caught:
        declared_behaviour_family("MyChoices", entry)
    assert message in str(caught.value)
    assert str(caught.value).startswith("config benchmark_zoo.MyChoices")


def test_odd_one_out_needs_a_declared_ceiling():
    from brainpipe.benchmarks.declared_behaviour import declared_behaviour_family

    entry = {key: value for key, value in BEHAVIOUR_ENTRY.items() if key != "labels"} | {"task": "odd_one_out"}
    with pytest.raises(ValueError, match="odd_one_out_match has no ceiling computed from the data"):
        declared_behaviour_family("MyTriplets", entry)
    family, _, _ = declared_behaviour_family("MyTriplets", entry | {"ceiling": 0.7})
    (behaviour,) = family.behaviours
    assert (behaviour.ceiling, behaviour.normalisation, behaviour.clip) == (0.7, "chance_corrected", True)
