"""Hebart2023-match and Ferguson2024<exp>-value_delta end to end: fixture files in the real layouts
(tests/behaviour_fixtures.py) served on 127.0.0.1, downloaded and checked by the workflow, alexnet (seeded stand-in
weights, as tests/test_real_data_workflow.py) scored by snakemake; the score JSONs equal the behaviour library
called directly on the same downloaded files and hand computations. Then bad input (one clear error each), and
reference checks against Brain-Score's real files (``-m network``; skipped by default).
"""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import behaviour_fixtures as bf
import brainio_fixtures as fixtures
from brainpipe.benchmarks import default_catalog
from brainpipe import benchmarks, cli
from brainpipe.data import catalog
from brainpipe.behaviour import metrics, stages, tasks
from brainpipe.behaviour.data import load_behaviour, prepare_behaviour
from brainpipe.benchmarks.families import ferguson2024, hebart2023
from brainpipe.io import read_netcdf
from real_data_runs import (no_proxy, snakemake, stand_in, torch_home, write_checksums,  # noqa: F401
                                     write_config)

HEBART = "Hebart2023-match"
FERGUSON = "Ferguson2024tilted_line-value_delta"
LAYER = "classifier.5"  # alexnet's behavioural readout (Brain-Score: the last layer, post-ReLU fc7)


@pytest.fixture(scope="module")
def run(tmp_path_factory, torch_home):  # noqa: F811
    """One snakemake call for both targets; the store, the cache and the work folder."""
    folder = tmp_path_factory.mktemp("hebart-ferguson")
    store = folder / "store"
    sums = bf.write_behaviour_store(store, families=("Hebart2023", "Ferguson2024"))
    work = folder / "work"
    work.mkdir()
    with fixtures.local_http_server(store) as server:
        config = write_config(folder, [HEBART, FERGUSON],
                              dict(base_url=server.url, checksums_override=str(write_checksums(folder, sums))),
                              weights_file=stand_in(torch_home))
        result = snakemake(work, config, [f"results/alexnet/{HEBART}.json", f"results/alexnet/{FERGUSON}.json"],
                           torch_home=torch_home[0])
        requests = list(server.requests)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    return dict(work=work, cache=folder / "cache", sums=sums, requests=requests)


def score_json(run, identifier):
    return json.loads((run["work"] / "results/alexnet" / f"{identifier}.json").read_text())


def downloaded(run, name):
    """A file as the workflow downloaded it: <cache>/<sha1>/<object name>."""
    return run["cache"] / run["sums"][name] / name


def features_of(run, stimulus_set):
    return read_netcdf(run["work"] / "results/activations/alexnet" / stimulus_set / f"{LAYER}.nc")


# --- Hebart2023 ---------------------------------------------------------------------------------------------------


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_every_file_downloaded_once(run):
    expected = {"/" + name for name in run["sums"]}
    assert sorted(run["requests"]) == sorted(expected)  # 2 assemblies + 3 stimulus sets (csv, zip), each once


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_hebart_score_equals_library_on_the_downloaded_files(run):
    score = score_json(run, HEBART)
    assert (score["metric"], score["task"], score["layer"]) == ("odd_one_out_match", "odd_one_out", LAYER)
    assert (score["parent"], score["version"], score["n_folds"]) == ("behavior_vision", 1, 1)
    # Brain-Score's fixed ceiling has no error: null, not 0.0 (tests/test_score_fields.py)
    assert score["ceiling"] == 0.6767 and score["ceiling_error"] is None and score["error"] is None
    assert score["formula"] == "(raw - chance) / (ceiling - chance) clipped to [0, 1]"

    stimuli = run["work"] / "resources/stimuli/Hebart2023/stimuli.csv"
    human = prepare_behaviour(load_behaviour(downloaded(run, "assy_Hebart2023.nc"), stimuli))
    features = features_of(run, "Hebart2023")
    triplets = np.stack([human[f"image_{k}"].values.astype(str) for k in (1, 2, 3)], axis=1)
    choices = tasks.odd_one_out(features, triplets, "dot")
    raw = metrics.odd_one_out_match(choices, human)
    ceiled = metrics.normalise(raw, hebart2023.CEILING, "chance_corrected", clip=True, chance=1 / 3)
    assert score["raw"] == raw.score and score["score"] == ceiled.score

    # by hand: the task output written by the workflow, counted against the human odd one out (image_3)
    output = read_netcdf(run["work"] / "results/behaviour/alexnet/odd_one_out-dot-Hebart2023/Hebart2023.nc")
    picks = output.values[0].astype(str)
    assert (picks == choices.values[0].astype(str)).all()
    matches = sum(pick == str(odd) for pick, odd in zip(picks, human["image_3"].values))
    assert score["raw"] == matches / human.sizes["presentation"]
    assert score["score"] == min(max((matches / len(picks) - 1 / 3) / (0.6767 - 1 / 3), 0.0), 1.0)

    # by hand: the choice of every triplet from plain dot products (most similar pair → the third is odd)
    vectors = dict(zip(features["stimulus_id"].values.astype(str), features.values.astype(np.float64)))
    for (i, j, k), pick in zip(triplets, picks):
        sims = [vectors[i] @ vectors[j], vectors[i] @ vectors[k], vectors[j] @ vectors[k]]
        assert pick == (k, j, i)[int(np.argmax(sims))]


