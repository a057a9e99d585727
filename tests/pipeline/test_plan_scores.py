"""Folds, ceilings and scores (src/brainpipe/pipeline/plan/scores.py): how the ceiling job computes a ceiling, what a
fold job reads, which folds a layer score averages and which layers a headline reads, and the model and data facts a
score JSON records."""

import pytest

from brainpipe.pipeline.plan import PlanError
from plan_fixtures import SWEEP, TINY, plan_with, wildcards

SHAPES = "SyntheticShapes--target8.00--source10.00"


@pytest.mark.parametrize("identifier, method", [
    ("MajajHong2015public.IT-pls", "internal_consistency"),  # split-half consistency of the recordings
    ("FreemanZiemba2013.V1-rdm", "rdm"),  # a representational metric: split-half consistency of the same similarity
    ("FreemanZiemba2013.V1-cka_biased", "cka_biased"),
    ("Allen2022_fmri.V1-rdm", "rdm_subjects"),  # an RDM with a subject coordinate: inter-subject consistency
    ("Li2026.V1-pls", "coordinate_median"),  # median_of: a per-neuroid reliability in the data
    ("MajajHong2015public.V4-reverse_pls", "predictor_consistency"),
    ("Kar2019-ost", "fixed"),  # a declared number
    ("SyntheticShapesOST-ost", "none"),
    ("Bracci2019.anteriorVTC-rdm", "custom"),  # a plugin's own
    ("SyntheticShapesBehaviour-i2n", "behaviour"),
])
def test_how_the_ceiling_job_computes_a_benchmarks_ceiling(identifier, method):
    plan = plan_with()
    assert plan.scores.ceiling_method(plan.benchmark(identifier)) == method


def test_what_a_fold_job_reads():
    scores = plan_with().scores
    job = lambda benchmark: wildcards(model="alexnet_untrained", benchmark=benchmark, layer="features.12")
    # a regression that can use it reads the layer's Gram matrix, another metric the activations
    assert scores.fold_source(job("SyntheticShapes.IT-pls")) == f"results/gram/alexnet_untrained/{SHAPES}/features.12.nc"
    assert scores.fold_source(job("SyntheticShapes.IT-rdm")) == (
        f"results/activations/alexnet_untrained/{SHAPES}/features.12.nc")
    assert scores.fold_source(job("SyntheticShapesBehaviour-i2n")) == (
        f"results/behaviour/alexnet_untrained/probabilities-fit-{SHAPES}/{SHAPES}.nc")  # the model's task output


def test_a_layer_score_averages_its_folds_or_reads_its_one_train_test_fit():
    scores = plan_with(TINY).scores
    assert scores.fold_files(wildcards(model="m", benchmark="SyntheticShapes.IT-pls", layer="l")) == [
        "results/m/SyntheticShapes.IT-pls/layers/l/fold0.json", "results/m/SyntheticShapes.IT-pls/layers/l/fold1.json",
        "results/m/SyntheticShapes.IT-pls/layers/l/fold2.json"]  # tiny.yaml: 3 splits
    assert scores.fold_files(wildcards(model="m", benchmark="Gifford2022.IT-ridge", layer="l")) == [
        "results/m/Gifford2022.IT-ridge/layers/l/train_test.json"]


def test_a_headline_reads_the_committed_layer_and_the_regions_sweep():
    plan = plan_with(TINY, SWEEP)
    it, behaviour = plan.benchmark("SyntheticShapes.IT-pls"), plan.benchmark("SyntheticShapesBehaviour-i2n")
    assert plan.scores.scored_layers("alexnet_untrained", it) == [
        "features.12", "features.2", "features.5", "features.7", "features.9"]
    assert plan.scores.committed_layer("alexnet_untrained", it) == "features.12"
    assert plan.scores.scored_layers("alexnet_untrained", behaviour) == ["classifier.5"]  # the readout layer
    assert plan.scores.committed_layer("alexnet_untrained", behaviour) == "classifier.5"
    assert plan.scores.layer_scores(wildcards(model="pixels", benchmark="SyntheticShapes.IT-pls")) == [
        "results/pixels/SyntheticShapes.IT-pls/layers/pixels.json"]


def test_an_empty_cell_scores_no_layer_and_a_missing_region_is_named():
    plan = plan_with({"models": ["pixels"], "benchmarks": ["Geirhos2021colour-top1"],
                      "model_zoo": {"v4_only": {"architecture": "pixels", "layers": {"V4": "pixels"}}}})
    assert plan.scores.scored_layers("pixels", plan.benchmark("Geirhos2021colour-top1")) == []  # no logits
    # a model outside the grid (its cells are not planned empty), asked for a region it commits no layer to
    with pytest.raises(PlanError, match=r"^model 'v4_only' commits no layer to region 'IT' \(config "
                                        r"model_zoo\.v4_only\.layers\)$"):
        plan.scores.scored_layers("v4_only", plan.benchmark("SyntheticShapes.IT-pls"))


def test_a_score_records_its_models_sweep_for_the_benchmarks_region_only():
    """Editing another region's sweep does not rewrite this score."""
    plan = plan_with(TINY, SWEEP)
    spec = plan.scores.model_spec("alexnet_untrained", plan.benchmark("SyntheticShapes.IT-pls"))
    assert list(spec["sweep"]) == ["IT"] and spec["architecture"] == "alexnet"
    assert "sweep" not in plan.scores.model_spec("alexnet_untrained", plan.benchmark("SyntheticShapesBehaviour-i2n"))


def test_a_score_records_which_data_it_read():
    plan = plan_with()
    data = plan.scores.data(plan.benchmark("MajajHong2015public.IT-pls"))
    assert (data["dataset"], data["access"], data["stimulus_set"], data["visual_degrees"]) == (
        "MajajHong2015.public", "public", "hvm-public", 8.0)
    assert list(data["files"]) == ["assy_dicarlo_MajajHong2015_public.nc", "stimulus_hvm-public.csv",
                                   "stimulus_hvm-public.zip"]
    assert "fitting_stimulus_set" not in data
    ost = plan.scores.ost_data(plan.benchmark("Kar2019-ost"))
    assert ost["time_bins"][0] == [70, 80] and len(ost["time_bins"]) == 18 and "number_of_trials" in ost
