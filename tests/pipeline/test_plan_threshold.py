"""Threshold benchmarks (src/brainpipe/pipeline/plan/threshold.py): the human data sets each reads, its readouts'
files, and a readout's inputs and settings."""

import pytest

from brainpipe.pipeline.plan import PlanError
from plan_fixtures import plan_with, wildcards

SHORT2 = "Malania2007.short2-threshold_elevation"
PLACED = "--target8.00--source2.986667"  # Malania2007's stimuli at 2.986667 degrees, alexnet_untrained's 8


def test_the_threshold_benchmarks_and_the_human_data_they_read():
    threshold = plan_with().threshold
    assert len(threshold.benchmarks) == 10 and threshold.benchmarks[0] == "Malania2007.equal16-threshold_elevation"
    assert "Malania2007_vernier-only" in threshold.datasets and len(threshold.datasets) == 10
    job = wildcards(model="alexnet_untrained", benchmark=SHORT2)
    # the baseline's data set first, then each condition's
    assert threshold.benchmark_datasets(job) == ["Malania2007_vernier-only", "Malania2007_short-2"]
    assert threshold.human_files(job) == {"Malania2007_vernier-only": "resources/thresholds/Malania2007_vernier-only.nc",
                                          "Malania2007_short-2": "resources/thresholds/Malania2007_short-2.nc"}
    assert threshold.metric(job) == "threshold_elevation" and threshold.settings(job)["fitting_trials"] == 2
    with pytest.raises(PlanError, match=r"^SyntheticShapes\.IT-pls is not a threshold benchmark$"):
        threshold.benchmark(wildcards(benchmark="SyntheticShapes.IT-pls"))


def test_a_threshold_benchmarks_readouts():
    threshold = plan_with().threshold
    job = wildcards(model="alexnet_untrained", benchmark=SHORT2)
    assert threshold.readouts(job) == [["Malania2007_short-2_fit", "Malania2007_vernier-only"],
                                       ["Malania2007_short-2_fit", "Malania2007_short-2"]]
    assert threshold.readout_files(job)[1] == (
        f"results/thresholds/alexnet_untrained/classifier.5/Malania2007_short-2_fit{PLACED}--trials2/"
        f"Malania2007_short-2{PLACED}--trials10.json")


def test_a_readouts_inputs_and_the_settings_its_benchmarks_share():
    threshold = plan_with().threshold
    job = wildcards(model="m", layer="l", fitting=f"Malania2007_short-2_fit{PLACED}", fitting_trials="2",
                    stimuli=f"Malania2007_short-2{PLACED}", test_trials="10")
    assert threshold.readout_inputs(job) == {
        "fitting": f"results/trial_activations/m/Malania2007_short-2_fit{PLACED}/trials2/l.nc",
        "test": f"results/trial_activations/m/Malania2007_short-2{PLACED}/trials10/l.nc",
        "fitting_stimuli": "resources/stimuli/Malania2007_short-2_fit",
        "test_stimuli": "resources/stimuli/Malania2007_short-2"}
    assert threshold.readout_settings(job) == {"threshold_accuracy": 0.75, "independent_variable": "image_label"}
    unknown = wildcards(fitting="A", stimuli="B")
    with pytest.raises(PlanError, match=r"^no threshold benchmark reads B out of a readout fitted on A$"):
        threshold.readout_settings(unknown)
