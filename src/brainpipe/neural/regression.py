"""Regressions for cross-validated regression-correlation metrics (Brain-Score's ``pls``, ``ridge``,
``ridgecv_split``, ``linear_predictivity`` and ``neuron_to_neuron``).

Each estimator reproduces the scikit-learn model Brain-Score wraps
(``brainscore_vision/metrics/regression_correlation/metric.py``; ALPHA_LIST from
``brainscore_vision/metrics/ridgecv_split/metric.py``) but is written for
Brain-Score's shapes: a few thousand stimuli, 10^4-10^5 model features, 10^2 neuroids.

Design (why it is fast and lean):

* The activation matrix ``X`` is never copied whole. Every pass over it works on row or column
  blocks of about ``_BLOCK_BYTES`` that are centred on the fly, so centring is exact (no
  ``X @ r - mean @ r`` cancellation) and the extra memory is one block. On CPU, float32 input is used
  in place (``torch.from_numpy`` shares memory); float64 input is computed in float64.
* Everything small (cross-covariances, Gram matrices, eigenproblems, loadings) is float64.
* Models solved by a Gram matrix use the smaller side: ``Xc Xcᵀ`` (n×n) when features ≥ samples
  ("dual" / kernel form), ``Xcᵀ Xc`` (p×p) otherwise. PLS likewise runs NIPALS in n-space on
  ``Xc Xcᵀ`` for wide X (n_features ≫ n_samples, e.g. raw pixels) and in p-space otherwise.
* torch does the heavy products, so ``device="cuda"`` runs the same code on a GPU.
"""

from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np
import torch

from brainpipe.models.devices import resolve_device  # noqa: F401  (re-exported)
# The torch-free pieces and the fits from a Gram matrix (fold jobs) live in gram_fit; re-exported here.
from .gram_fit import ALPHA_LIST, GRAM_REGRESSIONS, fit_predict_gram  # noqa: F401
from .gram_fit import BLOCK_BYTES as _BLOCK_BYTES
from .gram_fit import check_finite as _check_finite
from .gram_fit import cpu_gram
from .gram_fit import gram_noise_rtol as _gram_noise_rtol
from .gram_fit import lstsq_rtol as _lstsq_rtol
from .gram_fit import pls_kernel
from .gram_fit import power_gram as _power_gram

REGRESSIONS = ("pls", "ridge", "ridgecv", "linear", "neuron_to_neuron")


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
# The samples of a spantime fit, without stacking them


