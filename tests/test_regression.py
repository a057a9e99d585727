"""brainpipe.neural.regression against the scikit-learn models Brain-Score uses, on small structured data."""

import warnings

import numpy as np
import pytest
import torch
from sklearn.cross_decomposition import PLSRegression as SkPLS
from sklearn.linear_model import LinearRegression as SkLinear
from sklearn.linear_model import Ridge as SkRidge
from sklearn.linear_model import RidgeCV as SkRidgeCV

from brainpipe.neural.regression import ALPHA_LIST, REGRESSIONS, make_regression, resolve_device
from brainpipe.neural.stats import pearson_columns


def structured(n, p, m, rank=8, seed=0, dtype=np.float64):
    """Low-rank, ReLU-like features (positive mean) and targets driven by the same latents, plus noise."""
    rng = np.random.default_rng(seed)
    latents = rng.standard_normal((n, rank))
    X = np.maximum(latents @ rng.standard_normal((rank, p)) + 0.5 * rng.standard_normal((n, p)), 0) + 0.1
    Y = latents @ rng.standard_normal((rank, m)) + rng.standard_normal((n, m))
    return X.astype(dtype), Y


def split(X, Y, frac=0.9):
    k = int(frac * len(X))
    return X[:k], Y[:k], X[k:], Y[k:]


SKLEARN = {
    "pls": lambda: SkPLS(n_components=25, scale=False),
    "ridge": lambda: SkRidge(alpha=1),
    "ridgecv": lambda: SkRidgeCV(alphas=ALPHA_LIST),
    "linear": lambda: SkLinear(),
}


def test_alpha_list():
    assert len(ALPHA_LIST) == 99
    assert ALPHA_LIST[:8] == (0.01, 0.1, 0.5, 1.0, 10.0, 32.5, 55.0, 77.5)
    assert ALPHA_LIST[8] == 100 and ALPHA_LIST[-1] == 1e7 and 950 in ALPHA_LIST and 9.5e5 in ALPHA_LIST
    assert all(a < b for a, b in zip(ALPHA_LIST, ALPHA_LIST[1:]))


@pytest.mark.parametrize("shape", [(240, 60, 30), (120, 400, 20)], ids=["p<n", "p>n"])
@pytest.mark.parametrize("name", ["pls", "ridge", "ridgecv", "linear"])
def test_matches_sklearn(name, shape):
    X, Y = structured(*shape)
    Xtr, Ytr, Xte, Yte = split(X, Y)
    ours = make_regression(name).fit(Xtr, Ytr)
    ref = SKLEARN[name]().fit(Xtr, Ytr)
    a, b = ours.predict(Xte), ref.predict(Xte)
    assert a.dtype == np.float32 and a.shape == b.shape
    scale = np.abs(b).max()
    assert np.abs(a - b).max() <= 1e-4 * scale
    r_ours, r_ref = pearson_columns(a, Yte), pearson_columns(b, Yte)
    assert np.abs(r_ours - r_ref).max() < 1e-3
    if name == "ridgecv":
        assert ours.alpha_ == ref.alpha_
    if name == "pls":  # p>n (108 × 400) is wide enough for the n-space path
        assert ours.solver_ == ("kernel" if shape[1] > shape[0] else "features")


@pytest.mark.parametrize("name", ["pls", "ridge", "ridgecv"])
def test_float32_input_close_to_sklearn_float64(name):
    """Activations arrive as float32: held-out r must stay within 1e-3 of sklearn's (float64) fit."""
    X, Y = structured(300, 500, 40, seed=3)
    Xtr, Ytr, Xte, Yte = split(X, Y)
    a = make_regression(name).fit(Xtr.astype(np.float32), Ytr).predict(Xte.astype(np.float32))
    b = SKLEARN[name]().fit(Xtr, Ytr).predict(Xte)
    assert np.abs(pearson_columns(a, Yte) - pearson_columns(b, Yte)).max() < 1e-3
    assert np.abs(a - b).max() <= 1e-3 * np.abs(b).max()


