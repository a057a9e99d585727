"""Maniquet2024 (2 benchmarks): the family as Brain-Score 2.4.2 declares it, its metrics against independent
computations (numpy counts, np.corrcoef), and end to end (slow): the fixture files (tests/behaviour_fixtures_maniquet,
in the real layouts) served on 127.0.0.1, downloaded and scored by ``snakemake``; raw score, ceiling and ceiled score
equal Brain-Score 2.4.2's own benchmarks on the same files and seeded weights (tests/data/maniquet2024/brainscore.json,
written by tests/reference/make_maniquet2024_reference.py) to 1e-6 (both fit the same
logistic readout; equal to the last digit on the fixture).
"""

import json
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import confusion, stages

REFERENCE = Path(__file__).parent / "data" / "maniquet2024" / "brainscore.json"
IDS = ("Maniquet2024-confusion_similarity", "Maniquet2024-tasks_consistency")


def test_identifiers_constants_and_data():
    assert sorted(i for i in benchmarks.builtin().identifiers() if i.startswith("Maniquet2024")) == list(IDS)
    for identifier, ceiling in zip(IDS, (0.53526, 0.99810)):
        b = benchmarks.parse(identifier)
        assert (b.parent, b.version, b.visual_degrees, b.behaviour.clip, b.behaviour.ceiling) == (
            "Maniquet2024", 1, 8.0, False, ceiling)
        assert (b.behaviour.task, b.family.readout.stimulus_set, b.family.stimulus_set) == (
            "probabilities", "Maniquet2024-train", "Maniquet2024-test")
    catalog = benchmarks.default_catalog()
    assert catalog.assembly("Maniquet2024").file.sha1 == "39b8b7b29fad080ebba6df8a46ac4426261342d5"
    test = catalog.stimulus_set("Maniquet2024-test")
    assert (test.csv.name, test.csv.sha1, test.zip.sha1) == (
        "stimulus_Maniquet2024-test.csv", "993089ba4aaeffbc61303acb2a5171a5fa271ea5",
        "39f9aaf13fdd66d284bcea99f187bb0c065144e4")
    a, b = (benchmarks.parse(i) for i in IDS)  # one readout shared by both
    assert stages.task_key(a.behaviour, a.family, "x") == stages.task_key(b.behaviour, b.family, "x")


def test_task_condition_table():
    from brainpipe.benchmarks.families.maniquet2024 import DETAILS, MANIPULATIONS
    m, d = dict(MANIPULATIONS), dict(DETAILS)
    assert confusion.task_condition("control", m, d) == ("control", "control")
    assert confusion.task_condition("clutter_heavy", m, d) == ("clutter", "heavy")
    assert confusion.task_condition("occlusion_few_large_partial_viewing_high", m, d) == ("occluder", "fewlarge-high")
    assert confusion.task_condition("scrambling_lowpass", m, d) == ("phasescrambling", "lowpass")
    assert confusion.task_condition("occlusion_odd", m, d) == ("occluder", "control")  # unknown detail
    assert confusion.task_condition("blur_light", m, d) == (None, "control")  # detail "blur_light"


def _probabilities(rng, n=40, classes=("a", "b", "c", "d")):
    proba = rng.random((n, len(classes)))
    truth = rng.choice(classes, n)
    manipulation = rng.choice(["control", "clutter"], n)
    return xr.DataArray(proba / proba.sum(1, keepdims=True), dims=("presentation", "choice"), coords={
        "choice": list(classes), "image_label": ("presentation", truth),
        "manipulation": ("presentation", manipulation),
        "manipulation_details": ("presentation", np.where(manipulation == "control", "control", "heavy")),
        "stimulus_id": ("presentation", [f"s{i}" for i in range(n)])})


def _human(rng, n=60, classes=("a", "b", "c", "d")):
    label = rng.choice(classes, n)
    prediction = np.where(rng.random(n) < 0.6, label, rng.choice(classes, n))
    return xr.DataArray((label == prediction).astype(int), dims=("presentation",), coords={
        "image_label": ("presentation", label), "prediction": ("presentation", prediction),
        "task": ("presentation", rng.choice(["control", "clutter_heavy"], n)),
        "stimulus_id": ("presentation", [f"h{i}" for i in range(n)])})


