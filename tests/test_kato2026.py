"""Kato2026 (18 benchmarks): the family as Brain-Score 2.4.2 declares it (identifiers, parents, versions, object
names, sha1s, the label task with max pooling over the data set's truth labels + 'kato2026_others', masked by the
model's choices on the base images), the metric variants against hand-computed values, and end to end (slow): the
fixture files (tests/behaviour_fixtures_kato, in the real layouts) served on 127.0.0.1, downloaded and scored by
``snakemake``; raw score, ceiling and ceiled score equal Brain-Score 2.4.2's own benchmarks on the same files and
weights (tests/data/kato2026/brainscore.json, written by tests/reference/make_kato2026_reference.py) to 1e-6.
"""

import json
import math
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import metrics, stages

REFERENCE = Path(__file__).parent / "data" / "kato2026" / "brainscore.json"
IDENTIFIERS = Path(__file__).parents[1] / "src" / "brainpipe" / "benchmarks" / "brainscore_identifiers_2.4.2.txt"
DATASETS = ("Ori", "Fil", "Lin", "SilTex", "Sil", "Tex", "LinFil", "Sparse", "Dense")


def kato_identifiers():
    return [line.strip() for line in IDENTIFIERS.read_text().splitlines() if line.startswith("Kato2026")]


def test_every_brainscore_identifier_is_listed_and_parses():
    ours = sorted(i for i in benchmarks.builtin().identifiers() if i.startswith("Kato2026"))
    assert ours == sorted(kato_identifiers()) and len(ours) == 18
    for identifier in ours:
        b = benchmarks.parse(identifier)
        assert (b.parent, b.version, b.visual_degrees, b.behaviour.clip, b.behaviour.number_of_trials) == (
            "Kato2026", 1, 10.0, True, 1)
        assert b.behaviour.metric == identifier.split("-", 1)[1]
        assert b.family.bibtex_key == "Kato2026"
        base = dict(b.behaviour.options).get("base_stimulus_set")
        dataset = b.family_name[len("Kato2026"):]
        assert base == {"Ori": None, "Sparse": "Kato2026.Sil", "Dense": "Kato2026.Sil"}.get(dataset, "Kato2026.Ori")
        assert b.family.stimulus_sets == {f"Kato2026.{dataset}"} | ({base} if base else set())


def test_data_names_and_sha1s():
    catalog = benchmarks.default_catalog()
    ori = catalog.assembly("Kato2026.Ori")
    assert (ori.file.name, ori.file.sha1, ori.stimulus_set) == (
        "assy_Kato2026_Ori.nc", "d5a22c25835da413b629d87ec77d6af834a43732", "Kato2026.Ori")
    dense = catalog.stimulus_set("Kato2026.Dense")
    assert (dense.csv.name, dense.csv.sha1, dense.zip.sha1) == (
        "stimulus_Kato2026_Dense.csv", "4e1b9387371d416a0c5758cd78ee683c23c7e191",
        "7557f8e1542cd14edd1f4cf79264ea4851861651")
    assert catalog.assembly("Kato2026.LinFil").file.sha1 == "87f0227c3507e8cf1172ddf5398036f098a40c96"


def test_one_task_per_data_set_shared_by_both_metrics():
    """error_consistency and accuracy_distance of one data set read one task output; data sets never share one
    (each takes its labels from its own truth)."""
    keys = {}
    for identifier in kato_identifiers():
        b = benchmarks.parse(identifier)
        keys.setdefault(b.family.dataset, set()).add(
            (stages.task_key(b.behaviour, b.family, "base"), json.dumps(stages.task_spec(b), sort_keys=True)))
    assert len(keys) == 9 and all(len(v) == 1 for v in keys.values())
    assert len({k for v in keys.values() for k, _ in v}) == 9