@pytest.mark.parametrize("m", [1, 30, 150], ids=["m=1", "m<n", "m>n"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_pls_kernel_path_matches_feature_path(dtype, m):
    """Wide X: the n-space (kernel) path gives the p-space path's predictions and coefficients, and
    sklearn's; m > n exercises the n-space power iteration, m = 1 sklearn's single-target shortcut."""
    X, Y = structured(100, 3000, m, seed=5, dtype=dtype)
    Xtr, Ytr, Xte, Yte = split(X, Y)
    kernel = make_regression("pls", solver="kernel").fit(Xtr, Ytr)
    features = make_regression("pls", solver="features").fit(Xtr, Ytr)
    assert make_regression("pls").fit(Xtr, Ytr).solver_ == "kernel"  # auto picks it for 90 × 3000
    assert kernel.solver_ == "kernel" and features.solver_ == "features"
    assert kernel.n_components_ == features.n_components_ == 25
    a, b = kernel.predict(Xte), features.predict(Xte)
    assert np.abs(a - b).max() <= 1e-5 * np.abs(b).max()
    ck, cf = kernel.coef_.numpy(), features.coef_.numpy()
    assert np.abs(ck - cf).max() <= 1e-8 * np.abs(cf).max()  # ~1e-12 measured: same float64 math
    ref = SKLEARN["pls"]().fit(Xtr.astype(np.float64), Ytr).predict(Xte.astype(np.float64))
    assert np.abs(a - ref).max() <= 1e-4 * np.abs(ref).max()


def test_pls_kernel_path_edge_cases():
    """Kernel path forced on a constant target, the X -> X peer test and a component-count clamp."""
    X, Y = structured(80, 400, 4)
    Y[:, 2] = 7.0
    Xtr, Ytr, Xte, _ = split(X, Y)
    pred = make_regression("pls", solver="kernel").fit(Xtr, Ytr).predict(Xte)
    np.testing.assert_allclose(pred[:, 2], 7.0, rtol=1e-6)
    ref = SKLEARN["pls"]().fit(Xtr, Ytr).predict(Xte)
    np.testing.assert_allclose(pred, ref, rtol=0, atol=1e-4 * np.abs(ref).max())
    rng = np.random.default_rng(0)
    x = (np.arange(750).reshape(30, 25) + rng.standard_normal((30, 25))).astype(np.float32)
    test = np.arange(30) % 10 == 0
    pred = make_regression("pls", solver="kernel").fit(x[~test], x[~test]).predict(x[test])
    np.testing.assert_allclose(pearson_columns(pred.T, x[test].T), 1.0, atol=1e-5)
    np.testing.assert_allclose(pearson_columns(pred, x[test]), 1.0, atol=1e-5)
    X, Y = structured(20, 100, 5)
    model = make_regression("pls", solver="kernel").fit(X, Y)
    assert model.n_components_ == 19 and np.isfinite(model.predict(X)).all()
    with pytest.raises(ValueError, match="unknown PLS solver"):
        make_regression("pls", solver="dual")


def test_ridgecv_alpha_choice_over_a_range_of_noise():
    """Same alpha as sklearn where the optimum moves through the list."""
    for seed, noise in enumerate([0.1, 1.0, 5.0, 20.0]):
        rng = np.random.default_rng(seed)
        X, _ = structured(150, 80, 10, seed=seed)
        Y = X @ rng.standard_normal((80, 10)) * 0.05 + noise * rng.standard_normal((150, 10))
        ours = make_regression("ridgecv").fit(X, Y)
        ref = SkRidgeCV(alphas=ALPHA_LIST).fit(X, Y)
        assert ours.alpha_ == ref.alpha_, (noise, ours.alpha_, ref.alpha_)


def test_neuron_to_neuron():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50, 12))
    X[:, 4] = 3.0  # constant source: r NaN, never chosen
    Y = np.stack([2 * X[:, 7] + 0.1 * rng.standard_normal(50), -X[:, 2] + 5, X[:, 0] + X[:, 1]], axis=1)
    model = make_regression("neuron_to_neuron").fit(X, Y)
    # reference: Brain-Score's nanargmax over per-column Pearson r
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.array([[np.corrcoef(X[:, i], Y[:, j])[0, 1] for j in range(3)] for i in range(12)])
    np.testing.assert_array_equal(model.selected_, np.nanargmax(r, axis=0))
    pred = model.predict(X[:5])
    assert pred.dtype == np.float32
    np.testing.assert_allclose(pred, X[:5, model.selected_].astype(np.float32))


