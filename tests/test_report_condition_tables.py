"""Per-condition accuracy tables (brainpipe.behaviour.condition_tables) behind the report's Scialom2024 and Baker2022
figures, against plain pandas / numpy and accuracy_delta's own deltas; which benchmarks get them and which files
the figure reads (brainpipe.pipeline.report); the figures themselves from small tables. The figures from a real
workflow run: tests/test_scialom2024.py and tests/test_behaviour_families.py (slow)."""

import json

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour.accuracy_delta import human_delta, model_delta
from brainpipe.behaviour.condition_tables import (condition_table, image_type_accuracy_table,
                                                   label_accuracy_table)
from brainpipe.pipeline import figures, report
from report_fixtures import is_png

LABELS = np.array(["Banana", "Beanie", "Boot", "Cup"])
SCIALOM_AD = "Scialom2024_{}BehavioralAccuracyDistance"
BAKER = [f"Baker2022{k}-accuracy_delta" for k in ("frankenstein", "fragmented", "inverted")]


def _labelling(seed=2, conditions=("12",), n_images=24, subjects=("1", "2", "3")):
    """Human trials (values = answers; every subject names every image, one subject misses one trial) and the
    model's labels on more stimuli than the human data has, in another order."""
    rng = np.random.default_rng(seed)
    ids = np.arange(n_images)
    truth = LABELS[rng.integers(0, len(LABELS), n_images)]
    condition = np.array(conditions)[ids % len(conditions)]
    rows = []
    for s, subject in enumerate(subjects):
        for i in rng.permutation(n_images):
            if s == 0 and i == 0:
                continue
            answer = truth[i] if rng.random() < 0.4 + 0.2 * s else LABELS[rng.integers(0, len(LABELS))]
            rows.append(dict(stimulus_id=int(i), subject=subject, condition=condition[i], truth=truth[i],
                             answer=answer))
    table = pd.DataFrame(rows)
    human = xr.DataArray(table["answer"].to_numpy(object), dims="presentation",
                         coords={c: ("presentation", table[c].to_numpy()) for c in
                                 ("stimulus_id", "subject", "condition", "truth")})
    extra = n_images + 3  # stimuli the human data does not have are left out
    model_ids = np.arange(extra)[::-1]
    model_answers = np.where(rng.random(extra) < 0.5, np.resize(truth, extra), LABELS[rng.integers(0, 4, extra)])
    model = xr.DataArray(model_answers[None, :], dims=("choice", "presentation"),
                         coords={"stimulus_id": ("presentation", model_ids)})
    return model, human, table, dict(zip(model_ids, model_answers)), dict(zip(ids, truth))


def test_label_accuracy_matches_pandas():
    model, human, table, answers, truth = _labelling(conditions=("21", "100", "RGB"))
    rows = label_accuracy_table(model, human)
    assert [r["condition"] for r in rows] == ["100", "21", "RGB"]  # text order where a level is not a number
    table["right"] = table["answer"] == table["truth"]
    for row in rows:
        cell = table[table["condition"] == row["condition"]]
        per_subject = cell.groupby("subject")["right"].mean()
        stimuli = sorted(set(cell["stimulus_id"]))
        assert row["n_subjects"] == 3 and row["n_stimuli"] == len(stimuli)
        assert row["human_accuracy"] == pytest.approx(per_subject.mean(), abs=1e-12)
        assert row["human_accuracy_std"] == pytest.approx(per_subject.std(ddof=0), abs=1e-12)
        assert row["model_accuracy"] == pytest.approx(np.mean([answers[i] == truth[i] for i in stimuli]), abs=1e-12)
    assert set(rows[0]) == {"condition", "model_accuracy", "human_accuracy", "human_accuracy_std", "n_subjects",
                            "n_stimuli"}


def test_label_accuracy_names_a_missing_coordinate_and_a_missing_model_output():
    model, human, *_ = _labelling()
    with pytest.raises(ValueError, match="condition"):
        label_accuracy_table(model, human.drop_vars("condition"))
    with pytest.raises(ValueError, match="no model output"):
        label_accuracy_table(model.isel(presentation=slice(5, None)), human)