def test_confusion_similarity_by_hand():
    rng = np.random.default_rng(0)
    model, human = _probabilities(rng), _human(rng)
    classes = list(model["choice"].values)
    predicted = np.array(classes)[model.values.argmax(1)]

    def counts(true, chosen):
        m = np.zeros((4, 4))
        for t, c in zip(true, chosen):
            m[classes.index(t), classes.index(c)] += 1
        return m[~np.eye(4, dtype=bool)]
    expected = np.corrcoef(counts(human["image_label"].values, human["prediction"].values),
                           counts(model["image_label"].values, predicted))[0, 1]
    assert confusion.confusion_similarity(model, human).score == pytest.approx(expected)
    with pytest.raises(ValueError, match="readout classes"):
        confusion.confusion_similarity(model, human.isel(presentation=human["image_label"] != "a"))


def test_tasks_consistency_by_hand():
    rng = np.random.default_rng(1)
    model, human = _probabilities(rng), _human(rng)
    human = xr.concat([human, human.assign_coords(task=("presentation", ["scrambling_highpass"] * 60))],
                      "presentation")
    model = xr.concat([model, model.assign_coords(manipulation=("presentation", ["phasescrambling"] * 40),
                                                   manipulation_details=("presentation", ["highpass"] * 40))],
                      "presentation")
    predicted = np.array(model["choice"].values)[model.values.argmax(1)]
    right = predicted == model["image_label"].values
    sel = {"clutter_heavy": ("clutter", "heavy"), "control": ("control", "control"),
           "scrambling_highpass": ("phasescrambling", "highpass")}
    ours = [right[(model["manipulation"].values == m) & (model["manipulation_details"].values == d)].mean()
            for m, d in sel.values()]
    theirs = [(human["image_label"].values == human["prediction"].values)[human["task"].values == t].mean() for t in sel]
    from brainpipe.benchmarks.families.maniquet2024 import DETAILS, MANIPULATIONS
    result = confusion.tasks_consistency(model, human, dict(MANIPULATIONS), dict(DETAILS))
    assert result.score == pytest.approx(np.corrcoef(ours, theirs)[0, 1])
    assert stages.raw_score(benchmarks.parse(IDS[1]), model, human).score == result.score  # the stage's raw score


def test_its_module_registers_its_metrics_and_no_shared_module_names_them():
    """The family's own logic sits in its module (brainpipe.benchmarks.families.maniquet2024 registers both metrics), so the
    shared stages name neither."""
    from brainpipe.behaviour import metric_registry

    for metric in ("confusion_similarity", "tasks_consistency"):
        assert metric_registry.lookup(metric).origin == "brainpipe.benchmarks.families.maniquet2024"
        assert metric not in Path(stages.__file__).read_text()
    rng = np.random.default_rng(0)
    model, human = _probabilities(rng), _human(rng)
    assert stages.raw_score(benchmarks.parse(IDS[0]), model, human).score == \
        confusion.confusion_similarity(model, human).score


# ----------------------------------------------------------------------------------- end to end vs Brain-Score


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    import behaviour_fixtures_families as ff
    import behaviour_fixtures_maniquet as fm
    from brainio_fixtures import local_http_server
    from real_data_runs import snakemake, write_checksums, write_config

    reference = json.loads(REFERENCE.read_text())
    folder = tmp_path_factory.mktemp("maniquet2024")
    sums = fm.write_store(folder / "store")
    for identifier, theirs in reference["benchmarks"].items():  # the same bytes Brain-Score was given
        assert {name: sums[name] for name in theirs["files"]} == theirs["files"]
    weights = ff.write_torch_home(folder / "torch_home", "seeded")
    work = folder / "work"
    work.mkdir()
    with local_http_server(folder / "store") as server:
        config = write_config(folder, list(IDS), dict(base_url=server.url,
                                                      checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights)
        run = snakemake(work, config, [f"results/alexnet/{i}.json" for i in IDS], torch_home=folder / "torch_home")
    assert run.returncode == 0, run.stderr[-5000:]
    return {i: json.loads((work / "results" / "alexnet" / f"{i}.json").read_text()) for i in IDS}


@pytest.mark.slow
@pytest.mark.parametrize("identifier", IDS)
def test_equals_brainscore(scored, identifier):
    theirs = json.loads(REFERENCE.read_text())["benchmarks"][identifier]
    ours = scored[identifier]
    for key in ("score", "raw", "ceiling"):
        assert ours[key] == pytest.approx(theirs[key], abs=1e-6), key
    assert (ours["parent"], ours["version"]) == ("Maniquet2024", 1)


def test_fixture_scores_are_not_degenerate():
    reference = json.loads(REFERENCE.read_text())["benchmarks"]
    assert sorted(reference) == list(IDS)
    assert all(np.isfinite(r["raw"]) and r["raw"] != 0 for r in reference.values())
