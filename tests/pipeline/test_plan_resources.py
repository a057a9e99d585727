"""Memory estimates (src/brainpipe/pipeline/plan/resources.py) from the sizes of a job's inputs."""

from plan_fixtures import plan_with
from brainpipe.pipeline.plan.resources import fold_mem_mb, mb


def test_memory_is_a_floor_plus_a_multiple_of_the_inputs_sizes(tmp_path):
    (tmp_path / "a.nc").write_bytes(b"x" * 2_000_000)
    folder = tmp_path / "stimuli"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "1.png").write_bytes(b"x" * 3_000_000)
    assert mb([tmp_path / "a.nc"]) == 1002
    assert mb([tmp_path / "a.nc", folder], factor=2, floor=0) == 10  # a folder counts every file under it
    assert mb([tmp_path / "missing.nc"]) == 1000  # not there yet (a dry run): the floor


def test_a_fold_jobs_memory_is_three_times_its_inputs(tmp_path):
    (tmp_path / "source.nc").write_bytes(b"x" * 1_000_000)
    (tmp_path / "target.nc").write_bytes(b"x" * 1_000_000)
    benchmark = plan_with().benchmark("SyntheticShapes.IT-pls")  # static: no spantime matrices
    assert fold_mem_mb(benchmark, tmp_path / "source.nc", tmp_path / "target.nc") == 1006


def netcdf_with_dimensions(path, **sizes):
    """A NetCDF file of dimensions alone: what the estimate reads is its header."""
    import netCDF4

    with netCDF4.Dataset(path, "w") as dataset:
        for name, size in sizes.items():
            dataset.createDimension(name, size)
    return path


def test_a_spantime_fit_in_sample_space_adds_its_matrices(tmp_path):
    """SyntheticShapes.IT-spantime_pls: 18 bins × 90 training stimuli (of 100, train_size 0.9) = 1,620 samples; a layer
    of 4,000 features (≥ 2 × samples) is fitted in sample space: four 1,620² float64 matrices, 84 MB."""
    benchmark = plan_with().benchmark("SyntheticShapes.IT-spantime_pls")
    target = netcdf_with_dimensions(tmp_path / "target.nc", presentation=100, time_bin=18, neuroid=12)
    source = netcdf_with_dimensions(tmp_path / "layer.nc", presentation=100, time_bin=18, neuroid=4000)
    assert fold_mem_mb(benchmark, source, target) == 1000 + 83
    narrow = netcdf_with_dimensions(tmp_path / "narrow.nc", presentation=100, time_bin=18, neuroid=3000)
    assert fold_mem_mb(benchmark, narrow, target) == 1000  # fitted in feature space: nothing added
