"""Representational-similarity metrics (RDM, linear CKA) and their split-half ceilings.

Definitions follow Brain-Score (brain-score/vision, HEAD c642dbe):

* RDM: ``brainscore_vision/metrics/rdm/metric.py`` -- ``RDM`` is ``1 - np.corrcoef`` (Pearson between stimuli across
  neuroids/features); ``RDMSimilarity`` is the Spearman r of the upper triangles (``k=1``).
* CKA: ``brainscore_vision/metrics/cka/metric.py`` -- ``cka`` is the unbiased linear CKA
  (``unbiased_linear_CKA``: Song et al. unbiased HSIC, 0 if ``hsic_xx * hsic_yy <= 0``, ``eps=1e-12`` added to the
  denominator); ``cka_biased`` is the classic linear CKA with centred Gram matrices (``linear_CKA``).
* ``rdm_cv`` / ``cka_cv``: ``TestOnlyCrossValidation(test_size=.9)`` from
  ``brainscore_vision/metric_helpers/transformations.py`` -- ``StratifiedShuffleSplit(n_splits=10, train_size=None,
  test_size=.9, random_state=1)`` on ``object_name``; the metric sees only the test part of each split; mean over
  splits, error = SEM (ddof 0).
* Ceiling: ``brainscore_vision/metrics/internal_consistency/ceiling.py`` (``_SplitHalvesConsistency``) -- split the
  repetitions in halves with ``ShuffleSplit(10, train_size=.5, random_state=1)`` over the unique repetition values,
  average each half per stimulus, compare the halves, Spearman-Brown (n=2) per split, mean over splits.
  Brain-Score does this with Pearson per neuroid; here the comparison is the representational similarity itself.

Memory: model activations can be 3200 stimuli x 64896 features in float32 (830 MB). Nothing here makes a dense
float64 copy of such an array: wide inputs (features > stimuli) are reduced to an n x n float64 Gram matrix one
column block at a time; narrow inputs (features <= stimuli) are kept as centred float64 features, which is then
no larger than the Gram matrix would be.
"""

import numpy as np
import scipy.sparse
import scipy.stats
from scipy.linalg.blas import dsyrk
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit

from .stats import sem, spearman_brown

REPRESENTATIONAL = ("rdm", "rdm_cv", "cka", "cka_biased", "cka_cv")

# Names `similarity` understands, and the one each workflow metric name reduces to (the *_cv variants use the
# same similarity, applied to the test part of each split).
SIMILARITIES = ("rdm", "cka", "cka_biased")
BASE_SIMILARITY = {"rdm": "rdm", "rdm_cv": "rdm", "cka": "cka", "cka_biased": "cka_biased", "cka_cv": "cka"}

# Brain-Score's unbiased_linear_CKA adds this to sqrt(hsic_xx * hsic_yy). It makes the score slightly
# scale-dependent for data whose HSIC is itself near 1e-12; kept for parity.
_CKA_EPS = 1e-12

# Column blocks for the Gram matrix hold about this many float64 values (64 MiB), whatever the stimulus count.
_BLOCK_VALUES = 8 * 2**20


# ----------------------------------------------------------------------------------------------------------------
# input checks


def _as_2d(X, name):
    """Return ``X`` as a 2-D floating array without copying float32/float64 input."""
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_stimuli, n_features), got shape {X.shape}")
    if not np.issubdtype(X.dtype, np.floating):
        # integer/bool input is small in practice; float64 keeps it exact
        X = X.astype(np.float64)
    return X


