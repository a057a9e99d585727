#!/usr/bin/env python
"""Brain-Score 2.4.2's own ``Cadena2017-mask`` run on tests/neural_family_fixtures.py's Cadena2017 files and a
seeded alexnet: the fixture tests/data/cadena2017_mask_reference.json of tests/test_cadena2017_mask.py.

Brain-Score's mask regression is a TensorFlow graph (brain-score/vision brainscore_vision/metrics/mask_regression/
metric.py), so the reference venv here is a copy of the brainscore-vision 2.4.2 one with tensorflow-cpu added
(numpy kept at the 1.x brainscore-core requires). Run with brainpipe's venv:

    .venv/bin/python tests/reference/make_cadena2017_mask_reference.py \\
        --brainscore-python .venv-reference/bin/python --runner tests/reference/brainscore_runner.py

Everything is as tests/reference/brainscore_runs.py runs every reference (fixture files, seeded alexnet weights,
op-schema guard), plus one seeding step: Brain-Score's MaskRegression draws its initial weights and its
minibatch shuffles from numpy's global generator and never seeds it, so its score differs from run to run. The
wrapper seeds that generator with the fold's index before each of the benchmark's four fits (``np.random.seed(k)``
for the k-th fit, the cross-validation's k-th split), as brainpipe seeds each fold's fit
(brainpipe.neural.mask_regression.fold_random_state). Nothing else of Brain-Score is changed.

It also stores Brain-Score's MaskRegression alone on a small synthetic problem (:func:`unit_problem`: 60 training
stimuli, so a full and a partial minibatch, a non-square 4 × 5 map of 3 channels, 3 neuroids, numpy's global
generator seeded with 7): its test predictions, for tests/test_mask_regression.py's fast fidelity test.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "reference"))
OUT = REPO / "tests" / "data" / "cadena2017_mask_reference.json"
IDENTIFIER = "Cadena2017-mask"

# Seed numpy's global generator before each MaskRegression.fit (the k-th fit with k): the prelude of
# brainscore_runs.wrapper (run after its torchvision op-schema guard, before the runner).
SEEDING = """
import numpy as np
from brainscore_vision.metrics.mask_regression import metric as _mask_metric
_fit = _mask_metric.MaskRegression.fit
_fits = []
def _seeded_fit(self, X, Y):
    np.random.seed(len(_fits))
    _fits.append(X.shape)
    return _fit(self, X, Y)
_mask_metric.MaskRegression.fit = _seeded_fit
"""


# Brain-Score's MaskRegression on unit_problem()'s arrays, with the unit coordinates its extractor writes
# (model_helpers/activations/core.py: channel, then channel_x = the height index, channel_y = the width index).
UNIT = """
import sys, numpy as np, xarray as xr
from brainscore_vision.metrics.mask_regression.metric import MaskRegression
d = np.load(sys.argv[1])
C, H, W = (int(v) for v in d["shape"])
channel, height, width = np.unravel_index(np.arange(C * H * W), (C, H, W))
grid = lambda v: xr.DataArray(v, dims=("presentation", "neuroid"), coords={
    "channel": ("neuroid", channel), "channel_x": ("neuroid", height), "channel_y": ("neuroid", width)})
np.random.seed(int(d["seed"]))
regression = MaskRegression()
regression.fit(grid(d["X"]), d["Y"])
np.save(sys.argv[2], regression.predict(grid(d["X_test"])))
"""


def unit_problem():
    """(X, Y, X_test, (channels, height, width), seed): float32 activations in C order, a planted readout plus noise."""
    import numpy as np

    rng = np.random.default_rng(11)
    shape = (3, 4, 5)
    X = rng.normal(size=(80, int(np.prod(shape)))).astype(np.float32)
    Y = X @ rng.normal(size=(X.shape[1], 3)) * 0.3 + rng.normal(size=(80, 3))
    return X[:60], Y[:60], X[60:], shape, 7


def unit_reference(python, scratch: Path):
    import numpy as np

    X, Y, X_test, shape, seed = unit_problem()
    np.savez(scratch / "unit.npz", X=X, Y=Y, X_test=X_test, shape=shape, seed=seed)
    run = subprocess.run([python, "-c", UNIT, str(scratch / "unit.npz"), str(scratch / "unit_prediction.npy")],
                         env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2"), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"MaskRegression alone failed:\n{run.stderr[-5000:]}")
    return np.load(scratch / "unit_prediction.npy").tolist()


def main():
    import brainscore_runs
    import neural_family_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = neural_family_fixtures.cadena2017_store(scratch / "store")
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        result = brainscore_runs.run_benchmark(
            args.brainscore_python, args.runner, scratch / "store", IDENTIFIER, scratch, prelude=SEEDING,
            env=brainscore_runs.reference_env(scratch, TF_CPP_MIN_LOG_LEVEL="2"))
        summary = {
            "what": "Brain-Score 2.4.2's Cadena2017-mask on tests/neural_family_fixtures.py's Cadena2017 files "
                    "(seed 0) with alexnet, torch.manual_seed(0) weights, numpy's global generator seeded with k "
                    "before the k-th mask fit; see tests/reference/make_cadena2017_mask_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_cadena2017_mask_reference.py "
                       "--brainscore-python .venv-reference/bin/python "
                       "--runner tests/reference/brainscore_runner.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": result["versions"],
            "unit_prediction": unit_reference(args.brainscore_python, scratch),
            "benchmarks": {IDENTIFIER: brainscore_runs.entry(result)},
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")
    print(json.dumps(summary["benchmarks"], indent=1))


if __name__ == "__main__":
    main()