# --- Ferguson2024 -------------------------------------------------------------------------------------------------


def _hand_integral(correct, block, participant, level, lapse_rate):
    """Area under the (second − first) lapse-corrected accuracy line over 1, 5, 11 distractors, with pandas."""
    table = pd.DataFrame(dict(correct=correct, block=block, participant=participant, level=level))
    accuracy = table.groupby(["block", "level", "participant"])["correct"].mean()
    corrected = (accuracy - lapse_rate / 2) / (1 - lapse_rate)
    means = corrected.groupby(["block", "level"]).mean()
    d1, d5, d11 = (means["second", lv] - means["first", lv] for lv in ("1.0", "5.0", "11.0"))
    import sympy  # upstream rounds the sympy Float its integrals sum to: a reduced-precision float

    return float(round(sympy.Float(2 * (d1 + d5) + 3 * (d5 + d11)), 4))  # trapezoids: 1→5 (width 4), 5→11 (6)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_ferguson_score_equals_library_on_the_downloaded_files(run):
    experiment = ferguson2024.EXPERIMENTS["tilted_line"]
    score = score_json(run, FERGUSON)
    assert (score["metric"], score["task"], score["layer"]) == ("value_delta", "probabilities", LAYER)
    assert (score["parent"], score["version"]) == ("behavior", 1)
    assert (score["ceiling"], score["ceiling_error"]) == experiment.ceiling == (0.912, 0.064)
    assert score["formula"] == "raw / ceiling clipped to [0, 1]"
    assert score["details"]["lapse_rate"] == experiment.lapse_rate and score["details"]["scale"] == 0.75

    work = run["work"]
    test_csv = work / "resources/stimuli/Ferguson2024_tilted_line/stimuli.csv"
    fit_csv = work / "resources/stimuli/Ferguson2024_tilted_line_training_stimuli/stimuli.csv"
    human = prepare_behaviour(load_behaviour(downloaded(run, "assy_Ferguson2024_tilted_line.nc"), test_csv))
    test_table = pd.read_csv(test_csv, dtype={"stimulus_id": str}).set_index("stimulus_id")
    fit_table = pd.read_csv(fit_csv, dtype={"stimulus_id": str}).set_index("stimulus_id")
    label = lambda numbers: np.where(np.asarray(numbers) % 2 == 0, "oddball", "same").astype(object)  # noqa: E731
    fitting = features_of(run, "Ferguson2024_tilted_line_training_stimuli")
    fit_numbers = fit_table.loc[fitting["stimulus_id"].values.astype(str), "image_number"].to_numpy()
    test = features_of(run, "Ferguson2024_tilted_line")
    test_rows = test_table.loc[test["stimulus_id"].values.astype(str)]
    with warnings.catch_warnings():  # training and test sets reuse the ids for other images: no overlap warning
        warnings.simplefilter("error")
        probabilities = tasks.probabilities(fitting, test, label(fit_numbers))
    assert list(probabilities["choice"].values) == ["oddball", "same"]  # column 0 = 'oddball', as upstream assumes
    written = read_netcdf(work / "results/behaviour/alexnet/probabilities-fit-Ferguson2024_tilted_line_training_"
                                 "stimuli-oddball_parity/Ferguson2024_tilted_line.nc")
    np.testing.assert_allclose(written.values, probabilities.values, atol=1e-12)
    numbers = test_rows["image_number"].to_numpy()
    model = metrics.model_choices(probabilities.assign_coords(block=("presentation", test_rows["block"].to_numpy())),
                                  numbers, label(numbers))
    model_integral = metrics.integral(model, experiment.lapse_rate)
    human_integral = metrics.integral(human, experiment.lapse_rate)
    raw = metrics.value_delta(model_integral, human_integral, scale=0.75)
    assert (score["details"]["model_integral"], score["details"]["human_integral"]) == (model_integral,
                                                                                       human_integral)
    assert score["raw"] == raw.score
    assert score["score"] == metrics.normalise(raw, 0.912, "raw_over_ceiling", clip=True).score

    # by hand: the integrals with pandas from the human trials and the model's written probabilities
    assert human_integral == _hand_integral(human["correct"].values, human["block"].values.astype(str),
                                            human["participant_id"].values.astype(str),
                                            human["distractor_nums"].values.astype(str), experiment.lapse_rate)
    oddball = written.sel(choice="oddball").values > written.sel(choice="same").values  # softmax col 0 > .5
    correct = (oddball == (numbers % 2 == 0)).astype(float)
    levels = [{0: "1.0", 1: "1.0", 2: "5.0", 3: "5.0"}.get(n % 6, "11.0") for n in numbers]
    assert levels == list(model["distractor_nums"].values)
    assert model_integral == _hand_integral(correct, test_rows["block"].to_numpy(), ["model"] * len(numbers),
                                            levels, experiment.lapse_rate)
    assert score["raw"] == pytest.approx(np.exp(-0.75 * abs(model_integral - human_integral)), abs=1e-15)
    assert score["score"] == pytest.approx(min(max(score["raw"] / 0.912, 0), 1), abs=1e-15)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_second_run_does_nothing(run, torch_home):  # noqa: F811
    config = run["work"].parent / "config.yaml"
    again = snakemake(run["work"], config, [f"results/alexnet/{HEBART}.json", f"results/alexnet/{FERGUSON}.json"],
                      torch_home=torch_home[0], args=("-n",))
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_declared_value_delta_on_the_same_files_equals_the_built_in(run, torch_home):  # noqa: F811
    """A user's benchmark_zoo entry for an oddball experiment (Ferguson2024's layout: the files as downloaded, local
    paths, no sha1s) with value_delta: scored by the same stages, it equals the built-in benchmark's score."""
    import yaml

    experiment = ferguson2024.EXPERIMENTS["tilted_line"]
    config = yaml.safe_load((run["work"].parent / "config.yaml").read_text())
    files = {name: str(downloaded(run, f"{kind}_Ferguson2024_tilted_line{part}{ext}"))
             for name, kind, part, ext in (("csv", "stimulus", "", ".csv"), ("zip", "stimulus", "", ".zip"),
                                           ("fit_csv", "stimulus", "_training_stimuli", ".csv"),
                                           ("fit_zip", "stimulus", "_training_stimuli", ".zip"),
                                           ("assembly", "assy", "", ".nc"))}
    config["benchmark_zoo"] = {"MyOddball": {
        "stimuli": {"csv": files["csv"], "zip": files["zip"]},
        "fitting_stimuli": {"csv": files["fit_csv"], "zip": files["fit_zip"]},
        "behaviour": {"file": files["assembly"]}, "task": "probabilities", "metrics": ["value_delta"],
        "ceiling": experiment.ceiling[0], "options": {"lapse_rate": experiment.lapse_rate, "scale": 0.75},
        "visual_degrees": 8}}
    config["benchmarks"] = [FERGUSON, "MyOddball-value_delta"]
    declared = run["work"].parent / "declared.yaml"
    declared.write_text(yaml.safe_dump(config, sort_keys=False))
    result = snakemake(run["work"], declared, ["results/alexnet/MyOddball-value_delta.json"],
                       torch_home=torch_home[0])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-5000:]
    mine, builtin = score_json(run, "MyOddball-value_delta"), score_json(run, FERGUSON)
    assert (mine["metric"], mine["task"], mine["origin"]) == ("value_delta", "probabilities",
                                                              "config benchmark_zoo.MyOddball")
    for key in ("score", "raw", "ceiling"):
        assert mine[key] == builtin[key], key
    assert mine["details"]["model_integral"] == builtin["details"]["model_integral"]
    assert mine["details"]["human_integral"] == builtin["details"]["human_integral"]


