"""brainpipe.neural.splits.cv_splits against scikit-learn's splitters with Brain-Score's defaults (brain-score/vision brainscore_vision/metric_helpers/transformations.py)."""

import numpy as np
import pytest
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

from brainpipe.neural.splits import cv_splits


def sorted_labels(n_objects=5, per_object=10, seed=0):
    """object_name in the order of the target's presentations (sorted by a random hex stimulus_id)."""
    rng = np.random.default_rng(seed)
    ids = np.array([f"{v:040x}" for v in rng.integers(0, 2**62, size=n_objects * per_object)])
    objects = np.repeat([f"obj{k}" for k in range(n_objects)], per_object)
    order = np.argsort(ids)
    return ids[order], objects[order]


def test_stratified_matches_sklearn():
    _, labels = sorted_labels()
    splits = cv_splits(len(labels), labels)
    expected = StratifiedShuffleSplit(n_splits=10, train_size=0.9, test_size=None, random_state=1)
    assert len(splits) == 10
    for (train, test), (etrain, etest) in zip(splits, expected.split(np.zeros(len(labels)), labels)):
        np.testing.assert_array_equal(train, np.sort(etrain))
        np.testing.assert_array_equal(test, np.sort(etest))
        assert len(train) == 45 and len(test) == 5
        assert not set(train) & set(test)
        # stratified: one test item per object
        assert sorted(labels[test]) == [f"obj{k}" for k in range(5)]


def test_unstratified_matches_sklearn():
    splits = cv_splits(50)
    expected = ShuffleSplit(n_splits=10, train_size=0.9, test_size=None, random_state=1).split(np.zeros(50))
    for (train, test), (etrain, etest) in zip(splits, expected):
        np.testing.assert_array_equal(train, np.sort(etrain))
        np.testing.assert_array_equal(test, np.sort(etest))
        assert (len(train), len(test)) == (45, 5)


def test_test_only_split():
    _, labels = sorted_labels(3, 10)
    splits = cv_splits(30, labels, train_size=None, test_size=0.9)
    expected = StratifiedShuffleSplit(n_splits=10, train_size=None, test_size=0.9, random_state=1)
    for (_, test), (_, etest) in zip(splits, expected.split(np.zeros(30), labels)):
        np.testing.assert_array_equal(test, np.sort(etest))
        assert len(test) == 27


def test_deterministic_and_seeded():
    _, labels = sorted_labels()
    a, b = cv_splits(50, labels), cv_splits(50, labels)
    c = cv_splits(50, labels, random_state=2)
    assert all((x[1] == y[1]).all() for x, y in zip(a, b))
    assert any((x[1] != y[1]).any() for x, y in zip(a, c))


def test_majajhong_private_sizes():
    labels = np.repeat(np.arange(64), 40)  # 2560 stimuli, 64 objects
    train, test = cv_splits(2560, labels)[0]
    assert (len(train), len(test)) == (2304, 256)
    assert (np.bincount(labels[test]) == 4).all()


@pytest.mark.parametrize("labels, train_size, test_size, expected", [
    # 3 strata, 12 stimuli: train_size .9 leaves ceil(1.2) = 2 test stimuli for 3 strata
    (["car"] * 5 + ["dog"] * 5 + ["cat"] * 2, 0.9, None,
     ["2 test stimuli for 3 strata", "cat: 2, car: 5, dog: 5", "train_size between 0.25 and 0.75"]),
    # train part too small
    (["car"] * 5 + ["dog"] * 5 + ["cat"] * 2, 0.1, None, ["1 train stimuli for 3 strata", "between 0.25 and 0.75"]),
    # a stratum with one stimulus: no train_size helps
    (["car"] * 6 + ["dog"] * 6 + ["cat"], 0.5, None, ["1 stratum/strata have a single stimulus (cat)", "cat: 1"]),
    # 2 stimuli per stratum: only an even split works
    (["a", "a", "b", "b", "c", "c", "d", "d", "e", "e"], 0.6, None, ["4 test stimuli for 5 strata", "between 0.5 and 0.5"]),
    # test-only split (rdm_cv): test_size .9 is Brain-Score's, not a setting
    (["a"] * 2 + ["b"] * 2 + ["c"] * 2 + ["d"] * 2 + ["e"] * 2, None, 0.9,
     ["test_size=0.9 (Brain-Score's test-only split)", "1 train stimuli for 5 strata"]),
    (None, 0.9, None, ["that leaves 4 train and 1 test"]),  # 5 stimuli unstratified: fine, see below
])
def test_too_few_stimuli_named_in_benchmark_terms(labels, train_size, test_size, expected):
    """Too few stimuli for the splits: the benchmark, `splits`, `train_size`, counts per stratum and what to do,
    not scikit-learn's text; the same inputs make scikit-learn raise (so the check is neither too strict nor lax)."""
    n = 5 if labels is None else len(labels)
    if labels is None:  # 5 unstratified stimuli do split; 1 does not
        assert len(cv_splits(5, None, train_size=0.9)) == 10
        n, expected = 1, ["from 1 stimuli", "that leaves 0 train and 1 test", "benchmark_settings.X.IT-pls.train_size"]
    splitter = (ShuffleSplit if labels is None else StratifiedShuffleSplit)(
        n_splits=3, train_size=train_size, test_size=test_size, random_state=1)
    with pytest.raises(ValueError) as sklearn_error:
        list(splitter.split(np.zeros(n), labels))
    with pytest.raises(ValueError) as caught:
        cv_splits(n, labels, 3, train_size=train_size, test_size=test_size, benchmark="X.IT-pls",
                  stratified_by="object_name")
    message = str(caught.value)
    assert message.startswith("X.IT-pls: cannot draw splits=3 train/test splits")
    for text in expected + ([] if labels is None else ["stratified by", "'object_name'"]):
        assert text in message, (text, message)
    assert str(sklearn_error.value) not in message


