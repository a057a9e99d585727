"""The ceiling stage: a benchmark's ceiling by the name of its method (workflow/scripts/ceiling.py, ceiling_ost.py).

As Brain-Score's ``ceiling_registry['internal_consistency'] = ...`` (brain-score/vision brainscore_vision/
__init__.py): each method is registered under its name (:func:`register_ceiling`) as a function of the prepared
data (:class:`PreparedData`, read the way the method needs it; a declared ceiling reads nothing) and the stage's
settings (:class:`CeilingSettings`), returning the ceiling JSON (``ceiling``, ``error``, ``method`` and what the
method adds). :func:`ceiling_of` looks the method up; nothing branches on its name. The workflow's plan names the method of each
benchmark (``ceiling_method``, brainpipe.pipeline.plan.scores).

Light at import (the family registry imports every module of this package while the workflow parses): each method
imports the code it computes with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from brainpipe.neural.metric_names import REPRESENTATIONAL_METRICS

#: method name -> function(data: PreparedData, settings: CeilingSettings) -> dict
CEILINGS: dict[str, Callable] = {}


def register_ceiling(name: str):
    """Decorator: register the function as the ceiling method ``name`` (a family with a ceiling of its own
    registers it in its module). A name registered twice by different functions is an error naming both."""
    def register(function):
        known = CEILINGS.get(name)
        if known is not None and (known.__module__, known.__qualname__) != (function.__module__, function.__qualname__):
            raise ValueError(f"ceiling method {name!r} is registered twice: by {known.__module__}.{known.__qualname__}"
                             f" and by {function.__module__}.{function.__qualname__}; rename one")
        CEILINGS[name] = function
        return function
    return register


class PreparedData:
    """The ceiling job's input: the prepared recordings (per trial) or the prepared human data, read on demand.

    ``joined``: the data set joins train and test files (``Family.train_test.files``, a presentation coordinate 'split')."""

    def __init__(self, path, joined: bool = False):
        self.path, self.joined = str(path), joined

    def trials(self, held_out: bool = False):
        """The per-trial recordings (presentation × neuroid, with stimulus_id, repetition and neuroid_id). A joined
        train/test data set gives its test trials where ``held_out`` (Brain-Score's TrainTestNeuralBenchmark ceils
        on the test repetitions), else all its images with their repetitions averaged (its RSABenchmark)."""
        from brainpipe.io import read_netcdf

        trials = read_netcdf(self.path, required_coords=("stimulus_id", "repetition", "neuroid_id"))
        if self.joined and "split" in trials.coords:
            from brainpipe.data.assembly import average_repetitions
            from brainpipe.data.train_test import held_out_trials

            trials = held_out_trials(trials) if held_out else average_repetitions(trials)
        return trials

    def human(self):
        """The prepared human data (presentation, with stimulus_id), its path in ``attrs['source']``."""
        from brainpipe.io import read_netcdf

        human = read_netcdf(self.path, required_coords=("stimulus_id",))
        human.attrs["source"] = self.path  # the human data's choices are checked here and by fit_fold
        return human


@dataclass(frozen=True)
class CeilingSettings:
    """What a ceiling method reads besides the data: the benchmark (its family's ``ceiling``, ``subject_coord``,
    ``train_test.score_per``, its plugin or behaviour) and the split-half settings of the computed ceilings."""

    benchmark: object
    n_splits: int = 10
    random_state: int = 1


def ceiling_of(method: str, path, benchmark, n_splits: int = 10, random_state: int = 1) -> dict:
    """The ceiling JSON of ``benchmark`` by ``method`` (a name in :data:`CEILINGS`) on the prepared data at
    ``path``; ValueError listing the registered methods for an unknown name."""
    compute = CEILINGS.get(method)
    if compute is None:
        raise ValueError(f"unknown ceiling method {method!r}; registered: {', '.join(sorted(CEILINGS))}")
    train_test = benchmark.family.train_test
    data = PreparedData(path, joined=bool(train_test and train_test.files))
    return compute(data, CeilingSettings(benchmark, n_splits, random_state))


def declared(value, origin: str = "declared") -> dict:
    """A ceiling the benchmark declares, without error: a number, or 'none' (the score is the raw value)."""
    if value == "none":
        return {"ceiling": 1.0, "error": 0.0, "method": "none"}
    return {"ceiling": float(value), "error": 0.0, "method": f"fixed ({origin})"}


@register_ceiling("fixed")  # a published noise ceiling in the family's definition
@register_ceiling("none")  # no ceiling: the score is the raw value
def declared_in_family(data: PreparedData, settings: CeilingSettings) -> dict:
    return declared(settings.benchmark.family.ceiling)


@register_ceiling("internal_consistency")
def internal_consistency(data: PreparedData, settings: CeilingSettings) -> dict:
    """Split-half consistency per neuroid, Spearman-Brown corrected, median over neuroids
    (:func:`brainpipe.neural.ceiling.internal_consistency`); per value of ``Family.train_test.score_per`` too."""
    from brainpipe.neural.ceiling import internal_consistency as consistency

    return consistency(data.trials(held_out=True), settings.n_splits, settings.random_state,
                       groups=train_test.score_per if (train_test := settings.benchmark.family.train_test) else None)


@register_ceiling("coordinate_median")
def coordinate_median(data: PreparedData, settings: CeilingSettings) -> dict:
    """The median over the scored neuroids of a per-neuroid reliability in the data (``Family.ceiling``
    'median_of:<coordinate>'; Li2026)."""
    from brainpipe.neural.ceiling import coordinate_median as median

    trials = data.trials()
    coordinate = str(settings.benchmark.family.ceiling).split(":", 1)[1]
    if coordinate not in trials.coords:
        raise ValueError(f"{data.path}: no neuroid coordinate {coordinate!r} for the ceiling")
    return dict(median(trials[coordinate].values), method=f"median of {coordinate}")


@register_ceiling("rdm_subjects")
def rdm_subjects(data: PreparedData, settings: CeilingSettings) -> dict:
    """Each subject's RDM against the mean RDM of all (Brain-Score's RSACeiling), subjects by
    ``Family.subject_coord``."""
    from brainpipe.neural.representational import subject_rdm_ceiling

    trials = data.trials()
    subject = settings.benchmark.family.subject_coord
    if subject not in trials.coords:
        raise ValueError(f"{data.path}: no neuroid coordinate {subject!r} (one RDM per subject)")
    return dict(subject_rdm_ceiling(trials.transpose("presentation", "neuroid").values, trials[subject].values),
                error=0.0, method=f"inter-subject RDM consistency over {subject} (upper bound)")


@register_ceiling("predictor_consistency")
def predictor_consistency(data: PreparedData, settings: CeilingSettings) -> dict:
    """Reverse predictivity's ceiling (Brain-Score's SplitHalfPredictorConsistency)."""
    from brainpipe.neural.ceiling import split_half_predictor_consistency

    trials = data.trials()
    return split_half_predictor_consistency(trials.transpose("presentation", "neuroid").values,
                                            trials["stimulus_id"].values, trials["repetition"].values)


def split_half_similarity(name: str):
    """The split-half consistency of the trials under the representational similarity ``name`` (rdm, cka,
    cka_biased: a *_cv metric is ceiled by its plain similarity), Spearman-Brown corrected."""
    def ceiling(data: PreparedData, settings: CeilingSettings) -> dict:
        import numpy as np

        from brainpipe.neural.representational import representational_ceiling

        trials = data.trials()
        _, stimulus_index = np.unique(trials["stimulus_id"].values.astype(str), return_inverse=True)
        result = representational_ceiling(name, trials.transpose("presentation", "neuroid").values,
                                          trials["repetition"].values, stimulus_index,
                                          n_splits=settings.n_splits, random_state=settings.random_state)
        result["method"] = f"split-half {name} consistency"
        return result
    return ceiling


for _similarity in sorted({metric.removesuffix("_cv") for metric in REPRESENTATIONAL_METRICS}):
    register_ceiling(_similarity)(split_half_similarity(_similarity))


@register_ceiling("custom")
def plugin_ceiling(data: PreparedData, settings: CeilingSettings) -> dict:
    """A plugin's own ``ceiling()`` on the trials (:class:`brainpipe.benchmarks.custom.CustomBenchmark`)."""
    from .custom import checked_result

    family = settings.benchmark.family
    result = checked_result(family.plugin.ceiling(data.trials()), ("ceiling", "error"), family.origin, "ceiling")
    result.setdefault("error", 0.0)
    result["method"] = f"custom ({family.origin})"
    return result


@register_ceiling("behaviour")
def behavioural_ceiling(data: PreparedData, settings: CeilingSettings) -> dict:
    """A behavioural benchmark's declared ceiling (no data read), or its metric's ceiling on the human data
    (:func:`brainpipe.behaviour.stages.ceiling`)."""
    from brainpipe.behaviour.ceiled import DECLARED, ceiling_json, declared_ceiling

    benchmark = settings.benchmark
    known = declared_ceiling(benchmark.behaviour)
    if known is not None:
        return ceiling_json(known, DECLARED)
    from brainpipe.behaviour import stages

    return ceiling_json(stages.ceiling(benchmark, data.human()),
                        f"{benchmark.behaviour.metric} ceiling of the human data")
