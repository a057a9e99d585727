"""Stimulus folders and activation layer files (src/brainpipe/pipeline/plan/activations.py): the folder a model sees,
each layer's file, the layers extracted per model × folder, the sets of layer files one job writes together, and the
activations' params."""

import json

from brainpipe.pipeline.plan.activations import LAYER_SET_PLANS
from plan_fixtures import SWEEP, TINY, plan_with, wildcards

PLACED = "SyntheticShapes--target8.00--source10.00"  # SyntheticShapes is shown at 10 degrees, the models see 8


def test_a_model_sees_the_original_set_only_at_the_benchmarks_degrees():
    plan = plan_with({"model_zoo": {"pixels": {"visual_degrees": 10}}})
    shapes = plan.benchmark("SyntheticShapes.IT-pls")
    assert plan.activations.stimuli_key("pixels", shapes) == "SyntheticShapes"
    assert plan.activations.stimuli_key("alexnet_untrained", shapes) == PLACED
    # another of the family's stimulus sets, at the benchmark's degrees
    assert plan.activations.stimuli_key("alexnet_untrained", shapes, "Other") == "Other--target8.00--source10.00"


def test_a_stimulus_folder_is_the_original_or_a_placed_copy():
    activations = plan_with().activations
    assert activations.stimuli_path("SyntheticShapes") == "resources/stimuli/SyntheticShapes"
    assert activations.stimuli_path(PLACED) == f"results/stimuli_on_screen/{PLACED}"
    assert activations.stimuli_folder(wildcards(stimuli=PLACED)) == f"results/stimuli_on_screen/{PLACED}"


def test_the_layer_a_job_reads():
    activations = plan_with().activations
    static = wildcards(model="alexnet_untrained", benchmark="SyntheticShapes.IT-pls", layer="features.12")
    assert activations.benchmark_layer_file(static) == f"results/activations/alexnet_untrained/{PLACED}/features.12.nc"
    # a temporal model: its steps mapped onto the benchmark's one 70-170 ms bin, for the benchmark's region
    temporal = wildcards(model="recurrent_demo", benchmark="SyntheticShapes.IT-pls", layer="IT.output")
    assert activations.benchmark_layer_file(temporal) == (
        f"results/activations/recurrent_demo/{PLACED}/timed/IT/70-170/IT.output.nc")


def test_a_train_test_familys_train_stimuli():
    plan = plan_with()
    benchmark = plan.benchmark("Gifford2022.IT-ridge")
    job = wildcards(model="pixels", benchmark="Gifford2022.IT-ridge", layer="pixels")
    key = plan.activations.stimuli_key("pixels", benchmark, benchmark.family.train_test.stimulus_set)
    assert benchmark.family.train_test.stimulus_set in key
    assert plan.activations.train_source(job) == f"results/activations/pixels/{key}/pixels.nc"


def test_the_layers_extracted_for_a_model_on_a_stimulus_set():
    """Committed layers of the regions whose families use the set, sweep layers, and the behavioural readout:
    independent of the grid (adding a benchmark never re-extracts activations)."""
    assert plan_with().activations.model_layers("alexnet_untrained", "SyntheticShapes") == [
        "classifier.5", "features.12", "features.7"]
    assert plan_with(SWEEP).activations.model_layers("alexnet_untrained", "SyntheticShapes") == [
        "classifier.5", "features.12", "features.2", "features.5", "features.7", "features.9"]
    # pixels has no logits: no readout layer for the label tasks of the set, and no error either
    assert plan_with().activations.model_layers("pixels", "SyntheticShapes") == ["pixels"]


def test_the_families_of_a_stimulus_set_are_those_a_scan_of_every_family_finds():
    """model_layers reads the families of a stimulus set from an index built once per plan: the same families, in
    the registry's order, as a scan of Family.stimulus_sets; and its answer, kept per (model, set), is a copy."""
    plan = plan_with()
    index = plan.activations._families_by_stimulus_set
    every_set = {s for family in plan.families for s in family.stimulus_sets}
    assert set(index) == every_set
    for stimulus_set in every_set:
        assert index[stimulus_set] == [f for f in plan.families if stimulus_set in f.stimulus_sets]
    layers = plan.activations.model_layers("alexnet_untrained", "SyntheticShapes")
    layers.append("changed by the caller")
    assert plan.activations.model_layers("alexnet_untrained", "SyntheticShapes") == [
        "classifier.5", "features.12", "features.7"]


def test_layer_sets_are_planned_in_the_main_process_and_read_back_in_a_cluster_job(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plan = plan_with(TINY)
    sets = plan.activations.layer_sets(main_process=True, cores=2)
    # nothing on disk: each (model, folder) with more than one missing layer is one set
    assert sets == [[f"results/activations/alexnet_untrained/{PLACED}/classifier.5.nc",
                     f"results/activations/alexnet_untrained/{PLACED}/features.12.nc",
                     f"results/activations/alexnet_untrained/{PLACED}/features.7.nc"]]
    saved = sorted((tmp_path / LAYER_SET_PLANS).glob("activations_layers_*.json"))
    assert [json.loads(path.read_text()) for path in saved] == sets
    assert plan.activations.layer_sets(main_process=False, cores=None) == sets


def test_activations_rules_are_the_per_layer_rule_then_one_per_set(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = plan_with(TINY).activations.rules(main_process=True, cores=2)
    per_layer, grouped = rules
    assert per_layer.name == "activations" and per_layer.output == "results/activations/{model}/{stimuli}/{layer}.nc"
    assert per_layer.folder(wildcards(model="pixels", stimuli="S")) == ("pixels", "S")
    assert grouped.name.startswith("activations_layers_") and len(grouped.output) == 3
    assert grouped.input == [f"results/stimuli_on_screen/{PLACED}"]
    assert grouped.folder(wildcards()) == ("alexnet_untrained", PLACED)  # no wildcards: the set's own
    assert grouped.log == f"logs/activations/alexnet_untrained/{PLACED}.log"


def test_the_activations_params_describe_the_model_never_its_layers():
    params = plan_with(TINY).activations.params("c0de")
    assert list(params) == ["code", "architecture", "weights", "seed", "model", "source_sha1", "weights_sha256",
                            "device", "batch_size"]
    job = wildcards(model="alexnet_untrained", stimuli=PLACED, layer="features.7")
    assert params["code"] == "c0de" and params["batch_size"] == 32 and params["device"] == "auto"
    assert (params["architecture"](job), params["weights"](job), params["seed"](job)) == ("alexnet", None, 0)
    assert params["source_sha1"](job) is None  # a torchvision architecture: no file of the user's
