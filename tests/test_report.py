"""Report tables and figures on small hand-made score dicts: leaderboard shape and values, sweep flags, PNGs."""

import math
import re

import pandas as pd
import pytest

from brainpipe.pipeline import figures, leaderboard_page, report
from leaderboard_fixtures import body_rows, column_titles, grid_cell, page_groups
from report_fixtures import headline, is_png

V4, IT = "SyntheticShapes.V4-pls", "SyntheticShapes.IT-pls"


@pytest.fixture
def grid():
    headlines = [headline("pixels", V4, 0.10), headline("pixels", IT, 0.03),
                 headline("net", V4, 0.20, layer="features.7"),
                 headline("net", IT, 0.15, layer="features.12", sweep={"features.7": 0.18, "features.12": 0.15},
                          best_layer="features.7")]
    ceilings = {V4: {"ceiling": 0.87, "error": 0.001}, IT: {"ceiling": 0.80, "error": 0.002}}
    return headlines, ceilings


def test_leaderboard_rows_models_columns_benchmarks_ceiling_last(grid):
    headlines, ceilings = grid
    table = report.leaderboard(headlines, ceilings, models=["pixels", "net"], benchmarks=[V4, IT])
    assert list(table.columns) == [V4, IT, "V4 (mean)", "IT (mean)", "average"]
    assert list(table.index) == ["net", "pixels", "ceiling"]  # ranked by average, ceiling last
    assert table.loc["pixels", V4] == pytest.approx(0.10)
    assert table.loc["net", IT] == pytest.approx(0.15)
    assert table.loc["net", "average"] == pytest.approx(0.175)
    assert table.loc["ceiling", V4] == pytest.approx(0.87) and table.loc["ceiling", IT] == pytest.approx(0.80)
    assert math.isnan(table.loc["ceiling", "average"])


def test_leaderboard_aggregates_per_parent_then_average():
    """Brain-Score's aggregation: benchmarks -> their parent's mean -> the mean over parents (not over benchmarks)."""
    other = "MajajHong2015public.IT-pls"
    headlines = [headline("m", V4, 0.2, parent="V4"), headline("m", IT, 0.4, parent="IT"),
                 headline("m", other, 0.6, parent="IT")]
    table = report.leaderboard(headlines, {}, models=["m"], benchmarks=[V4, IT, other])
    assert table.loc["m", "IT (mean)"] == pytest.approx(0.5) and table.loc["m", "V4 (mean)"] == pytest.approx(0.2)
    assert table.loc["m", "average"] == pytest.approx(0.35)  # not (0.2 + 0.4 + 0.6) / 3
    page = leaderboard_page.leaderboard_html(table, headlines, {})
    groups = page_groups(page)
    assert [label for label, _ in groups["IT"]] == [IT, other] and "2 benchmarks</span>" in page
    cited = leaderboard_page.leaderboard_html(table, [dict(h, bibtex="@article{x2015, title={T}}") for h in headlines], {})
    assert "<h2>References</h2>" in cited and "@article{x2015, title={T}}" in cited


def test_leaderboard_missing_score_is_nan_and_ranks_last(grid):
    headlines, ceilings = grid
    table = report.leaderboard(headlines[1:], ceilings, models=["pixels", "net"], benchmarks=[V4, IT])
    assert math.isnan(table.loc["pixels", V4]) and math.isnan(table.loc["pixels", "average"])
    assert list(table.index) == ["net", "pixels", "ceiling"]