def test_neuron_to_neuron_undefined_r_raises():
    """No defined r -> an error, as Brain-Score's nanargmax (All-NaN slice) raises; never column 0 or a number."""
    from brainpipe.neural.regression import UndefinedCorrelationError

    rng = np.random.default_rng(2)
    X, Y = rng.standard_normal((40, 6)), rng.standard_normal((40, 5))
    Y[:, 1] = 3.0
    Y[:, 4] = -1.25
    with np.errstate(invalid="ignore"), pytest.raises(ValueError, match="All-NaN"):
        np.nanargmax(np.array([np.nan, np.nan]))  # the reference behaviour
    with pytest.raises(UndefinedCorrelationError, match=r"2 target column\(s\) are constant.*\[1, 4\]") as caught:
        make_regression("neuron_to_neuron").fit(X, Y)
    assert caught.value.constant_targets == [1, 4] and not caught.value.source_constant
    with pytest.raises(UndefinedCorrelationError, match="every source column is constant") as caught:
        make_regression("neuron_to_neuron").fit(np.ones((40, 6)), rng.standard_normal((40, 3)))
    assert caught.value.constant_targets == [] and caught.value.source_constant


def test_pls_clamps_n_components():
    X, Y = structured(20, 100, 5)
    model = make_regression("pls", n_components=25).fit(X, Y)
    assert model.n_components_ == 19  # min(25, n - 1, p)
    assert np.isfinite(model.predict(X)).all()
    X, Y = structured(50, 6, 5)
    assert make_regression("pls").fit(X, Y).n_components_ == 6


