"""The fit_fold stage: one cross-validation fold of a benchmark (a behavioural benchmark's one comparison), by the
benchmark's kind (:attr:`brainpipe.benchmarks.Benchmark.kind`; workflow/scripts/fit_fold.py).

Each kind is registered under its name (:func:`register_fold`) as a function of the benchmark and the job
(:class:`FoldJob`: its files and settings) that reads what it needs and returns the fold's JSON and the job log's
lines; :func:`fit_fold` looks the kind up, nothing branches on its name. The computing code: neural folds
:mod:`brainpipe.neural.metrics`, behavioural comparisons :mod:`brainpipe.behaviour.stages`, plugins
:mod:`brainpipe.benchmarks.custom`.

Light at import (the family registry imports every module of this package while the workflow parses; a fold fitted
from the Gram matrix needs neither xarray nor torch): each kind imports the code it computes with.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

#: Benchmark.kind -> function(benchmark, job: FoldJob) -> (fold JSON, log lines)
FOLDS: dict[str, Callable] = {}


def register_fold(*kinds: str):
    """Decorator: register the function as the fold of each benchmark kind in ``kinds``. A kind registered twice by
    different functions is an error naming both."""
    def register(function):
        for kind in kinds:
            known = FOLDS.get(kind)
            if known is not None and (known.__module__, known.__qualname__) != (function.__module__,
                                                                                 function.__qualname__):
                raise ValueError(f"fold kind {kind!r} is registered twice: by {known.__module__}.{known.__qualname__}"
                                 f" and by {function.__module__}.{function.__qualname__}; rename one")
            FOLDS[kind] = function
        return function
    return register


@dataclass(frozen=True)
class FoldJob:
    """One fit_fold job: ``source`` (the layer's activations, its Gram matrix, or the model's task output),
    ``target`` (the prepared recordings or human data), the fold, the layer, the device asked for ('auto', 'cpu',
    'cuda'), the job's threads, and ``record``: the fields the fold's JSON names before its timing (model,
    benchmark, layer, metric)."""

    source: str
    target: str
    fold: int
    layer: str
    device: str = "auto"
    threads: int = 1
    record: dict = field(default_factory=dict)

    def finished(self, result: dict, started: float) -> dict:
        """``result`` with the job's record and the seconds since ``started``."""
        result.update(self.record, seconds=round(time.perf_counter() - started, 3))
        return result


def fit_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """The fold's JSON and the log lines of ``job`` for ``benchmark``; ValueError listing the registered kinds for
    a kind without a fold."""
    run = FOLDS.get(benchmark.kind)
    if run is None:
        raise ValueError(f"{benchmark.identifier}: no fold for benchmark kind {benchmark.kind!r}; registered: "
                         f"{', '.join(sorted(FOLDS))}")
    return run(benchmark, job)


def _neural_lines(result: dict, job: FoldJob, features, target) -> list[str]:
    lines = [f"WARNING: {result['pls_components_capped']['why']}"] if result.get("pls_components_capped") else []
    return lines + [f"fold {job.fold}: {features} features -> {target.sizes['neuroid']} neuroids, "
                    f"{result['n_train']} train / {result['n_test']} test, {result['seconds']} s"]


def _torch_device(job: FoldJob) -> str:
    """The configured device for a regression over the activations themselves (torch), with the job's threads."""
    import torch

    from brainpipe.models.devices import resolve_device

    torch.set_num_threads(job.threads)
    return resolve_device(job.device)


def _from_activations(benchmark, job: FoldJob, device: str) -> tuple[dict, list[str]]:
    from brainpipe.io import read_netcdf
    from brainpipe.neural.components import check_components
    from brainpipe.neural.metrics import run_fold

    target = read_netcdf(job.target, required_coords=("stimulus_id", "neuroid_id"))
    started = time.perf_counter()
    source = on_target_bins(read_netcdf(job.source, required_coords=("stimulus_id", "neuroid_id")), target, job.source)
    check_components(benchmark, source.sizes["neuroid"], job.layer)
    result = job.finished(run_fold(benchmark, source, target, job.fold, device=device), started)
    return result, _neural_lines(result, job, source.sizes["neuroid"], target)


@register_fold("regression")
def regression_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """A regression fitted from the layer's Gram matrix where the metric allows (pls, ridge, ridgecv, linear:
    numpy on the CPU, files read without xarray), else over the activations on the configured device."""
    from brainpipe.neural.metrics import uses_gram

    if not uses_gram(benchmark):
        return _from_activations(benchmark, job, _torch_device(job))
    from brainpipe.io.netcdf_arrays import read_arrays
    from brainpipe.neural.components import check_components
    from brainpipe.neural.metrics import run_fold_gram

    target = read_arrays(job.target, required_coords=("stimulus_id", "neuroid_id"))
    started = time.perf_counter()
    gram = read_arrays(job.source, required_coords=("stimulus_id",))
    check_components(benchmark, int(gram.attrs.get("n_features", 0)) or None, job.layer)
    result = job.finished(run_fold_gram(benchmark, gram, target, job.fold, device="cpu"), started)
    return result, _neural_lines(result, job, gram.attrs.get("n_features", "?"), target)


