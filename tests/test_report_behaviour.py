"""Behaviour in the report, on score JSON files written here by the real stages (no Snakemake): the per-condition
figure of an error-consistency + top-1 data set, the leaderboard's behavioural columns and Brain-Score's
aggregation (behavioural parents under 'behavior', top-1 accuracy outside the average), summary parent column."""

import json

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.pipeline import figures, leaderboard_page, report
from brainpipe.behaviour import stages
from brainpipe.behaviour.data import prepare_behaviour
from brainpipe.io import read_json, write_json
from behaviour_fixtures import GEIRHOS_CATEGORIES, geirhos2021_colour
from leaderboard_fixtures import page_groups
from report_fixtures import headline, is_png

EC, TOP1 = "Geirhos2021colour-error_consistency", "Geirhos2021colour-top1"
I2N, V4, IT = "SyntheticShapesBehaviour-i2n", "SyntheticShapes.V4-pls", "SyntheticShapes.IT-pls"


def _human():
    raw, _, _ = geirhos2021_colour()
    raw = raw.assign_coords(stimulus_id=("presentation", raw["image_id"].values))
    return prepare_behaviour(raw, (), name="assy_brendel_Geirhos2021_colour.nc")


def _model(human, skill, seed):
    """Choices of a simulated observer: right with probability ``skill``, else a random category."""
    rng = np.random.default_rng(seed)
    ids = list(dict.fromkeys(human["stimulus_id"].values))
    truth = dict(zip(human["stimulus_id"].values, human["truth"].values))
    choices = [truth[i] if rng.random() < skill else GEIRHOS_CATEGORIES[rng.integers(0, 16)] for i in ids]
    return xr.DataArray(np.array(choices, dtype=object)[None], dims=("choice", "presentation"),
                        coords={"stimulus_id": ("presentation", np.array(ids, dtype=object))})


def _score_file(directory, model_name, identifier, model, human):
    """A score JSON as fit_fold.py + score_layer.py + score.py write it, through the same stage functions."""
    benchmark = benchmarks.load(identifier, {})
    fold = stages.to_json(stages.raw_score(benchmark, model, human))
    fold["per_condition"] = stages.per_condition(benchmark, model, human)
    ceiling = stages.to_json(stages.ceiling(benchmark, human))
    ceiling["ceiling"] = ceiling.pop("value")
    score = stages.aggregate(benchmark, [fold], ceiling)
    score.update(model=model_name, benchmark=identifier, layer="logits", **benchmark.metadata())
    path = directory / model_name / f"{identifier}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json(score, path)
    return path, ceiling


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    directory = tmp_path_factory.mktemp("scores")
    human = _human()
    paths, ceilings = [], {}
    for name, skill, seed in (("good", 0.8, 1), ("poor", 0.3, 2)):
        model = _model(human, skill, seed)
        for identifier in (EC, TOP1):
            path, ceilings[identifier] = _score_file(directory, name, identifier, model, human)
            paths.append(path)
    return [read_json(p) for p in paths], ceilings, human


def test_score_json_carries_per_condition_tables(scored):
    headlines, _, human = scored
    ec = next(h for h in headlines if h["model"] == "good" and h["benchmark"] == EC)
    top1 = next(h for h in headlines if h["model"] == "good" and h["benchmark"] == TOP1)
    assert [r["condition"] for r in ec["per_condition"]] == ["bw", "cr"]
    assert {"error_consistency", "human_error_consistency", "model_accuracy", "human_accuracy"} <= \
        set(ec["per_condition"][0])
    assert "error_consistency" not in top1["per_condition"][0]
    # accuracy per condition, averaged over the (equal-sized) conditions, is the top-1 raw score
    assert np.mean([r["model_accuracy"] for r in top1["per_condition"]]) == pytest.approx(top1["raw"])
    # the human accuracy is the subjects' share of correct trials
    correct = human.values == human["truth"].values
    bw = human["condition"].values == "bw"
    assert ec["per_condition"][0]["human_accuracy"] == pytest.approx(correct[bw].mean())
    assert ec["parent"] == "Geirhos2021" and top1["parent"] == "Geirhos2021-top1"


def test_conditions_plot_is_png(scored, tmp_path):
    headlines, _, _ = scored
    figures.plot_conditions(headlines, tmp_path / "c.png", "Geirhos2021_colour", models=["good", "poor"])
    assert is_png(tmp_path / "c.png")
    # an error-consistency benchmark alone (no top-1 in the grid) still gives both panels; no tables: a note
    figures.plot_conditions([h for h in headlines if h["benchmark"] == EC], tmp_path / "ec.png", "x")
    figures.plot_conditions([headline("m", EC, 0.1)], tmp_path / "none.png", "x")
    assert is_png(tmp_path / "ec.png") and is_png(tmp_path / "none.png")


