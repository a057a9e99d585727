"""Jobs' memory estimates for cluster schedulers (the rules' ``mem_mb`` resources), from their inputs' sizes."""

from __future__ import annotations

import functools
import math
from pathlib import Path

from brainpipe.neural.metrics import spantime_sample_space_bytes


def mb(paths, factor: float = 1.0, floor: int = 1000) -> int:
    """Memory estimate (MB) from input sizes, for cluster schedulers: factor × size + floor."""
    return int(floor + factor * size_bytes(paths) / 1e6)


def size_bytes(paths) -> int:
    """The bytes of ``paths``: files, and every file under a folder; a path not there yet counts 0."""
    total = 0
    for path in paths:
        path = Path(path)
        if path.is_dir():
            total += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        elif path.exists():
            total += path.stat().st_size
    return total


def score_mem_mb(paths, factor: float = 4.0) -> int:
    """:func:`mb` of a behavioural score job's inputs, where a stimulus folder (a benchmark without human data reads
    its stimulus set's folder, PLAN.behaviour.target) counts by its table alone: the job reads the table, never the
    images, and counting them asked a scheduler for four times the images' bytes (ImageNet-C's 1,000,000 images:
    hundreds of GB)."""
    from brainpipe.data.brainio import STIMULI_CSV

    return mb([Path(path) / STIMULI_CSV if Path(path).is_dir() else path for path in paths], factor=factor)


def fold_mem_mb(benchmark, source, target) -> int:
    """Memory of a fold job (MB) of ``benchmark`` reading ``source`` (layer or Gram file) and ``target``: three
    times its inputs, plus, for a spantime fit solved in sample space, its (bin × stimulus) matrices (read from the
    files' headers; Snakemake evaluates this again once they exist)."""
    source, target = str(source), str(target)
    estimate = mb([source, target], factor=3)
    if benchmark.kind != "temporal" or not (Path(source).is_file() and Path(target).is_file()):
        return estimate
    from brainpipe.io.netcdf_arrays import dimension_sizes

    target_sizes, layer_sizes = dimension_sizes(target), dimension_sizes(source)
    extra = spantime_sample_space_bytes(benchmark, target_sizes["presentation"], target_sizes["time_bin"],
                                        layer_sizes["neuroid"])
    return estimate + int(extra / 1e6)


#: what one block of the streamed label task holds (MB): LABEL_BLOCK presentations × 1000 logits in float64, about
#: three such arrays at once (the values, their exponentials, the probabilities)
LABEL_BLOCK_MB = 1200


def task_mem_mb(spec: dict, inputs: dict) -> int:
    """Memory of a behaviour_task job (MB): six times its inputs (the features, converted to float64, and the tables
    beside them), but for the plain label task, which reads its features a block at a time (brainpipe.behaviour.tasks
    ``label``), at most one block plus a tenth of the features file (the output's per-presentation coordinates):
    ImageNet-C's 1,000,000 × 1000 logits (4 GB) measured 1.1 GB (docs/performance.md), where six times the file
    asked a cluster for 25 GB."""
    features = inputs.get("features")
    if spec.get("task") != "label" or spec.get("base_stimulus_set") or features is None:
        return mb(inputs.values(), factor=6)
    others = size_bytes(path for name, path in inputs.items() if name != "features")
    streamed = size_bytes([features])
    return int(1000 + (6 * others + min(6 * streamed, LABEL_BLOCK_MB * 1e6 + streamed / 10)) / 1e6)


#: the least an extraction job asks for (minutes): what the rules asked for before the estimate, enough for any set
#: of up to 20,000 images at the default rate
EXTRACTION_MIN_RUNTIME = 60
#: images a minute the runtime estimate assumes (config ``extraction_images_per_minute``): 10 a second, what a
#: ResNet-50 manages on two CPU threads; alexnet does 42.8 a second there (docs/performance.md), a GPU far more
EXTRACTION_IMAGES_PER_MINUTE = 600


def extraction_runtime_min(folders, images_per_minute: float = EXTRACTION_IMAGES_PER_MINUTE) -> int:
    """The time limit of an activations job (minutes, the rules' ``runtime``: SLURM's ``-t``) reading the stimulus
    ``folders``: 10 minutes to start (load the model and its weights) plus 1.5 times the images at
    ``images_per_minute``, at least :data:`EXTRACTION_MIN_RUNTIME`. A flat 60 minutes ended a CPU node's extraction
    of ImageNet-C's 750,000-1,000,000 images of a category (4.9-6.5 h for alexnet on two threads). A folder not there
    yet (a dry run before the fetch) counts no image; Snakemake evaluates the estimate again before the job runs."""
    images = sum(stimulus_count(Path(folder)) for folder in folders)
    return max(EXTRACTION_MIN_RUNTIME, math.ceil(10 + 1.5 * images / images_per_minute))


def stimulus_count(folder: Path) -> int:
    """Rows of a stimulus folder's table (0 where it has none yet), read once per version of the file."""
    from brainpipe.data.brainio import STIMULI_CSV

    table = folder / STIMULI_CSV
    try:
        status = table.stat()
    except OSError:
        return 0
    return _data_rows(str(table), status.st_size, status.st_mtime_ns)


@functools.lru_cache(maxsize=4096)
def _data_rows(path: str, size: int, mtime_ns: int) -> int:
    """Lines of the table but its header (size and mtime key the cache: a new table is read again). Counting line
    ends is an estimate enough: ImageNet-C's 1,000,000-row table (150 MB) takes about 0.1 s, once per plan."""
    lines, last = 0, b"\n"
    with open(path, "rb") as table:
        for block in iter(lambda: table.read(1 << 22), b""):
            lines += block.count(b"\n")
            last = block[-1:]
    lines += last != b"\n"  # a last line without its line end
    return max(0, lines - 1)