def _baker(seed=4, subjects=5):
    """Model labels on 3 animals × (w, f, o) × 2 images, plus an inverted image; human 0/1 trials."""
    rng = np.random.default_rng(seed)
    animals, types = ("bear", "cat", "wolf"), ("w", "f", "o")
    meta = [(f"{t}{a}{n}", a, t) for a in animals for t in types for n in (1, 2)]
    ids, animal, image_type = map(list, zip(*meta))
    chosen = [a if rng.random() < {"w": 0.9, "f": 0.5, "o": 0.3}[t] else animals[rng.integers(0, 3)]
              for _, a, t in meta]
    model = xr.DataArray(np.array(chosen + ["cat"], dtype=object)[None, :], dims=("choice", "presentation"),
                         coords={"stimulus_id": ("presentation", np.array(ids + ["invbear1"], dtype=object)),
                                 "animal": ("presentation", np.array(animal + ["bear"], dtype=object)),
                                 "image_type": ("presentation", np.array(image_type + ["w"], dtype=object)),
                                 "orientation": ("presentation", np.array(["normal"] * len(ids) + ["inverted"],
                                                                          dtype=object))})
    rows = [dict(subject=s, stimulus_id=i, image_type=t, orientation="normal",
                 correct=int(rng.random() < {"w": 0.95, "f": 0.4, "o": 0.6}[t]))
            for s in range(1, subjects + 1) for i, _, t in meta]
    table = pd.DataFrame(rows)
    human = xr.DataArray(table["correct"].to_numpy(), dims="presentation",
                         coords={c: ("presentation", table[c].to_numpy()) for c in table.columns if c != "correct"})
    return model, human, table, dict(zip(ids, chosen)), dict(zip(ids, animal)), dict(zip(ids, image_type))


@pytest.mark.parametrize("image_types", [("w", "f"), ("w", "o")])
def test_image_type_accuracy_by_hand_and_its_drops_are_the_metric_deltas(image_types):
    model, human, table, chosen, animal, image_type = _baker()
    rows = image_type_accuracy_table(model, human, image_types, "normal")
    assert [r["condition"] for r in rows] == ["whole", {"f": "frankenstein", "o": "fragmented"}[image_types[1]]]
    for row, t in zip(rows, image_types):
        per_animal = [np.mean([chosen[i] == a for i in chosen if animal[i] == a and image_type[i] == t])
                      for a in ("bear", "cat", "wolf")]
        assert row["model_accuracy"] == pytest.approx(np.mean(per_animal), abs=1e-12)
        per_subject = table[table["image_type"] == t].groupby("subject")["correct"].mean()
        assert row["human_accuracy"] == pytest.approx(per_subject.mean(), abs=1e-12)
        assert row["human_accuracy_std"] == pytest.approx(per_subject.std(ddof=0), abs=1e-12)
        assert (row["n_subjects"], row["n_stimuli"], row["image_type"]) == (5, 6, t)
    normal = model.isel(presentation=slice(0, -1))
    assert rows[0]["model_accuracy"] - rows[1]["model_accuracy"] == pytest.approx(model_delta(normal, image_types))
    assert rows[0]["human_accuracy"] - rows[1]["human_accuracy"] == pytest.approx(human_delta(human, image_types))


def test_condition_table_dispatches_on_the_metric():
    model, human, *_ = _baker()
    fragmented = condition_table(benchmarks.parse(BAKER[1]), model, human)
    assert (fragmented["benchmark"], fragmented["metric"], fragmented["parent"], fragmented["dataset"]) == (
        BAKER[1], "accuracy_delta", "Baker2022", "Baker2022_normal_distortion")
    assert (fragmented["image_types"], fragmented["orientation"]) == (["w", "o"], "normal")
    assert [r["condition"] for r in fragmented["rows"]] == ["whole", "fragmented"]
    labelling, human, *_ = _labelling()
    scialom = condition_table(benchmarks.parse(SCIALOM_AD.format("phosphenes-12")), labelling, human)
    assert scialom["dataset"] == "Scialom2024_phosphenes-12" and [r["condition"] for r in scialom["rows"]] == ["12"]
    assert condition_table(benchmarks.parse(SCIALOM_AD.format("rgb")), labelling,
                           human.drop_vars("condition"))["rows"] == []
    with pytest.raises(ValueError, match="no per-condition table for metric 'error_consistency'"):
        condition_table(benchmarks.parse("Scialom2024_phosphenes-allBehavioralErrorConsistency"), labelling, human)