@pytest.mark.parametrize("name", [name for name in REGRESSIONS if name != "neuron_to_neuron"])
def test_constant_target_column(name):
    X, Y = structured(80, 30, 4)
    Y[:, 2] = 7.0
    Xtr, Ytr, Xte, _ = split(X, Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pred = make_regression(name).fit(Xtr, Ytr).predict(Xte)
    assert np.isfinite(pred).all()
    np.testing.assert_allclose(pred[:, 2], 7.0, rtol=1e-6)
    if name in SKLEARN:  # the other targets are unaffected: still match sklearn
        ref = SKLEARN[name]().fit(Xtr, Ytr).predict(Xte)
        np.testing.assert_allclose(pred, ref, rtol=0, atol=1e-4 * np.abs(ref).max())


@pytest.mark.parametrize("name", REGRESSIONS)
@pytest.mark.parametrize("which", ["X", "Y"])
def test_non_finite_raises(name, which):
    X, Y = structured(40, 10, 3)
    (X if which == "X" else Y)[3, 1] = np.nan
    (X if which == "X" else Y)[5, 2] = np.inf
    with pytest.raises(ValueError, match=rf"{which} contains 2 non-finite"):
        make_regression(name).fit(X, Y)


def test_unknown_name_and_device():
    with pytest.raises(ValueError, match="unknown regression 'plsx'.*pls, ridge, ridgecv, linear, neuron_to_neuron"):
        make_regression("plsx")
    with pytest.raises(ValueError, match="unknown device"):
        resolve_device("tpu")
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") == ("cuda" if torch.cuda.is_available() else "cpu")


def test_brainscore_peer_pls_self_prediction():
    """brainscore_vision/metrics/regression_correlation/test.py: 30x25 arange(750)+N(0,1), pls x->x ≈ 1."""
    rng = np.random.default_rng(0)
    x = (np.arange(750).reshape(30, 25) + rng.standard_normal((30, 25))).astype(np.float32)
    test = np.arange(30) % 10 == 0  # 3 held-out stimuli, one per 10
    pred = make_regression("pls").fit(x[~test], x[~test]).predict(x[test])
    r = pearson_columns(pred.T, x[test].T)  # Pearson per held-out stimulus across its 25 values
    np.testing.assert_allclose(r, 1.0, atol=1e-5)
    r_neuroid = pearson_columns(pred, x[test])  # per neuroid over the 3 test stimuli
    np.testing.assert_allclose(r_neuroid, 1.0, atol=1e-5)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (torch.cuda.is_available() is False)")
@pytest.mark.parametrize("name", REGRESSIONS)
def test_cuda_matches_cpu(name):
    X, Y = structured(200, 300, 20)
    X = X.astype(np.float32)
    Xtr, Ytr, Xte, _ = split(X, Y)
    cpu = make_regression(name, device="cpu").fit(Xtr, Ytr).predict(Xte)
    gpu = make_regression(name, device="cuda").fit(Xtr, Ytr).predict(Xte)
    np.testing.assert_allclose(gpu, cpu, rtol=0, atol=1e-4 * np.abs(cpu).max())


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (torch.cuda.is_available() is False)")
@pytest.mark.parametrize("solver", ["features", "kernel"])
def test_cuda_pls_paths_match_cpu(solver):
    X, Y = structured(100, 3000, 30, seed=5, dtype=np.float32)
    Xtr, Ytr, Xte, _ = split(X, Y)
    cpu = make_regression("pls", solver=solver, device="cpu").fit(Xtr, Ytr).predict(Xte)
    gpu_model = make_regression("pls", solver=solver, device="cuda").fit(Xtr, Ytr)
    assert gpu_model.coef_.is_cuda and gpu_model.solver_ == solver
    np.testing.assert_allclose(gpu_model.predict(Xte), cpu, rtol=0, atol=1e-5 * np.abs(cpu).max())


# ---- fitting from the Gram matrix (gram + fit_predict_gram) ------------------------------------------


def _fold(n, seed=0):
    """A real Brain-Score fold: StratifiedShuffleSplit (train .9) over 8 'object' labels."""
    from brainpipe.neural.splits import cv_splits

    return cv_splits(n, np.arange(n) % 8, n_splits=10, train_size=0.9, random_state=1)[seed]


def test_gram_matches_float64_product():
    from brainpipe.neural.regression import gram

    for dtype, shape in [(np.float32, (70, 300)), (np.float64, (50, 20)), (np.float32, (600, 40))]:
        X, _ = structured(*shape, 3, dtype=dtype)
        X64 = X.astype(np.float64)
        G = gram(X)
        assert G.dtype == np.float64 and G.shape == (len(X), len(X))
        np.testing.assert_array_equal(G, G.T)
        np.testing.assert_allclose(G, X64 @ X64.T, rtol=1e-12, atol=1e-12 * np.abs(G).max())
        Xc = X64 - X64.mean(0)
        np.testing.assert_allclose(gram(X, center=True), Xc @ Xc.T, rtol=0, atol=1e-12 * np.abs(G).max())


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(240, 60, 30), (150, 400, 20)], ids=["p<n", "p>n"])
@pytest.mark.parametrize("name", ["pls", "ridge", "ridgecv", "linear"])
def test_fit_predict_gram_matches_fit_predict(name, shape, dtype):
    """The Gram path equals make_regression(...).fit(X[train]).predict(X[test]) and sklearn's."""
    from brainpipe.neural.regression import fit_predict_gram, gram

    X, Y = structured(*shape, dtype=dtype)
    train, test = _fold(len(X))
    info = {}
    a = fit_predict_gram(name, gram(X), train, test, Y, n_features=X.shape[1], x_dtype=X.dtype, info=info)
    model = make_regression(name).fit(X[train], Y[train])
    b = model.predict(X[test])
    X64 = X.astype(np.float64)
    ref = SKLEARN[name]().fit(X64[train], Y[train])
    c = ref.predict(X64[test])
    assert a.dtype == np.float32 and a.shape == (len(test), Y.shape[1])
    scale = np.abs(c).max()
    # float64 X: all three agree to float32 output rounding. float32 X: ours (make_regression) builds
    # ridge's Gram from float32 products (~1e-6); the Gram path is float64 throughout.
    tol_ours = 1e-6 if dtype == np.float64 else (2e-5 if name == "ridge" else 2e-6)
    assert np.abs(a - b).max() <= tol_ours * scale
    assert np.abs(a - c).max() <= 1e-6 * scale
    if name == "ridgecv":
        assert info["alpha"] == model.alpha_ == ref.alpha_
    if name == "pls":
        assert info["n_components"] == model.n_components_


