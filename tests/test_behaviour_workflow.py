"""Behaviour through the real workflow: the SyntheticShapesBehaviour-i2n demo (simulated human 2AFC trials) scored by
snakemake from cached activations, checked against the behaviour library called directly on the same files;
identifiers, rerun scoping, and the row-space readout fit against scikit-learn's plain fit."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.linear_model
import sklearn.preprocessing
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import metrics, tasks
from brainpipe.io import read_netcdf
from workflow_runs import TINY, job_counts, planned_outputs, with_config
from behaviour_workflow_runs import BENCHMARK, snakemake


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    path = with_config(tmp_path_factory.mktemp("behaviour-workflow"))
    snakemake(path, target=f"results/alexnet_untrained/{BENCHMARK}.json")
    return path


def test_identifiers_and_parents():
    b = benchmarks.parse(BENCHMARK)
    assert (b.kind, b.region, b.metric, b.parent, b.n_folds) == ("behaviour", None, "i2n", "behavior", 1)
    assert BENCHMARK in benchmarks.builtin().identifiers()
    assert benchmarks.parse("SyntheticShapes.IT-pls").region == "IT"  # neural identifiers unchanged
    with pytest.raises(ValueError, match="has no regions; write 'SyntheticShapesBehaviour-i2n'"):
        benchmarks.parse("SyntheticShapesBehaviour.IT-i2n")
    with pytest.raises(ValueError, match="is neural; name a region"):
        benchmarks.parse("SyntheticShapes-pls")


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_demo_score_equals_library_on_the_same_files(workdir):
    score = json.loads((workdir / "results/alexnet_untrained" / f"{BENCHMARK}.json").read_text())
    assert score["layer"] == "classifier.5" and score["parent"] == "behavior" and score["metric"] == "i2n"
    key = "SyntheticShapes--target8.00--source10.00"
    model_file = workdir / f"results/behaviour/alexnet_untrained/probabilities-fit-{key}/{key}.nc"
    features = read_netcdf(workdir / f"results/activations/alexnet_untrained/{key}/classifier.5.nc")
    table = pd.read_csv(workdir / "resources/stimuli/SyntheticShapes/stimuli.csv", dtype={"stimulus_id": str})
    labels = table.set_index("stimulus_id").loc[features["stimulus_id"].values.astype(str), "category_name"].to_numpy()
    with pytest.warns(UserWarning, match="same images"):
        expected = tasks.probabilities(features, features, labels)
    np.testing.assert_allclose(read_netcdf(model_file).values, expected.values, atol=1e-12)
    human = read_netcdf(workdir / "results/assemblies/SyntheticShapesBehaviour/behaviour.nc")
    raw, ceiling = metrics.i2n(expected, human), metrics.i2n_ceiling(human, skipna=True)
    ceiled = metrics.normalise(raw, ceiling, "raw_over_sqrt_ceiling_per_split", clip=False)
    assert score["raw"] == pytest.approx(raw.score, abs=1e-12)
    assert score["ceiling"] == pytest.approx(ceiling.score, abs=1e-12)
    assert score["score"] == pytest.approx(ceiled.score, abs=1e-12)
    per_split = np.asarray(raw.values.values) / np.sqrt(np.asarray(ceiling.values.values))
    assert score["score"] == pytest.approx(per_split.mean(), abs=1e-12)  # hand: mean_k r_k / sqrt(c_k)
    assert 0 < score["ceiling"] < 1 and np.isfinite(score["score"])


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_no_network_run_for_the_task_and_second_run_idle(workdir):
    result = snakemake(workdir, "-n", target=f"results/alexnet_untrained/{BENCHMARK}.json")
    assert "Nothing to be done" in result.stdout + result.stderr
    log = next((workdir / "logs/behaviour_task/alexnet_untrained").rglob("*.log")).read_text()
    assert "same images" in log  # the fitting = test warning reaches the log


def test_pixels_has_no_logits_for_label():
    from brainpipe.pipeline.model_layers import behaviour_layer
    from brainpipe.pipeline.workflow_config import ConfigError

    assert behaviour_layer({"architecture": "pixels"}, "probabilities") == "pixels"
    assert behaviour_layer({"architecture": "alexnet"}, "probabilities") == "classifier.5"
    assert behaviour_layer({"architecture": "alexnet"}, "label") == "classifier.6"
    assert behaviour_layer({"architecture": "alexnet", "behavioral_readout_layer": "features.12"},
                           "probabilities") == "features.12"
    with pytest.raises(ConfigError, match="pixels has no ImageNet logits"):
        behaviour_layer({"architecture": "pixels"}, "label", name="pixels")


@pytest.mark.parametrize("n, d, k", [(40, 3000, 2), (60, 800, 4)])
def test_row_space_readout_equals_plain_fit(n, d, k):
    """More features than fitting images: the reduced fit reaches scikit-learn's optimum on all features."""
    rng = np.random.default_rng(0)
    x, t = rng.normal(size=(n, d)), rng.normal(size=(7, d))
    y = np.repeat(np.arange(k), n // k)
    fit = xr.DataArray(x, dims=("presentation", "neuroid"),
                       coords={"stimulus_id": ("presentation", [f"f{i}" for i in range(n)])})
    test = xr.DataArray(t, dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", [f"t{i}" for i in range(7)])})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = tasks.probabilities(fit, test, [f"c{i}" for i in y]).values
    scaler = sklearn.preprocessing.StandardScaler().fit(x)
    plain = sklearn.linear_model.LogisticRegression(solver="newton-cg", C=1e-3 if k > 2 else 2e-3, max_iter=100,
                                                    tol=1e-4).fit(scaler.transform(x), y)
    np.testing.assert_allclose(ours, plain.predict_proba(scaler.transform(t)), atol=1e-3)  # both within tol


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_editing_the_behaviour_demo_reruns_only_behaviour(workdir, tmp_path):
    override = tmp_path / "more.yaml"
    override.write_text("synthetic_shapes:\n  seed: 0\n")
    result = snakemake(workdir, "-n", target=f"results/alexnet_untrained/{BENCHMARK}.json",
                       configfiles=(TINY, override))
    assert not planned_outputs(result)


def test_task_spec_names_what_the_task_depends_on_not_the_benchmark():
    """The task job's params are the task spec (no benchmark name): benchmarks sharing a task share its output and
    its spec, so reordering or extending the grid's benchmarks does not rerun the task; a change that matters does."""
    from brainpipe.behaviour.stages import task_spec

    private, public = benchmarks.parse("Rajalingham2018-i2n"), benchmarks.parse("Rajalingham2018public-i2n")
    assert private.behaviour.options != public.behaviour.options  # the benchmarks differ (ceiling skipna) ...
    assert task_spec(private) == task_spec(public) == {  # ... but the task on a stimulus set is the same
        "task": "probabilities", "fitting_label_column": "image_label", "fitting_stimulus_set": "objectome.public"}
    error_consistency, top1 = (benchmarks.parse(f"Geirhos2021colour-{m}") for m in ("error_consistency", "top1"))
    assert task_spec(error_consistency) == task_spec(top1)
    assert task_spec(error_consistency)["choice_labels"][:2] == ("airplane", "bear")
    assert task_spec(benchmarks.parse("Hebart2023-match")) == {"task": "odd_one_out", "similarity": "dot",
                                                               "triplet_images": "by_row"}  # checked against rows
    assert task_spec(benchmarks.parse("Ferguson2024tilted_line-value_delta"))["labels"] == "oddball_parity"


@pytest.mark.slow  # a real workflow run (30 s to 5 min on 2 cores): CI runs it (make test-slow)
def test_headline_in_one_job_equals_the_fold_and_layer_stages(workdir):
    """The headline is one job (score_behaviour): no fold or layer file behind it. Asked for afterwards, fit_fold and
    score_layer write the comparison and the layer score, and every field of the layer score is the headline's."""
    headline = json.loads((workdir / "results/alexnet_untrained" / f"{BENCHMARK}.json").read_text())
    folder = workdir / "results/alexnet_untrained" / BENCHMARK
    assert not folder.exists()
    log = (workdir / "logs/score/alexnet_untrained" / f"{BENCHMARK}.log").read_text()
    assert "i2n: raw" in log and "alexnet_untrained × SyntheticShapesBehaviour-i2n" in log

    target = f"results/alexnet_untrained/{BENCHMARK}/layers/classifier.5.json"
    assert job_counts(snakemake(workdir, "-n", target=target)) == {"fit_fold": 1, "score_layer": 1}  # all else reused
    snakemake(workdir, target=target)
    layer = json.loads((folder / "layers/classifier.5.json").read_text())
    fold = json.loads((folder / "layers/classifier.5/fold0.json").read_text())
    assert {key: headline[key] for key in layer} == layer
    assert headline["per_fold"] == [fold["value"]] and headline["raw"] == fold["value"]