class StackedBins:
    """The (time bin × stimulus) design of a spantime fit, ``[source(b)[train] for b in bins]`` stacked by rows,
    given to a regression's ``fit`` without being built.

    Stacked, it is the time × presentation × features product: 18 bins × 288 stimuli × 150528 pixels is 3.1 GB as
    float32, and building it from per-bin copies took twice that (a demo fold job grew past 9 GB). The regressions
    only ever read X in row blocks (``X[rows]``) and column blocks (``X[:, cols]``), each converted or centred as a
    fresh copy; this object hands them exactly those blocks, made from the source on request, so every product
    sees the same numbers in the same shapes as with the stacked array, and memory holds one block.

    ``source``: (n, features) for a static model (one output for every bin, Brain-Score's TemporalAligned), or
    (n, features, bins); ``train``: the fold's training rows; ``n_bins``: the target's bins.
    """

    def __init__(self, source, train, n_bins: int, device: str = "cpu"):
        source = np.asarray(source)
        if source.dtype != np.float64:
            source = np.asarray(source, dtype=np.float32)  # as Regression._as_x converts a stacked X
        _check_finite(source, "X")
        if source.ndim == 3 and source.shape[2] != n_bins:
            raise ValueError(f"X has {source.shape[2]} time bins, the target {n_bins}")
        self._source = torch.from_numpy(np.ascontiguousarray(source)).to(device)
        self._train = torch.as_tensor(np.asarray(train), dtype=torch.long, device=self._source.device)
        self.n_bins = int(n_bins)
        self.shape = (self.n_bins * len(self._train), source.shape[1])
        self.dtype, self.device = self._source.dtype, self._source.device

    def element_size(self) -> int:
        return self._source.element_size()

    def __getitem__(self, key) -> torch.Tensor:
        rows, cols = key if isinstance(key, tuple) else (key, slice(None))
        if not isinstance(rows, slice) or not isinstance(cols, slice):
            raise TypeError("StackedBins gives row and column blocks (slices) only")
        if rows == slice(None):  # a column block of every sample: bin after bin, each the training rows
            block = self._source[:, cols][self._train]  # (train, cols) or (train, cols, bins)
            if block.ndim == 2:
                return block.repeat(self.n_bins, 1)
            return block.permute(2, 0, 1).reshape(-1, block.shape[1])
        index = torch.arange(*rows.indices(self.shape[0]), device=self.device)
        stimuli = self._train[index % len(self._train)]
        if self._source.ndim == 2:
            return self._source[stimuli][:, cols]
        return self._source[stimuli, cols, index // len(self._train)]  # (rows, cols): the indexed axes go first

    def sum(self, dim: int, dtype=None) -> torch.Tensor:
        """Column sums (``dim=0``), over column blocks of every sample."""
        if dim != 0:
            raise ValueError("StackedBins sums over samples (dim=0) only")
        out = torch.empty(self.shape[1], dtype=dtype or self.dtype, device=self.device)
        step = max(1, Regression._BLOCK_COLUMNS_BYTES // (self.shape[0] * self.element_size()))
        for start in range(0, self.shape[1], step):
            out[start:start + step] = self[:, start:start + step].sum(dim=0, dtype=dtype)
        return out


# --------------------------------------------------------------------------------------------------
# Shared helpers


class Regression:
    """Base class: input checks, device handling and block-wise products with the centred ``X``.

    Subclasses implement ``fit(X, Y)`` and ``predict(X)``.
    ``X`` : array of shape (n_samples, n_features), ``Y`` : array of shape (n_samples, n_targets).
    """

    _BLOCK_COLUMNS_BYTES = 16 * 2**20  # column blocks of a StackedBins' sums

    def __init__(self, device: str = "cpu"):
        self.device = resolve_device(device)

    # ---- conversion -------------------------------------------------------------------------------
    def _as_x(self, X, *, fitting: bool) -> torch.Tensor:
        """X as a 2-D torch tensor on the device, float64 if given float64 else float32, not copied on CPU
        (a :class:`StackedBins` as it is: it makes its blocks on request)."""
        if isinstance(X, StackedBins):
            if fitting and X.shape[0] < 2:
                raise ValueError(f"need at least 2 samples to fit, got {X.shape[0]}")
            return X
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
    def _prepare_fit(self, X, Y):
        """Checked tensors for a linear fit with intercept: X as given (centred lazily, blockwise, via
        ``x_mean_``) and Y centred; records ``n_features_in_``, ``x_mean_`` and ``y_mean_``."""
        Xt = self._as_x(X, fitting=True)
        Yt = self._as_y(Y, Xt.shape[0])
        self.n_features_in_ = Xt.shape[1]
        self.x_mean_ = self._mean(Xt)
        self.y_mean_ = Yt.mean(dim=0)
        return Xt, Yt - self.y_mean_

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
    # primal: keep directions above the rounding floor of the float64 Gram, U = Xc V / s. U is computed
    # with float64 products: a float32 product's error eps32·s_max, divided by a small s, would swamp U.
    keep = lam > lam.max() * _gram_noise_rtol(n, p)
    lam, V = lam[keep], vecs[:, keep]
    U = model._xc_matmul(X, x_mean, V, precise=True) / lam.sqrt()
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


# --------------------------------------------------------------------------------------------------
# PLS


class PLSRegression(Regression):
    """PLS2 regression = ``sklearn.cross_decomposition.PLSRegression(n_components=25, scale=False)``
    (Brain-Score ``pls``: ``brainscore_vision/metrics/regression_correlation/metric.py``).

    Same algorithm as scikit-learn's NIPALS (X and Y centred, not scaled; regression-mode deflation;
    each X weight from the power method on the deflated ``XᵀY`` started at the first non-zero Y
    column, ``max_iter`` 500, ``tol`` 1e-6 on ``‖w_i - w_{i-1}‖²``, emulated step for step), but never
    deflates the (n × p) X. Two exact reformulations, chosen by a cost estimate (``solver="auto"``,
    see ``_pls_solver``):

    **features** (p-space; narrow and tall X):

    * ``C_k = X_kᵀ Y_k`` (p × m) is deflated instead: ``C_{k+1} = C_k - (X0ᵀ t)(Y0ᵀ t)ᵀ / (tᵀ t)``;
    * the power iteration on ``C Cᵀ`` runs on the small side (``CᵀC``, m × m, when m <= p);
    * scores ``t_k = X0 r_k`` use the rotations ``r_k = w_k - Σ_{j<k} r_j (p_jᵀ w_k)``
      (= columns of ``W (PᵀW)⁻¹``), so each component costs two float64 passes over X.

    **kernel** (n-space; wide X, n_features ≫ n_samples): with ``K_0 = X0 X0ᵀ`` (n × n, one float64
    pass over X, which also yields the column means) and ``D_k = I - t_k t_kᵀ / (t_kᵀ t_k)``,
    ``X_k = D_{k-1}…D_1 X0``, ``K_k = X_k X_kᵀ`` and ``Y_k = D_{k-1}…D_1 Y0`` (regression-mode
    deflation of Y is the same projection), so everything NIPALS needs lives in n-space:

    * ``CᵀC = Y_kᵀ K_k Y_k`` (m × m): the *same* power iteration gives ``v_k`` and ``w_k ∝ X_kᵀ Y_k v_k``
      with ``‖X_kᵀ Y_k v‖² = vᵀ CᵀC v``; for m > n it runs on ``s -> Y_k Y_kᵀ K_k s`` (w = X_kᵀ s);
    * ``w_k = X0ᵀ a_k`` with ``a_k = Y_k v_k / ‖·‖`` (Y_k already lies in the range of the projections),
      ``t_k = X_k w_k = K_k a_k``, ``K_{k+1} = D_k K_k D_k``, ``Y_{k+1} = Y_k - t_k q_kᵀ``;
    * ``W = X0ᵀ A``, ``P = X0ᵀ T diag(1/tᵀt)``, so ``PᵀW = diag(1/tᵀt) Tᵀ K_0 A`` and the rotations
      ``W (PᵀW)⁻¹ = X0ᵀ A (PᵀW)⁻¹`` take one more pass over X. Per component only O(n² m) work.

    ``predict(X) = (X - x_mean) @ coef + y_mean`` with ``coef = W (PᵀW)⁻¹ Qᵀ`` (p × m) on both paths.

    Parameters
    ----------
    n_components : int, default 25
        Clamped to ``min(n_components, n_samples - 1, n_features)`` (the rank bound of centred X;
        scikit-learn raises instead). Fitting also stops early, with fewer components, when the Y
        residual is all zero (as scikit-learn does) or X is fully deflated. ``n_components_`` holds
        the number used.
    max_iter, tol : power-method settings (scikit-learn defaults).
    solver : "auto" (default), "features" or "kernel" (force a path; same predictions either way).
        ``solver_`` holds the path used.
    device : "cpu", "cuda" or "auto".
    """

    SOLVERS = ("auto", "features", "kernel")

    def __init__(self, n_components: int = 25, max_iter: int = 500, tol: float = 1e-6, solver: str = "auto",
                 device: str = "cpu"):
        super().__init__(device)
        if n_components < 1:
            raise ValueError(f"n_components must be >= 1, got {n_components}")
        if solver not in self.SOLVERS:
            raise ValueError(f"unknown PLS solver {solver!r}; use one of {', '.join(self.SOLVERS)}")
        self.n_components, self.max_iter, self.tol = int(n_components), int(max_iter), float(tol)
        self.solver = solver

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
        self.y_mean_ = Yt.mean(dim=0)
        Y0 = Yt - self.y_mean_
        # sklearn zeroes Y columns whose entries are all < 10 eps (constant targets): no 0/0 anywhere.
        Y0[:, (Y0.abs() < 10 * eps).all(dim=0)] = 0.0
        n_max = min(self.n_components, n - 1, p)
        solver = self.solver if self.solver != "auto" else _pls_solver(n, p, m, n_max)
        self.solver_ = solver
        self.rank_floor_at_ = None  # set by the kernel path where the layer's numerical rank stops the fit
        if solver == "kernel":
            R, Q = self._fit_kernel(Xt, Y0, n_max)
        else:
            self.x_mean_ = self._mean(Xt)
            R, Q = self._fit_features(Xt, Y0, n_max)
        self.n_components_ = R.shape[1]
        self.x_rotations_ = R  # (p, k)
        self.y_loadings_ = Q  # (m, k)
        self.coef_ = self.x_rotations_ @ self.y_loadings_.T  # (p, m)
        return self

    def _start_column(self, y_ss, y_ss0, n: int, k: int):
        """First Y residual column that is not all zero (sklearn's ``next(col ...)``), or None (with a warning)."""
        eps = np.finfo(np.float64).eps
        nonzero = torch.nonzero(y_ss > torch.clamp(1e-24 * y_ss0, min=n * eps**2)).flatten()
        if len(nonzero) == 0:
            warnings.warn(f"PLS: y residual is constant at component {k}; using {k} components")
            return None
        return int(nonzero[0])

    def predict(self, X) -> np.ndarray:
        """Predict targets. X : (n_samples, n_features). Returns float32 array (n_samples, n_targets)."""
        with _single_thread(self.device):  # one memory-bound pass over X (see _single_thread)
            return self._linear_predict(X)

    # ---- p-space path ---------------------------------------------------------------------------------
    def _fit_features(self, Xt, Y0, n_max):
        n, p = Xt.shape
        m = Y0.shape[1]
        C = self._xct_matmul(Xt, self.x_mean_, Y0, precise=True)  # (p, m) = X0ᵀ Y0
        small_side_m = m <= p
        gram_of = (lambda C_: C_.T @ C_) if small_side_m else (lambda C_: C_ @ C_.T)
        G = gram_of(C)  # Gram of C on its small side, kept up to date by rank-two updates
        G_scale = float(G.trace())  # trace when G was last rebuilt: the scale of the updates' rounding
        y_ss0 = (Y0 * Y0).sum(dim=0)  # residual sum of squares of each Y column, updated per component
        y_ss = y_ss0.clone()
        R, Q = [], []
        P = []
        tt_first = None
        for k in range(n_max):
            start = self._start_column(y_ss, y_ss0, n, k)
            if start is None:
                break
            w = self._dominant_x_weight(C, G, start, small_side_m)
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
        return torch.stack(R, dim=1), torch.stack(Q, dim=1)

    def _dominant_x_weight(self, C, G, start: int, small_side_m: bool) -> torch.Tensor:
        """sklearn's power method for the first left singular vector of C, run on the small Gram G.

        In sklearn each iteration maps ``w -> normalize(C Cᵀ w)`` from ``w_0 = normalize(C[:, start])``
        and stops when ``‖w_i - w_{i-1}‖² < tol`` (or after one step when there is a single target).
        With ``G = CᵀC`` (m × m) we iterate ``v -> G v`` with ``w = C v`` and ``‖C v‖ = 1``,
        ``w_iᵀ w_{i-1} = v_iᵀ G v_{i-1}``; the iterates are the same, at O(m²) per step.
        """
        single_target = C.shape[1] == 1
        if small_side_m:
            v = _power_gram(G.cpu().numpy(), start, single_target, self.max_iter, self.tol)
            w = C @ torch.from_numpy(v).to(C.device)
        else:
            # The loop runs in numpy on the CPU: O(s²) steps are latency-bound, and torch's threaded
            # matvec costs ~0.5 ms per call on small matrices (30× numpy's).
            G = G.cpu().numpy()
            w = C[:, start].cpu().numpy().copy()
            w_prev = None
            for i in range(self.max_iter):
                w = w / np.linalg.norm(w)
                if w_prev is not None:
                    if ((w - w_prev) ** 2).sum() < self.tol:
                        break
                elif single_target:
                    break
                if i == self.max_iter - 1:  # not converged: sklearn returns its max_iter-th iterate
                    break
                w_prev = w
                w = G @ w
            w = torch.from_numpy(w).to(C.device)
        return w / torch.linalg.norm(w)

    # ---- n-space (kernel) path ------------------------------------------------------------------------
    def _fit_kernel(self, Xt, Y0, n_max):
        self.x_mean_, K0 = self._centred_gram_f64(Xt)  # one pass: means and K_0 = X0 X0ᵀ in float64
        # the n-space iterations are the fold jobs' own (gram_fit.pls_kernel), in numpy on the CPU: O(n²) per
        # component on an n × n matrix of a few thousand rows, latency-bound on a GPU
        stopped = {}
        rot_dual, Q = pls_kernel(K0.cpu().numpy(), Y0.double().cpu().numpy(), n_max, self.max_iter, self.tol,
                                 info=stopped)
        self.rank_floor_at_ = stopped.get("rank_floor_at")  # the layer's numerical rank, where it stopped the fit
        rot_dual, Q = torch.from_numpy(rot_dual).to(Xt.device), torch.from_numpy(Q).to(Xt.device)
        R = self._xct_matmul_cols(Xt, self.x_mean_, rot_dual)  # rotations X0ᵀ A (PᵀW)⁻¹, (p, k)
        return R, Q

    @staticmethod
    def _col_blocks_f64(X: torch.Tensor):
        """Column blocks of ~4 MB (at least 256 columns) as float64: cache-friendly float64 GEMMs (kernel path)."""
        cols = max(256, (4 * 2**20) // (X.shape[0] * 8))
        for start in range(0, X.shape[1], cols):
            yield slice(start, min(start + cols, X.shape[1]))

    def _centred_gram_f64(self, X):
        """Column means and ``Xc Xcᵀ`` (n × n), both float64, in one pass over column blocks of X
        (each block converted to float64 and centred exactly, so K has float64 rounding only)."""
        n, p = X.shape
        mean = torch.empty(p, dtype=torch.float64, device=X.device)
        K = torch.zeros((n, n), dtype=torch.float64, device=X.device)
        for cols in self._col_blocks_f64(X):
            block = X[:, cols].to(torch.float64, copy=True)  # a copy even for float64 X: centred in place
            mean[cols] = block.mean(dim=0)
            block -= mean[cols]
            K += block @ block.T
        return mean, _symmetrize(K)

    def _xct_matmul_cols(self, X, mean, B):
        """``(X - mean)ᵀ @ B`` (p, k) float64 over float64 column blocks (no accumulation across blocks)."""
        out = torch.empty((X.shape[1], B.shape[1]), dtype=torch.float64, device=X.device)
        B = B.double()
        for cols in self._col_blocks_f64(X):
            out[cols] = (X[:, cols].double() - mean[cols]).T @ B
        return out


# Cost model of the two PLS paths, in seconds per unit on one CPU core. Measured (CPU time, torch 2.13/MKL,
# 2-core Xeon; only the ratios matter) on 288×196608, 576×32768, 1152×32768 and 2880×9216 float32 X:
# a float64 matrix-vector pass over float32 X is memory- and conversion-bound, 1.75-3.5 ns per element
# of X (taken low, 2 ns, so ties go to the p-space path); float64 GEMM is compute-bound, ~0.05 ns per
# multiply-add; streaming updates of the p × m float64 arrays ~0.5 ns per element.
_COST_PASS, _COST_MAC, _COST_STREAM = 2.0e-9, 0.05e-9, 0.5e-9


def _pls_solver(n: int, p: int, m: int, k: int) -> str:
    """``"kernel"`` or ``"features"`` for PLS on an (n, p) X with m targets and k components: whichever the
    cost model above says is cheaper.

    * features: ``2k + 1`` float64 passes over X (two per component, one for ``X0ᵀ Y0``) plus
      ~``k p (3m + k)`` streaming work on C and the rotations;
    * kernel: the Gram (``n² p`` multiply-adds, one pass), the rotations (one pass, ``n p k``) and
      ``k n² (min(m, n) + 4)`` per-component work in n-space.

    p cancels to first order, so the switch is essentially ``n ≲ 2k · COST_PASS / COST_MAC`` (~2000 at 25
    components): wide Brain-Score folds (a few hundred stimuli × 10⁵ pixels: 288×196608→40 measured
    1.1 s vs 9 s CPU) go to the kernel path, 2880-stimulus folds stay in p-space (2880×9216→168: 2.4 s
    vs 6 s kernel). The kernel path also needs ``p >= 2n``: its two n × n float64 Grams (K_0 and the
    deflated K_k, 16 n² bytes) then take no more than twice a float32 X (8 n p bytes). Below that the
    p-space path is used even where the model would favour the kernel: X is then small (p < 2n), so
    both paths are fast and the memory bound matters more.
    """
    if p < 2 * n:
        return "features"
    features = (2 * k + 1) * n * p * _COST_PASS + k * p * (3 * m + k) * _COST_STREAM
    kernel = (n * n * p + n * p * k + k * n * n * (min(m, n) + 4)) * _COST_MAC + n * p * _COST_PASS
    return "kernel" if kernel < features else "features"


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
        Xt, Yc = self._prepare_fit(X, Y)
        n, p = Xt.shape
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
        Xt, Yc = self._prepare_fit(X, Y)
        n, p = Xt.shape
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
        if V is None:  # dual: coef = Xcᵀ U diag(1/(λ+α)) Uᵀ Yc, float64 products (1/α can reach 100)
            self.coef_ = self._xct_matmul(Xt, self.x_mean_, U @ (filt[:, None] * Z), precise=True)
        else:  # primal: Xcᵀ U = V diag(s)
            self.coef_ = V @ ((lam.sqrt() * filt)[:, None] * Z)
        return self


class LinearRegression(Regression):
    """``sklearn.linear_model.LinearRegression()`` (Brain-Score ``linear_predictivity``): least squares with
    intercept; for rank-deficient or p > n designs the minimum-norm solution (what sklearn's lstsq returns).

    Uses the pseudo-inverse from the eigendecomposition of the smaller centred Gram (accumulated in
    float64). Singular values ``s < max(n, p)·eps·s_max`` count as zero, with eps of X's dtype, as
    scikit-learn's ``lstsq`` call does on X (the eigenvalue cutoff is that tolerance squared, see
    ``_lstsq_rtol``). For float64 X the float64 Gram's rounding floor (eigenvalues below
    ``max(n, p)·eps64·λ_max``, i.e. ``s`` below ~1e-7·``s_max``) is the limit instead: such designs
    differ from lstsq's in directions that lie below what a Gram can resolve.
    """

    def fit(self, X, Y) -> "LinearRegression":
        """Fit on X (n_samples, n_features) and Y (n_samples, n_targets)."""
        Xt, Yc = self._prepare_fit(X, Y)
        lam, U, Z, _, V = _spectrum(self, Xt, self.x_mean_, Yc)
        n, p = Xt.shape
        keep = lam > lam.max() * _lstsq_rtol(n, p, np.float64 if Xt.dtype == torch.float64 else np.float32)
        inv = torch.where(keep, 1.0 / torch.where(keep, lam, torch.ones_like(lam)), torch.zeros_like(lam))
        if V is None:  # float64 products: the dual coefficients carry 1/λ of the smallest kept λ
            self.coef_ = self._xct_matmul(Xt, self.x_mean_, U @ (inv[:, None] * Z), precise=True)
        else:
            self.coef_ = V @ ((lam.sqrt() * inv)[:, None] * Z)
        return self


# --------------------------------------------------------------------------------------------------
# neuron_to_neuron


class UndefinedCorrelationError(ValueError):
    """``neuron_to_neuron`` found no source column with a defined Pearson r for some targets.

    ``constant_targets``: indices of the target columns constant over the training samples;
    ``source_constant``: True when (also) every source column is constant, so no target has a defined r.
    """

    def __init__(self, constant_targets, source_constant: bool = False):
        self.constant_targets = [int(i) for i in constant_targets]
        self.source_constant = source_constant
        parts = []
        if self.constant_targets:
            parts.append(f"{len(self.constant_targets)} target column(s) are constant over the training samples "
                         f"(columns {self.constant_targets[:20]}{' ...' if len(self.constant_targets) > 20 else ''})")
        if source_constant:
            parts.append("every source column is constant over the training samples")
        super().__init__("neuron_to_neuron: Pearson r is undefined (as in Brain-Score, whose nanargmax raises): "
                         + "; ".join(parts))


class NeuronToNeuron(Regression):
    """Brain-Score ``neuron_to_neuron`` (``SingleRegression``): each target takes the source column with the
    highest Pearson r on the training data (``nanargmax``; constant source columns have r = NaN and are
    never chosen); the prediction is that column's raw values, no fit.

    A target whose r is undefined for every source column raises ``UndefinedCorrelationError`` (Brain-Score's
    ``nanargmax`` raises ``ValueError: All-NaN slice encountered`` there): a target constant over the
    training samples, or a source whose columns are all constant. There is no number to report for such a
    target, and picking a column anyway would put a made-up r into the median. ``selected_`` (n_targets,)
    holds the chosen source column per target.
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
            constant = (y_norm == 0).cpu().numpy()
            undefined = (best_i < 0).cpu().numpy()
            raise UndefinedCorrelationError(
                np.flatnonzero(undefined & constant), source_constant=bool((undefined & ~constant).any()))
        self.selected_ = best_i.cpu().numpy()
        return self

    def predict(self, X) -> np.ndarray:
        """Raw values of the selected source columns, float32 (n_samples, n_targets)."""
        Xt = self._as_x(X, fitting=False)
        return Xt[:, torch.from_numpy(self.selected_).to(Xt.device)].float().cpu().numpy()


# --------------------------------------------------------------------------------------------------
# Fitting from the stimulus Gram matrix (one pass over X per layer, then every fold in n-space)
#
# All four linear regressions predict through the centred kernel: with μ the mean of the training rows,
# Kc = (X_t - μ)(X_t - μ)ᵀ and Ks = (X_s - μ)(X_t - μ)ᵀ for the test rows s, every prediction is
# ``Ks B + ȳ`` for an (n_train, m) dual coefficient B that depends only on Kc and Y_t:
#   ridge    B = (Kc + αI)⁻¹ Yc                          (= Xcᵀ-form of sklearn's Ridge for any p)
#   ridgecv  the same with α chosen by sklearn's efficient LOO (GCV) from the eigendecomposition of Kc
#   linear   B = Kc⁺ Yc                                  (min-norm least squares with intercept)
#   pls      B = A (PᵀW)⁻¹ Qᵀ from the kernel NIPALS     (coef = Xcᵀ B)
# Kc and Ks follow from the uncentred G = X Xᵀ by double centring (train means only), so a fold never
# needs X. The centring is exact for any shift of X: G may equally be the Gram of X - c for any fixed
# row vector c (``gram(X, center=True)`` uses the column means of all rows, which keeps G's entries at
# the scale of the centred kernel when features have large offsets).


def gram(X, device: str = "cpu", center: bool = False) -> np.ndarray:
    """Stimulus Gram matrix ``X Xᵀ`` (n, n) float64 of an (n, p) activation matrix, for ``fit_predict_gram``.

    One pass over column blocks of X (~32 MB each, converted to float64: no float64 copy of X), float64
    products accumulated in float64, only the lower triangle computed (then mirrored). float32 input is
    used in place on the CPU. ``center=True`` returns the Gram of ``X - mean(X, axis=0)`` instead; either
    works for ``fit_predict_gram``, whose train-mean centring cancels any fixed shift of X. On the CPU this is
    ``gram_fit.cpu_gram`` (numpy, BLAS syrk); on a GPU the same products in torch.
    """
    device = resolve_device(device)
    if device == "cpu":
        return cpu_gram(X, center=center)
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
    if X.dtype != np.float64:
        X = np.asarray(X, dtype=np.float32)
    _check_finite(X, "X")
    if not X.flags.c_contiguous:
        X = np.ascontiguousarray(X)
    Xt = torch.from_numpy(X)
    n, p = X.shape
    G = torch.zeros((n, n), dtype=torch.float64, device=device)
    cols = max(64, (32 * 2**20) // (max(n, 1) * 8))
    tile = max(256, -(-n // 8))  # row tiles: blocks ≤ the diagonal cost ~(1 + 1/8)/2 of the full product
    for c0 in range(0, p, cols):
        block = Xt[:, c0:c0 + cols].to(device=device, dtype=torch.float64, copy=True)
        if center:
            block -= block.mean(dim=0)
        for r0 in range(0, n, tile):
            r1 = min(r0 + tile, n)
            G[r0:r1, :r1].addmm_(block[r0:r1], block[:r1].T)
    for r0 in range(0, n, tile):  # mirror the lower triangle tile by tile (no n × n temporaries)
        r1 = min(r0 + tile, n)
        G[:r0, r0:r1] = G[r0:r1, :r0].T
        diag = G[r0:r1, r0:r1]
        diag.copy_(torch.tril(diag) + torch.tril(diag, -1).T)
    return G.cpu().numpy()