def test_fit_predict_gram_shift_invariant_and_ridgecv_alpha_range():
    """Any fixed shift of X (gram(center=True), or a large offset) gives the same fold predictions;
    ridgecv picks sklearn's alpha as the optimum moves through the list."""
    from brainpipe.neural.regression import fit_predict_gram, gram

    X, Y = structured(200, 500, 10, seed=2)
    train, test = _fold(len(X), seed=4)
    for name in ("pls", "ridge", "ridgecv", "linear"):
        a = fit_predict_gram(name, gram(X), train, test, Y, n_features=500, x_dtype=np.float64)
        b = fit_predict_gram(name, gram(X, center=True), train, test, Y, n_features=500, x_dtype=np.float64)
        c = fit_predict_gram(name, gram(X + 50.0), train, test, Y, n_features=500, x_dtype=np.float64)
        np.testing.assert_allclose(b, a, rtol=0, atol=1e-6 * np.abs(a).max())
        np.testing.assert_allclose(c, a, rtol=0, atol=1e-5 * np.abs(a).max())
    for seed, noise in enumerate([0.1, 1.0, 5.0, 20.0]):
        rng = np.random.default_rng(seed)
        X, _ = structured(150, 80, 10, seed=seed)
        Y = X @ rng.standard_normal((80, 10)) * 0.05 + noise * rng.standard_normal((150, 10))
        train, test = _fold(150, seed)
        info = {}
        fit_predict_gram("ridgecv", gram(X), train, test, Y, info=info)
        assert info["alpha"] == SkRidgeCV(alphas=ALPHA_LIST).fit(X[train], Y[train]).alpha_, noise


def test_fit_predict_gram_peer_pls_self_prediction_and_errors():
    """brainscore peer test (30x25 X -> X, pls r ≈ 1) through the Gram path; bad input raises."""
    from brainpipe.neural.regression import fit_predict_gram, gram

    rng = np.random.default_rng(0)
    x = (np.arange(750).reshape(30, 25) + rng.standard_normal((30, 25))).astype(np.float32)
    test = np.flatnonzero(np.arange(30) % 10 == 0)
    train = np.flatnonzero(np.arange(30) % 10 != 0)
    pred = fit_predict_gram("pls", gram(x), train, test, x, n_features=25)
    np.testing.assert_allclose(pearson_columns(pred.T, x[test].T), 1.0, atol=1e-5)
    np.testing.assert_allclose(pearson_columns(pred, x[test]), 1.0, atol=1e-5)
    ref = make_regression("pls").fit(x[train], x[train]).predict(x[test])
    np.testing.assert_allclose(pred, ref, rtol=0, atol=1e-5 * np.abs(ref).max())
    G = gram(x)
    with pytest.raises(ValueError, match="supports pls, ridge, ridgecv and linear"):
        fit_predict_gram("neuron_to_neuron", G, train, test, x)
    with pytest.raises(ValueError, match="square"):
        fit_predict_gram("ridge", G[:, :5], train, test, x)
    with pytest.raises(TypeError, match="unexpected ridge parameter"):
        fit_predict_gram("ridge", G, train, test, x, n_components=3)
    Y = x.astype(np.float64)
    Y[train[0], 1] = np.nan
    with pytest.raises(ValueError, match="Y contains 1 non-finite"):
        fit_predict_gram("ridge", G, train, test, Y)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (torch.cuda.is_available() is False)")
