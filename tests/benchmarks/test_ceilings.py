"""brainpipe.benchmarks.ceilings: every registered ceiling method on real NetCDF files gives what the library
function it wraps gives on the same data (the ceiling job's numbers), a declared ceiling reads no file, and an
unknown or twice-registered name is refused with the registered names."""

from dataclasses import replace

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import stages
from brainpipe.behaviour.ceiled import DECLARED, ceiling_json
from brainpipe.benchmarks import ceilings
from brainpipe.benchmarks.ceilings import CEILINGS, ceiling_of, register_ceiling
from brainpipe.data.assembly import average_repetitions
from brainpipe.data.train_test import held_out_trials
from brainpipe.io import write_netcdf
from brainpipe.neural.ceiling import coordinate_median, internal_consistency, split_half_predictor_consistency
from brainpipe.neural.representational import representational_ceiling, subject_rdm_ceiling

ABSENT = "/nonexistent/prepared.nc"  # a declared ceiling must not read its input


def _trials(tmp_path, n_stimuli=12, repetitions=4, neuroids=6, seed=0, **neuroid_coords):
    """Per-trial recordings (presentation × neuroid): a stimulus signal plus noise, stimuli in shuffled order."""
    rng = np.random.default_rng(seed)
    signal = rng.standard_normal((n_stimuli, neuroids))
    stimulus = np.repeat(np.arange(n_stimuli), repetitions)
    order = rng.permutation(stimulus.size)
    values = signal[stimulus] + 0.7 * rng.standard_normal((stimulus.size, neuroids))
    trials = xr.DataArray(values[order].astype(np.float32), dims=("presentation", "neuroid"), coords={
        "stimulus_id": ("presentation", np.array([f"s{k:02d}" for k in stimulus[order]], dtype=object)),
        "repetition": ("presentation", np.tile(np.arange(repetitions), n_stimuli)[order]),
        "neuroid_id": ("neuroid", np.array([f"n{k}" for k in range(neuroids)], dtype=object)),
        **{name: ("neuroid", values) for name, values in neuroid_coords.items()}})
    path = tmp_path / "trials.nc"
    write_netcdf(trials, path)
    return path, trials


def _stored(path):
    return ceilings.PreparedData(path).trials()


def test_internal_consistency_is_the_split_half_ceiling_of_the_trials(tmp_path):
    path, _ = _trials(tmp_path)
    benchmark = benchmarks.parse("SyntheticShapes.IT-pls")
    result = ceiling_of("internal_consistency", path, benchmark, n_splits=7, random_state=3)
    expected = internal_consistency(_stored(path), 7, 3)
    assert result == expected and 0 < result["ceiling"] < 1


def test_a_joined_train_test_data_set_ceils_its_held_out_trials_per_subject(tmp_path):
    """Allen2022 (Family.train_test: joined files, score_per 'subject'): the test trials, per subject; rdm: all images averaged."""
    path, _ = _trials(tmp_path, subject=np.array(["a", "a", "a", "b", "b", "b"], dtype=object))
    trials = _stored(path)
    split = np.where(trials["stimulus_id"].values.astype(str) < "s06", "train", "test")
    write_netcdf(trials.assign_coords(split=("presentation", split.astype(object))), path)
    ridge = benchmarks.parse("Allen2022_fmri.V1-ridge")
    joined = ceilings.PreparedData(path).trials()
    result = ceiling_of("internal_consistency", path, ridge)
    assert result == internal_consistency(held_out_trials(joined), 10, 1, groups="subject")
    assert set(result["per_group"]) == {"a", "b"}
    rdm = ceiling_of("rdm_subjects", path, benchmarks.parse("Allen2022_fmri.V1-rdm"))
    averaged = average_repetitions(joined)
    assert rdm["ceiling"] == subject_rdm_ceiling(averaged.transpose("presentation", "neuroid").values,
                                                 averaged["subject"].values)["ceiling"]


@pytest.mark.parametrize("name", ["rdm", "cka", "cka_biased"])
def test_representational_methods_are_split_half_similarities(tmp_path, name):
    path, _ = _trials(tmp_path)
    trials = _stored(path)
    result = ceiling_of(name, path, benchmarks.parse("MajajHong2015public.IT-rdm"), n_splits=5, random_state=2)
    _, index = np.unique(trials["stimulus_id"].values.astype(str), return_inverse=True)
    expected = representational_ceiling(name, trials.transpose("presentation", "neuroid").values,
                                        trials["repetition"].values, index, n_splits=5, random_state=2)
    assert result == dict(expected, method=f"split-half {name} consistency")


def test_coordinate_median_and_inter_subject_rdm(tmp_path):
    """Li2026: the median of the neuroids' reliability_window; its rdm: one RDM per animal."""
    reliability = np.array([0.1, 0.5, 0.9, np.nan, 0.3, 0.7])
    path, _ = _trials(tmp_path, reliability_window=reliability,
                      animal=np.array(["m1", "m1", "m1", "m2", "m2", "m2"], dtype=object))
    trials = _stored(path)
    median = ceiling_of("coordinate_median", path, benchmarks.parse("Li2026.IT-pls"))
    assert median == dict(coordinate_median(reliability), method="median of reliability_window")
    assert median["ceiling"] == pytest.approx(0.5)
    subjects = ceiling_of("rdm_subjects", path, benchmarks.parse("Li2026.IT-rdm"))
    expected = subject_rdm_ceiling(trials.transpose("presentation", "neuroid").values, trials["animal"].values)
    assert subjects == dict(expected, error=0.0, method="inter-subject RDM consistency over animal (upper bound)")
    (tmp_path / "bare").mkdir()
    bare, _ = _trials(tmp_path / "bare", seed=1)
    with pytest.raises(ValueError, match=r"trials.nc: no neuroid coordinate 'reliability_window'"):
        ceiling_of("coordinate_median", bare, benchmarks.parse("Li2026.IT-pls"))


