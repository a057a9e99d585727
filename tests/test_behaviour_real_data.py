"""Rajalingham2018 and Geirhos2021 end to end through the real workflow, from files in Brain-Score's layouts on a
loopback HTTP server (tests/behaviour_fixtures.py), with seeded alexnet weights (stand-in, as
tests/test_real_data_workflow.py); each score checked against the behaviour library called directly on the same
downloaded files, plus numbers recomputed by hand. Then bad human data / fitting stimuli through the workflow: one
error naming the file and the coordinate, a nonzero exit, no output written.

What is real: the Snakefile, every rule and script, the object names, the downloads, the NetCDF and CSV layouts.
What is a stand-in: the file contents (tiny, simulated) and the weights. No number here is comparable with
Brain-Score's; tests/test_behaviour_reference.py (network) checks the real ceilings.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import torch
import xarray as xr

import behaviour_fixtures as bf
from brainio_fixtures import _sha1, local_http_server
from brainpipe.behaviour import metrics, tasks
from brainpipe.behaviour.data import load_behaviour, prepare_behaviour
from brainpipe.io import read_netcdf
from real_data_runs import files_under, snakemake, weights_file_name, write_checksums, write_config

RAJALINGHAM, EC, TOP1 = "Rajalingham2018public-i2n", "Geirhos2021colour-error_consistency", "Geirhos2021colour-top1"
FAMILIES = ("Rajalingham2018.public", "Geirhos2021_colour")
FILES = {"Rajalingham2018.public": ("assy_dicarlo_Rajalingham2018_public.nc", "stimulus_objectome_public.csv",
                                    "stimulus_objectome_public.zip"),
         "Geirhos2021_colour": ("assy_brendel_Geirhos2021_colour.nc", "stimulus_Geirhos2021_colour.csv",
                                "stimulus_Geirhos2021_colour.zip")}
#: brain-score/vision benchmarks/geirhos2021/benchmark.py EXCLUDE_CONDITIONS['colour'] (written out, not imported)
COLOUR_EXCLUDED = ["cr"]


@pytest.fixture(scope="module")
def torch_home(tmp_path_factory):
    """Seeded alexnet weights, given to the model zoo as ``weights_file`` (as tests/test_real_data_workflow.py)."""
    from brainpipe.models._torchvision import import_torchvision

    home = tmp_path_factory.mktemp("torch_home")
    (home / "hub" / "checkpoints").mkdir(parents=True)
    torch.manual_seed(0)
    torch.save(import_torchvision().models.alexnet(weights=None).state_dict(),
               home / "hub" / "checkpoints" / weights_file_name())
    return home


def stand_in(home: Path) -> Path:
    return home / "hub" / "checkpoints" / weights_file_name()


def run_workflow(folder: Path, root: Path, sums: dict, benchmark_ids, targets, torch_home=None):
    """Serve ``root`` on 127.0.0.1 and run snakemake on ``targets`` in ``folder/work``; (run, requests, work)."""
    work = folder / "work"
    work.mkdir(exist_ok=True)
    with local_http_server(root) as server:
        config = write_config(folder, benchmark_ids,
                              dict(base_url=server.url, checksums_override=str(write_checksums(folder, sums))),
                              weights_file=stand_in(torch_home) if torch_home else None)
        run = snakemake(work, config, targets, torch_home=torch_home)
        return run, list(server.requests), work


@pytest.fixture(scope="module")
def scored(tmp_path_factory, torch_home):
    """One snakemake call scoring alexnet on all three benchmarks (both families share one model run)."""
    folder = tmp_path_factory.mktemp("behaviour-real")
    root = folder / "store"
    sums = bf.write_behaviour_store(root, families=FAMILIES)
    targets = [f"results/alexnet/{b}.json" for b in (RAJALINGHAM, EC, TOP1)]
    run, requests, work = run_workflow(folder, root, sums, [RAJALINGHAM, EC, TOP1], targets, torch_home)
    assert run.returncode == 0, run.stderr[-5000:]
    return dict(work=work, cache=folder / "cache", sums=sums, requests=requests)


def cached(scored, name: str) -> Path:
    """A downloaded file: <cache>/<sha1>/<object name>."""
    return scored["cache"] / scored["sums"][name] / name


def score(scored, benchmark: str) -> dict:
    return json.loads((scored["work"] / "results" / "alexnet" / f"{benchmark}.json").read_text())


def human_data(scored, dataset: str, exclude=()) -> xr.DataArray:
    """The human data read straight from the downloaded .nc and .csv, prepared by the library."""
    nc, csv, _ = FILES[dataset]
    return prepare_behaviour(load_behaviour(cached(scored, nc), cached(scored, csv)), exclude)


def activations(scored, stimuli: str, layer: str) -> xr.DataArray:
    return read_netcdf(scored["work"] / "results" / "activations" / "alexnet" / stimuli / f"{layer}.nc")


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_downloads_and_brainscore_fields(scored):
    """Each of the six files fetched once over HTTP; each score JSON carries Brain-Score's fields and settings
    (brain-score/vision benchmarks/rajalingham2018/benchmarks/benchmark.py, benchmarks/geirhos2021/benchmark.py)."""
    names = [name for dataset in FAMILIES for name in FILES[dataset]]
    assert sorted(scored["requests"]) == sorted("/" + name for name in names)
    expected = {RAJALINGHAM: (2, "behavior", "i2n", "probabilities", "classifier.5", "Rajalingham2018.public"),
                EC: (1, "Geirhos2021", "error_consistency", "label", "classifier.6", "Geirhos2021_colour"),
                TOP1: (1, "Geirhos2021-top1", "accuracy", "label", "classifier.6", "Geirhos2021_colour")}
    for benchmark, (version, parent, metric, task, layer, dataset) in expected.items():
        result = score(scored, benchmark)
        assert (result["version"], result["parent"], result["metric"], result["task"], result["layer"]) == \
            (version, parent, metric, task, layer), benchmark
        assert result["benchmark"] == benchmark and result["model"] == "alexnet"
        for key in ("score", "raw", "ceiling"):
            assert isinstance(result[key], float) and np.isfinite(result[key]), (benchmark, key)
        assert result["bibtex"].startswith("@article{") and result["n_folds"] == 1
        assert result["data"]["dataset"] == dataset
        assert result["data"]["files"] == {name: scored["sums"][name] for name in FILES[dataset]}
    assert score(scored, RAJALINGHAM)["data"]["fitting_stimulus_set"] == "objectome.public"
    assert score(scored, EC)["data"]["visual_degrees"] == 3.0  # error consistency: shown at 3°, as upstream


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_rajalingham2018_equals_library_on_the_downloaded_files(scored):
    result = score(scored, RAJALINGHAM)
    human = human_data(scored, "Rajalingham2018.public")
    table = pd.read_csv(cached(scored, "stimulus_objectome_public.csv"), dtype={"image_id": str})
    features = activations(scored, "objectome.public", "classifier.5")
    labels = table.set_index("image_id").loc[features["stimulus_id"].values.astype(str), "image_label"].to_numpy()
    with pytest.warns(UserWarning, match="same images"):  # the public benchmark fits and tests on the same images
        probabilities = tasks.probabilities(features, features, labels)
    workflow_task = read_netcdf(scored["work"] / "results/behaviour/alexnet/probabilities-fit-objectome.public/"
                                                 "objectome.public.nc")
    np.testing.assert_allclose(workflow_task.values, probabilities.values, atol=1e-12)

    raw, ceiling = metrics.i2n(probabilities, human), metrics.i2n_ceiling(human, skipna=True)
    ceiled = metrics.normalise(raw, ceiling, "raw_over_sqrt_ceiling_per_split", clip=False)
    assert result["raw"] == pytest.approx(raw.score, abs=1e-12)
    assert result["ceiling"] == pytest.approx(ceiling.score, abs=1e-12)
    assert result["score"] == pytest.approx(ceiled.score, abs=1e-12)
    # by hand: Brain-Score ceils each of the 2 splits, r_k / sqrt(c_k), then averages; the ceiling file keeps c_k
    ceiling_file = json.loads((scored["work"] / "results/ceilings" / f"{RAJALINGHAM}.json").read_text())
    c_k = np.asarray(ceiling_file["per_split"])
    r_k = np.asarray(raw.values.values)
    assert len(c_k) == len(r_k) == 2 and ceiling_file["ceiling"] == pytest.approx(c_k.mean(), abs=1e-12)
    assert result["score"] == pytest.approx(np.mean(r_k / np.sqrt(c_k)), abs=1e-12)
    assert result["error"] == pytest.approx(np.std(r_k / np.sqrt(c_k)), abs=1e-12)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_one_job_extracts_a_papers_folders_and_a_second_run_does_nothing(scored, torch_home):
    """Geirhos2021colour's raw images (top-1) and its images on screen (error consistency) are one activations job
    (alexnet loaded once). Snakemake records both folders as the input of each file that job wrote: a second run
    must still find every file up to date (the per-layer rule, with one folder as input, would extract it again)."""
    logs = [log.read_text() for log in (scored["work"] / "logs/activations/alexnet").glob("activations_layers_*.log")]
    together = [text for text in logs if "Geirhos2021_colour: layers" in text
                and "Geirhos2021_colour--target8.00--source3.00: layers" in text]
    assert len(together) == 1, logs
    folder = scored["work"].parent
    targets = [f"results/alexnet/{b}.json" for b in (RAJALINGHAM, EC, TOP1)]
    run, requests, _ = run_workflow(folder, folder / "store", scored["sums"], [RAJALINGHAM, EC, TOP1], targets,
                                    torch_home)
    assert run.returncode == 0 and "Nothing to be done" in run.stdout + run.stderr, run.stderr[-5000:]
    assert requests == []


def geirhos_labels(scored, stimuli: str) -> xr.DataArray:
    """The model's 16-way labels recomputed from its logits; equal to the workflow's label task output."""
    logits = activations(scored, stimuli, "classifier.6")
    labels = tasks.label(logits, sorted(bf.GEIRHOS_CATEGORIES))
    task_files = list((scored["work"] / "results/behaviour/alexnet").glob(f"label-16labels-*/{stimuli}.nc"))
    assert len(task_files) == 1, task_files
    workflow_task = read_netcdf(task_files[0])
    assert (workflow_task["stimulus_id"].values == labels["stimulus_id"].values).all()
    assert (workflow_task.values == labels.values).all()
    return labels


def kappa(correct_a: np.ndarray, correct_b: np.ndarray) -> float:
    """Cohen's κ of two observers' trial-wise correctness (Geirhos et al. 2020), by hand."""
    p_a, p_b = correct_a.mean(), correct_b.mean()
    expected = p_a * p_b + (1 - p_a) * (1 - p_b)
    return ((correct_a == correct_b).mean() - expected) / (1 - expected)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_geirhos2021_error_consistency_equals_library_and_hand(scored):
    result = score(scored, EC)
    human = human_data(scored, "Geirhos2021_colour", COLOUR_EXCLUDED)
    assert set(human["condition"].values) == {"bw"}  # 'cr' dropped (not out of distribution)
    labels = geirhos_labels(scored, "Geirhos2021_colour--target8.00--source3.00")  # shown at 3° to an 8° model
    kept = np.isin(labels["stimulus_id"].values, human["stimulus_id"].values)
    model = labels.isel(presentation=np.flatnonzero(kept))
    raw, ceiling = metrics.error_consistency(model, human), metrics.error_consistency_ceiling(human)
    ceiled = metrics.normalise(raw, ceiling, "raw_over_ceiling", clip=True)
    assert result["raw"] == pytest.approx(raw.score, abs=1e-12)
    assert result["ceiling"] == pytest.approx(ceiling.score, abs=1e-12)
    assert result["score"] == pytest.approx(ceiled.score, abs=1e-12)

    # by hand, from the downloaded files: one condition left, so raw = |mean over subjects of κ(model, subject)|
    # and the ceiling = |mean over subject pairs of κ|, both on correctness sorted by image id
    trials = xr.open_dataarray(cached(scored, "assy_brendel_Geirhos2021_colour.nc")).load()
    trials = trials.isel(presentation=np.flatnonzero(trials["condition"].values != "cr"))
    model_choice = dict(zip(model["stimulus_id"].values, model.values[0]))
    correct = {}
    for subject in sorted(set(trials["subject"].values)):
        mine = trials.isel(presentation=np.flatnonzero(trials["subject"].values == subject))
        order = np.argsort(mine["image_id"].values)
        correct[subject] = (mine.values == mine["truth"].values)[order]
        correct.setdefault("model", np.array([model_choice[i] == t for i, t in
                                              zip(mine["image_id"].values[order], mine["truth"].values[order])]))
    subjects = [s for s in correct if s != "model"]
    assert len(subjects) == 4
    by_hand = abs(np.mean([kappa(correct["model"], correct[s]) for s in subjects]))
    pairs = [(a, b) for i, a in enumerate(subjects) for b in subjects[i + 1:]]
    ceiling_by_hand = abs(np.mean([kappa(correct[a], correct[b]) for a, b in pairs]))
    assert result["raw"] == pytest.approx(by_hand, abs=1e-12)
    assert result["ceiling"] == pytest.approx(ceiling_by_hand, abs=1e-12)
    assert result["score"] == pytest.approx(min(max(by_hand / ceiling_by_hand, 0), 1), abs=1e-12)


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_geirhos2021_top1_equals_library_and_hand(scored):
    result = score(scored, TOP1)
    human = human_data(scored, "Geirhos2021_colour", COLOUR_EXCLUDED)
    labels = geirhos_labels(scored, "Geirhos2021_colour")  # top1: no placement on screen (8° = the model's)
    kept = np.isin(labels["stimulus_id"].values, human["stimulus_id"].values)
    model = labels.isel(presentation=np.flatnonzero(kept))
    truth = dict(zip(human["stimulus_id"].values, human["truth"].values))
    expected = metrics.accuracy(model, np.array([truth[i] for i in model["stimulus_id"].values]))
    assert result["raw"] == pytest.approx(expected.score, abs=1e-12)
    assert result["ceiling"] == 1.0 and result["score"] == result["raw"]

    # by hand: top1 = mean(label == truth) over the stimulus set's images left after dropping 'cr' (upstream
    # scores the stimulus set of the condition-filtered assembly), truth from the downloaded CSV
    table = pd.read_csv(cached(scored, "stimulus_Geirhos2021_colour.csv"))
    table = table[table["condition"] != "cr"]
    choice = dict(zip(labels["stimulus_id"].values, labels.values[0]))
    hits = [choice[image] == truth for image, truth in zip(table["image_id"], table["truth"])]
    assert len(hits) == 32 and result["raw"] == pytest.approx(np.mean(hits), abs=1e-12)
    assert result["error"] == pytest.approx(np.std(hits), abs=1e-12)  # Brain-Score: std of the hits (ddof 0)


def test_intermediate_netcdf_keeps_missing_text(tmp_path):
    """brainpipe.io.write_netcdf: NaN/None in a text variable read back as NaN, not as the answer '' (NetCDF
    strings have no NaN); '' and a value equal to the first sentinel stay what they were."""
    from brainpipe.io import write_netcdf

    values = np.array(["cat", np.nan, "<missing>", None, ""], dtype=object)
    array = xr.DataArray(values, dims=("presentation",), name="choices",
                         coords={"subject": ("presentation", np.array(["a", None, "", "b", "c"], dtype=object)),
                                 "truth": ("presentation", np.array(["cat"] * 5, dtype=object))})
    write_netcdf(array, tmp_path / "human.nc")
    back = read_netcdf(tmp_path / "human.nc")
    assert pd.isna(back.values).tolist() == [False, True, False, True, False]
    assert back.values[[0, 2, 4]].tolist() == ["cat", "<missing>", ""]
    assert pd.isna(back["subject"].values).tolist() == [False, True, False, False, False]
    assert back["subject"].values[2] == "" and back["truth"].values.tolist() == ["cat"] * 5


def test_human_choices_check():
    """Label tasks: choices among the labels or 'na' (no answer: an error, as upstream counts it), truths among
    the labels; 2AFC: the choice is one of the two objects offered."""
    from brainpipe import benchmarks
    from brainpipe.behaviour.stages import check_human_choices

    geirhos = benchmarks.parse(EC)
    trials = xr.DataArray(np.array(["cat", "na", "dog"], dtype=object), dims=("presentation",),
                          coords={"truth": ("presentation", np.array(["cat", "cat", "dog"], dtype=object))},
                          attrs={"source": "human.nc"})
    check_human_choices(geirhos, trials)
    with pytest.raises(ValueError, match=r"human.nc: 1 human trials have choices \(the values\) outside the "
                                         r"benchmark's 16 labels: \['zebra'\]"):
        check_human_choices(geirhos, trials.copy(data=np.array(["cat", "zebra", "dog"], dtype=object)))
    with pytest.raises(ValueError, match=r"human.nc: 1 human trials have coordinate 'truth' outside .* \['na'\]"):
        check_human_choices(geirhos, trials.assign_coords(truth=("presentation", ["cat", "na", "dog"])))
    rajalingham = benchmarks.parse(RAJALINGHAM)
    pairs = xr.DataArray(np.array(["a", "c"], dtype=object), dims=("presentation",), attrs={"source": "r.nc"},
                         coords={"sample_obj": ("presentation", ["a", "a"]), "dist_obj": ("presentation", ["b", "c"])})
    check_human_choices(rajalingham, pairs)
    with pytest.raises(ValueError, match=r"r.nc: 1 human trials chose an object the trial did not offer .* "
                                         r"presentation 1: choice 'b', offered 'a' and 'c'"):
        check_human_choices(rajalingham, pairs.copy(data=np.array(["a", "b"], dtype=object)))


# --- bad input: one error naming the file and the coordinate, nonzero exit, nothing written ----------------------
# Each case is a snakemake run of its own (~7 s; the fitting case also runs alexnet): the NaN case runs by default,
# the others with -m slow.


def store_with(folder: Path, dataset: str, edit_trials=None, edit_stimuli=None):
    """A store with one family whose assembly (or stimulus CSV) was changed by ``edit_*``; (root, sums).

    Text variables are written with a ``_FillValue`` so that a missing (NaN) entry reads back as NaN (NetCDF
    strings have no NaN: without a fill value xarray writes it as '')."""
    root = folder / "store"
    sums = bf.write_behaviour_store(root, families=(dataset,))
    nc, csv, _ = FILES[dataset]
    if edit_trials:
        with xr.open_dataarray(root / nc) as opened:
            trials = opened.load()
        (root / nc).unlink()
        trials = edit_trials(trials)
        trials.to_netcdf(root / nc, encoding={trials.name: {"zlib": True, "_FillValue": "NA"}
                                              if trials.dtype == object else {"zlib": True}})
    if edit_stimuli:
        edit_stimuli(pd.read_csv(root / csv)).to_csv(root / csv, index=False)
    return root, {name: _sha1((root / name).read_bytes()) for name in sums}


def assert_failed_cleanly(run, work: Path, output: str, *messages):
    """Nonzero exit, every message in the output, ``output`` absent, no temporary file anywhere under work."""
    text = run.stdout + run.stderr
    assert run.returncode != 0, text[-3000:]
    for message in messages:
        assert message in text, (message, text[-5000:])
    assert not (work / output).exists()
    assert not [p for p in files_under(work / "results") + files_under(work / "resources")
                if p.endswith((".tmp", ".part")) or ".tmp" in Path(p).name]


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_nan_choices(tmp_path):
    def nan_choice(trials):
        values = trials.values.astype(object)
        values[3] = np.nan
        return trials.copy(data=values)

    root, sums = store_with(tmp_path, "Rajalingham2018.public", edit_trials=nan_choice)
    output = "results/assemblies/Rajalingham2018.public/behaviour.nc"
    run, _, work = run_workflow(tmp_path, root, sums, [RAJALINGHAM], [output])
    assert_failed_cleanly(run, work, output, "resources/assemblies/Rajalingham2018.public.nc: human data has 1 "
                                             "missing (NaN) value(s) among its")


@pytest.mark.slow
def test_rajalingham_choice_not_offered(tmp_path):
    def foreign_choice(trials):
        values = trials.values.astype(object)
        values[5] = "zebra"
        return trials.copy(data=values)

    root, sums = store_with(tmp_path, "Rajalingham2018.public", edit_trials=foreign_choice)
    output = f"results/ceilings/{RAJALINGHAM}.json"
    run, _, work = run_workflow(tmp_path, root, sums, [RAJALINGHAM], [output])
    assert_failed_cleanly(run, work, output, "results/assemblies/Rajalingham2018.public/behaviour.nc: 1 human trials "
                                             "chose an object the trial did not offer (choice not in coordinates "
                                             "'sample_obj'/'dist_obj'), e.g. presentation 5: choice 'zebra'")


@pytest.mark.slow
def test_geirhos_choice_outside_the_labels(tmp_path):
    def foreign_choice(trials):
        values = trials.values.astype(object)
        values[np.flatnonzero(trials["condition"].values == "bw")[:2]] = "zebra"
        return trials.copy(data=values)

    root, sums = store_with(tmp_path, "Geirhos2021_colour", edit_trials=foreign_choice)
    output = f"results/ceilings/{EC}.json"
    run, _, work = run_workflow(tmp_path, root, sums, [EC], [output])
    assert_failed_cleanly(run, work, output, "results/assemblies/Geirhos2021_colour/behaviour.nc: 2 human trials "
                                             "have choices (the values) outside the benchmark's 16 labels: ['zebra']")


@pytest.mark.slow
def test_geirhos_subjects_without_a_shared_condition(tmp_path):
    """subject-02 saw its images in a condition no other subject saw: no pair shares it."""
    def own_condition(trials):
        condition = trials["condition"].values.astype(object)
        condition[(trials["subject"].values == "subject-02") & (condition == "bw")] = "gray"
        return trials.assign_coords(condition=("presentation", condition))

    root, sums = store_with(tmp_path, "Geirhos2021_colour", edit_trials=own_condition)
    output = f"results/ceilings/{EC}.json"
    run, _, work = run_workflow(tmp_path, root, sums, [EC], [output])
    assert_failed_cleanly(run, work, output, "brainpipe ceiling failed: results/assemblies/Geirhos2021_colour/"
                                             "behaviour.nc: subject 'subject-02' has no trials in condition 'bw' "
                                             "(coordinates 'subject', 'condition'); subjects share no such condition")


@pytest.mark.slow
def test_excluded_condition_absent_from_the_data(tmp_path):
    """Upstream asserts every excluded condition occurs; a typing mismatch would otherwise drop nothing."""
    def renamed(trials):
        condition = np.where(trials["condition"].values == "cr", "colour", trials["condition"].values)
        return trials.assign_coords(condition=("presentation", condition.astype(object)))

    root, sums = store_with(tmp_path, "Geirhos2021_colour", edit_trials=renamed)
    output = "results/assemblies/Geirhos2021_colour/behaviour.nc"
    run, _, work = run_workflow(tmp_path, root, sums, [EC], [output])
    assert_failed_cleanly(run, work, output, "resources/assemblies/Geirhos2021_colour.nc: the benchmark drops "
                                             "conditions ['cr'], which coordinate 'condition' does not hold")


@pytest.mark.slow
def test_fitting_stimuli_without_image_label(tmp_path, torch_home):
    root, sums = store_with(tmp_path, "Rajalingham2018.public", edit_stimuli=lambda t: t.drop(columns="image_label"))
    output = "results/behaviour/alexnet/probabilities-fit-objectome.public/objectome.public.nc"
    run, _, work = run_workflow(tmp_path, root, sums, [RAJALINGHAM], [output], torch_home)
    assert_failed_cleanly(run, work, output, "resources/stimuli/objectome.public/stimuli.csv: no column "
                                             "'image_label'")
