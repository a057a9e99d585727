"""Memory estimates (src/brainpipe/pipeline/plan/resources.py) from the sizes of a job's inputs."""

from plan_fixtures import plan_with
import os
import re
import subprocess
import sys
from pathlib import Path

from brainpipe.pipeline.plan.resources import (EXTRACTION_MIN_RUNTIME, LABEL_BLOCK_MB, extraction_runtime_min,
                                               fold_mem_mb, mb, score_mem_mb, stimulus_count, task_mem_mb)


def test_memory_is_a_floor_plus_a_multiple_of_the_inputs_sizes(tmp_path):
    (tmp_path / "a.nc").write_bytes(b"x" * 2_000_000)
    folder = tmp_path / "stimuli"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "1.png").write_bytes(b"x" * 3_000_000)
    assert mb([tmp_path / "a.nc"]) == 1002
    assert mb([tmp_path / "a.nc", folder], factor=2, floor=0) == 10  # a folder counts every file under it
    assert mb([tmp_path / "missing.nc"]) == 1000  # not there yet (a dry run): the floor


def test_a_behavioural_score_counts_a_stimulus_folder_by_its_table(tmp_path):
    """A benchmark without human data scores against its stimulus set's folder: the job reads stimuli.csv, not the
    images, so 4 × the images' bytes would ask a scheduler for far too much (ImageNet-C: a million images)."""
    folder = tmp_path / "resources" / "stimuli" / "imagenet_c_noise"
    (folder / "images").mkdir(parents=True)
    (folder / "images" / "1.png").write_bytes(b"x" * 50_000_000)
    (folder / "stimuli.csv").write_bytes(b"x" * 1_000_000)
    (tmp_path / "task.nc").write_bytes(b"x" * 2_000_000)
    assert score_mem_mb([tmp_path / "task.nc", folder]) == 1000 + 4 * 3
    assert mb([tmp_path / "task.nc", folder], factor=4) == 1000 + 4 * 53  # what the rule asked for before
    assert score_mem_mb([tmp_path / "task.nc", tmp_path / "target.nc"]) == 1000 + 4 * 2  # human data: as mb()
    assert score_mem_mb([tmp_path / "not-yet"]) == 1000  # a dry run before the fetch: the floor


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


def test_the_streamed_label_task_asks_for_a_block_not_six_times_its_logits(tmp_path):
    """behaviour_task's memory: six times its inputs (as before) for every task but the plain label task, which reads
    its logits a block at a time; for it at most one block plus a tenth of the file, and six times a small file
    still (the same figure as before)."""
    small, large, table = tmp_path / "small.nc", tmp_path / "large.nc", tmp_path / "stimuli"
    small.write_bytes(b"x" * 10_000_000)
    large.touch()
    with open(large, "r+b") as f:  # a sparse 4 GB file: ImageNet-C's 1,000,000 × 1000 float32 logits
        f.truncate(4_000_000_000)
    table.mkdir()
    (table / "stimuli.csv").write_bytes(b"y" * 2_000_000)
    label = {"task": "label"}
    assert task_mem_mb(label, {"features": str(small)}) == mb([small], factor=6) == 1060
    assert task_mem_mb(label, {"features": str(large)}) == 1000 + LABEL_BLOCK_MB + 400
    assert task_mem_mb({"task": "probabilities"}, {"features": str(large), "fitting_stimuli": str(table)}) == \
        mb([large, table], factor=6) == 1000 + 24_000 + 12
    based = {"task": "label", "base_stimulus_set": "Kato2026_base"}  # the masked label task reads them whole
    assert task_mem_mb(based, {"features": str(large)}) == mb([large], factor=6)
    assert task_mem_mb(label, {"features": str(large), "human": str(table)}) == 1000 + 12 + LABEL_BLOCK_MB + 400


