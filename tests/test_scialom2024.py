"""Scialom2024 (44 benchmarks): the family as Brain-Score 2.4.2 declares it (identifiers, parents, versions, object
names, sha1s, the label task shared by every benchmark of a stimulus set), and end to end (slow): the fixture files
(tests/behaviour_fixtures_families.scialom2024, in the real layouts) served on 127.0.0.1, downloaded and scored by
``snakemake``; raw score, ceiling and ceiled score equal Brain-Score 2.4.2's own benchmarks on the same files and
weights (tests/data/scialom2024/brainscore.json, written by tests/reference/make_scialom2024_reference.py) to 1e-6.
"""

import json
from pathlib import Path

import pytest

from reference_files import reference_numbers
from brainpipe import benchmarks
from brainpipe.behaviour import stages

REFERENCE = Path(__file__).parent / "data" / "scialom2024" / "brainscore.json"
IDENTIFIERS = Path(__file__).parents[1] / "src" / "brainpipe" / "benchmarks" / "brainscore_identifiers_2.4.2.txt"


def scialom_identifiers():
    return [line.strip() for line in IDENTIFIERS.read_text().splitlines() if line.startswith("Scialom2024")]


def test_every_brainscore_identifier_is_listed_and_parses():
    ours = sorted(i for i in benchmarks.builtin().identifiers() if i.startswith("Scialom2024"))
    assert ours == sorted(scialom_identifiers()) and len(ours) == 44
    kinds = {}
    for identifier in ours:
        b = benchmarks.parse(identifier)
        kinds.setdefault((b.behaviour.metric, b.parent, b.behaviour.clip, b.behaviour.number_of_trials), []).append(
            identifier)
        assert b.version == 1 and b.visual_degrees == 8.0 and b.family.bibtex == ""
    assert {k: len(v) for k, v in kinds.items()} == {
        ("accuracy_distance", "Scialom2024", True, 1): 22,  # ceiled score capped at 1 as upstream
        ("error_consistency", "Scialom2024", False, 1): 2,  # upstream does not bound this one
        ("accuracy", "Scialom2024-top1", False, 10): 20}
    assert sorted(kinds[("error_consistency", "Scialom2024", False, 1)]) == [
        "Scialom2024_phosphenes-allBehavioralErrorConsistency", "Scialom2024_segments-allBehavioralErrorConsistency"]


def test_data_names_and_sha1s():
    catalog = benchmarks.default_catalog()
    rgb = catalog.assembly("Scialom2024_rgb")
    assert (rgb.file.name, rgb.file.sha1, rgb.stimulus_set) == (
        "assy_Scialom2024_rgb.nc", "b79217a6b700760b96ffe60a948d6c2af9e7a615", "Scialom2024_rgb")
    stimuli = catalog.stimulus_set("Scialom2024_segments-all")
    assert (stimuli.csv.name, stimuli.csv.sha1, stimuli.zip.sha1) == (
        "stimulus_Scialom2024_segments-all.csv", "4e66191b81517f3601e7bb27c9c3a84b9ee51a89",
        "59b279b2c65be4cdab50bf17b7295da2426744ee")
    assert catalog.assembly("Scialom2024_phosphenes-77").file.sha1 == "f3e3c50983b859eff094b75ca53939bf156b0f3f"
    assert len({k for k in catalog.stimulus_sets if k.startswith("Scialom2024_")}) == 22


def test_one_label_task_per_stimulus_set():
    """Accuracy distance, error consistency and engineering accuracy of one stimulus set read one task output (the
    same 12 labels; a deterministic model's 10 trials equal its 1): 44 benchmarks need 22 extractions and tasks."""
    keys = {}
    for identifier in scialom_identifiers():
        b = benchmarks.parse(identifier)
        keys.setdefault(b.family.stimulus_set, set()).add(
            (stages.task_key(b.behaviour, b.family), json.dumps(stages.task_spec(b), sort_keys=True)))
    assert len(keys) == 22 and all(len(v) == 1 for v in keys.values())
    engineering = benchmarks.parse("Scialom2024_contoursEngineeringAccuracy")
    assert engineering.family.source == "stimuli" and engineering.family.stimulus_set == "Scialom2024_contours"