def test_kato_class_lists_partition_imagenet():
    """Upstream's 49 kato2026_* lists (48 categories + others) cover every ImageNet class exactly once."""
    from brainpipe.behaviour.tasks import LABEL_TO_IMAGENET_INDICES, label_indices
    kato = {k: v for k, v in LABEL_TO_IMAGENET_INDICES.items() if k.startswith("kato2026_")}
    assert len(kato) == 49
    assert sorted(i for v in kato.values() for i in v) == list(range(1000))
    assert label_indices("kato2026_dog") == list(range(151, 269))
    assert label_indices("kato2026_bellpepper") == [945] and len(label_indices("kato2026_others")) == 668


def test_label_max_aggregation_by_hand():
    from brainpipe.behaviour.tasks import label
    logits = np.zeros((2, 1000))
    logits[0, 281], logits[0, 954] = 3.0, 2.5   # cat: one strong class; banana: one slightly weaker
    logits[0, 282:288] = -5                     # cat's other classes are low: the mean favours banana
    logits[1, 954] = 0.1                        # nothing stands out: 'others' has a class as large as banana's?
    logits[1, 25] = 0.2
    x = xr.DataArray(logits, dims=("presentation", "neuroid"), coords={"stimulus_id": ("presentation", ["a", "b"])})
    labels = ["kato2026_banana", "kato2026_cat", "kato2026_others"]
    assert list(label(x, labels, "max").values[0]) == ["kato2026_cat", "kato2026_others"]
    assert list(label(x, labels).values[0]) == ["kato2026_banana", "kato2026_banana"]
    with pytest.raises(ValueError, match="aggregation"):
        label(x, labels, "median")


def _choices(ids, values):
    return xr.DataArray(np.array(values, dtype=object)[None, :], dims=("choice", "presentation"),
                        coords={"stimulus_id": ("presentation", np.array(ids, dtype=object))})


def test_mask_by_base():
    from brainpipe.behaviour.base_condition import mask_by_base
    test = _choices(["cat_1_f", "dog_2_f"], ["cat", "cat"])
    base = _choices(["ant_0_o", "cat_1_o", "dog_2_o"], ["ant", "cat", "owl"])  # ant: not in the test set
    masked = mask_by_base(test, base, ["ant", "cat", "dog"])
    assert list(masked.values[0]) == ["cat", "NaN"] and list(masked["stimulus_id"].values) == ["cat_1_f", "dog_2_f"]
    with pytest.raises(ValueError, match="no base-condition images correctly"):
        mask_by_base(test, base, ["ant", "dog", "cat"])
    with pytest.raises(ValueError, match="needs its base image"):
        mask_by_base(_choices(["cat_1_f", "dog_2_f", "eel_3_f"], ["cat"] * 3), base, ["ant", "cat", "dog"])
    with pytest.warns(UserWarning, match="different orders"):  # upstream pairs by position: so does this
        swapped = mask_by_base(_choices(["dog_2_f", "cat_1_f"], ["dog", "cat"]), base, ["ant", "cat", "dog"])
    assert list(swapped.values[0]) == ["dog", "NaN"]


def _upstream_metric_data():
    """brain-score/vision metrics/kato_*/test.py's data: 3 subjects × 9 trials."""
    values = ["dog", "cat", "chair", "cat", "dog", "dog", "dog", "dog", "chair",
              "cat", "cat", "chair", "cat", "dog", "cat", "chair", "cat", "cat",
              "dog", "cat", "chair", "dog", "cat", "chair", "dog", "cat", "chair"]
    return xr.DataArray(np.array(values, dtype=object), dims=("presentation",), coords={
        "stimulus_id": ("presentation", np.resize(np.arange(9), 27)),
        "truth": ("presentation", np.resize(np.array(["dog", "cat", "chair"], dtype=object), 27)),
        "condition": ("presentation", np.resize(np.array(["1", "1", "1", "2", "2", "2", "3", "3", "3"], dtype=object),
                                                27)),
        "subject": ("presentation", np.array(["A"] * 9 + ["B"] * 9 + ["C"] * 9, dtype=object))})