def test_leaderboard_csv_and_html(grid, tmp_path):
    headlines, ceilings = grid
    table = report.leaderboard(headlines, ceilings, models=["pixels", "net"], benchmarks=[V4, IT])
    path = tmp_path / "leaderboard.csv"
    report.write_leaderboard_csv(table, path)
    back = pd.read_csv(path, index_col="model")
    assert list(back.index) == ["net", "pixels", "ceiling"] and list(back.columns) == [V4, IT, "V4 (mean)", "IT (mean)", "average"]
    assert back.loc["net", V4] == pytest.approx(0.2)
    page = leaderboard_page.leaderboard_html(table, headlines, ceilings)
    assert page.startswith("<!DOCTYPE html>") and len(body_rows(page)) == 2
    assert ">net</th>" in body_rows(page)[0]  # ranked by the average
    assert "0.200" in page
    assert grid_cell(page, "net", IT) == {"score": 0.15, "raw": 0.4, "ceiling": 0.8, "error": 0.01, "layer": "features.12",
                                          "best_layer": "features.7", "status": "scored", "reason": ""}
    assert "0.870 <span class=\"err\">&plusmn; 0.001</span>" in page  # the V4 ceiling and its error
    assert "DataTables 2.3.8" in page  # inlined: the page loads nothing from the network (offline, file://)
    assert not re.findall(r'<(?:script|link|img)\b[^>]*\b(?:src|href)="(?:https?:)?//', page)


def test_sweep_table_orders_by_depth_and_flags(tmp_path):
    results = [{"layer": "features.12", "score": 0.15, "raw": 0.35, "error": 0.01},
               {"layer": "features.2", "score": 0.05, "raw": 0.2, "error": 0.02},
               {"layer": "features.7", "score": 0.18, "raw": 0.38, "error": 0.01}]
    order = ["features", "features.0", "features.1", "features.2", "features.5", "features.7", "features.12"]
    table = report.sweep_table(results, committed="features.12", order=order)
    assert list(table.columns) == report.SWEEP_COLUMNS
    assert list(table["layer"]) == ["features.2", "features.7", "features.12"]
    assert list(table["depth"]) == [3, 5, 6]
    assert list(table["committed"]) == [False, False, True]
    assert list(table["best"]) == [False, True, False]
    path = tmp_path / "sweep.tsv"
    report.write_sweep_table(table, path)
    back = report.read_sweep_table(path)
    assert list(back["best"]) == [False, True, False] and back["committed"].dtype == bool
    assert back["score"].tolist() == pytest.approx([0.05, 0.18, 0.15])


def test_sweep_table_tie_picks_shallowest_and_unknown_layers_follow_list_order():
    results = [{"layer": "b", "score": 0.2, "raw": 0.1, "error": 0.0},
               {"layer": "a", "score": 0.2, "raw": 0.1, "error": 0.0}]
    table = report.sweep_table(results, committed="a", order=())
    assert list(table["layer"]) == ["b", "a"] and list(table["depth"]) == [0, 1]
    assert list(table["best"]) == [True, False] and list(table["committed"]) == [False, True]


def test_sweep_table_rejects_missing_committed_layer():
    with pytest.raises(ValueError, match="committed layer 'x'"):
        report.sweep_table([{"layer": "a", "score": 0.1, "raw": 0.1, "error": 0.0}], committed="x")


def test_swept_benchmarks_and_targets():
    config = {"models": ["pixels", "net"], "benchmarks": [V4, IT],
              "model_zoo": {"pixels": {"architecture": "pixels", "layers": {"V4": "pixels", "IT": "pixels"}},
                            "net": {"architecture": "net", "layers": {"V4": "a", "IT": "c"},
                                    "sweep": {"IT": ["a", "b", "c"], "V4": ["a"]}}}}
    assert report.swept_benchmarks(config, "net") == [IT]
    assert report.swept_benchmarks(config, "pixels") == []
    assert report.swept_models(config) == ["net"]
    assert report.targets(config) == ["results/leaderboard.csv", "results/leaderboard.html",
                                      "results/plots/folds/V4.png", "results/plots/folds/IT.png",
                                      f"results/net/{IT}/sweep.tsv", "results/plots/sweep/net/IT.png"]