@pytest.mark.parametrize("name", ["pls", "ridge", "ridgecv", "linear"])
def test_cuda_gram_path_matches_cpu(name):
    """The Gram computed on a GPU (torch) is the CPU's (numpy), and fits from either agree."""
    from brainpipe.neural.gram_fit import cpu_gram
    from brainpipe.neural.regression import fit_predict_gram, gram

    X, Y = structured(200, 300, 20, dtype=np.float32)
    train, test = _fold(len(X))
    G = gram(X, device="cuda")
    np.testing.assert_allclose(G, cpu_gram(X), rtol=1e-12, atol=1e-12 * np.abs(G).max())
    cpu = fit_predict_gram(name, cpu_gram(X), train, test, Y)
    gpu = fit_predict_gram(name, G, train, test, Y)
    np.testing.assert_allclose(gpu, cpu, rtol=0, atol=1e-5 * np.abs(cpu).max())


def ill_conditioned(n, p, cond, scale, m=8, seed=0, dtype=np.float32, gap_at=None):
    """An (n, p) source whose centred singular values fall log-evenly from ``scale`` to ``scale / cond``
    (rank ``p`` for n > p, ``n // 2`` for n < p, the rest float rounding), column offsets, and targets that
    load equally on every singular direction (so each one carries real signal), plus noise.
    ``gap_at``: no singular value within a factor 1.6 of ``gap_at·scale`` (keeps a rank cutoff unambiguous)."""
    rng = np.random.default_rng(seed)
    rank = p if n > p else n // 2
    U, _ = np.linalg.qr(rng.standard_normal((n, rank)))
    V, _ = np.linalg.qr(rng.standard_normal((p, rank)))
    s = np.logspace(0, -np.log10(cond), rank)
    if gap_at is not None:
        near = (s > gap_at / 1.6) & (s < gap_at * 1.6)
        s[near] = np.where(s[near] >= gap_at, gap_at * 1.6, gap_at / 1.6)
    X = (U * (scale * s)) @ V.T + 0.3 * scale / np.sqrt(n) * rng.standard_normal(p)
    Y = U @ rng.standard_normal((rank, m)) * np.sqrt(n / rank) + 0.1 * rng.standard_normal((n, m))
    return X.astype(dtype), Y


@pytest.mark.parametrize("cond, dtype", [(c, np.float32) for c in (1e2, 1e3, 1e4, 1e5, 1e6)] + [(1e6, np.float64)])
@pytest.mark.parametrize("shape", [(120, 400), (360, 90)], ids=["n<p", "n>p"])
def test_ill_conditioned_sources_match_sklearn(shape, cond, dtype):
    """linear and ridgecv on sources with singular values over 2-6 decades, from the activations and from
    the Gram, against scikit-learn on the same values.

    The rank cutoff is least squares' on X itself: singular values below ``max(n, p)·eps(X's dtype)·s_max``
    count as zero (scikit-learn 1.4-1.8 sets ``cond`` so; 1.9 takes it as ``tol``). The reference runs on a
    float64 copy of the float32 values: the same matrix without float32 LAPACK's own rounding, which
    alone moves r by up to 2e-3 at cond 1e5. ``RidgeCV`` computes in float64 on the same values as well.
    An earlier cutoff compared eigenvalues (= s²) with that tolerance, i.e. dropped ``s < 1e-2·s_max``:
    held-out predictions off by 60-110 % of their scale and r by 0.3-0.8 from cond 1e3 on (both paths
    for linear, the activations path for ridgecv with n > p).
    """
    from brainpipe.neural.regression import fit_predict_gram, gram

    n, p = shape
    perm = np.random.default_rng(1).permutation(n)
    train, test = np.sort(perm[:int(0.9 * n)]), np.sort(perm[int(0.9 * n):])
    cutoff = max(len(train), p) * np.finfo(dtype).eps
    for name, scale in (("linear", 1.0), ("ridgecv", 1e3)):  # large scale: small alphas win, small s matter
        X, Y = ill_conditioned(n, p, cond, scale, dtype=dtype, gap_at=cutoff)
        X64 = X.astype(np.float64)
        if name == "linear":
            s = np.linalg.svd(X64[train] - X64[train].mean(0), compute_uv=False)
            assert not np.any((s > 0.9 * cutoff * s[0]) & (s < 1.1 * cutoff * s[0]))  # no borderline direction
            ref_model = SkLinear(tol=cutoff)
        else:
            ref_model = SkRidgeCV(alphas=ALPHA_LIST)
        ref = ref_model.fit(X64[train], Y[train]).predict(X64[test])
        r_ref = pearson_columns(ref, Y[test])
        model = make_regression(name).fit(X[train], Y[train])
        info = {}
        paths = {"activations": model.predict(X[test]),
                 "gram": fit_predict_gram(name, gram(X), train, test, Y, n_features=p, x_dtype=dtype, info=info)}
        for path, pred in paths.items():
            err = np.abs(pred - ref).max() / np.abs(ref).max()
            dr = np.abs(pearson_columns(pred, Y[test]) - r_ref).max()
            assert err < 1e-3 and dr < 1e-3, (name, path, err, dr)
        if name == "ridgecv":
            assert model.alpha_ == info["alpha"] == ref_model.alpha_


