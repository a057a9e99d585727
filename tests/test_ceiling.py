"""brainpipe.neural.ceiling.internal_consistency against Brain-Score's split-half ceiling (brain-score/vision brainscore_vision/metrics/internal_consistency/ceiling.py)."""

import numpy as np
import pytest
import scipy.stats
import xarray as xr
from sklearn.model_selection import ShuffleSplit

from brainpipe.data.assembly import average_repetitions
from brainpipe.neural.ceiling import internal_consistency, shuffle_split_train, split_halves
from brainpipe.neural.stats import pearson_columns, sem, spearman_brown


def repetition_assembly(values, stimulus_ids, repetitions):
    """values: (presentation, neuroid)."""
    n_neuroids = values.shape[1]
    return xr.DataArray(
        values, dims=("presentation", "neuroid"),
        coords={"stimulus_id": ("presentation", np.asarray(stimulus_ids)),
                "repetition": ("presentation", np.asarray(repetitions)),
                "object_name": ("presentation", np.asarray([f"o{s[-1]}" for s in stimulus_ids])),
                "neuroid_id": ("neuroid", [f"n{k}" for k in range(n_neuroids)]),
                "region": ("neuroid", ["IT"] * n_neuroids)})


def simulated(n_stimuli=12, n_reps=6, n_neuroids=7, noise=1.0, seed=0, shuffle=True):
    rng = np.random.default_rng(seed)
    signal = rng.normal(size=(n_stimuli, n_neuroids))
    ids = np.array([f"s{k:03d}" for k in range(n_stimuli)])
    stim = np.tile(np.arange(n_stimuli), n_reps)
    reps = np.repeat(np.arange(n_reps), n_stimuli)
    values = signal[stim] + noise * rng.normal(size=(len(stim), n_neuroids))
    order = rng.permutation(len(stim)) if shuffle else np.arange(len(stim))
    return repetition_assembly(values[order], ids[stim][order], reps[order])


def test_identical_rows_give_one():
    # brain-score metrics/internal_consistency/test.py: 10 stimuli × 5 reps × 10 neuroids, identical rows → 1
    rng = np.random.default_rng(1)
    per_stimulus = rng.normal(size=(10, 10))
    stim = np.tile(np.arange(10), 5)
    assembly = repetition_assembly(per_stimulus[stim], [f"s{k}" for k in stim], np.repeat(np.arange(5), 10))
    result = internal_consistency(assembly)
    assert result["ceiling"] == pytest.approx(1, abs=1e-8)
    assert len(result["per_split"]) == 10


def hand_ceiling(assembly, n_splits=10, random_state=1):
    """Brain-Score's procedure written out with pandas/scipy: per split, median over neuroids of SB(r)."""
    repetition = assembly["repetition"].values
    unique = np.unique(repetition)
    splitter = ShuffleSplit(n_splits=n_splits, train_size=0.5, test_size=None, random_state=random_state)
    values = assembly.values
    ids = assembly["stimulus_id"].values
    per_split = []
    for first, _ in splitter.split(unique):
        in_first = np.isin(repetition, unique[first])
        stimuli = sorted(set(ids))
        half1 = np.array([values[in_first & (ids == s)].mean(axis=0) for s in stimuli])
        half2 = np.array([values[~in_first & (ids == s)].mean(axis=0) for s in stimuli])
        r = np.array([scipy.stats.pearsonr(half1[:, k], half2[:, k])[0] for k in range(values.shape[1])])
        per_split.append(np.median(2 * r / (1 + r)))
    return per_split


def test_matches_hand_computation():
    assembly = simulated()
    expected = hand_ceiling(assembly)
    result = internal_consistency(assembly)
    np.testing.assert_allclose(result["per_split"], expected, rtol=0, atol=1e-6)  # halves are averaged in float32, as Brain-Score's assemblies are
    assert result["ceiling"] == pytest.approx(np.mean(expected), abs=1e-6)
    assert result["error"] == pytest.approx(np.std(expected, ddof=0) / np.sqrt(10), abs=1e-6)
    assert result["method"] == "internal_consistency"


def test_split_halves_are_shufflesplit_of_unique_repetitions():
    repetition = np.array([3, 1, 0, 2, 5, 4, 1, 0, 3, 2, 5, 4])  # reps 0..5, two stimuli, unsorted
    unique = np.arange(6)
    expected = [set(unique[first]) for first, _ in
                ShuffleSplit(10, train_size=0.5, test_size=None, random_state=1).split(unique)]
    masks = list(split_halves(repetition))
    assert len(masks) == 10
    for mask, reps in zip(masks, expected):
        assert set(repetition[mask]) == reps and len(reps) == 3
        assert not set(repetition[~mask]) & reps


def test_single_repetition_rejected():
    assembly = simulated(n_reps=1)
    with pytest.raises(ValueError, match="2 repetitions"):
        internal_consistency(assembly)


def test_noise_only_is_near_zero():
    assembly = simulated(n_stimuli=200, n_reps=10, n_neuroids=30, noise=1.0, seed=3)
    assembly = assembly.copy(data=np.random.default_rng(4).normal(size=assembly.shape))
    assert abs(internal_consistency(assembly)["ceiling"]) < 0.1


def test_more_noise_lowers_ceiling():
    low = internal_consistency(simulated(n_stimuli=60, noise=0.5, seed=5))["ceiling"]
    high = internal_consistency(simulated(n_stimuli=60, noise=3.0, seed=5))["ceiling"]
    assert 0 < high < low < 1