def test_plots_are_png(grid, tmp_path):
    headlines, _ = grid
    order = ["features.2", "features.5", "features.7", "features.12"]
    tables = {}
    for benchmark, scores in ((V4, [0.1, 0.2, 0.25, 0.2]), (IT, [0.05, 0.1, 0.15, 0.18])):
        results = [{"layer": layer, "score": s, "raw": s, "error": 0.01} for layer, s in zip(order, scores)]
        tables[benchmark] = report.sweep_table(results, committed="features.7", order=order)
    figures.plot_sweep(tables, "net", tmp_path / "sweep_net.png")
    assert is_png(tmp_path / "sweep_net.png")
    temporal = headline("net", "SyntheticShapes.IT-spantime_pls", 0.1, per_fold=[[0.1, 0.2], [0.3, 0.4]])
    figures.plot_folds(headlines + [temporal], tmp_path / "folds.png")
    assert is_png(tmp_path / "folds.png")
    assert figures.fold_values(temporal) == pytest.approx([0.15, 0.35])


def test_a_benchmark_whose_cells_are_all_empty_still_gets_its_panel(tmp_path):
    """The whole suite for a model without V4 and one without folds there (empty cells, null scores): the folds
    figure draws the panel with a note instead of failing (matplotlib's boxplot refuses no data)."""
    empty = [headline("recurrent", "Cowley2026.V4-pls", None, per_fold=[], empty_cell=True,
                      reason="commits no layer to region V4"),
             headline("pixels", "Cowley2026.V4-pls", None, per_fold=[], reason="the ceiling is NaN")]
    scored = headline("pixels", "Li2026.V4-pls", 0.3)
    figures.plot_folds(empty + [scored], tmp_path / "folds.png")
    assert is_png(tmp_path / "folds.png")


def test_one_recording_counts_once_and_the_access_is_shown():
    """MajajHong2015.IT-pls on the public recordings (the private files absent) and MajajHong2015public.IT-pls score
    the same recording: both shown, the first of the grid counted in IT (mean) and the average, the access named in
    the leaderboard and summary.tsv. The first two are score files of before brainpipe 0.3, whose data names the
    access `split`: read the same."""
    public = {"dataset": "MajajHong2015.public", "split": "public"}
    first, repeat, other = "MajajHong2015.IT-pls", "MajajHong2015public.IT-pls", "FreemanZiemba2013.IT-pls"
    headlines = [headline("m", first, 0.4, parent="IT", data=public),
                 headline("m", repeat, 0.4, parent="IT", data=public),
                 headline("m", other, 0.2, parent="IT", data={"dataset": "FreemanZiemba2013.private",
                                                              "access": "private"}),
                 headline("m", V4, 0.6, parent="V4", data={"dataset": "SyntheticShapes", "access": "all"})]
    benchmarks = [first, repeat, other, V4]
    assert report.repeated_recordings(headlines, benchmarks) == {repeat: first}
    table = report.leaderboard(headlines, {}, models=["m"], benchmarks=benchmarks)
    assert table.loc["m", "IT (mean)"] == pytest.approx(0.3)  # (0.4 + 0.2) / 2, not (0.4 + 0.4 + 0.2) / 3
    assert table.loc["m", "average"] == pytest.approx(0.45)
    assert table.loc["m", repeat] == pytest.approx(0.4)  # still shown
    page = leaderboard_page.leaderboard_html(table, headlines, {})
    groups = page_groups(page)
    assert groups["IT"] == [(first, "IT, pls, public recordings"), (other, "IT, pls, private recordings")]
    assert groups["V4"] == [(V4, "V4, pls")]  # 'all': nothing to say
    assert groups["not in the means"] == [(repeat, "IT, pls, public recordings; not in the means")]
    assert column_titles(page)[repeat] == "same recording as MajajHong2015.IT-pls: not in the means"
    summary = report.summary_table(headlines)
    assert list(summary["access"]) == ["public", "public", "private", "all"]
    assert set(summary["status"]) == {"scored"}