@register_fold("temporal", "reverse")
def torch_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """A spantime regression or reverse predictivity over the activations, on the configured device."""
    return _from_activations(benchmark, job, _torch_device(job))


def on_target_bins(source, target, where: str):
    """A temporal model's layer (its steps on the benchmark's declared bins) on exactly the recordings' time bins.
    Brain-Score asks the model for the aligned recordings' bins (benchmarks/majajhong2015/benchmark.py: ``range(0,
    time_bin_end.max() - 10, 10)``), which brainpipe declares from the real file; a file that ends earlier has
    fewer. Each bin's response depends on that bin alone (the nearest step: brainpipe.models.temporal), so the
    recordings' bins taken out of the declared ones are what that request gives. A static layer (no time_bin) and a
    layer already on the recordings' bins are returned as they are; ValueError naming ``where`` for a recorded bin
    the layer lacks."""
    if "time_bin" not in source.dims or "time_bin" not in target.dims:
        return source
    bins = lambda array: list(zip(array["time_bin_start"].values.tolist(),  # noqa: E731
                                  array["time_bin_end"].values.tolist()))
    ours, theirs = bins(source), bins(target)
    if ours == theirs:
        return source
    missing = [b for b in theirs if b not in ours]
    if missing:
        raise ValueError(f"{where}: the layer has no time bin {list(missing[0])} ms of the recordings' {len(theirs)}; "
                         f"it has {len(ours)} from {list(ours[0])} to {list(ours[-1])}")
    return source.isel(time_bin=[ours.index(b) for b in theirs])


@register_fold("representational")
def representational_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """RDM or CKA similarity of the fold's stimuli, in numpy on the CPU."""
    return _from_activations(benchmark, job, "cpu")


@register_fold("custom")
def plugin_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """A plugin's ``compare()`` on the layer's activations in the target's order (one fold); with normalisation
    'own' the plugin ceils it itself (per subject, then averaged) and returns its ``score``."""
    from brainpipe.io import open_netcdf, read_netcdf
    from brainpipe.neural.metrics import align

    from .custom import checked_result

    target = read_netcdf(job.target, required_coords=("stimulus_id", "neuroid_id"))
    started = time.perf_counter()
    where = benchmark.family.origin
    # The layer is opened, not read: the plugin reads what it uses, in the target's order, once (reading it whole
    # and then reordering held it twice), or a part at a time (a per-subject pool reads one subject's rows).
    with open_netcdf(job.source, required_coords=("stimulus_id",)) as source:
        compared = checked_result(benchmark.family.plugin.compare(align(source, target), target),
                                  ("raw", "error", "score"), where, "compare")
    result = {"fold": 0, "value": compared["raw"], "plugin_error": compared.get("error"),
              "n_train": 0, "n_test": target.sizes["presentation"]}
    if compared.get("reason") and not math.isfinite(compared["raw"]):  # a null score that says why
        result["reason"] = compared["reason"].strip()
    if benchmark.normalisation == "own":
        if "score" not in compared:
            raise ValueError(f"{where}: compare() must return 'score' (normalisation 'own')")
        result.update(plugin_score=compared["score"],
                      plugin_details={k: v for k, v in compared.items() if k not in ("raw", "error", "score")})
    result = job.finished(result, started)
    return result, _neural_lines(result, job, source.sizes["neuroid"], target)


@register_fold("behaviour")
def behavioural_fold(benchmark, job: FoldJob) -> tuple[dict, list[str]]:
    """The model's task output against the human data: one comparison, no fitting
    (:func:`brainpipe.behaviour.stages.comparison`)."""
    from brainpipe.behaviour import stages
    from brainpipe.io import read_netcdf

    started = time.perf_counter()
    model = read_netcdf(job.source, required_coords=("stimulus_id",))
    human = read_netcdf(job.target, required_coords=("stimulus_id",))
    human.attrs["source"] = job.target
    result = job.finished(stages.comparison(benchmark, model, human), started)
    if result.get("reason"):  # the task output says why it cannot be compared: a null score with that reason
        return result, [f"{benchmark.behaviour.metric}: no comparison: {result['reason']}"]
    return result, [f"{benchmark.behaviour.metric}: raw {result['value']:.4f} on {result['n_test']} human "
                    f"presentations"]
