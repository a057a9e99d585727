"""Properties benchmarks (src/brainpipe/pipeline/plan/properties.py): the neurons definition and property set a job
computes, and the activations and stimulus folders it reads, each set placed on the model's screen."""

from types import SimpleNamespace

import pytest

from brainpipe.pipeline.plan import PlanError
from plan_fixtures import plan_with, wildcards

JOB = dict(model="alexnet_untrained", layer="features.2", neurons="Marques2020")
# Marques2020's stimuli are shown at 12 degrees; alexnet_untrained sees 8
ORIENTATION = "Marques2020_orientation--target8.00--source12.00"


def test_a_property_set_and_the_stimuli_it_is_computed_on():
    properties = plan_with().properties
    family, measure = properties.measure("Marques2020", "ringach2002")
    assert (family.name, measure.stimulus_set, measure.dataset) == (
        "Marques2020_Ringach2002", "Marques2020_orientation", "Ringach2002")
    assert properties.property_set_of(wildcards(neurons="Marques2020", property_set="ringach2002")) == "ringach2002"
    assert properties.property_set_inputs(wildcards(property_set="ringach2002", **JOB)) == {
        "activations": f"results/activations/alexnet_untrained/{ORIENTATION}/features.2.nc",
        "stimuli": f"results/stimuli_on_screen/{ORIENTATION}"}
    with pytest.raises(PlanError, match=r"^no properties benchmark computes property set 'x' on neurons "
                                        r"'Marques2020'$"):
        properties.measure("Marques2020", "x")


def test_the_neurons_stimuli():
    properties = plan_with().properties
    assert properties.family("Marques2020").neurons.name == "Marques2020"
    assert properties.neurons_inputs(wildcards(**JOB), "orientation") == {
        "activations": f"results/activations/alexnet_untrained/{ORIENTATION}/features.2.nc",
        "stimuli": f"results/stimuli_on_screen/{ORIENTATION}"}
    assert properties.blank_file(wildcards(**JOB)) == (
        "results/activations/alexnet_untrained/Marques2020_blank--target8.00--source12.00/features.2.nc")
    with pytest.raises(PlanError, match=r"^no properties benchmark family defines neurons 'Nope'$"):
        properties.family("Nope")


def test_a_user_property_function_is_named_after_its_file():
    key = plan_with().properties.property_set_key
    assert key(SimpleNamespace(property_set="plugin:my/props/texture_stats.py")) == "plugin_texture_stats"
    assert key(SimpleNamespace(property_set="ringach2002")) == "ringach2002"


def test_a_benchmarks_recorded_and_model_property_tables():
    properties = plan_with().properties
    job = wildcards(model="alexnet_untrained", layer="features.2", benchmark="Marques2020_Ringach2002-circular_variance")
    assert properties.benchmark_data_file(job) == "resources/properties/Ringach2002.nc"
    assert properties.model_file(job) == "results/properties/alexnet_untrained/features.2/Marques2020/ringach2002.nc"
    assert "Ringach2002" in properties.datasets and "SyntheticGratings_V1_properties" not in properties.datasets
    assert "circular_variance" in properties.measured("Ringach2002")
