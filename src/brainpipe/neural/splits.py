"""Cross-validation splits, as Brain-Score builds them.

Source: brain-score/vision metric_helpers/transformations.py (Split.Defaults: 10 splits, train_size .9,
random_state 1; StratifiedShuffleSplit when a stratification coordinate is given, else ShuffleSplit). Splits are
drawn on the *target* assembly's stimulus order, which is sorted by stimulus_id after repetition averaging.
"""

import math
from collections import Counter
from numbers import Integral

import numpy as np


def cv_splits(n_samples, stratify=None, n_splits=10, train_size=0.9, test_size=None, random_state=1, *,
              benchmark=None, stratified_by=None):
    """Return a list of (train_indices, test_indices), each sorted.

    ``benchmark`` and ``stratified_by`` (the stratification coordinate's name) only label the error raised
    when the stimuli cannot be split so (see ``check_split_sizes``).
    """
    labels = None if stratify is None else np.asarray(stratify)
    check_split_sizes(n_samples, labels, n_splits, train_size, test_size, benchmark=benchmark,
                      stratified_by=stratified_by)
    n_train, n_test = _split_sizes(int(n_samples), train_size, test_size)
    rng = np.random.RandomState(random_state)  # sklearn's check_random_state(int): the legacy generator
    if labels is None:
        splits = _shuffle_split(int(n_samples), n_train, n_test, n_splits, rng)
    else:
        splits = _stratified_shuffle_split(labels, n_train, n_test, n_splits, rng)
    return [(np.sort(train), np.sort(test)) for train, test in splits]


# scikit-learn's ShuffleSplit and StratifiedShuffleSplit (sklearn/model_selection/_split.py, 1.4-1.9: the
# versions Brain-Score's environments use), written out so that a fold job need not import scikit-learn (~1 s):
# the same draws from the same RandomState in the same order, hence the same indices (tests/test_splits.py
# compares them with scikit-learn's own).


def _shuffle_split(n, n_train, n_test, n_splits, rng):
    for _ in range(n_splits):
        permutation = rng.permutation(n)
        yield permutation[n_test:n_test + n_train], permutation[:n_test]


def _approximate_mode(class_counts, n_draws, rng):
    """sklearn.utils.extmath._approximate_mode: per-class draws proportional to the counts, the remainder
    given to the largest fractional parts, ties broken at random."""
    continuous = class_counts / class_counts.sum() * n_draws
    floored = np.floor(continuous)
    need_to_add = int(n_draws - floored.sum())
    if need_to_add > 0:
        remainder = continuous - floored
        for value in np.sort(np.unique(remainder))[::-1]:
            (indices,) = np.where(remainder == value)
            add_now = min(len(indices), need_to_add)
            floored[rng.choice(indices, size=add_now, replace=False)] += 1
            need_to_add -= add_now
            if need_to_add == 0:
                break
    return floored.astype(int)


def _stratified_shuffle_split(labels, n_train, n_test, n_splits, rng):
    if labels.ndim == 2:  # as sklearn: each row's labels joined into one
        labels = np.array([" ".join(row.astype("str")) for row in labels])
    _, label_indices = np.unique(labels, return_inverse=True)
    class_counts = np.bincount(label_indices)
    class_indices = np.split(np.argsort(label_indices, kind="mergesort"), np.cumsum(class_counts)[:-1])
    for _ in range(n_splits):
        n_i = _approximate_mode(class_counts, n_train, rng)
        t_i = _approximate_mode(class_counts - n_i, n_test, rng)
        train, test = [], []
        for i, members in enumerate(class_indices):
            shuffled = members.take(rng.permutation(class_counts[i]), mode="clip")
            train.extend(shuffled[:n_i[i]])
            test.extend(shuffled[n_i[i]:n_i[i] + t_i[i]])
        yield rng.permutation(train), rng.permutation(test)


def _split_sizes(n, train_size, test_size):
    """(n_train, n_test) as scikit-learn's ``_validate_shuffle_split`` derives them (float sizes: the test
    part rounded up, the train part down; a missing size is the rest)."""
    if train_size is None and test_size is None:
        test_size = 0.1
    n_test = None if test_size is None else (
        int(test_size) if isinstance(test_size, Integral) else math.ceil(test_size * n))
    n_train = None if train_size is None else (
        int(train_size) if isinstance(train_size, Integral) else math.floor(train_size * n))
    if n_train is None:
        n_train = n - n_test
    if n_test is None:
        n_test = n - n_train
    return n_train, n_test


