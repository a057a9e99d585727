"""Regressions for cross-validated regression-correlation metrics (Brain-Score's ``pls``, ``ridge``,
``ridgecv_split``, ``linear_predictivity`` and ``neuron_to_neuron``).

Each estimator reproduces the scikit-learn model Brain-Score wraps
(``brainscore_vision/metrics/regression_correlation/metric.py``; ALPHA_LIST from
``brainscore_vision/metrics/ridgecv_split`` per brainscore-facts-more.md §7.8) but is written for
Brain-Score's shapes: a few thousand stimuli, 10^4-10^5 model features, 10^2 neuroids.

Design (why it is fast and lean):

* The activation matrix ``X`` is never copied whole. Every pass over it works on row or column
  blocks of about ``_BLOCK_BYTES`` that are centred on the fly, so centring is exact (no
  ``X @ r - mean @ r`` cancellation) and the extra memory is one block. On CPU, float32 input is used
  in place (``torch.from_numpy`` shares memory); float64 input is computed in float64.
* Everything small (cross-covariances, Gram matrices, eigenproblems, loadings) is float64.
* Models solved by a Gram matrix use the smaller side: ``Xc Xcᵀ`` (n×n) when features ≥ samples
  ("dual" / kernel form), ``Xcᵀ Xc`` (p×p) otherwise.
* torch does the heavy products, so ``device="cuda"`` runs the same code on a GPU.
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import torch

REGRESSIONS = ("pls", "ridge", "ridgecv", "linear", "neuron_to_neuron")

# brainscore_vision/metrics/ridgecv_split/metric.py ALPHA_LIST (brainscore-facts-more.md §7.8): 99 values.
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

# Size of one temporary block of X (rows or columns, centred). Bounds the extra memory of a pass.
_BLOCK_BYTES = 64 * 2**20


def resolve_device(device: str) -> str:
    """Map ``"auto"`` to ``"cuda"`` when torch sees a GPU, else ``"cpu"``; ``"cpu"``/``"cuda[:i]"`` pass through."""
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu" or device.startswith("cuda"):
        return device
    raise ValueError(f"unknown device {device!r}; use 'cpu', 'cuda' or 'auto'")


def make_regression(name: str, device: str = "cpu", **params) -> "Regression":
    """Build the regression named ``name`` (one of ``REGRESSIONS``); ``params`` go to its constructor."""
    classes = {
        "pls": PLSRegression,
        "ridge": Ridge,
        "ridgecv": RidgeCV,
        "linear": LinearRegression,
        "neuron_to_neuron": NeuronToNeuron,
    }
    if name not in classes:
        raise ValueError(f"unknown regression {name!r}; valid names: {', '.join(REGRESSIONS)}")
    return classes[name](device=device, **params)


# --------------------------------------------------------------------------------------------------
# Shared helpers


def _check_finite(array: np.ndarray, label: str) -> None:
    """Raise ValueError naming ``label`` if ``array`` has NaN/inf (checked in row blocks: no big bool temp)."""
    flat = array.reshape(array.shape[0], -1)
    rows = max(1, _BLOCK_BYTES // max(1, flat.shape[1] * flat.itemsize))
    bad = 0
    for start in range(0, flat.shape[0], rows):
        bad += int(flat.shape[1] * min(rows, flat.shape[0] - start) - np.isfinite(flat[start:start + rows]).sum())
    if bad:
        raise ValueError(f"{label} contains {bad} non-finite value(s) (NaN or inf); clean the {label} array first")


class Regression:
    """Base class: input checks, device handling and block-wise products with the centred ``X``.

    Subclasses implement ``fit(X, Y)`` and ``predict(X)``.
    ``X`` : array of shape (n_samples, n_features), ``Y`` : array of shape (n_samples, n_targets).
    """

    def __init__(self, device: str = "cpu"):
        self.device = resolve_device(device)

    # ---- conversion -------------------------------------------------------------------------------
    def _as_x(self, X, *, fitting: bool) -> torch.Tensor:
        """X as a 2-D torch tensor on the device, float64 if given float64 else float32, not copied on CPU."""
        X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
        if fitting and X.shape[0] < 2:
            raise ValueError(f"need at least 2 samples to fit, got {X.shape[0]}")
        if X.dtype != np.float64:
            X = np.asarray(X, dtype=np.float32)
        _check_finite(X, "X")
        if not fitting and X.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {X.shape[1]} features, the model was fitted on {self.n_features_in_}")
        if not X.flags.c_contiguous:
            X = np.ascontiguousarray(X)
        return torch.from_numpy(X).to(self.device)

    def _as_y(self, Y, n_samples: int) -> torch.Tensor:
        Y = np.asarray(Y)
        if Y.ndim == 1:
            Y = Y[:, None]
        if Y.ndim != 2 or Y.shape[0] != n_samples:
            raise ValueError(f"Y must be (n_samples={n_samples}, n_targets), got shape {Y.shape}")
        Y = np.asarray(Y, dtype=np.float64)
        _check_finite(Y, "Y")
        return torch.from_numpy(Y).to(self.device)

    # ---- block-wise products with Xc = X - x_mean ---------------------------------------------------
    @staticmethod
    def _mean(X: torch.Tensor) -> torch.Tensor:
        """Column means, float64, shape (n_features,)."""
        return X.sum(dim=0, dtype=torch.float64) / X.shape[0]

    @staticmethod
    def _row_blocks(X: torch.Tensor):
        rows = max(1, _BLOCK_BYTES // (X.shape[1] * X.element_size()))
        for start in range(0, X.shape[0], rows):
            yield slice(start, min(start + rows, X.shape[0]))

    @staticmethod
    def _col_blocks(X: torch.Tensor):
        cols = max(1, _BLOCK_BYTES // (X.shape[0] * X.element_size()))
        for start in range(0, X.shape[1], cols):
            yield slice(start, min(start + cols, X.shape[1]))

    @staticmethod
    def _row_blocks_small(X: torch.Tensor):
        """Row blocks of ~8 MB (as float64): cache-sized, for the float64 passes."""
        rows = max(1, (8 * 2**20) // (X.shape[1] * 8))
        for start in range(0, X.shape[0], rows):
            yield slice(start, min(start + rows, X.shape[0]))

    def _xc_matmul(self, X, mean, B, precise: bool = False) -> torch.Tensor:
        """``(X - mean) @ B``: (n, p) @ (p, k) -> (n, k) float64.

        ``precise``: float64 products on small row blocks converted one at a time, centring by
        ``X B - 1 (meanᵀ B)`` (exact enough in float64); else X's dtype on blocks centred on the fly.
        """
        out = torch.empty((X.shape[0], B.shape[1]), dtype=torch.float64, device=X.device)
        if precise:
            B64 = B.double()
            offset = mean @ B64
            for rows in self._row_blocks_small(X):
                out[rows] = X[rows].double() @ B64 - offset
            return out
        mean_c, B_c = mean.to(X.dtype), B.to(X.dtype)
        for rows in self._row_blocks(X):
            out[rows] = ((X[rows] - mean_c) @ B_c).double()
        return out

    def _xct_matmul(self, X, mean, B, precise: bool = False) -> torch.Tensor:
        """``(X - mean)ᵀ @ B``: (p, n) @ (n, k) -> (p, k) float64, accumulated in float64 over row blocks."""
        out = torch.zeros((X.shape[1], B.shape[1]), dtype=torch.float64, device=X.device)
        if precise:
            B64 = B.double()
            for rows in self._row_blocks_small(X):
                out += X[rows].double().T @ B64[rows]
            return out - torch.outer(mean, B64.sum(dim=0))
        mean_c, B_c = mean.to(X.dtype), B.to(X.dtype)
        for rows in self._row_blocks(X):
            out += ((X[rows] - mean_c).T @ B_c[rows]).double()
        return out

    def _gram(self, X, mean, precise: bool = False) -> torch.Tensor:
        """Centred Gram on the smaller side, float64: ``Xc Xcᵀ`` (n×n) if n <= p else ``Xcᵀ Xc`` (p×p).

        ``precise``: block products in float64 (RidgeCV/linear: their LOO errors and pseudo-inverse
        depend on the small eigenvalues, which a float32 Gram blurs).
        """
        n, p = X.shape
        dtype = torch.float64 if precise else X.dtype
        mean_c = mean.to(dtype)
        if n <= p:  # sum over column blocks of Xc[:, cols] Xc[:, cols]ᵀ
            K = torch.zeros((n, n), dtype=torch.float64, device=X.device)
            for cols in self._col_blocks(X):
                block = X[:, cols].to(dtype) - mean_c[cols]
                K += (block @ block.T).double()
        else:
            K = torch.zeros((p, p), dtype=torch.float64, device=X.device)
            for rows in self._row_blocks(X):
                block = X[rows].to(dtype) - mean_c
                K += (block.T @ block).double()
        return K

    # ---- prediction for linear models ----------------------------------------------------------------
    def _linear_predict(self, X) -> np.ndarray:
        """``(X - x_mean) @ coef + y_mean`` as float32 (n, n_targets)."""
        Xt = self._as_x(X, fitting=False)
        Y = self._xc_matmul(Xt, self.x_mean_, self.coef_, precise=True) + self.y_mean_
        return Y.float().cpu().numpy()

    def predict(self, X) -> np.ndarray:
        """Predict targets. X : (n_samples, n_features). Returns float32 array (n_samples, n_targets)."""
        return self._linear_predict(X)


def _spectrum(model: Regression, X, x_mean, Yc):
    """Eigen-decomposition of the centred design shared by RidgeCV and LinearRegression.

    Returns ``(lam, U, Z, Y_perp, primal)``: ``lam`` (r,) eigenvalues of ``Xc Xcᵀ`` / ``Xcᵀ Xc`` (clipped
    at 0), ``U`` (n, r) orthonormal left singular vectors of ``Xc``, ``Z = Uᵀ Yc`` (r, m), ``Y_perp``
    the part of ``Yc`` outside span(U) (n, m), and, in the primal case (p < n), ``V`` (p, r) so that
    ``Xc = U diag(sqrt(lam)) Vᵀ``; ``None`` in the dual case (coef then needs a pass over X).
    """
    n, p = X.shape
    lam, vecs = torch.linalg.eigh(_symmetrize(model._gram(X, x_mean, precise=True)))
    lam = lam.clamp_min(0)
    if n <= p:  # dual: vecs are the n left singular vectors (incl. the null one of the centred X)
        U = vecs
        # the constant vector is an exact null vector of the centred Gram (the intercept's direction;
        # sklearn's _find_smallest_angle): make its eigenvalue exactly 0, not rounding noise
        lam[torch.argmax((U.sum(dim=0) / math.sqrt(n)).abs())] = 0.0
        Z = U.T @ Yc
        return lam, U, Z, torch.zeros_like(Yc), None
    # primal: keep directions above the noise floor of the Gram, U = Xc V / s
    keep = lam > lam.max() * _gram_rtol(X)
    lam, V = lam[keep], vecs[:, keep]
    U = model._xc_matmul(X, x_mean, V) / lam.sqrt()
    Z = U.T @ Yc
    return lam, U, Z, Yc - U @ Z, V


@contextlib.contextmanager
def _single_thread(device: str):
    """Run CPU matrix-vector passes on one thread: they are memory-bound, and torch's intra-op threads
    made them ~15× slower on a 2-core machine (0.8 s vs 0.05 s per pass over 2880×9216 in float64)."""
    if not device.startswith("cpu"):
        yield
        return
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def _symmetrize(K: torch.Tensor) -> torch.Tensor:
    return (K + K.T) / 2


def _gram_rtol(X: torch.Tensor) -> float:
    """Relative eigenvalue floor of a Gram built from X's dtype: below it an eigenvalue is rounding noise."""
    eps = torch.finfo(X.dtype).eps
    return max(max(X.shape) * eps, 1e-13) if X.dtype == torch.float32 else max(X.shape) * eps