def test_predictor_consistency(tmp_path):
    path, _ = _trials(tmp_path, n_stimuli=20)
    trials = _stored(path)
    result = ceiling_of("predictor_consistency", path, benchmarks.parse("MajajHong2015public.IT-reverse_pls"))
    assert result == split_half_predictor_consistency(trials.transpose("presentation", "neuroid").values,
                                                      trials["stimulus_id"].values, trials["repetition"].values)


def test_declared_ceilings_read_no_data():
    benchmark = benchmarks.parse("SyntheticShapes.IT-pls")
    fixed = replace(benchmark, family=replace(benchmark.family, ceiling=0.79))
    assert ceiling_of("fixed", ABSENT, fixed) == {"ceiling": 0.79, "error": 0.0, "method": "fixed (declared)"}
    none = replace(benchmark, family=replace(benchmark.family, ceiling="none"))
    assert ceiling_of("none", ABSENT, none) == {"ceiling": 1.0, "error": 0.0, "method": "none"}
    assert ceilings.declared(".79", origin="Brain-Score's") == {"ceiling": 0.79, "error": 0.0,
                                                                "method": "fixed (Brain-Score's)"}
    top1 = benchmarks.parse("Geirhos2021colour-top1")  # accuracy: a declared 1
    assert ceiling_of("behaviour", ABSENT, top1) == ceiling_json(stages.declared_ceiling(top1.behaviour), DECLARED)


def test_a_computed_behavioural_ceiling_is_the_metrics_on_the_human_data(tmp_path):
    benchmark = benchmarks.parse("Geirhos2021colour-error_consistency")
    labels = ["dog", "cat", "car", "bird"]  # four of its 16 classes
    rng = np.random.default_rng(0)
    truth = np.tile(labels, 6)
    subjects = np.repeat(["s1", "s2", "s3"], 8)
    choices = np.where(rng.random(truth.size) < 0.7, truth, rng.choice(labels, truth.size))
    human = xr.DataArray(choices.astype(object), dims=("presentation",), coords={
        "stimulus_id": ("presentation", np.array([f"i{k % 8}" for k in range(truth.size)], dtype=object)),
        "truth": ("presentation", truth.astype(object)), "subject": ("presentation", subjects.astype(object)),
        "condition": ("presentation", np.array(["c"] * truth.size, dtype=object))})
    path = tmp_path / "behaviour.nc"
    write_netcdf(human, path)
    stored = ceilings.PreparedData(path).human()
    result = ceiling_of("behaviour", path, benchmark)
    assert result == ceiling_json(stages.ceiling(benchmark, stored), "error_consistency ceiling of the human data")
    assert stored.attrs["source"] == str(path)


def test_a_plugins_own_ceiling(tmp_path):
    (tmp_path / "mine.py").write_text(
        "from brainpipe.benchmarks import CustomBenchmark\n"
        "class Mine(CustomBenchmark):\n family='MineCeil'\n data='SyntheticShapes'\n regions=('IT',)\n metric='own'\n"
        " def ceiling(self, trials):\n  return {'ceiling': float(trials.sizes['presentation']) / 100}\n"
        " def compare(self, activations, target):\n  return {'raw': 0.5}\n")
    benchmark = benchmarks.load("MineCeil.IT-own", {"benchmark_plugins": [str(tmp_path / "mine.py")]})
    path, trials = _trials(tmp_path)
    result = ceiling_of("custom", path, benchmark)
    assert result == {"ceiling": trials.sizes["presentation"] / 100, "error": 0.0,
                      "method": f"custom ({benchmark.family.origin})"}


def test_unknown_and_twice_registered_names_are_refused():
    with pytest.raises(ValueError, match=r"unknown ceiling method 'split_thirds'; registered: .*internal_consistency"):
        ceiling_of("split_thirds", ABSENT, benchmarks.parse("SyntheticShapes.IT-pls"))
    register_ceiling("internal_consistency")(ceilings.internal_consistency)  # the same function again: no change

    def other(data, settings):
        return {}
    with pytest.raises(ValueError, match=r"'internal_consistency' is registered twice: by brainpipe.benchmarks"):
        register_ceiling("internal_consistency")(other)
    assert CEILINGS["internal_consistency"] is ceilings.internal_consistency


def test_every_method_the_workflow_names_is_registered():
    """The workflow's plan names each built-in benchmark's method (a representational metric by its similarity)."""
    from brainpipe.pipeline.plan.scores import Scores

    registry = benchmarks.builtin()
    named = {Scores.ceiling_method(registry.benchmark(identifier)) for identifier in registry.identifiers()}
    assert named == set(CEILINGS)
