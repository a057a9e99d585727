"""Temporal models and object solution times (src/brainpipe/pipeline/plan/temporal.py): which models are temporal, the
bins a benchmark records and their folder name, the time-bin map checked before any job, and what the OST job reads."""

import pytest

from brainpipe.pipeline.plan import PlanError
from plan_fixtures import plan_with, wildcards


def test_the_configs_temporal_models_and_ost_benchmarks():
    temporal = plan_with().temporal
    assert temporal.models == ["cornet_s", "recurrent_demo"]  # config.yaml's entries with a time_mapping
    assert temporal.is_temporal_model("recurrent_demo") and not temporal.is_temporal_model("alexnet_untrained")
    assert temporal.ost_benchmarks == ["Kar2019-ost", "SyntheticShapesOST-ost"]
    assert (temporal.ost_datasets, temporal.demo_ost_datasets) == (["Kar2019"], ["SyntheticShapesOST"])


def test_a_benchmarks_bins_and_their_folder_name_go_both_ways():
    plan = plan_with()
    temporal = plan.temporal
    static, spantime = plan.benchmark("SyntheticShapes.IT-pls"), plan.benchmark("SyntheticShapes.IT-spantime_pls")
    assert temporal.requested_bins(static) == [(70, 170)]  # the static window as one bin
    assert temporal.window_key(static) == "70-170" and temporal.bins_of_key("70-170") == [(70, 170)]
    bins = temporal.requested_bins(spantime)
    assert bins[:2] == [(70, 80), (80, 90)] and bins[-1] == (240, 250) and len(bins) == 18
    assert temporal.window_key(spantime) == "70-250x10" and temporal.bins_of_key("70-250x10") == bins
    assert temporal.benchmark_bins(wildcards(benchmark="SyntheticShapes.IT-pls")) == [[70, 170]]


def test_a_temporal_models_steps_per_region():
    temporal = plan_with().temporal
    # recurrent_demo: time_mapping {IT: [70, 45, 4]}: 4 steps of 45 ms from 70 ms
    assert temporal.region_bins(wildcards(model="recurrent_demo", region="IT")) == {
        0: [70, 115], 1: [115, 160], 2: [160, 205], 3: [205, 250]}
    assert temporal.region_bins(wildcards(model="recurrent_demo", region="V4")) == {}


def test_a_committed_region_without_time_bins_stops_the_run():
    plan = plan_with({"model_zoo": {"recurrent_demo": {"layers": {"IT": "IT.output", "V4": "IT.output"}}}})
    with pytest.raises(PlanError) as raised:
        plan.temporal.check_time_mappings()
    assert str(raised.value) == (
        "config model_zoo.recurrent_demo.time_mapping: no time bins for region(s) ['V4'] that "
        "model_zoo.recurrent_demo.layers commits; map each committed region's steps to time bins")
    plan_with().temporal.check_time_mappings()  # the repository's config maps every committed region


def test_a_malformed_time_mapping_is_a_plan_error():
    plan = plan_with({"model_zoo": {"recurrent_demo": {"time_mapping": {"IT": [70, 45]}}}})
    with pytest.raises(PlanError, match="recurrent_demo"):
        plan.temporal.time_mapping_of("recurrent_demo")


def test_what_the_ost_job_reads():
    temporal = plan_with().temporal
    assert temporal.ost_target(wildcards(benchmark="Kar2019-ost")) == "results/assemblies/Kar2019/ost/target.nc"
    # a temporal model: its layer on the benchmark's 18 bins; a static model: its single response
    assert temporal.ost_source(wildcards(model="recurrent_demo", benchmark="Kar2019-ost", layer="IT.output")) == (
        "results/activations/recurrent_demo/Kar2019/timed/IT/70-250x10/IT.output.nc")
    assert temporal.ost_source(wildcards(model="alexnet_untrained", benchmark="Kar2019-ost", layer="features.12")) == (
        "results/activations/alexnet_untrained/Kar2019/features.12.nc")


def test_a_region_read_from_another_model_region_takes_that_regions_time_bins():
    """Bracci2019's anteriorVTC is read from the model's IT (Family.model_regions): a temporal model's timed layer
    is its IT steps on the benchmark's bins (before, timed/anteriorVTC asked the time mapping for a region the model
    does not map, and the job failed on an empty map)."""
    plan = plan_with()
    vtc = plan.benchmark("Bracci2019.anteriorVTC-rdm")
    assert dict(vtc.family.model_regions)["anteriorVTC"] == "IT"
    path = plan.temporal.timed_layer_file("recurrent_demo", vtc, "IT.output")
    assert "/timed/IT/70-170/IT.output.nc" in path
    region = path.split("/timed/")[1].split("/")[0]
    assert plan.temporal.region_bins(wildcards(model="recurrent_demo", region=region))  # a map, not {}
    static = plan.benchmark("SyntheticShapes.IT-pls")  # a region the model names: unchanged
    assert "/timed/IT/70-170/" in plan.temporal.timed_layer_file("recurrent_demo", static, "IT.output")


def test_a_temporal_model_reads_its_train_stimuli_on_the_same_bins_as_its_test_stimuli():
    """fit_train_test's two sources have the same features: for a temporal model both are its steps mapped onto the
    benchmark's bins (before, the train side was the raw file of every step: 512 features against the test's 128)."""
    plan = plan_with()
    w = wildcards(model="recurrent_demo", benchmark="Gifford2022.IT-ridge", layer="IT.output")
    train, test = plan.activations.train_source(w), plan.activations.benchmark_layer_file(w)
    assert "/timed/IT/" in train and "/timed/IT/" in test
    assert train.split("/timed/")[1] == test.split("/timed/")[1]  # the same region, bins and layer
    assert "THINGS_EEG2_train_Stimuli" in train and "THINGS_EEG2_test_Stimuli" in test
    static = wildcards(model="alexnet_untrained", benchmark="Gifford2022.IT-ridge", layer="features.12")
    assert "/timed/" not in plan.activations.train_source(static)