@pytest.mark.parametrize("n", [5, 256, 300, 777])
def test_centred_kernels_in_blocks_are_the_whole_matrix_expressions_bitwise(n):
    """centred_kernels symmetrises and centres in place, block by block (no n×n temporaries): the same bits as
    (K + Kᵀ)/2 and K - (r_i + r_j) + g written over the whole matrix, for an asymmetric G (e.g. a GPU Gram)."""
    from brainpipe.neural.gram_fit import centred_kernels

    rng = np.random.default_rng(n)
    X = rng.standard_normal((n + 40, 7))
    G = X @ X.T + 1e-9 * rng.standard_normal((n + 40, n + 40))  # not symmetric
    order = rng.permutation(n + 40)
    train, test = order[:n], order[n:]
    K = G[np.ix_(train, train)]
    K = (K + K.T) * 0.5
    r = K.mean(axis=0)
    g = r.mean()
    expected = K - ((r[:, None] + r[None, :]) - g)
    Kc, Ks = centred_kernels(G, train, test)
    assert np.array_equal(Kc, expected) and np.array_equal(Kc, Kc.T)
    Gs = G[np.ix_(test, train)]
    assert np.array_equal(Ks, Gs - Gs.mean(axis=1, keepdims=True) - (r - g)[None, :])


@pytest.mark.parametrize("solver", ["kernel", "features"])
@pytest.mark.parametrize("shape", [(50, 400, 6), (50, 15, 6), (40, 300, 70)])
def test_pls_power_method_stops_at_max_iter_like_sklearn(solver, shape):
    """Where the power method does not converge within max_iter, scikit-learn keeps its max_iter-th iterate; one
    step more changed a Li2026 fixture score by 1.4e-5 (tests/test_neural_families.py). max_iter 2 and 3 force
    that case on every component."""
    import warnings

    from sklearn.cross_decomposition import PLSRegression as SkPLS

    from brainpipe.neural.regression import PLSRegression

    n, p, m = shape
    rng = np.random.default_rng(5)
    X = rng.normal(size=(n, p))
    Y = X[:, :4] @ rng.normal(size=(4, m)) + rng.normal(size=(n, m))
    for max_iter in (2, 3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # sklearn's ConvergenceWarning: the case under test
            expected = SkPLS(n_components=8, scale=False, max_iter=max_iter).fit(X, Y).predict(X)
        got = np.asarray(PLSRegression(n_components=8, max_iter=max_iter, solver=solver).fit(X, Y).predict(X))
        np.testing.assert_allclose(got, expected, atol=1e-5)
