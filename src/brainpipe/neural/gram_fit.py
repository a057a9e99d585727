"""Regression fits from a stimulus Gram matrix, in numpy: what a fold job of ``pls``, ``ridge``, ``ridgecv`` or
``linear`` computes (Brain-Score's estimators: ``brain-score/vision brainscore_vision/metrics/regression_correlation/
metric.py``, ALPHA_LIST from ``brainscore_vision/metrics/ridgecv_split/metric.py``).

Why numpy and not torch: a fold fit from an n × n Gram (n ≈ 3000) is a few BLAS calls and one eigendecomposition
or a 25-step PLS, well under a second on one core, while importing torch alone takes ~2 s. So fold jobs import
neither torch nor scikit-learn (tests/test_imports.py checks it); ``regression.py`` keeps torch for the passes over
the activations themselves (wide X, GPU). The algorithms are those of ``regression.py`` (see its docstrings for
why each step matches scikit-learn); this module also holds the torch-free pieces both share.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

# brainscore_vision/metrics/ridgecv_split/metric.py ALPHA_LIST: 99 values.
ALPHA_LIST = tuple(
    [0.01, 0.1, 0.5, 1.0]
    + list(np.linspace(10, 77.5, 4))  # 10, 32.5, 55, 77.5
    + list(np.arange(100, 951, 50, dtype=float))
    + list(np.arange(1000, 9501, 500, dtype=float))
    + list(np.arange(1e4, 9.5e4 + 1, 5e3))
    + list(np.arange(1e5, 9.5e5 + 1, 5e4))
    + list(np.arange(1e6, 1e7 + 1, 5e5))
)
assert len(ALPHA_LIST) == 99

GRAM_REGRESSIONS = ("pls", "ridge", "ridgecv", "linear")

# Size of one temporary block of X (rows or columns). Bounds the extra memory of a pass.
BLOCK_BYTES = 64 * 2**20
EPS64 = float(np.finfo(np.float64).eps)


def check_finite(array: np.ndarray, label: str) -> None:
    """Raise ValueError naming ``label`` if ``array`` has NaN/inf (checked in row blocks: no big bool temp)."""
    flat = array.reshape(array.shape[0], -1)
    rows = max(1, BLOCK_BYTES // max(1, flat.shape[1] * flat.itemsize))
    bad = 0
    for start in range(0, flat.shape[0], rows):
        bad += int(flat.shape[1] * min(rows, flat.shape[0] - start) - np.isfinite(flat[start:start + rows]).sum())
    if bad:
        raise ValueError(f"{label} contains {bad} non-finite value(s) (NaN or inf); clean the {label} array first")


def gram_noise_rtol(n: int, p: int) -> float:
    """Relative floor of the eigenvalues of a centred Gram accumulated in float64: its entries carry rounding of
    ~``max(n, p)·eps64·λ_max``, so smaller eigenvalues are noise."""
    return max(n, p) * EPS64


def lstsq_rtol(n: int, p: int, x_dtype) -> float:
    """Relative cutoff on the *eigenvalues* of ``Xc Xcᵀ`` / ``Xcᵀ Xc`` that matches least squares on X itself.

    LAPACK ``gelsd`` as scikit-learn's ``LinearRegression`` calls it (``scipy.linalg.lstsq(X, y,
    cond=max(X.shape) * np.finfo(X.dtype).eps)``, scikit-learn 1.4-1.8, the versions Brain-Score pins;
    numpy.linalg.lstsq's default ``rcond`` is the same) drops singular values ``s < cond·s_max`` of X in X's
    own dtype. The Gram's eigenvalues are ``λ = s²``, so the same rule reads ``λ < cond²·λ_max``: the
    tolerance is squared. (Comparing λ with ``cond`` itself keeps only ``s > sqrt(cond)·s_max``: for a
    float32 X with 1000 columns, singular values below 1e-2·s_max, not 1e-4·s_max, were thrown away.)
    A float32 X keeps float32 semantics (its own eps) even though the Gram is accumulated in float64;
    the result is never below the float64 Gram's rounding floor (``gram_noise_rtol``).
    """
    cond = max(n, p) * float(np.finfo(np.dtype(x_dtype)).eps)
    return max(cond * cond, gram_noise_rtol(n, p))


# --------------------------------------------------------------------------------------------------
# The Gram matrix itself


def cpu_gram(X, center: bool = False) -> np.ndarray:
    """Stimulus Gram matrix ``X Xᵀ`` (n, n) float64 of an (n, p) activation matrix, on the CPU.

    One pass over column blocks of X (~32 MB each as float64: never a float64 copy of X), each block's
    ``B Bᵀ`` a symmetric rank-k update (numpy calls BLAS ``syrk`` for ``B @ B.T``: half the multiply-adds of a
    general product, and an exactly symmetric result), accumulated in float64. ``center=True``: the Gram of
    ``X - mean(X, axis=0)``; either works for ``fit_predict_gram``, whose train-mean centring cancels any
    fixed shift of X. ``regression.gram`` is the same on a torch device (GPU).
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
    check_finite(X, "X")
    n, p = X.shape
    G = np.zeros((n, n), dtype=np.float64)
    product = np.empty((n, n), dtype=np.float64)
    cols = max(64, (32 * 2**20) // (max(n, 1) * 8))
    for c0 in range(0, p, cols):
        block = np.array(X[:, c0:c0 + cols], dtype=np.float64, order="C")
        if center:
            block -= block.mean(axis=0)
        np.matmul(block, block.T, out=product)
        G += product
    return G


# --------------------------------------------------------------------------------------------------
# PLS (scikit-learn's NIPALS, run in n-space on the centred Gram)


def pls_start_column(y_ss, y_ss0, n: int, k: int):
    """First Y residual column that is not all zero (sklearn's ``next(col ...)``), or None (with a warning)."""
    nonzero = np.flatnonzero(y_ss > np.maximum(1e-24 * y_ss0, n * EPS64**2))
    if len(nonzero) == 0:
        warnings.warn(f"PLS: y residual is constant at component {k}; using {k} components")
        return None
    return int(nonzero[0])


def power_gram(G: np.ndarray, start: int, single_target: bool, max_iter: int, tol: float) -> np.ndarray:
    """sklearn's power method in the coordinates ``w = C v`` (``G = CᵀC``): returns v with ``vᵀ G v = 1``.

    sklearn maps ``w -> normalize(C Cᵀ w)`` from ``w_0 = normalize(C[:, start])`` and stops when
    ``‖w_i - w_{i-1}‖² < tol`` (or after one step with a single target); here ``v -> G v`` from
    ``e_start`` with ``‖w‖² = vᵀ G v`` and ``w_iᵀ w_{i-1} = v_iᵀ G v_{i-1}``: the same iterates at O(m²)
    per step.
    """
    v = np.zeros(G.shape[0])
    v[start] = 1.0
    v_prev = None
    for i in range(max_iter):
        v = v / np.sqrt(v @ G @ v)
        if v_prev is not None:
            if 2.0 - 2.0 * (v @ G @ v_prev) < tol:
                break
        elif single_target:
            break
        if i == max_iter - 1:  # sklearn stops at its max_iter-th iterate when it has not converged: no step more
            break
        v_prev = v
        v = G @ v
    return v


def power_kernel(K: np.ndarray, Y: np.ndarray, start: int, single_target: bool, max_iter: int,
                 tol: float) -> np.ndarray:
    """The same power method in n-space for m > n: ``w = X_kᵀ s``, ``C Cᵀ w = X_kᵀ (Y Yᵀ K s)``,
    ``‖w‖² = sᵀ K s``; from ``s_0 = Y[:, start]``. Returns s with ``sᵀ K s = 1``."""
    s = Y[:, start].copy()
    s_prev = None
    for i in range(max_iter):
        Ks = K @ s
        norm = np.sqrt(s @ Ks)
        s, Ks = s / norm, Ks / norm
        if s_prev is not None:
            if 2.0 - 2.0 * (Ks @ s_prev) < tol:
                break
        elif single_target:
            break
        if i == max_iter - 1:  # not converged: sklearn returns its max_iter-th iterate (no step more)
            break
        s_prev = s
        s = Y @ (Y.T @ Ks)
    return s


def pls_kernel(K0: np.ndarray, Y0: np.ndarray, n_max: int, max_iter: int, tol: float, floor: float | None = None,
               info: dict | None = None):
    """sklearn's NIPALS in n-space from the centred Gram ``K0 = X0 X0ᵀ`` (regression.PLSRegression explains the
    equivalence step by step; its kernel path calls this too).

    Returns ``(rot_dual, Q)``: ``rot_dual = A (PᵀW)⁻¹`` (n, k), so that predictions of centred rows ``x`` are
    ``(x X0ᵀ) rot_dual Qᵀ``; ``Q`` (m, k) the y-loadings.

    ``floor``: the Gram's rounding floor (``kernel_floor``; by default from K0's own diagonal). Once the deflated
    X has no variance above it (a layer of numerical rank k < n_max: rank-deficient features, duplicated or
    constant units), the fit stops at k components and sets ``info["rank_floor_at"] = k``. scikit-learn, on X
    itself, goes on and fits the remaining components to the activations' float rounding (singular values of
    ~eps·s_max, ~1e-16 of the Gram's scale, below its ~1e-14 rounding): numbers no Gram can reproduce, and
    continuing here took the square root of a negative rounding residual, so every prediction was NaN.
    """
    n, m = Y0.shape
    if floor is None:
        floor = kernel_floor(K0, float(np.abs(np.diagonal(K0)).max()) if n else 0.0)
    single_target = m == 1
    # K_k = X_k X_kᵀ = P_k K_0 P_k with P_k = I - Σ_{j<k} t_j t_jᵀ/(t_jᵀ t_j) (the scores are orthogonal).
    # m > n: K_k is deflated explicitly (the n-space power iteration needs it); m <= n: only K_k Y_k and
    # K_k t_k are needed, and both are updated or projected in O(n m) / O(n²) per component.
    K = K0.copy() if m > n else None
    Yk = Y0.copy()  # Y_k, deflated as sklearn does
    y_ss0 = (Y0 * Y0).sum(axis=0)
    A, T, Q, TT = [], [], [], []
    KY = None  # K_k Y_k (m <= n), updated in O(n m) per component
    for k in range(n_max):
        start = pls_start_column((Yk * Yk).sum(axis=0), y_ss0, n, k)
        if start is None:
            break
        if m <= n:  # power method on CᵀC = Y_kᵀ K_k Y_k (m × m)
            if KY is None:
                KY = K0 @ Yk
            G = Yk.T @ KY
            with np.errstate(invalid="ignore"):  # a rounding residual's negative square: NaN, stopped below
                v = power_gram((G + G.T) / 2, start, single_target, max_iter, tol)
            a, Ka = Yk @ v, KY @ v
        else:  # m > n: iterate s -> Y_k Y_kᵀ K_k s, with w = X_kᵀ s (n-vectors)
            with np.errstate(invalid="ignore"):
                a = power_kernel(K, Yk, start, single_target, max_iter, tol)
            Ka = K @ a
        norm2 = float(a @ Ka)  # ‖X_kᵀ a‖²
        if not norm2 > 0:  # zero, a negative rounding residual, or NaN from one
            _rank_floor(k, info)
            break
        norm = math.sqrt(norm2)
        a, t = a / norm, Ka / norm  # w_k = X_kᵀ a = X0ᵀ a (unit norm), t_k = X_k w_k = K_k a
        tt = float(t @ t)  # ‖X_k w_k‖² with ‖w_k‖ = 1: on the scale of K's eigenvalues
        if not tt > floor:
            _rank_floor(k, info)
            break
        q = Yk.T @ t / tt
        Yk -= np.outer(t, q)
        if K is not None:  # K_{k+1} = D K_k D, D = I - t tᵀ/tt: one rank-two update K -= t uᵀ + u tᵀ
            Kt = K @ t
            u = Kt / tt - (float(t @ Kt) / (2 * tt**2)) * t
            K -= np.outer(t, u) + np.outer(u, t)
        else:
            # K_k t = P_k K_0 P_k t = P_k K_0 t  (t_k ⟂ earlier scores)
            Kt = K0 @ t
            if T:
                T_prev = np.stack(T, 1)
                Kt -= T_prev @ ((T_prev.T @ Kt) / np.array(TT))
            # K_{k+1} Y_{k+1} = D (K_k Y_k - K_k t qᵀ)   (D Y_{k+1} = Y_{k+1}: tᵀ Y_{k+1} = 0)
            KY -= np.outer(Kt, q)
            KY -= np.outer(t, t @ KY) / tt
        A.append(a)
        T.append(t)
        Q.append(q)
        TT.append(tt)
    if not A:
        raise ValueError("PLS found no component: X or Y has no variance")
    if info is not None:
        info["n_components"] = len(A)
    A, T, Q, TT = np.stack(A, 1), np.stack(T, 1), np.stack(Q, 1), np.array(TT)
    PtW = (T.T @ (K0 @ A)) / TT[:, None]  # PᵀW = diag(1/tᵀt) Tᵀ K_0 A (k × k, unit upper triangular)
    rot_dual = np.linalg.solve(PtW.T, A.T).T  # A (PᵀW)⁻¹, (n, k)
    return rot_dual, Q


def _rank_floor(k: int, info: dict | None) -> None:
    warnings.warn(f"PLS: X residual is at the Gram's rounding floor at component {k}; using {k} components")
    if info is not None:
        info["rank_floor_at"] = k


# --------------------------------------------------------------------------------------------------
# Ridge family and linear


def centred_kernels(G, train, test):
    """``Kc`` (n_t, n_t) and ``Ks`` (n_s, n_t), float64, centred with the train rows' mean, from G."""
    G = np.asarray(G)
    if G.ndim != 2 or G.shape[0] != G.shape[1]:
        raise ValueError(f"G must be a square (n_samples, n_samples) Gram matrix, got shape {G.shape}")
    check_finite(G, "G")
    Kc = np.ascontiguousarray(G[np.ix_(train, train)], dtype=np.float64)
    Gs = np.ascontiguousarray(G[np.ix_(test, train)], dtype=np.float64)
    # Both passes below work in place, block by block: whole-matrix expressions (Kc += Kc.T, an outer sum)
    # allocate n×n temporaries, and in a fresh fold job first touching that memory costs more than the arithmetic.
    _symmetrize(Kc)  # a Gram from cpu_gram already is symmetric, bitwise
    r = Kc.mean(axis=0)  # mean_k G_kj over train k (= row means: symmetric)
    g = r.mean()
    # Kc_ij = G_ij - (r_i + r_j) + g ;  Ks_ij = G_ij - mean_k G_ik - r_j + g   (k over train);
    # r_i + r_j is symmetric bitwise, so Kc stays exactly symmetric
    for rows in _blocks(Kc.shape[0]):
        Kc[rows] -= (r[rows, None] + r[None, :]) - g
    Ks = Gs - Gs.mean(axis=1, keepdims=True) - (r - g)[None, :]
    return Kc, Ks


def _blocks(n: int, size: int = 256):
    """Row slices of at most ``size`` rows covering range(n)."""
    return [slice(start, min(start + size, n)) for start in range(0, n, size)]


def _symmetrize(K: np.ndarray) -> None:
    """``K = (K + Kᵀ) / 2`` in place, bitwise as that expression (a + b == b + a exactly), without an n×n copy."""
    blocks = _blocks(K.shape[0])
    for i, rows in enumerate(blocks):
        for cols in blocks[i:]:
            mean = (K[rows, cols] + K[cols, rows].T) * 0.5
            K[rows, cols] = mean
            K[cols, rows] = mean.T


def kernel_floor(Kc: np.ndarray, diag_scale: float) -> float:
    """Eigenvalues of Kc below this are rounding noise of the double centring of a float64 Gram:
    entrywise errors ≲ 4 eps·max G_ii, so eigenvalue errors ≲ n·4 eps·max G_ii."""
    return 4 * Kc.shape[0] * EPS64 * diag_scale


def kernel_spectrum(Kc: np.ndarray, diag_scale: float):
    """Eigenvalues (clipped; the constant direction and the noise floor set to exactly 0) and vectors of Kc."""
    lam, U = np.linalg.eigh(Kc)
    lam = np.maximum(lam, 0.0)
    # the constant vector is an exact null vector of the centred kernel (the intercept; sklearn's
    # _find_smallest_angle)
    lam[np.argmax(np.abs(U.sum(axis=0) / math.sqrt(Kc.shape[0])))] = 0.0
    lam[lam <= kernel_floor(Kc, diag_scale)] = 0.0
    return lam, U


def gcv_alpha(lam, U, Z, alphas, n):
    """sklearn ``_RidgeGCV`` alpha choice (mean squared LOO error over samples and targets; first best wins).

    LOO residual ``(U diag(α/(λ+α)) Z)_i / (1 - Σ_k U_ik² λ_k/(λ_k+α) - 1/n)``; zero-eigenvalue directions
    (null space of the centred X, and the intercept) are unshrunk. All alphas are scored with float32
    products (the n·n·m product per alpha dominates), then every alpha within 1e-3 (relative) of the best
    float32 score is re-scored in float64 and the float64 scores decide, so the choice is float64's.
    """
    U2 = U * U
    U32, Z32 = U.astype(np.float32), Z.astype(np.float32)

    def score(alpha, U_, Z_):
        shrink = alpha / (lam + alpha)
        residual = U_ @ (shrink[:, None].astype(Z_.dtype) * Z_)
        denom = 1.0 - U2 @ (1.0 - shrink) - 1.0 / n
        return -float(((residual.astype(np.float64) / denom[:, None]) ** 2).mean())

    coarse = [score(a, U32, Z32) for a in alphas]
    best32 = max(coarse)
    best = None
    for alpha, s32 in zip(alphas, coarse):
        if s32 >= best32 - 1e-3 * abs(best32):
            s = score(alpha, U, Z)
            if best is None or s > best[0]:
                best = (s, alpha)
    return best


def spd_solve(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Solve A X = B for symmetric positive (semi)definite A by Cholesky; falls back to least squares (gelsd,
    as scikit-learn's Ridge does) when A is not positive definite."""
    from scipy.linalg import LinAlgError, cho_factor, cho_solve  # only ridge and linear need scipy

    try:
        return cho_solve(cho_factor(A, lower=True, check_finite=False), B, check_finite=False)
    except LinAlgError:
        return np.linalg.lstsq(A, B, rcond=None)[0]


def _is_positive_definite(M: np.ndarray) -> bool:
    from scipy.linalg import LinAlgError, cho_factor

    try:
        cho_factor(M, lower=True, check_finite=False)
    except LinAlgError:
        return False
    return True


def lambda_max(K: np.ndarray, iterations: int = 30) -> float:
    """Largest eigenvalue of the symmetric PSD K by power iteration from a fixed random start (a lower bound)."""
    v = np.random.default_rng(0).standard_normal(K.shape[0])
    for _ in range(iterations):
        v = K @ v
        v /= np.linalg.norm(v)
    return float(v @ (K @ v))


def pinv_solve_full_rank(Kc: np.ndarray, Yc: np.ndarray, rtol: float, floor: float):
    """``Kc⁺ Yc`` by Cholesky when no eigenvalue of Kc but the intercept's is cut off; else None.

    The linear fit keeps the eigenvalues ``λ > max(rtol·λ_max, floor)``. When every eigenvalue of Kc besides
    the constant direction's (exactly 0) is kept, ``Kc⁺ Yc = (Kc + λ̄ 11ᵀ/n)⁻¹ Yc`` for any λ̄ > 0 (Yc ⟂ 1),
    one Cholesky instead of an eigendecomposition (~50× cheaper). Whether all are kept is decided exactly
    by inertia: the Cholesky of ``Kc + λ̄ 11ᵀ/n - σI`` exists iff all its eigenvalues exceed σ; σ is the
    cutoff with λ_max overestimated by half (the power-iteration estimate is a lower bound).
    """
    n = Kc.shape[0]
    lam_max = lambda_max(Kc)
    if not lam_max > 0:
        return None
    sigma = max(1.5 * lam_max * rtol, floor)
    M = Kc + lam_max / n  # + λ̄ 11ᵀ/n with λ̄ = λ_max
    M[np.diag_indices(n)] -= sigma
    if not _is_positive_definite(M):
        return None
    M[np.diag_indices(n)] += sigma
    if not _is_positive_definite(M):
        return None
    return spd_solve(M, Yc)


def _no_more(name, params):
    if params:
        raise TypeError(f"unexpected {name} parameter(s): {', '.join(params)}")


def fit_predict_gram(name: str, G, train, test, Y, device: str = "cpu", n_features: int | None = None,
                     x_dtype=np.float32, info: dict | None = None, **params) -> np.ndarray:
    """Fit regression ``name`` on the ``train`` rows and predict the ``test`` rows from the Gram matrix alone.

    Parameters
    ----------
    name : "pls", "ridge", "ridgecv" or "linear".
    G : (n, n) float64 Gram ``X Xᵀ`` of all n stimuli (``cpu_gram(X)``; or of ``X - c`` for any fixed row c).
    train, test : integer index arrays into the n stimuli.
    Y : (n, m) targets of all stimuli (only ``Y[train]`` is used for fitting).
    device : accepted for the callers' convenience and ignored: these fits run in numpy on the CPU (O(n³) for
        n of a few thousand is well under a second; a GPU's start-up would cost more).
    n_features : p, the number of columns of X. Optional; only used where ``make_regression`` depends on
        it: PLS clamps ``n_components`` to ``min(n_components, n_train - 1, p)``, and linear drops singular
        values below ``max(n_train, p)·eps(x_dtype)·s_max`` (``lstsq_rtol``; see ``regression.LinearRegression``).
        Without it p is taken as ``n_train``.
    x_dtype : dtype of the activations X (float32 by default), for linear's cutoff as above.
    info : optional dict, filled with what the fit chose: ``alpha`` (ridge, ridgecv; ridgecv's is the
        GCV choice, ``RidgeCV.alpha_``), ``n_components`` (pls; plus ``rank_floor_at`` where the layer's
        numerical rank stopped the fit, see ``pls_kernel``), ``rank`` (linear).
    params : the regression's parameters (``n_components``, ``max_iter``, ``tol`` for PLS; ``alpha`` for
        ridge; ``alphas`` for ridgecv).

    Returns float32 (len(test), m): ``make_regression(name, **params).fit(X[train], Y[train]).predict(X[test])``
    up to rounding. Costs O(n²·m) (ridge, pls) or O(n³) (ridgecv, linear: one eigendecomposition), never
    O(n·p).
    """
    if name not in GRAM_REGRESSIONS:
        raise ValueError(f"fit_predict_gram supports pls, ridge, ridgecv and linear, not {name!r}")
    train, test = np.asarray(train), np.asarray(test)
    if len(train) < 2:
        raise ValueError(f"need at least 2 training samples, got {len(train)}")
    Y = np.asarray(Y)
    if Y.ndim == 1:
        Y = Y[:, None]
    if Y.ndim != 2 or Y.shape[0] != np.asarray(G).shape[0]:
        raise ValueError(f"Y must be (n_samples={np.asarray(G).shape[0]}, n_targets), got shape {Y.shape}")
    Yt = np.asarray(Y[train], dtype=np.float64)
    check_finite(Yt, "Y")
    Kc, Ks = centred_kernels(G, train, test)
    diag_scale = float(np.abs(np.diagonal(np.asarray(G))[train]).max())
    n = len(train)
    p = n if n_features is None else int(n_features)
    y_mean = Yt.mean(axis=0)
    Yc = Yt - y_mean
    if name == "pls":
        n_components = int(params.pop("n_components", 25))
        max_iter, tol = int(params.pop("max_iter", 500)), float(params.pop("tol", 1e-6))
        params.pop("solver", None)  # regression.PLSRegression's choice of path over X: no meaning here
        _no_more("PLS", params)
        if n_components < 1:
            raise ValueError(f"n_components must be >= 1, got {n_components}")
        Yc[:, (np.abs(Yc) < 10 * EPS64).all(axis=0)] = 0.0  # as PLSRegression (sklearn): constant targets
        chosen = {}
        rot_dual, Q = pls_kernel(Kc, Yc, min(n_components, n - 1, p), max_iter, tol,
                                 floor=kernel_floor(Kc, diag_scale), info=chosen)
        B = rot_dual @ Q.T
    elif name == "ridge":
        alpha = float(params.pop("alpha", 1.0))
        _no_more("ridge", params)
        Kc[np.diag_indices(n)] += alpha
        B = spd_solve(Kc, Yc)
        chosen = {"alpha": alpha}
    else:
        rtol = None
        if name == "linear":
            _no_more("linear", params)
            rtol = lstsq_rtol(n, p, x_dtype)  # squared: eigenvalues of Kc are squared singular values
            B = pinv_solve_full_rank(Kc, Yc, rtol, kernel_floor(Kc, diag_scale))
            if B is not None:
                if info is not None:
                    info.update(rank=n - 1)
                return (Ks @ B + y_mean).astype(np.float32)
        lam, U = kernel_spectrum(Kc, diag_scale)
        del Kc
        Z = U.T @ Yc
        if name == "ridgecv":
            alphas = tuple(float(a) for a in np.atleast_1d(params.pop("alphas", ALPHA_LIST)))
            _no_more("ridgecv", params)
            best_score, alpha = gcv_alpha(lam, U, Z, alphas, n)
            chosen = {"alpha": alpha, "best_score": best_score}
            filt = np.where(lam > 0, 1.0 / (lam + alpha), 0.0)
        else:
            keep = (lam > lam.max() * rtol) & (lam > 0)
            filt = np.where(keep, 1.0 / np.where(keep, lam, 1.0), 0.0)
            chosen = {"rank": int(keep.sum())}
        B = U @ (filt[:, None] * Z)
    if info is not None:
        info.update(chosen)
    return (Ks @ B + y_mean).astype(np.float32)