def test_partly_missing_grid_tables(tmp_path):
    """The tables a failed run leaves (the workflow's onerror): scores that exist, the missing ones named."""
    import json

    (tmp_path / "results" / "pixels").mkdir(parents=True)
    (tmp_path / "results" / "pixels" / f"{IT}.json").write_text(json.dumps(headline("pixels", IT, 0.1)))
    paths = [tmp_path / "results" / m / f"{IT}.json" for m in ("pixels", "net")]
    out = {name: tmp_path / name for name in ("summary.tsv", "leaderboard.csv", "leaderboard.html")}
    tables = leaderboard_page.write_grid_tables(paths, [], ["pixels", "net"], [IT], *out.values())
    assert tables.missing == [("net", IT)] and tables.written == list(out.values())
    assert f"brainpipe: rebuilt {out['summary.tsv']}, " in tables.message()
    summary = pd.read_csv(out["summary.tsv"], sep="\t")
    assert list(summary["status"]) == ["scored", "missing"] and list(summary["model"]) == ["pixels", "net"]
    assert "Incomplete grid: 1 score(s) missing" in out["leaderboard.html"].read_text()
    nothing = leaderboard_page.write_grid_tables(paths[1:], [], ["net"], [IT], *(tmp_path / "none" / n for n in out))
    assert nothing.missing == [("net", IT)] and nothing.written == []
    assert "no table was rebuilt (no score file of the grid exists yet)" in nothing.message()
    assert "rebuilt " + str(tmp_path) not in nothing.message()
    assert not (tmp_path / "none").exists()  # nothing scored: no table written


def test_simulated_demo_data_stays_out_of_means_that_hold_real_data():
    """Issue 23.4: the SyntheticShapes demo is shown beside a real benchmark but not averaged with it; a grid of
    demo benchmarks only (make demo) averages them as before."""
    real = "MajajHong2015public.IT-pls"
    headlines = [headline("m", real, 0.3, parent="IT", data={"dataset": "MajajHong2015.public"}),
                 headline("m", IT, 0.9, parent="IT", data={"dataset": "SyntheticShapes"}),
                 headline("m", V4, 0.5, parent="V4", data={"dataset": "SyntheticShapes"})]
    mixed = report.leaderboard(headlines, {}, models=["m"], benchmarks=[real, IT, V4], simulated=[IT, V4])
    assert mixed.loc["m", "IT (mean)"] == pytest.approx(0.3)  # not (0.3 + 0.9) / 2
    assert "V4 (mean)" not in mixed.columns  # V4 had only the demo
    assert mixed.loc["m", "average"] == pytest.approx(0.3)
    assert mixed.loc["m", IT] == pytest.approx(0.9)  # still shown
    page = leaderboard_page.leaderboard_html(mixed, headlines, {}, simulated=[IT, V4])
    assert column_titles(page) == {IT: "simulated demo data in a grid with real data: not in the means",
                                   V4: "simulated demo data in a grid with real data: not in the means"}
    demo_only = report.leaderboard(headlines[1:], {}, models=["m"], benchmarks=[IT, V4], simulated=[IT, V4])
    assert demo_only.loc["m", "average"] == pytest.approx(0.7)


def test_single_shot_metric_error_is_null_and_shown_as_n_a():
    """One fold has no spread: the score JSON's error is null (not 0) and the leaderboard says '± n/a'."""
    from brainpipe.benchmarks import parse
    from brainpipe.pipeline.scoring import aggregate

    rdm = parse("SyntheticShapes.IT-rdm")
    score = aggregate(rdm, [{"fold": 0, "value": 0.42}], {"ceiling": 0.84, "error": 0.01})
    assert score["error"] is None and score["score"] == pytest.approx(0.5)
    folds = [{"fold": 0, "value": 0.4}, {"fold": 1, "value": 0.6}]
    assert aggregate(rdm, folds, {"ceiling": 1.0, "error": 0.0})["error"] == pytest.approx(0.1 / 2 ** 0.5)  # SEM
    single = [headline("m", IT, 0.5, error=None, per_fold=(0.42,)), headline("m", V4, 0.2, error=0.012)]
    page = leaderboard_page.leaderboard_html(report.leaderboard(single, {}, models=["m"], benchmarks=[IT, V4]), single, {})
    assert grid_cell(page, "m", IT)["error"] is None and grid_cell(page, "m", V4)["error"] == 0.012  # n/a, 0.012


