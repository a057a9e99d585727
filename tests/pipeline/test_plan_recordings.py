"""Prepared recordings (src/brainpipe/pipeline/plan/recordings.py): the preparation of a benchmark's data set and the
file it reads, the window a data set is prepared at, which data sets each preparation rule makes, and the train/test
files joined into one data set."""

import pytest

from brainpipe.pipeline.plan import PlanError
from plan_fixtures import plan_with, wildcards


@pytest.mark.parametrize("identifier, kind", [
    ("MajajHong2015public.IT-pls", "static"),
    ("SyntheticShapes.IT-spantime_pls", "temporal"),  # bins of the data set's own width
    ("MajajHong2015public.IT-temporal-pls", "aligned"),  # Family.temporal.alignment: resampled onto the temporal bins
    ("Igustibagus2024-ridge", "selected"),  # Family.selection: neuroids and stimuli selected
    ("Gifford2022.IT-ridge", "points"),  # Family.time_points: time points scored as neuroids
])
def test_each_kind_of_preparation_has_its_folder(identifier, kind):
    plan = plan_with()
    benchmark = plan.benchmark(identifier)
    assert plan.recordings.preparation(benchmark) == kind
    job = wildcards(benchmark=identifier)
    assert plan.recordings.prepared(job, "target") == (
        f"results/assemblies/{benchmark.family.dataset}/{benchmark.region}-{kind}/target.nc")


def test_behaviour_and_stimulus_columns_are_prepared_once_per_data_set():
    plan = plan_with()
    for kind in ("target", "repetitions"):  # target and ceiling read the same file
        assert plan.recordings.prepared(wildcards(benchmark="SyntheticShapesBehaviour-i2n"), kind) == (
            "results/assemblies/SyntheticShapesBehaviour/behaviour.nc")
        assert plan.recordings.prepared(wildcards(benchmark="Islam2021-shape_v1_dimensionality"), kind) == (
            "results/assemblies/Islam2021/stimuli.nc")  # no recordings: the stimulus set's columns


def test_a_train_test_familys_train_recordings():
    plan = plan_with()
    assert plan.recordings.train_target(wildcards(benchmark="Gifford2022.IT-ridge")) == (
        "results/assemblies/Gifford2022_train/IT-points/target.nc")


def test_the_window_a_data_set_is_prepared_at():
    recordings = plan_with().recordings
    assert recordings.window(wildcards(dataset="SyntheticShapes", timing="static")) == ([70, 170], None)
    assert recordings.window(wildcards(dataset="SyntheticShapes", timing="temporal")) == ([70, 250], 10)
    with pytest.raises(PlanError, match=r"^data set 'MajajHong2015.public' has no time-resolved recordings"):
        recordings.window(wildcards(dataset="MajajHong2015.public", timing="temporal"))
    with pytest.raises(PlanError, match=r"^no benchmark family uses data set 'Nope'$"):
        recordings.window(wildcards(dataset="Nope", timing="static"))


def test_each_preparation_rule_makes_its_own_data_sets():
    recordings = plan_with().recordings
    human, targets, columns = (recordings.behavioural_datasets(), recordings.stimulus_target_datasets(),
                               recordings.stimulus_column_datasets())
    assert "SyntheticShapesBehaviour" in human and "Hermann2020cueconflict" in targets and "Islam2021" in columns
    assert not set(human) & set(targets)  # prepare_behaviour and stimulus_target write the same file pattern


def test_train_and_test_files_joined_into_one_data_set():
    recordings = plan_with().recordings
    family = recordings.joined_family("Allen2022_fmri")
    assert recordings.joined_datasets()[0] == "Allen2022_fmri"
    assert recordings.joined_assembly_parts(wildcards(dataset="Allen2022_fmri")) == {
        split: f"resources/assemblies/{dataset}.nc" for split, dataset in family.train_test.files}
    assert list(recordings.joined_assembly_parts(wildcards(dataset="Allen2022_fmri"))) == ["train", "test"]
    stimuli = recordings.joined_stimuli_parts(wildcards(stimulus_set=family.stimulus_set))
    assert list(stimuli) == ["train", "test"] and all(v.startswith("resources/stimuli/") for v in stimuli.values())


def test_the_demo_config_keeps_its_region_order():
    """Snakemake compares params as text: {IT, V4} in the config must not rerun the demo that wrote {V4, IT}."""
    recordings = plan_with().recordings
    assert list(recordings.by_region({"IT": 2, "V4": 1, "extra": 0})) == ["V4", "IT", "extra"]
    assert recordings.by_region(3) == 3