def test_leaderboard_behaviour_columns_and_brainscore_aggregation(scored, tmp_path):
    headlines, ceilings, _ = scored
    neural = [headline(m, b, s, parent=p) for m, b, s, p in
              (("good", V4, 0.2, "V4"), ("good", IT, 0.4, "IT"), ("poor", V4, 0.3, "V4"), ("poor", IT, 0.5, "IT"))]
    i2n = [headline("good", I2N, 0.6, parent="behavior", metric="i2n", task="probabilities"),
           headline("poor", I2N, 0.1, parent="behavior", metric="i2n", task="probabilities")]
    grid = [V4, IT, I2N, EC, TOP1]
    every = neural + i2n + headlines
    table = report.leaderboard(every, {**ceilings, V4: 0.9}, models=["poor", "good"], benchmarks=grid)
    assert list(table.columns) == grid + ["V4 (mean)", "IT (mean)", "Geirhos2021 (mean)", "behavior (mean)",
                                          "Geirhos2021-top1 (mean)", "average"]
    score = {(h["model"], h["benchmark"]): h["score"] for h in every}
    for m in ("good", "poor"):
        behaviour = np.mean([score[(m, I2N)], score[(m, EC)]])  # i2n and the Geirhos2021 parent, equally
        assert table.loc[m, "behavior (mean)"] == pytest.approx(behaviour)
        assert table.loc[m, "Geirhos2021-top1 (mean)"] == pytest.approx(score[(m, TOP1)])
        assert table.loc[m, "average"] == pytest.approx(np.mean([score[(m, V4)], score[(m, IT)], behaviour]))
    assert table.loc["ceiling", EC] == pytest.approx(ceilings[EC]["ceiling"])
    page = leaderboard_page.leaderboard_html(table, every, ceilings)
    groups = page_groups(page)
    assert [label for label, _ in groups["behavior"]] == [I2N, "Geirhos2021"]  # a benchmark and a sub-parent
    assert [label for label, _ in groups["Geirhos2021"]] == [EC]
    assert [label for label, _ in groups["Geirhos2021-top1"]] == [TOP1]
    assert "1 benchmark + 1 parent(s)</span>" in page and "1 benchmark; not in the average</span>" in page
    assert "<dt>score</dt><dd>raw / ceiling clipped to [0, 1]</dd>" in page  # the benchmark's page
    report.write_leaderboard_csv(table, tmp_path / "leaderboard.csv")
    assert (tmp_path / "leaderboard.csv").read_text().splitlines()[0].endswith("behavior (mean),"
                                                                               "Geirhos2021-top1 (mean),average")


def test_demo_grid_behaviour_is_a_behavior_column_in_the_average():
    """The default config's grid (two neural benchmarks + SyntheticShapesBehaviour-i2n): i2n is the 'behavior'
    parent, one of three entries of the average, as each region."""
    loaded = [benchmarks.load(b, {}) for b in (V4, IT, I2N)]
    headlines = [headline("m", b.identifier, s, **b.metadata()) for b, s in zip(loaded, (0.3, 0.6, 0.9))]
    table = report.leaderboard(headlines, {}, models=["m"], benchmarks=[V4, IT, I2N])
    assert list(table.columns)[3:] == ["V4 (mean)", "IT (mean)", "behavior (mean)", "average"]
    assert table.loc["m", "behavior (mean)"] == pytest.approx(0.9)
    assert table.loc["m", "average"] == pytest.approx(0.6)
    assert report.condition_datasets(loaded) == {}


def test_condition_plot_targets_from_loaded_benchmarks():
    config = {"models": ["pixels"], "benchmarks": [V4, EC, TOP1, I2N],
              "model_zoo": {"pixels": {"architecture": "pixels", "layers": {"V4": "pixels"}}}}
    loaded = [benchmarks.load(b, {}) for b in config["benchmarks"]]
    datasets = report.condition_datasets(loaded)
    assert datasets == {"Geirhos2021_colour": [EC, TOP1]}
    assert report.targets(config, loaded)[-1] == "results/plots/conditions_Geirhos2021_colour.png"
    assert report.targets(config) == report.targets(config, loaded)[:-1]
    assert report.condition_inputs(datasets, ["a", "b"], "Geirhos2021_colour") == [
        f"results/a/{EC}.json", f"results/a/{TOP1}.json", f"results/b/{EC}.json", f"results/b/{TOP1}.json"]
    with pytest.raises(ValueError, match="no benchmark of the grid is scored per condition on data set 'x'"):
        report.condition_inputs(datasets, ["a"], "x")
    assert json.dumps(datasets)  # plain data: a Snakemake parse-time global