# --------------------------------------------------------------------------------------------------
# PLS


class PLSRegression(Regression):
    """PLS2 regression = ``sklearn.cross_decomposition.PLSRegression(n_components=25, scale=False)``
    (Brain-Score ``pls``: ``brainscore_vision/metrics/regression_correlation/metric.py``).

    Same algorithm as scikit-learn's NIPALS (X and Y centred, not scaled; regression-mode deflation;
    each X weight from the power method on the deflated ``XᵀY`` started at the first non-zero Y
    column, ``max_iter`` 500, ``tol`` 1e-6 on ``‖w_i - w_{i-1}‖²``, emulated step for step), but never
    deflates the (n × p) X:

    * ``C_k = X_kᵀ Y_k`` (p × m) is deflated instead: ``C_{k+1} = C_k - (X0ᵀ t)(Y0ᵀ t)ᵀ / (tᵀ t)``;
    * the power iteration on ``C Cᵀ`` runs on the small side (``CᵀC``, m × m, when m <= p);
    * scores ``t_k = X0 r_k`` use the rotations ``r_k = w_k - Σ_{j<k} r_j (p_jᵀ w_k)``
      (= columns of ``W (PᵀW)⁻¹``), so each component costs two passes over X.

    ``predict(X) = (X - x_mean) @ coef + y_mean`` with ``coef = W (PᵀW)⁻¹ Qᵀ`` (p × m).

    Parameters
    ----------
    n_components : int, default 25
        Clamped to ``min(n_components, n_samples - 1, n_features)`` (the rank bound of centred X;
        scikit-learn raises instead). Fitting also stops early, with fewer components, when the Y
        residual is all zero (as scikit-learn does) or X is fully deflated. ``n_components_`` holds
        the number used.
    max_iter, tol : power-method settings (scikit-learn defaults).
    device : "cpu", "cuda" or "auto".
    """

    def __init__(self, n_components: int = 25, max_iter: int = 500, tol: float = 1e-6, device: str = "cpu"):
        super().__init__(device)
        if n_components < 1:
            raise ValueError(f"n_components must be >= 1, got {n_components}")
        self.n_components, self.max_iter, self.tol = int(n_components), int(max_iter), float(tol)

    def fit(self, X, Y) -> "PLSRegression":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        with _single_thread(self.device):
            return self._fit(X, Y)

    def _fit(self, X, Y) -> "PLSRegression":
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        n, p = Xt.shape
        m = Yt.shape[1]
        eps = np.finfo(np.float64).eps
        self.n_features_in_ = p
        self.x_mean_ = self._mean(Xt)
        self.y_mean_ = Yt.mean(dim=0)
        Y0 = Yt - self.y_mean_
        # sklearn zeroes Y columns whose entries are all < 10 eps (constant targets): no 0/0 anywhere.
        Y0[:, (Y0.abs() < 10 * eps).all(dim=0)] = 0.0
        n_max = min(self.n_components, n - 1, p)

        C = self._xct_matmul(Xt, self.x_mean_, Y0, precise=True)  # (p, m) = X0ᵀ Y0
        small_side_m = m <= p
        gram_of = (lambda C_: C_.T @ C_) if small_side_m else (lambda C_: C_ @ C_.T)
        G = gram_of(C)  # Gram of C on its small side, kept up to date by rank-two updates
        G_scale = float(G.trace())  # trace when G was last rebuilt: the scale of the updates' rounding
        y_ss0 = (Y0 * Y0).sum(dim=0)  # residual sum of squares of each Y column, updated per component
        y_ss = y_ss0.clone()
        R, P, Q = [], [], []
        tt_first = None
        for k in range(n_max):
            # start column: first Y residual column that is not all zero (sklearn's `next(col ...)`)
            nonzero = torch.nonzero(y_ss > torch.clamp(1e-24 * y_ss0, min=n * eps**2)).flatten()
            if len(nonzero) == 0:
                warnings.warn(f"PLS: y residual is constant at component {k}; using {k} components")
                break
            w = self._dominant_x_weight(C, G, int(nonzero[0]), small_side_m)
            # rotation r_k so that t_k = X_k w_k = X0 r_k
            r = w.clone()
            for r_j, p_j in zip(R, P):
                r -= r_j * (p_j @ w)
            t = self._xc_matmul(Xt, self.x_mean_, r[:, None], precise=True)[:, 0]  # (n,)
            tt = t @ t
            if tt_first is None:
                tt_first = tt
            if tt <= tt_first * 1e-24 or tt == 0:
                warnings.warn(f"PLS: X residual is zero at component {k}; using {k} components")
                break
            u = self._xct_matmul(Xt, self.x_mean_, t[:, None], precise=True)[:, 0]  # X0ᵀ t, (p,)
            v = Y0.T @ t  # Y0ᵀ t = Y_kᵀ t, (m,)
            p_k, q_k = u / tt, v / tt
            # rank-one deflation of C and the matching rank-two update of its Gram
            if small_side_m:
                Ctu = C.T @ u
                G -= (torch.outer(v, Ctu) + torch.outer(Ctu, v)) / tt - (u @ u) * torch.outer(v, v) / tt**2
            else:
                Cv = C @ v
                G -= (torch.outer(u, Cv) + torch.outer(Cv, u)) / tt - (v @ v) * torch.outer(u, u) / tt**2
            C -= torch.outer(u, v) / tt
            # G's eigenvalues are C's squared singular values, so they can shrink by 1e12 over the
            # components (X -> X fits); updates carry rounding of the old scale, so rebuild G from
            # the deflated C (exact at the new scale) once it has shrunk a millionfold.
            if float(G.trace()) < 1e-6 * G_scale:
                G = gram_of(C)
                G_scale = float(G.trace())
            y_ss -= v * v / tt
            R.append(r)
            P.append(p_k)
            Q.append(q_k)
        if not R:
            raise ValueError("PLS found no component: X or Y has no variance")
        self.n_components_ = len(R)
        self.x_rotations_ = torch.stack(R, dim=1)  # (p, k)
        self.y_loadings_ = torch.stack(Q, dim=1)  # (m, k)
        self.coef_ = self.x_rotations_ @ self.y_loadings_.T  # (p, m)
        return self

    def _dominant_x_weight(self, C, G, start: int, small_side_m: bool) -> torch.Tensor:
        """sklearn's power method for the first left singular vector of C, run on the small Gram G.

        In sklearn each iteration maps ``w -> normalize(C Cᵀ w)`` from ``w_0 = normalize(C[:, start])``
        and stops when ``‖w_i - w_{i-1}‖² < tol`` (or after one step when there is a single target).
        With ``G = CᵀC`` (m × m) we iterate ``v -> G v`` with ``w = C v`` and ``‖C v‖ = 1``,
        ``w_iᵀ w_{i-1} = v_iᵀ G v_{i-1}``; the iterates are the same, at O(m²) per step.
        """
        # The loop runs in numpy on the CPU: O(s²) steps are latency-bound, and torch's threaded
        # matvec costs ~0.5 ms per call on small matrices (30× numpy's).
        single_target = C.shape[1] == 1
        G = G.cpu().numpy()
        if small_side_m:
            v = np.zeros(G.shape[0])
            v[start] = 1.0
            v_prev = None
            for _ in range(self.max_iter):
                v = v / np.sqrt(v @ G @ v)
                if v_prev is not None:
                    if 2.0 - 2.0 * (v @ G @ v_prev) < self.tol:
                        break
                elif single_target:
                    break
                v_prev = v
                v = G @ v
            w = C @ torch.from_numpy(v).to(C.device)
        else:
            w = C[:, start].cpu().numpy().copy()
            w_prev = None
            for _ in range(self.max_iter):
                w = w / np.linalg.norm(w)
                if w_prev is not None:
                    if ((w - w_prev) ** 2).sum() < self.tol:
                        break
                elif single_target:
                    break
                w_prev = w
                w = G @ w
            w = torch.from_numpy(w).to(C.device)
        return w / torch.linalg.norm(w)