def test_metrics_match_upstream_tests():
    """Upstream's own expectations: kato_error_consistency 0.2, kato_accuracy_distance 0.74074074 (subject A vs
    all), and nothing dropped without '' / 'NaN' choices."""
    data = _upstream_metric_data()
    a = data.isel(presentation=slice(0, 9))
    model = a.expand_dims("choice").transpose("choice", "presentation").drop_vars("subject")
    assert metrics.error_consistency(model, data, ("", "NaN")).score == pytest.approx(0.2)
    assert metrics.accuracy_distance(model, data, (), ("", "NaN")).score == pytest.approx(0.74074074)


def test_invalid_choices_are_dropped_on_either_side():
    """By hand: masking a stimulus on one side drops it from both; κ and the distance of the remaining ones."""
    data = _upstream_metric_data()
    a = data.isel(presentation=slice(0, 9)).copy()
    b = data.isel(presentation=slice(9, 18)).copy()
    a.values[[0, 4]] = "NaN"   # A: stimuli 0 and 4 without answer
    b.values[7] = ""           # B: stimulus 7 without answer
    from brainpipe.behaviour.error_consistency import compare_single_subject
    keep = [1, 2, 3, 5, 6, 8]
    ca = (np.asarray(data.values[:9])[keep] == np.asarray(data["truth"].values[:9])[keep])
    cb = (np.asarray(data.values[9:18])[keep] == np.asarray(data["truth"].values[9:18])[keep])
    expected = ca.mean() * cb.mean() + (1 - ca.mean()) * (1 - cb.mean())
    kappa = ((ca == cb).mean() - expected) / (1 - expected)
    assert compare_single_subject(a, b, "", ("", "NaN")) == pytest.approx(kappa)
    from brainpipe.behaviour.accuracy import _single_accuracy_distance
    distance = 1 - abs(ca.mean() - cb.mean()) / max(cb.mean(), 1 - cb.mean())
    assert _single_accuracy_distance(a, b, None, ("", "NaN")) == pytest.approx(distance)
    a.values[:] = "NaN"
    assert np.isnan(_single_accuracy_distance(a, b, None, ("", "NaN")))
    with pytest.raises(ValueError, match="no stimulus where both sides answered"):
        compare_single_subject(a, b, "", ("", "NaN"))


def test_human_choices_may_be_missing_or_name_classes_the_data_set_lacks():
    """The labels come from the data set's truth; people may answer with another category (or none)."""
    b = benchmarks.parse("Kato2026Fil-error_consistency")
    human = xr.DataArray(np.array(["kato2026_dog", "NaN", "kato2026_others", ""], dtype=object), dims=("presentation",),
                         coords={"truth": ("presentation", np.array(["kato2026_cat"] * 2 + ["kato2026_mug"] * 2,
                                                                     dtype=object))})
    stages.check_human_choices(b, human)


# ----------------------------------------------------------------------------------- end to end vs Brain-Score


