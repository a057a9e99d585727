"""Spantime fits (one regression over the (time bin × training stimulus) samples) never build the time ×
presentation × features design: StackedBins hands the regressions its blocks, with the values of the stacked
array bit for bit; a fold's memory stays far below the stacked design's size; the fold job declares it."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

from brainpipe.benchmarks import parse
from brainpipe.neural.metrics import spantime_sample_space_bytes
from brainpipe.neural.regression import StackedBins, make_regression


def stacked(X, train, n_bins):
    """The design as it was built before: per-bin copies of the training rows, concatenated."""
    part = (lambda b: X[:, :, b]) if X.ndim == 3 else (lambda b: X)
    return np.concatenate([part(b)[train] for b in range(n_bins)])


@pytest.mark.parametrize("shape, name, params", [
    ((40, 2000), "pls", dict(n_components=8, solver="kernel")),
    ((40, 2000), "pls", dict(n_components=8, solver="features")),
    ((40, 2000, 5), "pls", dict(n_components=8, solver="kernel")),
    ((40, 300, 5), "pls", dict(n_components=8, solver="features")),
    ((40, 2000), "ridge", {}),          # dual: n <= p
    ((40, 60, 5), "ridge", {}),         # primal
], ids=["pls-kernel", "pls-features", "pls-kernel-3d", "pls-features-3d", "ridge-dual", "ridge-primal-3d"])
def test_stacked_bins_fit_is_the_stacked_fit_bit_for_bit(shape, name, params):
    rng = np.random.default_rng(0)
    n_bins = 5
    X = rng.normal(size=shape).astype(np.float32)
    Y = rng.normal(size=(40, 6, n_bins))
    train, test = rng.permutation(40)[:34], rng.permutation(40)[34:]
    targets = np.concatenate([Y[train, :, b] for b in range(n_bins)])
    old = make_regression(name, **params).fit(stacked(X, train, n_bins), targets)
    new = make_regression(name, **params).fit(StackedBins(X, train, n_bins), targets)
    assert torch.equal(old.coef_, new.coef_)
    X_test = X[test] if X.ndim == 2 else X[test, :, 2]
    np.testing.assert_array_equal(old.predict(X_test), new.predict(X_test))


def test_stacked_bins_blocks_are_the_stacked_rows():
    rng = np.random.default_rng(1)
    for X in (rng.normal(size=(12, 7)).astype(np.float32), rng.normal(size=(12, 7, 3)).astype(np.float32)):
        train = np.array([5, 0, 3, 11, 7])
        whole, lazy = stacked(X, train, 3), StackedBins(X, train, 3)
        assert lazy.shape == whole.shape
        for key in (slice(None), slice(2, 13), (slice(None), slice(1, 4)), slice(14, 15)):
            np.testing.assert_array_equal(lazy[key].numpy(), whole[key])
        assert torch.equal(lazy.sum(dim=0, dtype=torch.float64),
                           torch.from_numpy(whole).sum(dim=0, dtype=torch.float64))


FOLD = """
import json, sys
import numpy as np, xarray as xr
sys.path.insert(0, "perf")
from peak_memory import reset_peak_rss, status_bytes
from brainpipe.benchmarks import parse
from brainpipe.neural.metrics import run_fold
import brainpipe.neural.regression  # torch: imported before the measurement, as any fold job has it
import torch
# As the fit_fold job runs (threads: 1; workflow/scripts/fit_fold.py). The thread pools' per-thread workspace grows
# with the machine's cores (on a 16-core CI machine torch's default added about 25 MB), which is not what this test
# measures: the BLAS pools are held to one thread too (the subprocess's environment, read when they load).
torch.set_num_threads(1)
n, p, bins = 110, 60000, 18
rng = np.random.default_rng(0)
ids = [f"s{k:03d}" for k in range(n)]
source = xr.DataArray(rng.normal(size=(n, p)).astype(np.float32), dims=("presentation", "neuroid"),
                      coords={"stimulus_id": ("presentation", ids)})
target = xr.DataArray(rng.normal(size=(n, 8, bins)).astype(np.float32), dims=("presentation", "neuroid", "time_bin"),
                      coords={"stimulus_id": ("presentation", ids), "object_name": ("presentation", [f"o{k % 11}" for k in range(n)]),
                              "neuroid_id": ("neuroid", [f"n{k}" for k in range(8)]),
                              "time_bin_start": ("time_bin", np.arange(bins) * 10 + 70),
                              "time_bin_end": ("time_bin", np.arange(bins) * 10 + 80)})
benchmark = parse("SyntheticShapes.IT-spantime_pls", {"splits": 2})
reset_peak_rss()
before = status_bytes("VmRSS")
result = run_fold(benchmark, source, target, 0)
print(json.dumps({"growth": status_bytes("VmHWM") - before, "n_train": result["n_train"], "bins": len(result["values"])}))
"""


@pytest.mark.slow  # a memory measurement of a real-size fold (about 15 s): CI runs it (make test-slow)
def test_spantime_fold_memory_stays_far_below_the_stacked_design():
    """110 stimuli × 60000 features × 18 bins: the stacked training design is 18 × 99 × 60000 float32 = 428 MB (and
    its per-bin copies as much again). The fit needs the (18 × 99)² kernel matrices and a column block."""
    one_thread = {name: "1" for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", FOLD], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **one_thread})
    assert done.returncode == 0, done.stderr[-3000:]
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    assert measured["bins"] == 18
    design = 18 * measured["n_train"] * 60000 * 4
    print(f"fold peak growth {measured['growth'] / 1e6:.0f} MB; stacked design {design / 1e6:.0f} MB")
    assert measured["growth"] < design / 3


def test_declared_sample_space_memory():
    """The fold job's declared memory adds the kernel matrices where the fit solves in sample space only."""
    pls, ridge = parse("SyntheticShapes.IT-spantime_pls"), parse("SyntheticShapes.IT-spantime_ridge")
    samples = 18 * 288  # the demo: 320 stimuli, 90% train, 18 bins
    assert spantime_sample_space_bytes(pls, 320, 18, 150528) == 4 * 8 * samples ** 2  # pixels: kernel path
    assert spantime_sample_space_bytes(pls, 320, 18, 9216) == 0  # alexnet features.12: feature space
    assert spantime_sample_space_bytes(ridge, 320, 18, 9216) == 4 * 8 * samples ** 2  # dual: samples <= features