def check_split_sizes(n_samples, labels=None, n_splits=10, train_size=0.9, test_size=None, *, benchmark=None,
                      stratified_by=None):
    """Raise one ValueError, in the benchmark's terms, when the splits cannot be drawn.

    Names the benchmark, the ``splits`` and ``train_size`` settings, the number of stimuli per stratum and
    what to change, where scikit-learn would say e.g. "The least populated class in y has only 1 member".
    The conditions are scikit-learn's (StratifiedShuffleSplit / ShuffleSplit): both parts non-empty and, when
    stratified, every stratum with at least 2 stimuli and both parts at least one stimulus per stratum.
    """
    n = int(n_samples)
    where = f"{benchmark}: " if benchmark else ""
    test_only = train_size is None
    setting = (f"test_size={test_size} (Brain-Score's test-only split)" if test_only
               else f"train_size={train_size}")
    for name, size in (("train_size", train_size), ("test_size", test_size)):
        if isinstance(size, float) and not 0 < size < 1:
            raise ValueError(f"{where}{name}={size} must lie strictly between 0 and 1 (a fraction of the stimuli); "
                             f"set benchmark_settings.{benchmark or '<benchmark>'}.{name} accordingly")
    n_train, n_test = _split_sizes(n, train_size, test_size)
    head = f"{where}cannot draw splits={n_splits} train/test splits with {setting} from {n} stimuli"
    if labels is None:
        if n_train < 1 or n_test < 1 or n_train + n_test > n:
            raise ValueError(f"{head}: that leaves {n_train} train and {n_test} test stimuli. "
                             f"{_advice(benchmark, test_only)}; each part needs at least one stimulus")
        return
    counts = Counter(np.asarray(labels).astype(str).tolist())
    k = len(counts)
    by = f" of {stratified_by!r}" if stratified_by else ""
    listing = ", ".join(f"{label}: {count}" for label, count in sorted(counts.items(), key=lambda c: (c[1], c[0]))[:12])
    if k > 12:
        listing += f", ... ({k} strata)"
    head = f"{head} stratified by {k} strata{by} (stimuli per stratum, fewest first: {listing})"
    singles = sorted(label for label, count in counts.items() if count < 2)
    if singles:
        raise ValueError(f"{head}: {len(singles)} stratum/strata have a single stimulus ({', '.join(singles[:12])}); "
                         f"a stratified split needs at least 2 stimuli in every stratum. Add stimuli to these "
                         f"strata or remove them from the stimulus set and the recordings")
    problems = []
    if n_train < k:
        problems.append(f"{n_train} train stimuli for {k} strata")
    if n_test < k:
        problems.append(f"{n_test} test stimuli for {k} strata")
    if n_train + n_test > n:
        problems.append(f"{n_train} + {n_test} stimuli requested of {n}")
    if problems:
        # any train_size t with k <= floor(t n) <= n - k works (both parts get every stratum)
        low, high = k / n, (n - k) / n
        low, high = math.ceil(low * 1000) / 1000, math.floor(high * 1000) / 1000
        if test_only or low > high:  # (with >= 2 stimuli per stratum, n >= 2k: some train_size fits)
            fix = "use more stimuli"
        else:
            fix = (f"set benchmark_settings.{benchmark or '<benchmark>'}.train_size between {low} and {high} "
                   f"(or use more stimuli)")
        raise ValueError(f"{head}: {'; '.join(problems)}, but each part needs one stimulus per stratum. {fix[0].upper()}{fix[1:]}")


def _advice(benchmark, test_only):
    if test_only:
        return "Use more stimuli"
    return f"Change benchmark_settings.{benchmark or '<benchmark>'}.train_size (or use more stimuli)"


def exclude_shared_train(train, test, keys, *, benchmark=None, coordinate="key"):
    """The train indices without those whose key (e.g. a background id) also occurs in the test part, key 0
    excepted (0: no shared key; brain-score/vision brainscore_vision/benchmarks/igustibagus2024/
    domain_transfer_neural.py ``_preprocess_indices``). ``keys``: one per index position, read as Brain-Score
    reads them (see :func:`brainpipe.neural.metrics.fold_indices`).

    Brain-Score fails when the two parts share no non-zero key (it then indexes the train indices with a tuple)
    and asserts that afterwards the parts share exactly key 0 (each part holding a key-0 stimulus): both raise
    here, naming the benchmark.
    """
    keys = np.asarray(keys)
    train = np.asarray(train)
    where = f"{benchmark}: " if benchmark else ""
    shared = (set(keys[train].tolist()) & set(keys[test].tolist())) - {0}
    if not shared:
        raise ValueError(f"{where}the train and test stimuli of a split share no non-zero {coordinate}; Brain-Score "
                         f"fails on such a split (it indexes the train indices with a tuple)")
    kept = train[~np.isin(keys[train], list(shared))]
    if set(keys[kept].tolist()) & set(keys[test].tolist()) != {0}:
        raise ValueError(f"{where}after removing the train stimuli sharing a {coordinate} with the test stimuli, "
                         f"the two parts must share exactly {coordinate} 0 (Brain-Score asserts it)")
    return kept