def test_api_score_repr_with_no_error():
    from brainpipe.api import Score

    score = Score({"score": 0.5, "raw": 0.42, "ceiling": 0.84, "error": None, "layer": "l", "model": "m",
                   "benchmark": IT})
    assert "error=n/a" in repr(score) and score.error is None


def test_neural_benchmark_named_without_region_stays_under_its_region():
    """Cadena2017-pls (Brain-Score names no region) is V1's, not behaviour's: its metric is a neural one."""
    v1 = "Li2026.V1-pls"
    # as the score stage writes them: a neural score JSON has no `metric` key (issue 40 (A)); the definition decides
    headlines = [headline("m", "Cadena2017-pls", 0.6, parent="V1"), headline("m", v1, 0.4, parent="V1"),
                 headline("m", "Rajalingham2018public-i2n", 0.3, parent="behavior", metric="i2n")]
    table = report.leaderboard(headlines, {}, models=["m"], benchmarks=["Cadena2017-pls", v1,
                                                                         "Rajalingham2018public-i2n"])
    assert table.loc["m", "V1 (mean)"] == pytest.approx(0.5)
    assert table.loc["m", "behavior (mean)"] == pytest.approx(0.3)  # not V1's mean folded into behaviour
    assert table.loc["m", "average"] == pytest.approx(0.4)


def test_a_sweep_without_any_score_names_no_best_layer():
    """Every layer's score null (a NaN ceiling): the page says nothing about a best layer, and does not fail."""
    headlines = [headline("net", IT, None, layer="features.12", sweep={"features.7": None, "features.12": None},
                          best_layer=None),
                 headline("net", V4, 0.2, layer="features.7", sweep={"features.7": 0.2, "features.12": None})]
    table = report.leaderboard(headlines, {}, models=["net"], benchmarks=[V4, IT])
    page = leaderboard_page.leaderboard_html(table, headlines, {})
    assert grid_cell(page, "net", IT)["best_layer"] == "" and grid_cell(page, "net", V4)["best_layer"] == "features.7"


def test_kar2019_ost_without_a_metric_key_counts_under_it():
    """Issue 40 (A): Kar2019-ost (no region in its name, no `metric` in its score JSON) is IT's, by its definition."""
    headlines = [headline("m", "Kar2019-ost", 0.2, parent="IT"), headline("m", IT, 0.4, parent="IT"),
                 headline("m", "Rajalingham2018public-i2n", 0.6, parent="behavior", metric="i2n")]
    columns = report.aggregation(headlines, ["Kar2019-ost", IT, "Rajalingham2018public-i2n"])
    assert columns["IT (mean)"] == (["Kar2019-ost", IT], True)
    assert columns["behavior (mean)"] == (["Rajalingham2018public-i2n"], True)


def test_figures_are_one_per_parent_and_a_few_thousand_pixels_at_most(tmp_path):
    """Issue 40: one per-fold figure of 291 benchmarks was 2,520 × 48,936 px. One per parent, at most a dozen
    benchmarks each: 50 models × 12 benchmarks stays within 2,500 px either way."""
    from PIL import Image

    parents = {f"F.V1-m{i}": "V1" for i in range(30)} | {"F.IT-pls": "IT"}
    groups = report.figure_groups(list(parents), parents)
    assert list(groups) == ["V1-1", "V1-2", "V1-3", "IT"] and [len(g) for g in groups.values()] == [12, 12, 6, 1]
    assert report.figure_groups(["a"], {"a": "behavior/odd name"}) == {"behavior_odd_name": ["a"]}
    models = [f"model_{i:02d}_with_a_long_name" for i in range(50)]
    headlines = [headline(m, b, 0.3, per_fold=(0.2, 0.3, 0.4)) for m in models for b in groups["V1-1"]]
    figures.plot_folds(headlines, tmp_path / "folds.png", models=models, benchmarks=groups["V1-1"])
    width, height = Image.open(tmp_path / "folds.png").size
    assert width <= 2500 and height <= 2500, (width, height)