# --- definitions, listing -----------------------------------------------------------------------------------------


def test_definitions_match_brain_score():
    b = benchmarks.parse(HEBART)
    assert (b.kind, b.parent, b.version, b.visual_degrees, b.normalisation) == \
        ("behaviour", "behavior_vision", 1, 8.0, "chance_corrected")
    assert (b.behaviour.ceiling, b.behaviour.clip, dict(b.behaviour.options)) == \
        (0.6767, True, {"similarity": "dot", "chance": 1 / 3, "triplet_images": "by_row"})
    ids = [i for i in benchmarks.builtin().identifiers() if i.startswith("Ferguson2024")]
    assert len(ids) == 14 == len(ferguson2024.EXPERIMENTS)
    for experiment, data in ferguson2024.EXPERIMENTS.items():
        b = benchmarks.parse(f"Ferguson2024{experiment}-value_delta")
        assert (b.parent, b.version, b.visual_degrees, b.normalisation, b.behaviour.clip) == \
            ("behavior", 1, 8.0, "raw_over_ceiling", True)
        assert b.behaviour.ceiling == data.ceiling[0]
        assert dict(b.behaviour.options) == {"scale": 0.75, "lapse_rate": data.lapse_rate,
                                             "ceiling_error": data.ceiling[1]}
        assert b.family.readout.stimulus_set == f"Ferguson2024_{experiment}_training_stimuli"
        test_set = default_catalog().stimulus_set(f"Ferguson2024_{experiment}")
        assert test_set.csv.sha1 == ("fc59d23ccfb41b4f98cf02865fc335439d2ad222" if experiment == "circle_line"
                                     else "bc351933e1f21eee9704985c1b8231be6955d816")
        assert default_catalog().assembly(f"Ferguson2024_{experiment}").file.sha1 == data.assembly_sha1
    assert ferguson2024.EXPERIMENTS["juncture"].ceiling == (0.767, 0.141)
    assert ferguson2024.EXPERIMENTS["juncture"].lapse_rate == 0.3715
    assert default_catalog().assembly("Hebart2023").file.name == "assy_Hebart2023.nc"