def stimulus_folder(path, images, line_end=True):
    """A stimulus folder whose table has a header and ``images`` rows (the images themselves are not read)."""
    path.mkdir(parents=True, exist_ok=True)
    rows = "".join(f"img{i},img{i}.png,{i % 8}\n" for i in range(images))
    text = "stimulus_id,filename,category\n" + rows
    (path / "stimuli.csv").write_text(text if line_end else text.rstrip("\n"))
    return path


def test_an_extraction_asks_for_time_by_its_images(tmp_path):
    """The activations rules' runtime: 10 minutes + 1.5 × images / rate, at least the 60 minutes every extraction
    asked for before. ImageNet-C's 750,000 images of a category took about 4.9 h for alexnet on two CPU threads
    (docs/performance.md), which 60 minutes ended on a cluster."""
    small = stimulus_folder(tmp_path / "small", 3_200)
    large = stimulus_folder(tmp_path / "large", 60_000)
    assert stimulus_count(small) == 3_200
    assert extraction_runtime_min([small]) == EXTRACTION_MIN_RUNTIME == 60  # MajajHong2015's 3,200: as before
    assert extraction_runtime_min([large]) == 10 + 150  # 60,000 images at 600 a minute, × 1.5
    assert extraction_runtime_min([large], images_per_minute=6000) == 60  # a GPU's rate: the floor again
    assert extraction_runtime_min([large], images_per_minute=7) == 10 + 12_858  # ceil(1.5 × 60,000 / 7) = 12,858
    assert extraction_runtime_min([small, large]) == 10 + 158  # a job of several folders counts them all
    assert extraction_runtime_min([tmp_path / "not-yet"]) == 60  # a dry run before the fetch: the floor


def test_the_image_count_follows_the_table(tmp_path):
    """Rows without a final line end count; a table rewritten with other rows is read again (the count is cached
    by the file's size and time); a folder without a table counts none."""
    folder = stimulus_folder(tmp_path / "set", 5, line_end=False)
    assert stimulus_count(folder) == 5
    stimulus_folder(folder, 40_000)
    os.utime(folder / "stimuli.csv", ns=(1, 1))  # another time, whatever the file system's resolution
    assert stimulus_count(folder) == 40_000
    assert extraction_runtime_min([folder]) == 10 + 100
    (tmp_path / "images_only").mkdir()
    assert stimulus_count(tmp_path / "images_only") == 0
    header_only = tmp_path / "header_only"
    header_only.mkdir()
    (header_only / "stimuli.csv").write_text("stimulus_id,filename\n")
    assert stimulus_count(header_only) == 0


REPO = Path(__file__).resolve().parents[2]


def test_a_dry_run_asks_for_an_extractions_time_by_its_images(tmp_path):
    """Through Snakemake: the static and the temporal extraction of a 30,000-image stimulus folder ask for
    10 + 1.5 × 30,000 / 600 = 85 minutes, and config extraction_images_per_minute sets the rate."""
    stimulus_folder(tmp_path / "resources" / "stimuli" / "SyntheticShapes", 30_000)
    targets = ["results/activations/pixels/SyntheticShapes/pixels.nc",
               "results/activations/recurrent_demo/SyntheticShapes/IT.output.nc"]

    def runtimes(*config):
        env = {key: value for key, value in os.environ.items() if key != "SNAKEMAKE_PROFILE"}
        run = subprocess.run([str(Path(sys.executable).parent / "snakemake"), *targets, "-n", "-s",
                              str(REPO / "Snakefile"), "--directory", str(tmp_path), "--configfile",
                              str(REPO / "config" / "config.yaml"), *config],
                             cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, (run.stdout + run.stderr)[-3000:]
        return dict(re.findall(r"^rule (activations\w*):\n(?:.*\n)*?\s+resources: .*\bruntime=(\d+)", run.stdout,
                               flags=re.M))

    assert runtimes() == {"activations": "85", "activations_temporal": "85"}
    assert runtimes("--config", "extraction_images_per_minute=300") == {"activations": "160",
                                                                         "activations_temporal": "160"}
