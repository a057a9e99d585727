"""The grid (src/brainpipe/pipeline/plan/grid.py): its score and ceiling files, the cells that stay empty, and the
stimulus folders and activation files it needs."""

from plan_fixtures import TINY, plan_with


def test_the_grids_scores_model_by_model_and_ceilings_of_the_benchmarks_whose_data_are_there():
    grid = plan_with({"models": ["pixels", "alexnet_untrained"],
                      "benchmarks": ["SyntheticShapes.IT-pls", "ImageNet-top1"]}).grid
    assert grid.scores() == ["results/pixels/SyntheticShapes.IT-pls.json", "results/pixels/ImageNet-top1.json",
                             "results/alexnet_untrained/SyntheticShapes.IT-pls.json",
                             "results/alexnet_untrained/ImageNet-top1.json"]
    # ImageNet's validation images are a zip you supply: no ceiling job, and every model's cell is empty
    assert list(grid.unavailable_benchmarks) == ["ImageNet-top1"]
    assert grid.ceilings() == ["results/ceilings/SyntheticShapes.IT-pls.json"]
    assert sorted(grid.empty_cells) == ["alexnet_untrained/ImageNet-top1", "pixels/ImageNet-top1"]
    assert grid.empty_cells["pixels/ImageNet-top1"].startswith("ImageNet-top1 needs resources/imagenet2012_val.zip")


def test_cells_a_model_cannot_do_or_the_config_skips_are_empty():
    grid = plan_with({"models": ["pixels", "alexnet_untrained"],
                      "benchmarks": ["SyntheticShapes.IT-pls", "Geirhos2021colour-top1"],
                      "skip_benchmarks": {"alexnet_untrained": ["SyntheticShapes.IT-pls"]}}).grid
    assert grid.empty_cells == {
        "pixels/Geirhos2021colour-top1": "pixels is pixels, which has no ImageNet logits: it cannot do "
                                         "Geirhos2021colour-top1's label task",
        "alexnet_untrained/SyntheticShapes.IT-pls": "left out by config skip_benchmarks.alexnet_untrained"}


def test_the_stimulus_folders_a_model_sees_include_fitting_train_and_session_sets():
    grid = plan_with({"models": ["alexnet_untrained"],
                      "benchmarks": ["SyntheticShapesBehaviour-i2n", "Gifford2022.IT-ridge", "Cowley2026.V4-pls"]}).grid
    folders = [(model, key, benchmark.identifier) for model, key, benchmark in grid.folders()]
    assert [key for _, key, _ in folders] == [
        "SyntheticShapes--target8.00--source10.00",  # test and fitting stimuli: one set here
        "SyntheticShapes--target8.00--source10.00",
        "THINGS_EEG2_test_Stimuli--target8.00--source7.00", "THINGS_EEG2_train_Stimuli--target8.00--source7.00",
        "Cowley2026.190923--target8.00--source11.20",  # the combined benchmark's (its first session's), then each
        "Cowley2026.190923--target8.00--source11.20", "Cowley2026.201025--target8.00--source11.20",
        "Cowley2026.210225--target8.00--source11.20", "Cowley2026.211022--target8.00--source11.20"]
    groups = grid.extraction_groups()
    # a behavioural paper's folders are extracted together (keyed by the family's origin); neural ones per folder
    assert groups[("alexnet_untrained", "SyntheticShapes--target8.00--source10.00")] == (
        "built-in (brainpipe.benchmarks.families.synthetic_shapes)")
    assert groups[("alexnet_untrained", "Cowley2026.190923--target8.00--source11.20")] is None


def test_the_grids_activation_files_per_folder():
    grid = plan_with(TINY).grid
    layer_files = grid.layer_files()
    placed = "SyntheticShapes--target8.00--source10.00"
    assert list(layer_files) == [("pixels", placed), ("alexnet_untrained", placed)]
    assert layer_files[("pixels", placed)] == [f"results/activations/pixels/{placed}/pixels.nc"]
    assert grid.activations() == sorted(file for files in layer_files.values() for file in files)
    assert len(grid.activations()) == 4  # pixels' one layer; alexnet's IT, V4 and readout layers


def test_benchmarks_on_generated_data():
    assert plan_with(TINY).grid.simulated_benchmarks() == [
        "SyntheticShapes.V4-pls", "SyntheticShapes.IT-pls", "SyntheticShapesBehaviour-i2n"]