# --------------------------------------------------------------------------------------------------
# Ridge family


class Ridge(Regression):
    """``sklearn.linear_model.Ridge(alpha=1)`` with intercept (Brain-Score ``ridge``).

    Solves ``(XcᵀXc + αI) B = XcᵀYc`` (p < n) or its dual ``B = Xcᵀ (XcXcᵀ + αI)⁻¹ Yc`` (p >= n),
    by Cholesky in float64; the Gram is built block-wise so X is never copied.
    """

    def __init__(self, alpha: float = 1.0, device: str = "cpu"):
        super().__init__(device)
        self.alpha = float(alpha)

    def fit(self, X, Y) -> "Ridge":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        n, p = Xt.shape
        self.n_features_in_ = p
        self.x_mean_ = self._mean(Xt)
        self.y_mean_ = Yt.mean(dim=0)
        Yc = Yt - self.y_mean_
        A = _symmetrize(self._gram(Xt, self.x_mean_))
        A.diagonal().add_(self.alpha)
        if n <= p:
            dual = _spd_solve(A, Yc)
            self.coef_ = self._xct_matmul(Xt, self.x_mean_, dual)
        else:
            self.coef_ = _spd_solve(A, self._xct_matmul(Xt, self.x_mean_, Yc))
        return self


def _spd_solve(A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
    """Solve A X = B for symmetric positive (semi)definite A; falls back to lstsq like sklearn."""
    L, info = torch.linalg.cholesky_ex(A)
    if int(info) == 0:
        return torch.cholesky_solve(B, L)
    return torch.linalg.lstsq(A.cpu(), B.cpu(), driver="gelsd").solution.to(A.device)


class RidgeCV(Regression):
    """``sklearn.linear_model.RidgeCV(alphas=ALPHA_LIST)`` (Brain-Score ``ridgecv_split``): one alpha for all
    targets, chosen by efficient leave-one-out (GCV) error, then a ridge fit with that alpha.

    With ``Xc = U S Vᵀ`` (from one eigendecomposition of the smaller Gram) and ``f = s²/(s²+α)``, the
    LOO residual of sample i is ``(Yc - U diag(f) Uᵀ Yc)_i / (1 - Σ_k U_ik² f_k - 1/n)`` (the ``1/n`` is the
    unpenalised intercept), which is exactly what sklearn's ``_RidgeGCV`` computes in its "gram"
    (n <= p) and "cov" (p < n) modes. The alpha minimising the mean squared LOO error over all samples and
    targets wins; ties keep the first (smallest) alpha, as sklearn's strict ``>`` does.

    Attributes: ``alpha_`` (chosen alpha), ``best_score_`` (minus its mean squared LOO error).
    """

    def __init__(self, alphas=ALPHA_LIST, device: str = "cpu"):
        super().__init__(device)
        self.alphas = tuple(float(a) for a in np.atleast_1d(alphas))

    def fit(self, X, Y) -> "RidgeCV":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        n, p = Xt.shape
        self.n_features_in_ = p
        self.x_mean_ = self._mean(Xt)
        self.y_mean_ = Yt.mean(dim=0)
        Yc = Yt - self.y_mean_
        lam, U, Z, Y_perp, V = _spectrum(self, Xt, self.x_mean_, Yc)
        U2 = U * U
        best = None
        for alpha in self.alphas:
            shrink = alpha / (lam + alpha)  # 1 - f
            residual = U @ (shrink[:, None] * Z) + Y_perp  # Yc - H Yc
            denom = 1.0 - U2 @ (1.0 - shrink) - 1.0 / n  # 1 - h_ii - 1/n
            score = -float(((residual / denom[:, None]) ** 2).mean())
            if best is None or score > best[0]:
                best = (score, alpha)
        self.best_score_, self.alpha_ = best
        filt = 1.0 / (lam + self.alpha_)
        if V is None:  # dual: coef = Xcᵀ U diag(1/(λ+α)) Uᵀ Yc
            self.coef_ = self._xct_matmul(Xt, self.x_mean_, U @ (filt[:, None] * Z))
        else:  # primal: Xcᵀ U = V diag(s)
            self.coef_ = V @ ((lam.sqrt() * filt)[:, None] * Z)
        return self


class LinearRegression(Regression):
    """``sklearn.linear_model.LinearRegression()`` (Brain-Score ``linear_predictivity``): least squares with
    intercept; for rank-deficient or p > n designs the minimum-norm solution (what sklearn's lstsq returns).

    Uses the pseudo-inverse from the eigendecomposition of the smaller centred Gram; eigenvalues below
    the Gram's rounding floor (relative ``max(n, p)·eps`` of X's dtype; at least 1e-13 for float32) count
    as zero. Solutions of ill-conditioned float32 designs therefore differ from lstsq's in the directions
    float32 cannot resolve anyway.
    """

    def fit(self, X, Y) -> "LinearRegression":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        self.n_features_in_ = Xt.shape[1]
        self.x_mean_ = self._mean(Xt)
        self.y_mean_ = Yt.mean(dim=0)
        Yc = Yt - self.y_mean_
        lam, U, Z, _, V = _spectrum(self, Xt, self.x_mean_, Yc)
        keep = lam > lam.max() * _gram_rtol(Xt)
        inv = torch.where(keep, 1.0 / torch.where(keep, lam, torch.ones_like(lam)), torch.zeros_like(lam))
        if V is None:
            self.coef_ = self._xct_matmul(Xt, self.x_mean_, U @ (inv[:, None] * Z))
        else:
            self.coef_ = V @ ((lam.sqrt() * inv)[:, None] * Z)
        return self


# --------------------------------------------------------------------------------------------------
# neuron_to_neuron


class NeuronToNeuron(Regression):
    """Brain-Score ``neuron_to_neuron`` (``SingleRegression``): each target takes the source column with the
    highest Pearson r on the training data (``nanargmax``; constant source columns have r = NaN and are
    never chosen); the prediction is that column's raw values, no fit.

    A constant target (all r NaN, where Brain-Score's ``nanargmax`` would raise) maps to source column 0,
    with a warning. ``selected_`` (n_targets,) holds the chosen source column per target.
    """

    def fit(self, X, Y) -> "NeuronToNeuron":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        self.n_features_in_ = Xt.shape[1]
        x_mean = self._mean(Xt)
        Yc = Yt - Yt.mean(dim=0)
        y_norm = torch.linalg.norm(Yc, dim=0)
        y_norm[(Yt == Yt[0]).all(dim=0)] = 0.0  # exactly constant: r undefined (rounding can leave ~1e-16)
        best_r = torch.full((Yt.shape[1],), -math.inf, dtype=torch.float64, device=Yt.device)
        best_i = torch.full((Yt.shape[1],), -1, dtype=torch.int64, device=Yt.device)
        for cols in self._col_blocks(Xt):  # float64 Pearson per column block
            block = Xt[:, cols].double() - x_mean[cols]
            x_norm = torch.linalg.norm(block, dim=0)
            x_norm[(Xt[:, cols] == Xt[0, cols]).all(dim=0)] = 0.0
            r = (block.T @ Yc) / torch.outer(x_norm, y_norm)  # (block, m)
            r[(x_norm == 0)[:, None].expand_as(r) | (y_norm == 0)[None, :].expand_as(r)] = -math.inf
            value, index = r.max(dim=0)  # first maximum within the block, like nanargmax
            better = value > best_r
            best_r[better] = value[better]
            best_i[better] = index[better] + cols.start
        if (best_i < 0).any():
            warnings.warn(f"neuron_to_neuron: {(best_i < 0).sum()} target(s) have no defined Pearson r; using column 0")
            best_i[best_i < 0] = 0
        self.selected_ = best_i.cpu().numpy()
        return self

    def predict(self, X) -> np.ndarray:
        """Raw values of the selected source columns, float32 (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=False)
        return Xt[:, torch.from_numpy(self.selected_).to(Xt.device)].float().cpu().numpy()