def test_temporal_per_bin():
    base = simulated()
    stacked = xr.concat([base, base.copy(data=np.random.default_rng(9).normal(size=base.shape))], dim="time_bin")
    result = internal_consistency(stacked.transpose("presentation", "neuroid", "time_bin"))
    assert result["method"] == "internal_consistency_temporal"
    assert result["ceiling"][0] == pytest.approx(np.mean(hand_ceiling(base)), abs=1e-6)
    assert len(result["ceiling"]) == 2


def legacy_internal_consistency(repetitions, n_splits=10, random_state=1):
    """The ceiling as brainpipe computed it before vectorising (per split: average each half with
    average_repetitions, align the stimuli, Pearson per neuroid), kept as the reference the fast code must match."""
    if "time_bin" in repetitions.dims:
        per_bin = [legacy_internal_consistency(repetitions.isel(time_bin=i), n_splits, random_state)
                   for i in range(repetitions.sizes["time_bin"])]
        return {"ceiling": [b["ceiling"] for b in per_bin], "error": [b["error"] for b in per_bin],
                "per_split": [b["per_split"] for b in per_bin], "method": "internal_consistency_temporal"}
    repetition = repetitions["repetition"].values
    unique = np.unique(repetition)
    splitter = ShuffleSplit(n_splits=n_splits, train_size=0.5, test_size=None, random_state=random_state)
    per_split = []
    for first_reps, _ in splitter.split(unique):
        half = np.isin(repetition, unique[first_reps])
        first = average_repetitions(repetitions.isel(presentation=np.flatnonzero(half)))
        second = average_repetitions(repetitions.isel(presentation=np.flatnonzero(~half)))
        common = np.intersect1d(first["stimulus_id"].values, second["stimulus_id"].values)
        first = first.isel(presentation=np.searchsorted(first["stimulus_id"].values, common))
        second = second.isel(presentation=np.searchsorted(second["stimulus_id"].values, common))
        r = spearman_brown(pearson_columns(first.values, second.values))
        per_split.append(float(np.nanmedian(r)))
    return {"ceiling": float(np.mean(per_split)), "error": sem(per_split), "per_split": per_split,
            "method": "internal_consistency", "n_splits": n_splits, "random_state": random_state}


def uneven(n_stimuli=40, max_reps=9, n_neuroids=11, seed=0, n_bins=None):
    """Shuffled trials, 1..max_reps repetitions per stimulus (some stimuli then miss from a half), float32,
    values spread over many magnitudes (so float64 sums of float32 trials are not trivially exact)."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, max_reps + 1, size=n_stimuli)
    stim = np.repeat(np.arange(n_stimuli), counts)
    reps = np.concatenate([rng.permutation(max_reps)[:c] for c in counts])
    shape = (len(stim), n_neuroids) + ((n_bins,) if n_bins else ())
    signal = rng.normal(size=(n_stimuli,) + shape[1:])
    values = (signal[stim] + rng.normal(size=shape)) * np.exp(rng.normal(scale=4, size=shape))
    order = rng.permutation(len(stim))
    ids = np.array([f"img{k:04d}" for k in rng.permutation(10 * n_stimuli)[:n_stimuli]])  # unsorted ids
    assembly = repetition_assembly(values[order][:, :, 0] if n_bins else values[order], ids[stim][order], reps[order])
    if n_bins:
        assembly = xr.DataArray(values[order], dims=("presentation", "neuroid", "time_bin"),
                                coords={**assembly.coords, "time_bin_start": ("time_bin", np.arange(n_bins) * 10)})
    return assembly.astype(np.float32)


def assert_same(new, old):
    assert new.keys() == old.keys()
    for key in old:
        if isinstance(old[key], str) or isinstance(old[key], int):
            assert new[key] == old[key]
        else:
            np.testing.assert_allclose(np.asarray(new[key], dtype=float), np.asarray(old[key], dtype=float),
                                       rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_vectorised_matches_legacy_uneven_repetitions(seed):
    assembly = uneven(seed=seed)
    assert_same(internal_consistency(assembly), legacy_internal_consistency(assembly))
    assert_same(internal_consistency(assembly, n_splits=7, random_state=3),
                legacy_internal_consistency(assembly, n_splits=7, random_state=3))


def test_vectorised_matches_legacy_transposed_and_float64():
    assembly = uneven(seed=4)
    assert_same(internal_consistency(assembly.T), legacy_internal_consistency(assembly.T))
    wide = assembly.astype(np.float64) * 1e3
    assert_same(internal_consistency(wide), legacy_internal_consistency(wide))


def test_vectorised_matches_legacy_temporal():
    assembly = uneven(seed=5, n_bins=3)
    new = internal_consistency(assembly)
    assert new["method"] == "internal_consistency_temporal" and len(new["ceiling"]) == 3
    assert_same(new, legacy_internal_consistency(assembly))
    swapped = assembly.transpose("time_bin", "presentation", "neuroid")
    assert_same(internal_consistency(swapped), legacy_internal_consistency(swapped))


def test_vectorised_matches_legacy_with_nans():
    assembly = uneven(seed=6)
    values = assembly.values.copy()
    values[np.random.default_rng(7).random(values.shape) < 0.05] = np.nan
    values[:, 0] = np.nan  # a neuroid with no finite trial: its r is NaN, the median skips it
    with_nans = assembly.copy(data=values)
    with np.errstate(invalid="ignore"):
        assert_same(internal_consistency(with_nans), legacy_internal_consistency(with_nans))


@pytest.mark.parametrize("n", [2, 3, 5, 44, 51])
def test_shuffle_split_train_is_sklearns(n):
    splitter = ShuffleSplit(n_splits=10, train_size=0.5, test_size=None, random_state=1)
    expected = [train for train, _ in splitter.split(np.zeros(n))]
    ours = list(shuffle_split_train(n, 10, 1))
    assert len(ours) == 10
    for a, b in zip(ours, expected):
        np.testing.assert_array_equal(a, b)
