"""Speed, fidelity and memory of brainpipe.neural.regression against the scikit-learn models Brain-Score uses.

Usage::

    .venv/bin/python perf/bench_regression.py --quick          # < 3 min, smaller shapes
    .venv/bin/python perf/bench_regression.py                  # MajajHong-shaped, 1 split
    .venv/bin/python perf/bench_regression.py --folds 10 --methods pls --features 9216
    .venv/bin/python perf/bench_regression.py --wide                    # PLS, 320×196608 raw pixels → 40
    .venv/bin/python perf/bench_regression.py --wide --threads 1 2      # ... at 1 and 2 torch threads
    .venv/bin/python perf/bench_regression.py --gram --features 9216 --sklearn-folds 2   # Gram path

``--gram``: the whole 10-fold evaluation of one layer as the workflow runs it from the Gram matrix:
ours = one ``gram(X)`` (subprocess 1: loads X) + 10 × ``fit_predict_gram`` (subprocess 2: loads only G
and Y), sklearn = 10 × fit+predict on ``X[train]`` (one subprocess per fold; only ``--sklearn-folds`` of
them are run and the 10-fold time is extrapolated from their mean, marked ``*``). 256 targets. Peak RSS of
each phase (growth over the RSS after loading its inputs) is reported relative to the activation array.

Data: MajajHong-shaped structured synthetic data (3200 stimuli; ReLU-like features that are a random
mixture of 40 latent factors plus noise; targets driven by the same latents plus noise), float32
activations as the model stage writes them. Split 90/10 (2880 train / 320 test) as Brain-Score does.
``--wide``: features ≫ samples (320 stimuli × 196608 raw pixels → 40 targets; 288 train), where PLS
takes its n-space (kernel) path; sklearn is abandoned after ``--sklearn-timeout`` (120 s by default there).

Each (method, implementation, fold) runs in its own subprocess so its peak RSS is its own:
``peak extra`` = ru_maxrss after fit+predict minus the RSS just before (the activation array is
already loaded), reported as a multiple of the activation array's size.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from peak_memory import reset_peak_rss, run_worker, status_bytes  # perf/peak_memory.py

OUT = Path(__file__).resolve().parent / "out"
METHODS = ("pls", "ridge", "ridgecv", "linear", "neuron_to_neuron")


def make_data(n: int, p: int, m: int, seed: int = 0, rank: int = 40):
    """X (n, p) float32 ReLU-like activations, Y (n, m) float64 'neural' responses; shared latents."""
    rng = np.random.default_rng(seed)
    latents = rng.standard_normal((n, rank)).astype(np.float32)
    X = np.empty((n, p), dtype=np.float32)
    mixing = rng.standard_normal((rank, p), dtype=np.float32) / np.sqrt(rank)
    for start in range(0, n, 256):  # blockwise: no float64 temp of X
        block = latents[start:start + 256] @ mixing
        block += 0.7 * rng.standard_normal(block.shape, dtype=np.float32)
        X[start:start + 256] = np.maximum(block, 0)
    weights = rng.standard_normal((rank, m)) * rng.uniform(0.2, 1.0, m)
    Y = latents.astype(np.float64) @ weights + 1.5 * rng.standard_normal((n, m))
    return X, Y


def folds(n: int, n_folds: int, seed: int = 1):
    """Brain-Score-like 90/10 shuffle splits (plain ShuffleSplit; no object stratification in synthetic data)."""
    from sklearn.model_selection import ShuffleSplit

    return list(ShuffleSplit(n_splits=n_folds, train_size=0.9, random_state=seed).split(np.zeros(n)))


def sklearn_model(name: str):
    from sklearn.cross_decomposition import PLSRegression
    from sklearn.linear_model import LinearRegression, Ridge, RidgeCV

    from brainpipe.neural.regression import ALPHA_LIST

    if name == "pls":
        return PLSRegression(n_components=25, scale=False)
    if name == "ridge":
        return Ridge(alpha=1)
    if name == "ridgecv":
        return RidgeCV(alphas=ALPHA_LIST)
    if name == "linear":
        return LinearRegression()
    return SklearnNeuronToNeuron()


class SklearnNeuronToNeuron:
    """Brain-Score's SingleRegression, literally (numpy, per-target Pearson over all units, nanargmax)."""

    def fit(self, X, Y):
        X = np.asarray(X, dtype=np.float64)
        Xc = X - X.mean(0)
        Yc = Y - Y.mean(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            r = (Xc.T @ Yc) / np.outer(np.linalg.norm(Xc, axis=0), np.linalg.norm(Yc, axis=0))
        self.selected_ = np.nanargmax(r, axis=0)
        return self

    def predict(self, X):
        return X[:, self.selected_]


def worker(args) -> None:
    """Fit + predict one (method, impl, fold); print a JSON line with time, RSS and held-out r."""
    import torch

    torch.set_num_threads(args.threads or os.cpu_count() or 1)
    from brainpipe.neural.regression import make_regression
    from brainpipe.neural.stats import pearson_columns

    X = np.load(args.x_path)
    Y = np.load(args.y_path)
    train, test = folds(len(X), args.n_folds)[args.fold]
    Xtr, Xte = X[train], X[test]  # the train copy is what the metric pipeline hands over
    del X
    reset_peak_rss()
    rss_before = status_bytes("VmRSS")
    start, cpu_start = time.perf_counter(), time.process_time()
    model = make_regression(args.method) if args.impl == "ours" else sklearn_model(args.method)
    model.fit(Xtr, Y[train])
    pred = model.predict(Xte)
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    peak = status_bytes("VmHWM") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    r = pearson_columns(pred, Y[test])
    print(json.dumps({"seconds": seconds, "cpu_seconds": cpu_seconds, "extra_peak": max(0, peak - rss_before),
                      "x_bytes": Xtr.nbytes, "r": r.tolist(), "alpha": getattr(model, "alpha_", None),
                      "solver": getattr(model, "solver_", None)}))


def gram_worker(phase, method, x_path, y_path, g_path, n_folds, threads) -> None:
    """``phase`` "gram": G = gram(X) saved to g_path; "folds": all folds of ``method`` from G and Y."""
    import torch

    torch.set_num_threads(threads or os.cpu_count() or 1)
    from brainpipe.neural.regression import fit_predict_gram, gram
    from brainpipe.neural.stats import pearson_columns

    if phase == "gram":
        X = np.load(x_path, mmap_mode="r")
        x_bytes = X.nbytes
        X = np.ascontiguousarray(X)  # read fully: the activations as a fold job would hold them
        reset_peak_rss()
        rss_before = status_bytes("VmRSS")
        start = time.perf_counter()
        G = gram(X)
        seconds = time.perf_counter() - start
        peak = status_bytes("VmHWM")
        np.save(g_path, G)
        print(json.dumps({"seconds": seconds, "extra_peak": max(0, peak - rss_before), "x_bytes": x_bytes}))
        return
    G = np.load(g_path)
    Y = np.load(y_path)
    x_shape = np.load(x_path, mmap_mode="r").shape
    reset_peak_rss()
    rss_before = status_bytes("VmRSS")
    out = {"fold_seconds": [], "r": [], "alpha": []}
    for fold, (train, test) in enumerate(folds(len(G), 10)[:n_folds]):
        start = time.perf_counter()
        info = {}
        pred = fit_predict_gram(method, G, train, test, Y, n_features=x_shape[1], info=info)
        out["fold_seconds"].append(time.perf_counter() - start)
        out["r"].append(pearson_columns(pred, Y[test]).tolist())
        out["alpha"].append(info.get("alpha"))
    out["extra_peak"] = max(0, status_bytes("VmHWM") - rss_before)
    out["rss_before"] = rss_before
    print(json.dumps(out))


def _run_gram_worker(*args):
    cmd = [sys.executable, __file__, "--gram-worker", *map(str, args)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"gram worker {args[:2]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main_gram(args, n, features) -> None:
    """10-fold evaluation through the Gram path vs sklearn per fold (see the module docstring)."""
    m = args.targets
    header = (f"{'method':<9}{'n×p→m':>18}{'gram s':>8}{'folds s':>9}{'ours 10f s':>11}{'sklearn 10f s':>15}"
              f"{'speed-up':>10}{'max|Δr|':>10}{'med r':>7}{'gram RSS/X':>11}{'fold RSS/X':>11}{'skl RSS/X':>10}"
              f"  alpha ours=skl")
    print(header)
    print("-" * len(header))
    for p in features:
        X, Y = make_data(n, p, m)
        x_path, y_path, g_path = OUT / f"X_{n}x{p}.npy", OUT / f"Y_{n}x{m}.npy", OUT / f"G_{n}x{p}.npy"
        np.save(x_path, X)
        np.save(y_path, Y)
        x_bytes = X.nbytes
        del X
        g = _run_gram_worker("gram", "-", x_path, y_path, g_path, 10, 0)
        for method in args.methods:
            ours = _run_gram_worker("folds", method, x_path, y_path, g_path, 10, 0)
            ours_total = g["seconds"] + sum(ours["fold_seconds"])
            refs = []
            for fold in range(args.sklearn_folds):
                ref = run_one(method, "sklearn", fold, 10, x_path, y_path, args.sklearn_timeout)
                if ref is None:
                    break
                refs.append(ref)
            line = (f"{method:<9}{f'{int(0.9 * n)}×{p}→{m}':>18}{g['seconds']:>8.1f}{sum(ours['fold_seconds']):>9.1f}"
                    f"{ours_total:>11.1f}")
            r_ours = np.array(ours["r"], dtype=float)
            if refs:
                per_fold = np.mean([ref["seconds"] for ref in refs])
                extrapolated = len(refs) < 10
                skl_total = per_fold * 10
                dr = max(np.nanmax(np.abs(r_ours[i] - np.array(ref["r"], dtype=float))) for i, ref in enumerate(refs))
                same_alpha = all(ref["alpha"] == ours["alpha"][i] for i, ref in enumerate(refs))
                skl_rss = max(ref["extra_peak"] for ref in refs) / x_bytes
                line += (f"{skl_total:>14.1f}{'*' if extrapolated else ' '}{skl_total / ours_total:>9.1f}×"
                         f"{dr:>10.1e}{np.nanmedian(r_ours):>7.3f}{g['extra_peak'] / x_bytes:>11.2f}"
                         f"{ours['extra_peak'] / x_bytes:>11.2f}{skl_rss:>10.2f}")
                if method == "ridgecv":
                    line += f"  {'yes' if same_alpha else 'NO'} ({len(refs)} folds)"
            else:
                line += (f"{'timeout':>15}{'':>10}{'':>10}{np.nanmedian(r_ours):>7.3f}"
                         f"{g['extra_peak'] / x_bytes:>11.2f}{ours['extra_peak'] / x_bytes:>11.2f}")
            print(line, flush=True)
        g_path.unlink(missing_ok=True)
    print("gram s: one gram(X) per layer (shared by all methods, counted in each ours 10f total); folds s: the 10")
    print("fit_predict_gram calls. sklearn 10f s: 10 × per-fold fit+predict; * = extrapolated from --sklearn-folds folds.")
    print("max|Δr|: held-out Pearson r per neuroid, ours vs sklearn, over the folds sklearn ran.")
    print("RSS/X: peak RSS growth of the phase (gram: over X loaded; folds: over G and Y loaded; sklearn: over")
    print("X[train], X[test] loaded) relative to the float32 activation array (n × p × 4 bytes).")


def run_one(method, impl, fold, n_folds, x_path, y_path, timeout, threads=0):
    return run_worker(__file__, (method, impl, fold, n_folds, x_path, y_path, threads), f"{method}/{impl}", timeout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small shapes (1600 stimuli, 2048 features), < 3 min")
    parser.add_argument("--wide", action="store_true",
                        help="features >> samples: PLS on 320 stimuli × 196608 features → 40 targets")
    parser.add_argument("--threads", type=int, nargs="+", default=[0],
                        help="torch thread counts to time (0 = all cores, the default)")
    parser.add_argument("--folds", type=int, default=1, help="how many of the 10 splits to run (default 1)")
    parser.add_argument("--features", type=int, nargs="+", default=None, help="feature counts (default 9216 64896)")
    parser.add_argument("--targets", type=int, default=168)
    parser.add_argument("--stimuli", type=int, default=None)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--no-sklearn", action="store_true", help="time only ours")
    parser.add_argument("--sklearn-timeout", type=float, default=None,
                        help="seconds before a sklearn run is abandoned (default 1800; 120 with --wide)")
    parser.add_argument("--gram", action="store_true",
                        help="10-fold evaluation from the Gram matrix (gram + fit_predict_gram) vs sklearn")
    parser.add_argument("--sklearn-folds", type=int, default=2,
                        help="--gram: sklearn folds actually run (10-fold time extrapolated if < 10)")
    parser.add_argument("--worker", nargs=7, help=argparse.SUPPRESS)
    parser.add_argument("--gram-worker", nargs=7, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.gram_worker:
        phase, method, x_path, y_path, g_path, n_folds, threads = args.gram_worker
        gram_worker(phase, method, x_path, y_path, g_path, int(n_folds), int(threads))
        return
    if args.gram:
        if args.methods == parser.get_default("methods"):
            args.methods = ["pls", "ridge", "ridgecv", "linear"]
        if args.targets == parser.get_default("targets"):
            args.targets = 256
        if args.sklearn_timeout is None:
            args.sklearn_timeout = 1800
        OUT.mkdir(parents=True, exist_ok=True)
        main_gram(args, args.stimuli or (1600 if args.quick else 3200),
                  args.features or ([2048] if args.quick else [9216, 64896]))
        return
    if args.worker:
        method, impl, fold, n_folds, x_path, y_path, threads = args.worker
        worker(argparse.Namespace(method=method, impl=impl, fold=int(fold), n_folds=int(n_folds),
                                  x_path=x_path, y_path=y_path, threads=int(threads)))
        return

    if args.wide:
        n = args.stimuli or 320
        features = args.features or [196608]
        if args.targets == parser.get_default("targets"):
            args.targets = 40
        if args.methods == parser.get_default("methods"):
            args.methods = ["pls"]
    else:
        n = args.stimuli or (1600 if args.quick else 3200)
        features = args.features or ([2048] if args.quick else [9216, 64896])
    if args.sklearn_timeout is None:
        args.sklearn_timeout = 120 if args.wide else 1800
    OUT.mkdir(parents=True, exist_ok=True)
    header = (f"{'method':<17}{'n×p→m':>20}{'fold':>5}{'thr':>4}{'ours s':>9}{'(cpu)':>7}{'sklearn s':>11}"
              f"{'speed-up':>10}{'max|Δr|':>10}{'med r':>8}{'ours RSS/X':>12}{'skl RSS/X':>11}  alpha ours/skl | PLS solver")
    print(header)
    print("-" * len(header))
    for p in features:
        X, Y = make_data(n, p, args.targets)
        x_path, y_path = OUT / f"X_{n}x{p}.npy", OUT / f"Y_{n}x{args.targets}.npy"
        np.save(x_path, X)
        np.save(y_path, Y)
        del X
        for method in args.methods:
            for fold in range(args.folds):
                # sklearn once per fold (its BLAS threads are not torch's), compared with each torch thread count
                ref = None if args.no_sklearn else run_one(method, "sklearn", fold, 10, x_path, y_path,
                                                          args.sklearn_timeout)
                for threads in args.threads:
                    ours = run_one(method, "ours", fold, 10, x_path, y_path, None, threads)
                    shape = f"{int(0.9 * n)}×{p}→{args.targets}"
                    line = (f"{method:<17}{shape:>20}{fold:>5}{threads or os.cpu_count():>4}"
                            f"{ours['seconds']:>9.2f}{ours['cpu_seconds']:>7.2f}")
                    r_ours = np.array(ours["r"], dtype=float)
                    if ref is None:
                        line += f"{'-' if args.no_sklearn else 'timeout':>11}{'':>10}{'':>10}"
                        line += f"{np.nanmedian(r_ours):>8.3f}{ours['extra_peak'] / ours['x_bytes']:>12.2f}{'':>11}"
                    else:
                        r_ref = np.array(ref["r"], dtype=float)
                        line += (f"{ref['seconds']:>11.2f}{ref['seconds'] / ours['seconds']:>9.1f}×"
                                 f"{np.nanmax(np.abs(r_ours - r_ref)):>10.1e}{np.nanmedian(r_ours):>8.3f}"
                                 f"{ours['extra_peak'] / ours['x_bytes']:>12.2f}"
                                 f"{ref['extra_peak'] / ref['x_bytes']:>11.2f}")
                        if method == "ridgecv":
                            line += f"  {ours['alpha']:g}/{ref['alpha']:g}"
                    if ours.get("solver"):
                        line += f"  {ours['solver']}"
                    print(line, flush=True)
    print("RSS/X: peak RSS growth during fit+predict over the size of the float32 training activations.")
    print("ours s: wall seconds of fit+predict; (cpu): its process CPU seconds (differs from wall on a busy machine).")


if __name__ == "__main__":
    main()