def test_suggested_train_size_works():
    labels = ["car"] * 5 + ["dog"] * 5 + ["cat"] * 2
    for train_size in (0.25, 0.5, 0.75):
        assert len(cv_splits(12, labels, 10, train_size=train_size)) == 10
    with pytest.raises(ValueError, match=r"train_size=1.0 must lie strictly between 0 and 1"):
        cv_splits(12, labels, train_size=1.0, benchmark="X.IT-pls")


def test_fold_too_few_stimuli_names_benchmark_and_settings():
    """Through the metric: the error carries the benchmark identifier and the settings it was given."""
    import xarray as xr

    from brainpipe.benchmarks import parse
    from brainpipe.neural.metrics import fold_indices

    target = xr.DataArray(np.zeros((12, 2)), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ("presentation", [f"s{k:02d}" for k in range(12)]),
                                  "object_name": ("presentation", ["car"] * 5 + ["dog"] * 5 + ["cat"] * 2)})
    benchmark = parse("SyntheticShapes.IT-pls", {"splits": 4, "train_size": 0.9})
    with pytest.raises(ValueError, match=r"^SyntheticShapes.IT-pls: cannot draw splits=4 train/test splits with "
                                         r"train_size=0.9 from 12 stimuli stratified by 3 strata of 'object_name'.*"
                                         r"benchmark_settings.SyntheticShapes.IT-pls.train_size between 0.25 and 0.75"):
        fold_indices(benchmark, target, 0)


@pytest.mark.parametrize("seed", range(12))
def test_numpy_splitters_draw_sklearns_indices(seed):
    """cv_splits draws its own splits (a fold job imports no scikit-learn): the same indices as scikit-learn's
    splitters over uneven strata (ties in _approximate_mode), integer and float sizes, test-only splits and
    non-default seeds."""
    rng = np.random.default_rng(seed)
    n_strata = int(rng.integers(2, 9))
    counts = rng.integers(2, 30, size=n_strata)
    labels = rng.permutation(np.repeat([f"c{k}" for k in range(n_strata)], counts))
    n = len(labels)
    sizes = [(0.9, None), (None, 0.9), (0.5, 0.3), (None, None), (n - n_strata, n_strata)][seed % 5]
    random_state = [1, 0, 12345][seed % 3]
    for stratify, splitter in ((labels, StratifiedShuffleSplit), (None, ShuffleSplit)):
        expected = splitter(n_splits=7, train_size=sizes[0], test_size=sizes[1], random_state=random_state)
        got = cv_splits(n, stratify, 7, train_size=sizes[0], test_size=sizes[1], random_state=random_state)
        for (train, test), (etrain, etest) in zip(got, expected.split(np.zeros(n), stratify), strict=True):
            np.testing.assert_array_equal(train, np.sort(etrain))
            np.testing.assert_array_equal(test, np.sort(etest))


def test_numpy_splitters_at_majajhong_public_size():
    labels = np.random.default_rng(5).permutation(np.repeat([f"obj{k}" for k in range(64)], 50))  # 3200 stimuli
    expected = StratifiedShuffleSplit(n_splits=10, train_size=0.9, test_size=None, random_state=1)
    for (train, test), (etrain, etest) in zip(cv_splits(3200, labels), expected.split(np.zeros(3200), labels)):
        np.testing.assert_array_equal(train, np.sort(etrain))
        np.testing.assert_array_equal(test, np.sort(etest))