def test_which_benchmarks_get_a_table_and_one_figure_per_parent():
    kato = next(i for i in benchmarks.builtin().identifiers() if i.startswith("Kato2026") and "accuracy_distance" in i)
    lonnqvist = "Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance"
    ec, ad = "Scialom2024_phosphenes-allBehavioralErrorConsistency", SCIALOM_AD.format("phosphenes-all")
    ids = [SCIALOM_AD.format("rgb"), SCIALOM_AD.format("phosphenes-12"), ad, ec,
           "Scialom2024_rgbEngineeringAccuracy", *BAKER, kato, lonnqvist]
    loaded = [benchmarks.load(i, {}) for i in ids]
    assert not report.table_benchmark(benchmarks.load(kato, {}))  # trials without an answer
    assert not report.table_benchmark(benchmarks.load(lonnqvist, {}))  # a probabilities task
    tables = report.condition_tables_of(loaded)
    assert tables == {*ids[:3], *BAKER}
    datasets = report.condition_datasets(loaded)
    # error consistency: one figure per data set; the engineering accuracy (no human data, no table): none
    assert datasets == {"Scialom2024": ids[:3], "Scialom2024_phosphenes-all": [ec], "Baker2022": BAKER}
    assert report.condition_table_pairs(datasets, tables, ["a", "b"], "Baker2022") == [
        (m, b) for m in ("a", "b") for b in BAKER]
    assert report.condition_inputs(datasets, ["a", "b"], "Baker2022") == [
        f"results/{m}/{b}.json" for m in ("a", "b") for b in BAKER]  # the same order: the script zips them
    assert report.condition_table_pairs(datasets, tables, ["a"], "Scialom2024_phosphenes-all") == []
    config = {"models": ["pixels"], "benchmarks": ids, "model_zoo": {"pixels": {"architecture": "pixels",
                                                                                 "layers": {}}}}
    assert report.targets(config, loaded)[-3:] == [report.condition_plot(d) for d in (
        "Scialom2024", "Scialom2024_phosphenes-all", "Baker2022")]
    assert json.dumps(sorted(tables))  # plain data: a Snakemake parse-time global


@pytest.mark.parametrize("dataset, condition, parent, expected", [
    ("Scialom2024_phosphenes-12", "12", "Scialom2024", ("phosphenes", "12")),
    ("Scialom2024_segments-100", "100", "Scialom2024", ("segments", "100")),
    ("Scialom2024_rgb", "RGB", "Scialom2024", ("rgb", None)),
    ("Scialom2024_contours", "contours", "Scialom2024", ("contours", None)),
    ("Scialom2024_phosphenes-all", "phosphenes", "Scialom2024", ("phosphenes-all", None)),
    ("BMD_2024_texture_1", "texture_1", "BMD2024", ("BMD_2024_texture_1", None)),
    ("Other.set-7", "7", "Other", ("set", "7")),
])
def test_level_series(dataset, condition, parent, expected):
    assert figures.level_series({"dataset": dataset, "parent": parent}, {"condition": condition}) == expected


def _row(condition, model, human, std=0.05):
    return {"condition": condition, "model_accuracy": model, "human_accuracy": human, "human_accuracy_std": std,
            "n_subjects": 5, "n_stimuli": 48}


def test_level_figure_is_png(tmp_path):
    tables = []
    for m, skill in (("alexnet", 0.8), ("resnet", 0.9)):
        for kind in ("phosphenes", "segments"):
            for level in (12, 35, 100):
                tables.append({"model": m, "parent": "Scialom2024", "metric": "accuracy_distance",
                               "dataset": f"Scialom2024_{kind}-{level}",
                               "rows": [_row(str(level), skill * level / 100, 0.3 + level / 200)]})
        for name, condition in (("rgb", "RGB"), ("contours", "contours")):
            tables.append({"model": m, "parent": "Scialom2024", "metric": "accuracy_distance",
                           "dataset": f"Scialom2024_{name}", "rows": [_row(condition, skill, 0.9)]})
    figures.plot_condition_tables(tables, tmp_path / "levels.png", "Scialom2024", models=["alexnet", "resnet", "x"])
    assert is_png(tmp_path / "levels.png")
    # nothing to show (a table without rows): a figure saying so, not a failure
    figures.plot_condition_tables([{**tables[0], "rows": []}], tmp_path / "empty.png", "Scialom2024")
    assert is_png(tmp_path / "empty.png")


def test_delta_figure_is_png(tmp_path):
    baker = [{"model": "alexnet", "benchmark": b, "metric": "accuracy_delta", "orientation": "normal",
              "score": 0.4, "rows": [_row("whole", 0.8, 0.9), _row("frankenstein", 0.7, 0.5)]} for b in BAKER]
    figures.plot_condition_tables(baker, tmp_path / "delta.png", "Baker2022", models=["alexnet"])
    assert is_png(tmp_path / "delta.png")
    figures.plot_accuracy_delta([{**baker[0], "rows": []}], tmp_path / "empty_delta.png", "Baker2022")
    assert is_png(tmp_path / "empty_delta.png")


def test_read_condition_tables_needs_one_file_of_each_per_score():
    with pytest.raises(ValueError, match="expected one of each"):
        figures.read_condition_tables([{"benchmark": BAKER[0], "model": "m"}], [], [])
