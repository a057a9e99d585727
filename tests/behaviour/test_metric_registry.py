"""brainpipe.behaviour.metric_registry: the stages look a behavioural metric up by name. The metrics any family may
use are registered by brainpipe.behaviour.stages, a family's own by its module (Maniquet2024); a family with a metric
of its own is scored through every stage (fold, ceiling) with no edit to a shared module; unknown and clashing names
are refused with the registered names."""

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import metric_registry, stages
from brainpipe.behaviour.result import Result
from brainpipe.behaviour.threshold_stages import THRESHOLD_METRICS
from brainpipe.benchmarks.base import Behaviour, Family
from brainpipe.benchmarks.ceilings import ceiling_of
from brainpipe.benchmarks.folds import FoldJob, fit_fold
from brainpipe.io import write_netcdf

SHARED = {"accuracy", "accuracy_delta", "accuracy_distance", "condition_wise_accuracy", "error_consistency", "i1",
          "i2n", "odd_one_out_match", "shape_bias", "shape_match", "value_delta"}


@pytest.fixture
def registry_restored():
    before = dict(metric_registry.METRICS)
    yield
    metric_registry.METRICS.clear()
    metric_registry.METRICS.update(before)


def test_every_metric_a_built_in_family_declares_is_registered_by_stages_or_its_own_module():
    registered = metric_registry.METRICS
    assert SHARED <= set(registered) and {registered[name].origin for name in SHARED} == {stages.__name__}
    for family in benchmarks.builtin().families.values():
        for behaviour in family.behaviours:
            if behaviour.metric in THRESHOLD_METRICS:  # Malania2007: its own stages (workflow/rules/threshold.smk)
                continue
            assert behaviour.metric in registered, f"{family.name}: metric {behaviour.metric!r} is not registered"
    assert registered["confusion_similarity"].origin == registered["tasks_consistency"].origin == \
        "brainpipe.benchmarks.families.maniquet2024"


def test_unknown_and_clashing_names_are_refused(registry_restored):
    with pytest.raises(ValueError, match=r"metric 'i3n' is not registered; registered: accuracy, accuracy_delta"):
        metric_registry.lookup("i3n")
    i2n = metric_registry.lookup("i2n")
    with pytest.raises(ValueError, match=r"'i2n' is registered twice: by brainpipe.behaviour.stages and by "
                                         r"test_metric_registry"):
        metric_registry.register_metric("i2n", _agreement)
    assert metric_registry.lookup("i2n") is i2n
    first = metric_registry.register_metric("agreement", _agreement)
    again = metric_registry.register_metric("agreement", _agreement, _agreement_ceiling)  # the module imported again
    assert metric_registry.lookup("agreement") is again and (first.ceiling, again.ceiling) == (None, _agreement_ceiling)


def _agreement(benchmark, model, human):
    """The share of human trials answered as the model answered the image (a metric of a new family's own)."""
    answers = dict(zip(model["stimulus_id"].values, model.values[0]))
    return Result(float(np.mean([answers[s] == c for s, c in zip(human["stimulus_id"].values, human.values)])))


def _agreement_ceiling(benchmark, human):
    return Result(0.8, 0.05)


def test_a_family_with_a_metric_of_its_own_needs_no_shared_edit(tmp_path, registry_restored):
    """What a new family's module would do: declare the family, register its metric. Every stage then scores it."""
    metric_registry.register_metric("agreement", _agreement, _agreement_ceiling)
    labels = ("dog", "cat", "car")
    family = Family(name="Newfamily2030", dataset="Newfamily2030", stimulus_set="Newfamily2030", regions=(),
                    visual_degrees=8, stratification=None,
                    behaviours=(Behaviour("agreement", task="label", metric="agreement", choice_labels=labels),))
    registry = benchmarks.builtin()
    registry.add(family)
    benchmark = registry.benchmark("Newfamily2030-agreement")
    ids = np.array([f"i{k}" for k in range(4)], dtype=object)
    model = xr.DataArray(np.array([["dog", "cat", "car", "dog"]], dtype=object), dims=("choice", "presentation"),
                         coords={"stimulus_id": ("presentation", ids)})
    human = xr.DataArray(np.array(["dog", "cat", "dog", "cat", "car", "dog", "dog", "dog"], dtype=object),
                         dims=("presentation",), coords={
                             "stimulus_id": ("presentation", np.tile(ids, 2)),
                             "truth": ("presentation", np.array(["dog", "cat", "car", "cat"] * 2, dtype=object))})
    write_netcdf(model, tmp_path / "model.nc")
    write_netcdf(human, tmp_path / "human.nc")
    fold, _ = fit_fold(benchmark, FoldJob(str(tmp_path / "model.nc"), str(tmp_path / "human.nc"), 0, "logits"))
    assert fold["value"] == pytest.approx(3 / 8) and fold["n_test"] == 8  # i0, i1 and i3 once each
    ceiling = ceiling_of("behaviour", tmp_path / "human.nc", benchmark)
    assert (ceiling["ceiling"], ceiling["error"]) == (0.8, 0.05)
    with pytest.raises(ValueError, match=r"1 human trials have choices \(the values\) outside the benchmark's 3 "
                                         r"labels: \['bird'\]"):  # the shared checks still apply
        stages.raw_score(benchmark, model, human.copy(data=np.array(["bird"] + ["dog"] * 7, dtype=object)))