def _check_finite(X, name):
    """Raise ValueError naming ``name`` and the count if ``X`` holds NaN or inf.

    Counts in row blocks so a 3200 x 64896 array never gets a full boolean mask.
    """
    if X.size == 0:
        raise ValueError(f"{name} is empty (shape {X.shape})")
    rows = max(1, _BLOCK_VALUES // max(1, X.shape[1]))
    bad = 0
    for start in range(0, X.shape[0], rows):
        bad += int(np.count_nonzero(~np.isfinite(X[start:start + rows])))
    if bad:
        raise ValueError(f"{name} contains {bad} non-finite value(s) (NaN or inf) out of {X.size}; "
                         f"representational metrics need finite inputs")


def _prepare(X, name):
    X = _as_2d(X, name)
    _check_finite(X, name)
    return X


# ----------------------------------------------------------------------------------------------------------------
# Gram matrices


def _gram(X, subtract=None):
    """Gram matrix ``B @ B.T`` in float64 of ``B = X - subtract``, built one column block at a time.

    Parameters
    ----------
    X : array of shape (n, d), float32 or float64
    subtract : None, "columns" or array of shape (n,)
        None: no centring. "columns": subtract each column's mean (feature centring, as CKA's ``H K H``).
        array: subtract this value from each row (row centring, as ``np.corrcoef`` between rows).

    Returns
    -------
    G : array of shape (n, n), float64, symmetric
    """
    n, d = X.shape
    block = max(1, _BLOCK_VALUES // max(1, n))
    G = np.zeros((n, n), dtype=np.float64, order="F")
    for start in range(0, d, block):
        # one float64 block at a time: the only float64 copy of X that ever exists is (n, block)
        B = np.array(X[:, start:start + block], dtype=np.float64, order="F")
        if isinstance(subtract, str):
            B -= B.mean(axis=0, keepdims=True)
        elif subtract is not None:
            B -= subtract[:, None]
        # dsyrk fills only the upper triangle: half the flops of B @ B.T
        G = dsyrk(1.0, B, beta=1.0, c=G, trans=0, lower=0, overwrite_c=1)
    upper = np.triu(G)
    return upper + np.triu(upper, 1).T


class _LinearKernel:
    """A linear kernel ``K = Xc Xc^T`` of column-centred data, held in the cheaper of two forms.

    ``gram`` (n, n) when the data have more features than stimuli, else ``features`` (n, d) float64, centred.
    Both CKA estimators are invariant to centring the features (the biased one centres by construction, the
    Song et al. U-statistic is invariant to adding a constant vector to every row), so working with centred
    data changes no result and keeps the sums well conditioned.
    """

    def __init__(self, gram=None, features=None):
        self.gram = gram
        self.features = features
        if gram is not None:
            self.n = gram.shape[0]
            self.diag = np.diag(gram).copy()
            self.rowsum = gram.sum(axis=1)
        else:
            self.n = features.shape[0]
            self.diag = np.einsum("ij,ij->i", features, features)
            self.rowsum = features @ features.sum(axis=0)

    @classmethod
    def from_data(cls, X):
        """X : array of shape (n_stimuli, n_features), already checked finite."""
        n, d = X.shape
        if d > n:
            return cls(gram=_gram(X, subtract="columns"))
        features = np.array(X, dtype=np.float64)
        features -= features.mean(axis=0, keepdims=True)
        return cls(features=features)

    def subset(self, index):
        """Kernel of the rows ``index``, re-centred on those rows (what computing it from ``X[index]`` gives)."""
        index = np.asarray(index)
        if self.gram is not None:
            G = self.gram[np.ix_(index, index)]
            # H G H for the subset: remove column means, then row means (the grand mean goes with them)
            G -= G.mean(axis=0, keepdims=True)
            G -= G.mean(axis=1, keepdims=True)
            return _LinearKernel(gram=(G + G.T) / 2)
        F = self.features[index]
        F -= F.mean(axis=0, keepdims=True)
        return _LinearKernel(features=F)


def _trace_product(a, b):
    """``tr(K_a K_b) = sum_ij K_a[i, j] K_b[i, j]`` for two _LinearKernel, choosing the cheapest product."""
    if a.gram is not None and b.gram is not None:
        return float(np.vdot(a.gram, b.gram))
    if a.gram is not None or b.gram is not None:
        gram, feats = (a.gram, b.features) if a.gram is not None else (b.gram, a.features)
        # tr(G F F^T) = sum((G F) * F): n^2 d instead of forming F F^T
        return float(np.vdot(gram @ feats, feats))
    # tr(Xc Xc^T Yc Yc^T) = ||Xc^T Yc||_F^2: n dx dy, with dx, dy <= n
    cross = a.features.T @ b.features
    return float(np.vdot(cross, cross))


def _hsic(a, b, unbiased):
    """HSIC of two linear kernels, up to a factor shared by all three HSICs of one CKA.

    Biased: ``tr(K_c L_c)`` with centred Grams (Brain-Score ``linear_HSIC`` sums ``centering(K) * centering(L)``).
    Unbiased (Song et al. 2012, eq. 5; Brain-Score ``unbiased_linear_HSIC``), with ``K~``, ``L~`` the Grams with
    zeroed diagonals::

        [tr(K~ L~) + (1'K~1)(1'L~1) / ((n-1)(n-2)) - 2/(n-2) 1'K~L~1] / (n(n-3))
    """
    trace = _trace_product(a, b)
    if not unbiased:
        return trace
    n = a.n
    # diagonal-free quantities from the full ones: K~ = K - diag(k)
    term1 = trace - float(a.diag @ b.diag)
    ka = a.rowsum - a.diag
    kb = b.rowsum - b.diag
    term2 = float(ka.sum() * kb.sum())
    term3 = float(ka @ kb)
    return (term1 + term2 / ((n - 1.0) * (n - 2.0)) - 2.0 * term3 / (n - 2.0)) / (n * (n - 3.0))


def _cka_from_kernels(kx, ky, unbiased):
    hsic_xy = _hsic(kx, ky, unbiased)
    hsic_xx = _hsic(kx, kx, unbiased)
    hsic_yy = _hsic(ky, ky, unbiased)
    product = hsic_xx * hsic_yy
    if unbiased:
        # Brain-Score unbiased_linear_CKA: a non-positive self-HSIC product (possible for the unbiased estimator
        # on tiny or degenerate data) scores 0 rather than NaN
        if product <= 0:
            return 0.0
        return float(hsic_xy / (np.sqrt(product) + _CKA_EPS))
    if product <= 0:
        # biased self-HSIC is a sum of squares: 0 only when one side does not vary across stimuli at all
        which = "source" if hsic_xx <= 0 else "target"
        raise ValueError(f"biased CKA undefined: the {which} has zero variance across stimuli")
    return float(hsic_xy / np.sqrt(product))


# ----------------------------------------------------------------------------------------------------------------
# RDM


def _rdm(X, name):
    X = _prepare(X, name)
    n, d = X.shape
    if n < 2:
        raise ValueError(f"{name}: an RDM needs at least 2 stimuli, got {n}")
    # exact test for constant rows; a variance computed in floating point could come out 1e-20 instead of 0
    constant = np.flatnonzero(X.max(axis=1) == X.min(axis=1))
    if constant.size:
        raise ValueError(f"{name}: stimulus index {constant[:10].tolist()}{' ...' if constant.size > 10 else ''} "
                         f"({constant.size} in all) has the same value in every feature; its correlation with "
                         f"other stimuli (np.corrcoef) is undefined (NaN)")
    # Pearson between rows = Gram of row-centred rows, normalised; same as np.corrcoef(X) without its dense
    # float64 copy of X
    row_means = X.mean(axis=1, dtype=np.float64)
    G = _gram(X, subtract=row_means)
    scale = np.sqrt(np.diag(G))
    correlation = G / scale[:, None] / scale[None, :]
    np.clip(correlation, -1.0, 1.0, out=correlation)  # as np.corrcoef does
    dissimilarity = 1.0 - correlation
    # a stimulus is at distance 0 from itself; rounding would leave ~1e-16 there
    np.fill_diagonal(dissimilarity, 0.0)
    return dissimilarity


def rdm(X):
    """Representational dissimilarity matrix, ``1 - np.corrcoef(X)``.

    Brain-Score ``brainscore_vision/metrics/rdm/metric.py::RDM``: Pearson correlation between stimuli across
    features (neuroids), subtracted from 1.

    Parameters
    ----------
    X : array of shape (n_stimuli, n_features)
        float32 input is not copied to a dense float64 array; the correlation is accumulated in float64 over
        column blocks.

    Returns
    -------
    rdm : array of shape (n_stimuli, n_stimuli), float64
        Symmetric, values in [0, 2], zero diagonal.

    Raises
    ------
    ValueError
        If X has NaN/inf, or a stimulus (row) is constant across features (its correlation is undefined).
    """
    return _rdm(X, "X")


def rdm_similarity(rdm_a, rdm_b):
    """Spearman r between the upper triangles (``k=1``) of two RDMs.

    Brain-Score ``brainscore_vision/metrics/rdm/metric.py::RDMSimilarity``. Only the strict upper triangle is
    read, so the matrices need not be symmetric (Brain-Score's own tests use non-symmetric random matrices).

    Parameters
    ----------
    rdm_a, rdm_b : arrays of shape (n_stimuli, n_stimuli), rows/columns in the same stimulus order

    Returns
    -------
    float
        Spearman r; NaN (with scipy's warning) if either triangle is constant.
    """
    rdm_a = np.asarray(rdm_a, dtype=np.float64)
    rdm_b = np.asarray(rdm_b, dtype=np.float64)
    for name, matrix in (("rdm_a", rdm_a), ("rdm_b", rdm_b)):
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"{name} must be a square matrix, got shape {matrix.shape}")
    if rdm_a.shape != rdm_b.shape:
        raise ValueError(f"RDMs differ in shape: {rdm_a.shape} vs {rdm_b.shape}")
    if rdm_a.shape[0] < 3:
        raise ValueError(f"RDM similarity needs at least 3 stimuli (2 distances), got {rdm_a.shape[0]}")
    upper = np.triu_indices(rdm_a.shape[0], k=1)
    triangle_a, triangle_b = rdm_a[upper], rdm_b[upper]
    _check_finite(triangle_a[None, :], "rdm_a (upper triangle)")
    _check_finite(triangle_b[None, :], "rdm_b (upper triangle)")
    return float(scipy.stats.spearmanr(triangle_a, triangle_b).statistic)


def subject_rdm_similarity(X, Y, subjects):
    """{subject: Spearman r between the RDM of ``X`` and the RDM of the subject's columns of ``Y``}.

    Brain-Score's ``RSABenchmark`` (brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py): one
    neural RDM per subject (``np.unique`` order), each compared with the model's RDM; the raw score is their mean.
    """
    subjects = np.asarray(subjects).astype(str)
    model = rdm(X)
    return {str(s): rdm_similarity(model, rdm(np.asarray(Y)[:, subjects == s])) for s in np.unique(subjects)}


def subject_rdm_ceiling(Y, subjects):
    """Inter-subject RDM consistency, Brain-Score's ``RSACeiling`` (brain-score/vision
    brainscore_vision/metrics/rsa_ceiling/ceiling.py): each subject's RDM against the mean RDM of *all* subjects
    (itself included: the Nili et al. 2014 upper bound), Spearman over the upper triangles, averaged over subjects.
    Returns {"ceiling", "lower_bound_loo", "per_subject"}; the leave-one-out mean (each subject against the mean of
    the others) is Brain-Score's ``lower_bound_loo`` attribute."""
    subjects = np.asarray(subjects).astype(str)
    names = np.unique(subjects)
    stack = np.array([rdm(np.asarray(Y)[:, subjects == s]) for s in names])
    mean_all = stack.mean(axis=0)
    upper, loo = [], []
    for i in range(len(names)):
        upper.append(rdm_similarity(stack[i], mean_all))
        if len(names) > 1:
            loo.append(rdm_similarity(stack[i], np.delete(stack, i, axis=0).mean(axis=0)))
    return {"ceiling": float(np.mean(upper)), "lower_bound_loo": float(np.mean(loo)) if loo else float("nan"),
            "per_subject": dict(zip(names.tolist(), upper))}


# ----------------------------------------------------------------------------------------------------------------
# CKA


def _check_rows(X, Y):
    if X.shape[0] != Y.shape[0]:
        raise ValueError(f"source and target need the same stimuli (rows): {X.shape[0]} vs {Y.shape[0]}")


def _check_cka_size(n, unbiased):
    # the unbiased estimator divides by n(n-3) and (n-1)(n-2); Brain-Score raises below 4 samples too
    minimum = 4 if unbiased else 2
    if n < minimum:
        raise ValueError(f"{'unbiased' if unbiased else 'biased'} CKA needs at least {minimum} stimuli, got {n}")


def cka(X, Y, unbiased=True):
    """Linear centred kernel alignment between two representations of the same stimuli.

    Brain-Score ``brainscore_vision/metrics/cka/metric.py``: ``unbiased_linear_CKA`` (default) or ``linear_CKA``.
    Kornblith et al. 2019 (http://proceedings.mlr.press/v97/kornblith19a); unbiased HSIC: Song et al. 2012
    (https://arxiv.org/abs/0704.2668), Murphy et al. 2024 (https://arxiv.org/abs/2405.01012).

    Parameters
    ----------
    X : array of shape (n_stimuli, n_source_features)
        Source (model) representation.
    Y : array of shape (n_stimuli, n_target_features)
        Target (neural) representation, rows in the same stimulus order as X.
    unbiased : bool
        True: ``HSIC_1(X, Y) / (sqrt(HSIC_1(X, X) HSIC_1(Y, Y)) + 1e-12)``, and 0 if the self-HSIC product is
        <= 0. False: ``tr(K_c L_c) / sqrt(tr(K_c K_c) tr(L_c L_c))`` with ``K_c = H X X^T H``, ``H = I - 11^T/n``.

    Returns
    -------
    float

    Notes
    -----
    Computed from n x n float64 Gram matrices for inputs wider than tall, else from feature cross-products,
    so 3200 x 64896 float32 activations need about 80 MB of float64 Gram, not a 1.6 GB float64 copy.
    The biased estimator goes to ~1 for independent wide random data (Brain-Score's motivation for the unbiased
    default).

    Raises
    ------
    ValueError
        NaN/inf in either input (named source/target), mismatched rows, too few stimuli (unbiased: 4; biased: 2),
        or, for the biased estimator, an input with no variance across stimuli.
    """
    X = _prepare(X, "source (X)")
    Y = _prepare(Y, "target (Y)")
    _check_rows(X, Y)
    _check_cka_size(X.shape[0], unbiased)
    return _cka_from_kernels(_LinearKernel.from_data(X), _LinearKernel.from_data(Y), unbiased)


# ----------------------------------------------------------------------------------------------------------------
# dispatch


def _base_name(name, allowed):
    if name not in allowed:
        raise ValueError(f"unknown representational similarity {name!r}; expected one of {tuple(allowed)}")
    return BASE_SIMILARITY[name]


def similarity(name, X, Y):
    """Representational similarity between a source and a target over the same stimuli.

    Parameters
    ----------
    name : {"rdm", "cka", "cka_biased"}
        For the workflow's ``rdm_cv`` / ``cka_cv`` use :func:`cross_validated_similarity`.
    X : array of shape (n_stimuli, n_source_features)
        Source (model).
    Y : array of shape (n_stimuli, n_target_features)
        Target (neural), rows aligned with X (same stimulus order).

    Returns
    -------
    float
        rdm: Spearman r of the two RDMs' upper triangles; cka: unbiased linear CKA; cka_biased: biased linear CKA.
    """
    if name not in SIMILARITIES:
        hint = " (use cross_validated_similarity for *_cv)" if name in REPRESENTATIONAL else ""
        raise ValueError(f"unknown similarity {name!r}; expected one of {SIMILARITIES}{hint}")
    if name == "rdm":
        X = _prepare(X, "source (X)")
        Y = _prepare(Y, "target (Y)")
        _check_rows(X, Y)
        return rdm_similarity(_rdm(X, "source (X)"), _rdm(Y, "target (Y)"))
    return cka(X, Y, unbiased=(name == "cka"))


# ----------------------------------------------------------------------------------------------------------------
# test-only cross-validation


def test_only_splits(object_names, n_splits=10, test_size=0.9, random_state=1, n_samples=None):
    """Test index sets of Brain-Score's ``TestOnlyCrossValidation`` (test_size .9: each split scores 90%).

    ``brainscore_vision/metric_helpers/transformations.py``: ``Split`` builds
    ``StratifiedShuffleSplit(n_splits, train_size=None, test_size=test_size, random_state)`` with ``y = object_name``
    in the target's (stimulus_id-sorted) order, or ``ShuffleSplit`` without a stratification coord; only the test
    part reaches the metric.

    Parameters
    ----------
    object_names : array of shape (n_stimuli,) or None
        Stratification labels in row order. None: unstratified ``ShuffleSplit``; then ``n_samples`` is required.
    n_splits, test_size, random_state
        Brain-Score defaults for rdm_cv/cka_cv.
    n_samples : int, optional
        Number of stimuli when ``object_names`` is None (ignored otherwise).

    Returns
    -------
    list of n_splits int arrays, each sorted ascending
        Row indices of each split's test set.
    """
    if object_names is None:
        if n_samples is None:
            raise ValueError("test_only_splits needs n_samples when object_names is None")
        splitter = ShuffleSplit(n_splits=n_splits, train_size=None, test_size=test_size, random_state=random_state)
        splits = splitter.split(np.zeros(int(n_samples)))
    else:
        object_names = np.asarray(object_names)
        splitter = StratifiedShuffleSplit(n_splits=n_splits, train_size=None, test_size=test_size,
                                          random_state=random_state)
        splits = splitter.split(np.zeros(len(object_names)), object_names)
    return [np.sort(test) for _, test in splits]


# pytest collects module-level callables named test_*; this one is library code, not a test
test_only_splits.__test__ = False


def cross_validated_similarity(name, X, Y, object_names, n_splits=10, test_size=0.9, random_state=1):
    """``rdm_cv`` / ``cka_cv``: the similarity on each test-only split's stimuli, mean over splits.

    Brain-Score ``RDMCrossValidated`` / ``CKACrossValidated`` (``TestOnlyCrossValidation(test_size=.9)``), with
    ``Split.aggregate``: mean over splits, error = SEM with ddof 0.

    Parameters
    ----------
    name : {"rdm", "cka", "cka_biased", "rdm_cv", "cka_cv"}
        ``rdm_cv`` is read as ``rdm`` and ``cka_cv`` as ``cka``.
    X : array of shape (n_stimuli, n_source_features)
        Source (model).
    Y : array of shape (n_stimuli, n_target_features)
        Target (neural), rows aligned with X and with ``object_names``.
    object_names : array of shape (n_stimuli,) or None
        Stratification labels (Brain-Score default ``object_name``); None for unstratified splits.
    n_splits, test_size, random_state
        Passed to :func:`test_only_splits`.

    Returns
    -------
    dict
        ``{"score": float, "error": float, "per_split": list of n_splits floats}``.

    Notes
    -----
    Each split's value equals ``similarity(name, X[test], Y[test])``, but the expensive part is done once: an RDM
    entry depends only on its two stimuli, so a split's RDM is a sub-matrix of the full RDM; a split's centred Gram
    matrix is the full Gram's sub-matrix re-centred. So one pass over the 3200 x 64896 activations, not ten.
    """
    base = _base_name(name, BASE_SIMILARITY)
    X = _prepare(X, "source (X)")
    Y = _prepare(Y, "target (Y)")
    _check_rows(X, Y)
    if object_names is not None and len(object_names) != X.shape[0]:
        raise ValueError(f"object_names has {len(object_names)} entries for {X.shape[0]} stimuli")
    splits = test_only_splits(object_names, n_splits=n_splits, test_size=test_size, random_state=random_state,
                              n_samples=X.shape[0])
    per_split = []
    if base == "rdm":
        rdm_x, rdm_y = _rdm(X, "source (X)"), _rdm(Y, "target (Y)")
        for test in splits:
            block = np.ix_(test, test)
            per_split.append(rdm_similarity(rdm_x[block], rdm_y[block]))
    else:
        unbiased = base == "cka"
        _check_cka_size(min(len(test) for test in splits), unbiased)
        kernel_x, kernel_y = _LinearKernel.from_data(X), _LinearKernel.from_data(Y)
        for test in splits:
            per_split.append(_cka_from_kernels(kernel_x.subset(test), kernel_y.subset(test), unbiased))
    return {"score": float(np.mean(per_split)), "error": sem(per_split), "per_split": per_split}


# ----------------------------------------------------------------------------------------------------------------
# ceiling


def _average_by_stimulus(data, stimulus_index):
    """Mean of the rows of each stimulus. Returns (stimuli sorted ascending, array (n_stimuli, n_neuroids))."""
    stimuli, inverse = np.unique(stimulus_index, return_inverse=True)
    counts = np.bincount(inverse, minlength=len(stimuli)).astype(np.float64)
    # a sparse (n_stimuli x n_presentations) averaging matrix: one pass, no Python loop over stimuli
    averaging = scipy.sparse.csr_matrix((1.0 / counts[inverse], (inverse, np.arange(len(inverse)))),
                                        shape=(len(stimuli), len(inverse)))
    return stimuli, np.asarray(averaging @ data)


def representational_ceiling(name, data, repetition, stimulus_index, n_splits=10, random_state=1):
    """Split-half consistency of the neural data under a representational similarity, Spearman-Brown corrected.

    As Brain-Score's internal-consistency ceiling (``brainscore_vision/metrics/internal_consistency/ceiling.py``,
    ``_SplitHalvesConsistency`` with ``CrossValidationSingle(splits=10, train_size=.5, split_coord='repetition',
    stratification_coord=None, unique_split_values=True, random_state=1)``), but the two halves are compared with
    the representational similarity instead of Pearson r per neuroid, so there is no median over neuroids.

    For each of the ``n_splits`` splits of ``ShuffleSplit(n_splits, train_size=0.5, random_state)`` over
    ``np.unique(repetition)`` (sorted): half 1 = presentations whose repetition is in the train part, half 2 = the
    rest; each half is averaged per stimulus (rows ordered by stimulus index); r = ``similarity(name, half1,
    half2)``; the split's value is ``2r / (1 + r)``.

    Parameters
    ----------
    name : {"rdm", "rdm_cv", "cka", "cka_biased", "cka_cv"}
        ``rdm_cv``/``cka_cv`` use ``rdm``/``cka`` on all stimuli (the ceiling is not itself cross-validated over
        stimuli, as in Brain-Score).
    data : array of shape (n_presentations, n_neuroids)
        One row per presentation (stimulus x repetition), not averaged.
    repetition : array of shape (n_presentations,)
        Repetition label of each row; at least 2 distinct values.
    stimulus_index : array of shape (n_presentations,)
        Stimulus of each row (any sortable labels); every stimulus must occur in both halves of every split.
    n_splits, random_state
        Brain-Score defaults 10 and 1.

    Returns
    -------
    dict
        ``{"ceiling": mean over splits, "error": SEM over splits (ddof 0), "per_split": list of floats}``.
    """
    base = _base_name(name, BASE_SIMILARITY)
    data = _prepare(data, "data")
    repetition = np.asarray(repetition)
    stimulus_index = np.asarray(stimulus_index)
    if repetition.shape != (data.shape[0],) or stimulus_index.shape != (data.shape[0],):
        raise ValueError(f"repetition {repetition.shape} and stimulus_index {stimulus_index.shape} need one entry "
                         f"per data row ({data.shape[0]})")
    repetitions = np.unique(repetition)  # sorted, as Brain-Score's unique_split_values=True
    if len(repetitions) < 2:
        raise ValueError(f"a split-half ceiling needs at least 2 distinct repetitions, got {len(repetitions)}")
    splitter = ShuffleSplit(n_splits=n_splits, train_size=0.5, test_size=None, random_state=random_state)
    per_split = []
    for train, _ in splitter.split(np.zeros(len(repetitions))):
        in_half1 = np.isin(repetition, repetitions[train])
        stimuli1, half1 = _average_by_stimulus(data[in_half1], stimulus_index[in_half1])
        stimuli2, half2 = _average_by_stimulus(data[~in_half1], stimulus_index[~in_half1])
        if len(stimuli1) != len(stimuli2) or np.any(stimuli1 != stimuli2):
            missing = np.setxor1d(stimuli1, stimuli2)
            raise ValueError(f"stimuli {missing[:10].tolist()} ({len(missing)} in all) are missing from one half "
                             f"of a repetition split; every stimulus needs presentations in both halves")
        r = similarity(base, half1, half2)
        per_split.append(float(spearman_brown(r, n=2)))
    return {"ceiling": float(np.mean(per_split)), "error": sem(per_split), "per_split": per_split}