def test_all_44_plan_one_extraction_and_one_task_per_stimulus_set(tmp_path):
    """The workflow's plan for every Scialom2024 benchmark (a dry run: nothing fetched): 22 stimulus sets, each
    fetched, extracted and labelled once; the 20 engineering accuracies read the stimulus sets, no human data. The
    22 folders' activations are one job on 2 cores (the model loaded once), four on 8 (as many as run at once)."""
    import re

    import yaml

    from real_data_runs import snakemake

    ids = scialom_identifiers()
    config = yaml.safe_load((Path(__file__).parents[1] / "config" / "config.yaml").read_text())
    config.update(models=["alexnet"], benchmarks=ids)
    config["data"] = {**(config.get("data") or {}), "cache_dir": str(tmp_path / "cache")}
    (tmp_path / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    for cores, extraction_jobs in ((2, 1), (8, 4)):
        run = snakemake(tmp_path, tmp_path / "config.yaml", [f"results/alexnet/{i}.json" for i in ids],
                        args=("-n", "--cores", str(cores)))
        assert run.returncode == 0, run.stderr[-3000:]
        text = run.stdout + run.stderr
        counts = dict(re.findall(r"^(\w+)\s+(\d+)$", text, re.M))
        # one score job per benchmark (score_behaviour: no fold or layer jobs); a ceiling job only for the 24
        # computed ceilings (the engineering accuracies declare theirs: 1); no stimulus_target job (the engineering
        # accuracies' score jobs read their stimulus set's table)
        assert {rule: int(counts.get(rule, 0)) for rule in (
            "fetch_stimuli", "behaviour_task", "stimulus_target", "prepare_behaviour", "ceiling", "score_behaviour",
            "fit_fold", "score_layer", "score")} == {
            "fetch_stimuli": 22, "behaviour_task": 22, "stimulus_target": 0, "prepare_behaviour": 22, "ceiling": 24,
            "score_behaviour": 44, "fit_fold": 0, "score_layer": 0, "score": 0}
        extractions = re.findall(r"^rule (activations\w*):\n(?:.*\n)*?    output: (.+)$", text, re.M)
        assert len(extractions) == extraction_jobs and "activations" not in counts
        folders = [{Path(path).parent.name for path in outputs.split(", ")} for _, outputs in extractions]
        assert sorted(len(f) for f in folders) == sorted([22 // extraction_jobs + (k < 22 % extraction_jobs)
                                                          for k in range(extraction_jobs)])
        assert set().union(*folders) == {b.family.stimulus_set for b in map(benchmarks.parse, ids)}


def test_labels_map_to_imagenet():
    from brainpipe.behaviour.tasks import label_indices
    labels = benchmarks.parse("Scialom2024_rgbBehavioralAccuracyDistance").behaviour.choice_labels
    assert list(labels) == sorted(labels) and len(labels) == 12
    assert label_indices("Sewing machine") == [786] and label_indices("Truck")[0] == 555


def test_leaderboard_keeps_engineering_out_of_behavior():
    from brainpipe.pipeline.report import aggregation

    ids = ["Scialom2024_rgbBehavioralAccuracyDistance", "Scialom2024_phosphenes-allBehavioralErrorConsistency",
           "Scialom2024_rgbEngineeringAccuracy"]
    headlines = [{"benchmark": i, "parent": benchmarks.parse(i).parent, "metric": benchmarks.parse(i).behaviour.metric}
                 for i in ids]
    columns = aggregation(headlines, ids)
    assert columns["Scialom2024 (mean)"] == (ids[:2], False)
    assert "Scialom2024 (mean)" in columns["behavior (mean)"][0]
    assert columns["Scialom2024-top1 (mean)"] == ([ids[2]], False)  # engineering: shown, not in the average


# ----------------------------------------------------------------------------------- end to end vs Brain-Score


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """One snakemake run scoring the prototype alexnet on every benchmark of the fixture's data sets; the score
    JSONs and the jobs that ran."""
    import behaviour_fixtures_families as ff
    from brainio_fixtures import local_http_server
    from real_data_runs import snakemake, write_checksums, write_config

    reference = json.loads(REFERENCE.read_text())
    ids = fixture_identifiers()
    folder = tmp_path_factory.mktemp("scialom2024")
    sums = ff.write_store(folder / "store", ("Scialom2024",))
    for identifier, theirs in reference["benchmarks"].items():  # the same bytes Brain-Score was given
        assert {name: sums[name] for name in theirs["files"]} == theirs["files"]
    weights = ff.write_torch_home(folder / "torch_home", ff.WEIGHTS["Scialom2024"])
    work = folder / "work"
    work.mkdir()
    with local_http_server(folder / "store") as server:
        config = write_config(folder, ids, dict(base_url=server.url,
                                                checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights)
        # + the report's accuracy-per-level figure (one plot job on the same files: tests below)
        run = snakemake(work, config, [f"results/alexnet/{i}.json" for i in ids] + [FIGURE],
                        torch_home=folder / "torch_home")
    assert run.returncode == 0, run.stderr[-5000:]
    return {i: json.loads((work / "results" / "alexnet" / f"{i}.json").read_text()) for i in ids}, work


FIGURE = "results/plots/conditions_Scialom2024.png"


def fixture_identifiers():
    """Every benchmark on the fixture's three data sets (rgb, phosphenes-12, phosphenes-all): 6."""
    import behaviour_fixtures_families as ff
    return sorted(i for i in scialom_identifiers() if any(f"_{d}B" in i or f"_{d}E" in i for d in ff.SCIALOM_DATASETS))


@pytest.mark.slow
def test_shares_extractions_and_tasks(scored):
    """6 benchmarks on 3 stimulus sets: one logits extraction and one label task per stimulus set."""
    _, work = scored
    tasks = sorted(p.name for p in (work / "results" / "behaviour" / "alexnet").rglob("*.nc"))
    assert tasks == ["Scialom2024_phosphenes-12.nc", "Scialom2024_phosphenes-all.nc", "Scialom2024_rgb.nc"]
    stimuli = sorted(p.name for p in (work / "results" / "activations" / "alexnet").iterdir())
    assert stimuli == ["Scialom2024_phosphenes-12", "Scialom2024_phosphenes-all", "Scialom2024_rgb"]


@pytest.mark.slow
@pytest.mark.parametrize("identifier", sorted(reference_numbers(REFERENCE)["benchmarks"]))
def test_equals_brainscore(scored, identifier):
    theirs = json.loads(REFERENCE.read_text())["benchmarks"][identifier]
    ours = scored[0][identifier]
    for key in ("score", "raw", "ceiling"):
        assert ours[key] == pytest.approx(theirs[key], abs=1e-6), key
    benchmark = benchmarks.parse(identifier)
    assert (ours["parent"], ours["version"], ours["metric"]) == (benchmark.parent, 1, benchmark.behaviour.metric)


def test_fixture_scores_are_not_degenerate():
    """The fixture discriminates: raw scores and ceilings strictly between the bounds, and not all equal."""
    reference = json.loads(REFERENCE.read_text())["benchmarks"]
    for identifier, theirs in reference.items():
        assert 0 < theirs["raw"] < 1, identifier
        if "Engineering" not in identifier:
            assert 0 < theirs["ceiling"] < 1, identifier
    assert len({round(r["raw"], 9) for r in reference.values()}) == len(reference)


def test_error_consistency_pairs_numeric_trial_ids_with_text_model_ids():
    """Scialom2024's trials hold stimulus ids as integers, the stimulus set (read from CSV) as text: the model's
    choices pair with the trials by id, so the score is that of the same data with text ids on both sides."""
    import numpy as np
    import xarray as xr

    from brainpipe.behaviour import metrics

    rng = np.random.default_rng(0)
    ids, truth = np.arange(12), np.array(["Cup", "Pan", "Boot"] * 4, dtype=object)
    answers = [np.where(rng.random(12) < 0.6, truth, "Lamp") for _ in range(3)]
    human = xr.DataArray(np.concatenate(answers).astype(object), dims=("presentation",), coords={
        "stimulus_id": ("presentation", np.tile(ids, 3)), "truth": ("presentation", np.tile(truth, 3)),
        "subject": ("presentation", np.repeat(["1", "2", "3"], 12).astype(object)),
        "condition": ("presentation", np.array(["phosphenes"] * 36, dtype=object))})
    order = rng.permutation(12)
    chosen = np.where(rng.random(12) < 0.5, truth, "Bowl")[order]
    model = xr.DataArray(chosen[None, :], dims=("choice", "presentation"),
                         coords={"stimulus_id": ("presentation", ids[order].astype(str).astype(object))})
    text = human.assign_coords(stimulus_id=("presentation", human["stimulus_id"].values.astype(str).astype(object)))
    assert metrics.error_consistency(model, human).score == pytest.approx(metrics.error_consistency(model, text).score)
    assert np.isfinite(metrics.error_consistency(model, human).score)


@pytest.mark.slow
def test_accuracy_per_level_figure(scored):
    """The report's figure of the accuracy-distance benchmarks (rgb, phosphenes-12, phosphenes-all), and the table
    behind it equal to plain pandas on the fixture's files: the subjects' and the model's share of right labels."""
    import numpy as np
    import pandas as pd

    import behaviour_fixtures_families as ff
    from report_fixtures import is_png
    from brainpipe.io import read_netcdf
    from brainpipe.pipeline import figures

    scores, work = scored
    assert is_png(work / FIGURE)
    ids = [i for i in fixture_identifiers() if i.endswith("BehavioralAccuracyDistance")]
    tables = figures.read_condition_tables(
        [scores[i] for i in ids],
        [next((work / "results" / "behaviour" / "alexnet").rglob(f"{i.split('Behavioral')[0]}.nc")) for i in ids],
        [work / "results" / "assemblies" / i.split("Behavioral")[0] / "behaviour.nc" for i in ids])
    for identifier, table in zip(ids, tables):
        dataset = identifier.split("Behavioral")[0].removeprefix("Scialom2024_")
        assembly, stimuli, _ = ff.scialom2024(dataset)  # the fixture's own trials, independent of the workflow
        trials = pd.DataFrame({c: assembly[c].values for c in ("subject", "condition", "stimulus_id", "truth")})
        trials["right"] = assembly.values == trials["truth"].to_numpy()
        model = read_netcdf(next((work / "results" / "behaviour" / "alexnet").rglob(f"Scialom2024_{dataset}.nc")))
        labels = dict(zip(model["stimulus_id"].values.astype(str), np.ravel(model.values)))
        truth = dict(zip(stimuli["stimulus_id"].astype(str), stimuli["truth"]))
        assert [r["condition"] for r in table["rows"]] == sorted(set(trials["condition"]))
        for row in table["rows"]:
            cell = trials[trials["condition"] == row["condition"]]
            per_subject = cell.groupby("subject")["right"].mean()
            assert row["human_accuracy"] == pytest.approx(per_subject.mean(), abs=1e-12)
            assert row["human_accuracy_std"] == pytest.approx(per_subject.std(ddof=0), abs=1e-12)
            shown = sorted(set(cell["stimulus_id"].astype(str)))
            assert row["model_accuracy"] == pytest.approx(np.mean([labels[i] == truth[i] for i in shown]), abs=1e-12)
    series = [figures.level_series(t, r) for t in tables for r in t["rows"]]
    assert series == [("phosphenes", "12"), ("phosphenes-all", None), ("rgb", None)]


@pytest.mark.slow
def test_engineering_headline_equals_the_stages_reading_the_stimulus_target_file(scored):
    """An engineering accuracy's score job builds its target from the stimulus set's table (no stimulus_target
    job); fit_fold and score_layer, asked for afterwards, read the stimulus_target stage's file: every field of the
    layer score is the headline's."""
    from real_data_runs import snakemake

    headlines, work = scored
    identifier = "Scialom2024_rgbEngineeringAccuracy"
    headline = headlines[identifier]
    assert not (work / "results/assemblies/Scialom2024_rgb-engineering").exists()
    target = f"results/alexnet/{identifier}/layers/{headline['layer']}.json"
    run = snakemake(work, work.parent / "config.yaml", [target])  # nothing to download: the stimulus folder is here
    assert run.returncode == 0, run.stderr[-5000:]
    assert (work / "results/assemblies/Scialom2024_rgb-engineering/behaviour.nc").exists()
    layer = json.loads((work / target).read_text())
    fold = json.loads((work / f"results/alexnet/{identifier}/layers/{headline['layer']}/fold0.json").read_text())
    assert {key: headline[key] for key in layer} == layer
    assert headline["per_fold"] == [fold["value"]] and headline["raw"] == fold["value"]
