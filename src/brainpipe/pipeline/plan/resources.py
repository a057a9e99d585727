"""Jobs' memory estimates for cluster schedulers (the rules' ``mem_mb`` resources), from their inputs' sizes."""

from __future__ import annotations

from pathlib import Path

from brainpipe.neural.metrics import spantime_sample_space_bytes


def mb(paths, factor: float = 1.0, floor: int = 1000) -> int:
    """Memory estimate (MB) from input sizes, for cluster schedulers: factor × size + floor."""
    total = 0
    for path in paths:
        path = Path(path)
        if path.is_dir():
            total += sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
        elif path.exists():
            total += path.stat().st_size
    return int(floor + factor * total / 1e6)


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