def test_brainpipe_list_shows_them(capsys):
    assert cli.main(["list"]) == 0
    listed = capsys.readouterr().out
    assert HEBART in listed and FERGUSON in listed and "Ferguson2024circle_line-value_delta" in listed


# --- bad input: one clear error naming the file and the coordinate / column ---------------------------------------


def _features(ids, seed=0):
    rng = np.random.default_rng(seed)
    return xr.DataArray(rng.normal(size=(len(ids), 5)), dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", np.array(ids, dtype=object))})


def test_triplets_naming_unknown_stimuli():
    human, _, _ = bf.hebart2023(n_images=6, n_triplets=4)
    image_2 = human["image_2"].values.copy()
    image_2[1] = 9999
    human = human.assign_coords(image_2=("presentation", image_2))
    human.attrs["source"] = "results/assemblies/Hebart2023/behaviour.nc"
    with pytest.raises(ValueError) as error:
        stages.run_task(benchmarks.parse(HEBART), _features([str(i) for i in range(6)]), human=human,
                        test_table=pd.DataFrame({"stimulus_id": [str(i) for i in range(6)]}))
    message = str(error.value)
    assert message.startswith("results/assemblies/Hebart2023/behaviour.nc: 1 triplets name stimuli")
    assert "coordinate 'image_2': ['9999']" in message and "image_1" not in message


def _ferguson_tables(tmp_path):
    (_, (test, _), (training, _)) = bf.ferguson2024(participants=1, repeats=1)
    for table, name in ((test, "test.csv"), (training, "training.csv")):
        table.attrs["source"] = str(tmp_path / name)
    return test, training


def test_fitting_set_without_image_number(tmp_path):
    test, training = _ferguson_tables(tmp_path)
    benchmark = benchmarks.parse(FERGUSON)
    with pytest.raises(ValueError, match=rf"{tmp_path}/training.csv: no column 'image_number' \(has "):
        stages.run_task(benchmark, _features(test.stimulus_id), _features(training.stimulus_id, 1),
                        training.drop(columns="image_number"), test_table=test)
    broken = training.assign(image_number=training["image_number"].astype(float))
    broken.loc[3, "image_number"] = 2.5
    broken.attrs["source"] = training.attrs["source"]
    with pytest.raises(ValueError, match=r"training.csv: column 'image_number' must hold whole numbers .* \[2.5\]"):
        stages.run_task(benchmark, _features(test.stimulus_id), _features(training.stimulus_id, 1), broken,
                        test_table=test)
    with pytest.raises(ValueError, match=rf"{tmp_path}/test.csv: no column 'block'"):
        stages.run_task(benchmark, _features(test.stimulus_id), _features(training.stimulus_id, 1), training,
                        test_table=test.drop(columns="block"))


def test_value_delta_task_output_drives_the_raw_score(tmp_path):
    """The stage on a tiny case: probabilities carry image_number/block; the raw score is value_delta of the
    two integrals (also checked against the hand integral)."""
    test, training = _ferguson_tables(tmp_path)
    benchmark = benchmarks.parse(FERGUSON)
    with warnings.catch_warnings():  # shared ids, different images (features): not the same stimuli
        warnings.simplefilter("error")
        output = stages.run_task(benchmark, _features(test.stimulus_id), _features(training.stimulus_id, 1),
                                 training, test_table=test)
    assert {"image_number", "block"} <= set(output.coords) and list(output["choice"].values) == ["oddball", "same"]
    human, _, _ = bf.ferguson2024(participants=3, repeats=1)
    result = stages.raw_score(benchmark, output, human)
    details = result.attrs["details"]
    assert details["human_integral"] == _hand_integral(
        human["correct"].values, human["block"].values, human["participant_id"].values,
        human["distractor_nums"].values, 0.04986)
    assert result.score == np.exp(-0.75 * abs(details["model_integral"] - details["human_integral"]))
    assert stages.to_json(result)["details"] == details
    ceiling = stages.ceiling(benchmark, human)
    assert (ceiling.score, ceiling.error) == (0.912, 0.064)


# --- Brain-Score's real files (network) ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("brainscore-cache")


def _real(entry_key, real_cache, stimuli=True):
    """A real assembly fetched by brainpipe's fetch code from the catalog's URL, checked against its sha1."""
    from brainpipe.data.download import fetch_file

    entry = default_catalog().assembly(entry_key)
    base = catalog.base_url(None)
    nc = fetch_file(entry.file, real_cache, base, progress=None)
    csv = fetch_file(default_catalog().stimulus_set(entry.stimulus_set).csv, real_cache, base, progress=None)
    return load_behaviour(nc, csv if stimuli else None), pd.read_csv(csv)


@pytest.mark.network
@pytest.mark.parametrize("experiment", sorted(ferguson2024.EXPERIMENTS))
def test_ferguson_real_ceiling_matches_the_precomputed_one(experiment, real_cache):
    """Upstream's ceiling recompute path (500 seeded half splits) on the real human data reproduces
    PRECOMPUTED_CEILINGS (given to 3 decimals); the layout is as the facts say."""
    data = ferguson2024.EXPERIMENTS[experiment]
    human, stimuli = _real(f"Ferguson2024_{experiment}", real_cache)
    human = prepare_behaviour(human)
    assert len(stimuli) == ferguson2024.TEST_IMAGES
    assert {"participant_id", "correct", "block", "distractor_nums", "image_number"} <= set(human.coords)
    assert len(set(human["participant_id"].values)) == data.subjects
    ceiling = metrics.value_delta_ceiling(human, data.lapse_rate, scale=0.75, loops=500)
    assert ceiling.score == pytest.approx(data.ceiling[0], abs=0.0015)
    assert ceiling.error == pytest.approx(data.ceiling[1], abs=0.0015)


@pytest.mark.network
def test_ferguson_real_training_set_starts_with_an_oddball(real_cache):
    """Upstream reads probability column 0 as 'oddball': true when the first training image number is even."""
    from brainpipe.data.download import fetch_file

    entry = default_catalog().stimulus_set("Ferguson2024_tilted_line_training_stimuli")
    table = pd.read_csv(fetch_file(entry.csv, real_cache, catalog.base_url(None), progress=None))
    assert len(table) == ferguson2024.TRAINING_IMAGES and int(table["image_number"].iloc[0]) % 2 == 0


@pytest.mark.network
def test_hebart_real_layout(real_cache):
    human, stimuli = _real("Hebart2023", real_cache, stimuli=False)
    assert human.sizes["presentation"] == hebart2023.TRIPLETS and len(stimuli) == hebart2023.STIMULI
    assert (human["stimulus_id"].values == human["image_3"].values).all()
    known = set(stimuli["stimulus_id"].astype(str))
    assert all(set(human[f"image_{k}"].values.astype(str)) <= known for k in (1, 2, 3))