#: the slow test's share of the 18 (a snakemake run of all 18 takes ~30 min on a loaded 2-core machine; they all
#: equal Brain-Score exactly, checked with the same fixture and workflow): no base condition, the Ori base, the Sil base
SCORED = tuple(f"Kato2026{d}-{m}" for d in ("Ori", "Fil", "Sparse") for m in ("error_consistency", "accuracy_distance"))


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """One snakemake run scoring the prototype alexnet on the benchmarks of SCORED; the score JSONs."""
    import behaviour_fixtures_kato as fk
    from brainio_fixtures import local_http_server
    from real_data_runs import snakemake, write_checksums, write_config

    reference = json.loads(REFERENCE.read_text())
    ids = sorted(SCORED)
    folder = tmp_path_factory.mktemp("kato2026")
    sums = fk.write_store(folder / "store")
    for identifier, theirs in reference["benchmarks"].items():  # the same bytes Brain-Score was given
        assert {name: sums[name] for name in theirs["files"]} == theirs["files"]
    weights = fk.write_torch_home(folder / "torch_home")
    work = folder / "work"
    work.mkdir()
    with local_http_server(folder / "store") as server:
        config = write_config(folder, ids, dict(base_url=server.url,
                                                checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights)
        run = snakemake(work, config, [f"results/alexnet/{i}.json" for i in ids], torch_home=folder / "torch_home")
    assert run.returncode == 0, run.stderr[-5000:]
    return {i: json.loads((work / "results" / "alexnet" / f"{i}.json").read_text()) for i in ids}, work


@pytest.mark.slow
def test_one_task_output_per_data_set(scored):
    """Both metrics of a data set read one task output; the base sets are extracted, not labelled on their own."""
    _, work = scored
    tasks = sorted(p.name for p in (work / "results" / "behaviour" / "alexnet").rglob("*.nc"))
    assert tasks == ["Kato2026.Fil--target8.00--source10.00.nc", "Kato2026.Ori--target8.00--source10.00.nc",
                     "Kato2026.Sparse--target8.00--source10.00.nc"]


@pytest.mark.slow
@pytest.mark.parametrize("identifier", SCORED)
def test_equals_brainscore(scored, identifier):
    theirs = json.loads(REFERENCE.read_text())["benchmarks"][identifier]
    ours = scored[0][identifier]
    for key in ("score", "raw", "ceiling"):
        assert ours[key] == pytest.approx(theirs[key], abs=1e-6), key
    benchmark = benchmarks.parse(identifier)
    assert (ours["parent"], ours["version"], ours["metric"]) == (benchmark.parent, 1, benchmark.behaviour.metric)


def test_fixture_scores_are_not_degenerate():
    """The fixture discriminates: ceilings strictly between the bounds, raw scores not all equal, and the base
    masking matters (a data set scored on fewer images than it has)."""
    reference = json.loads(REFERENCE.read_text())["benchmarks"]
    assert len(reference) == 18
    for identifier, theirs in reference.items():
        assert 0 < theirs["ceiling"] < 1, identifier
    assert len({round(r["raw"], 9) for r in reference.values()}) >= 12


def test_a_model_that_labels_no_base_image_correctly_gets_a_null_score_that_says_why():
    """Brain-Score raises (an untrained network on Kato2026's base photographs); the task stage writes every choice
    masked with the reason, and the comparison (fit_fold's and score_behaviour's) gives a fold without a value that
    says why, which the aggregate and headline carry."""
    from brainpipe.behaviour import stages
    from brainpipe.behaviour.base_condition import MASKED, NoBaseImageCorrect, mask_by_base, unscorable_choices
    from brainpipe.behaviour.ceiled import aggregate
    from brainpipe.pipeline.headline import headline

    test = _choices(["cat_1_f", "dog_2_f"], ["cat", "cat"])
    base = _choices(["ant_0_o", "cat_1_o", "dog_2_o"], ["ant", "cat", "owl"])
    with pytest.raises(NoBaseImageCorrect) as raised:
        mask_by_base(test, base, ["ant", "dog", "cat"])
    choices = unscorable_choices(test, str(raised.value))
    assert (choices.values == MASKED).all() and "no base-condition images correctly" in choices.attrs["reason"]
    benchmark = benchmarks.load("Kato2026Fil-error_consistency")
    fold = stages.comparison(benchmark, choices, test)
    assert fold["value"] is None and fold["reason"] == choices.attrs["reason"]
    layer = aggregate(benchmark, [fold], {"ceiling": 0.5, "error": 0.01})
    assert math.isnan(layer["score"]) and layer["reason"] == choices.attrs["reason"]
    result = headline({"classifier.6": {**layer, "score": None, "raw": None}}, "classifier.6", {}, {}, {}, {})
    assert result["score"] is None and result["reason"] == choices.attrs["reason"]
