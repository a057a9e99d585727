#!/usr/bin/env python
"""Brain-Score 2.4.2's own ``Cowley2026.V4-pls`` run on tests/cowley2026_fixtures.py's files and a seeded alexnet:
the fixture tests/data/cowley2026_reference.json of tests/test_cowley2026.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_cowley2026_reference.py

Inside the reference venv this calls ``load_benchmark('Cowley2026.V4-pls')(load_model('alexnet'))`` (the
combined benchmark: each session scored by its own ``NeuralBenchmark``, then averaged), and, for the per-session
numbers, each of the benchmark's four session benchmarks (``Cowley2026.<session>.V4-pls``) on the same model:
their raw score, ceiling and ceiled score. The data plugin's loaders read the fixture files under their real
object names (the runner's file source); alexnet is Brain-Score's plugin (V4 = features.7) with its
IMAGENET1K_V1 weights file replaced by ``torch.manual_seed(0); torchvision.models.alexnet(weights=None)
.state_dict()`` under torchvision's file name in a scratch TORCH_HOME. The reference venv's torchvision wheel is a
CUDA build beside CPU torch; the two op schemas its import needs are defined first (the ops are never used).
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
import brainscore_runs  # noqa: E402 (tests/reference, on the path above)

OUT = REPO / "tests" / "data" / "cowley2026_reference.json"
IDENTIFIER = "Cowley2026.V4-pls"

# Run inside the reference venv: make ``import torchvision`` work, take the runner's file source, then score.
BODY_WRAPPER = """
from pathlib import Path
import numpy as np
runner, fixtures, identifier, out = sys.argv[1:5]
served = []
runpy.run_path(runner, run_name='brainscore_runner')['serve_store'](Path(fixtures), served)
from brainscore_vision import load_benchmark, load_model
benchmark = load_benchmark(identifier)
model = load_model('alexnet')
score = benchmark(model)
result = {'score': float(score.values), 'raw': float(score.attrs['raw'].values),
          'ceiling': float(score.attrs['ceiling'].values), 'sessions': {}}
for session in benchmark._sessions:  # the same session benchmarks the combined one averaged
    part = session(model)
    result['sessions'][session.identifier] = {'score': float(part.values), 'raw': float(part.attrs['raw'].values),
                                              'ceiling': float(part.attrs['ceiling'].values)}
    assert abs(result['sessions'][session.identifier]['score'] - score.attrs['session_scores'][session.identifier]) < 1e-12
result['files'] = sorted({f['file'] for f in served})
result['versions'] = {m: __import__(m).__version__ for m in ('numpy', 'torch', 'torchvision')}
result['versions']['brainscore_vision'] = '2.4.2'
Path(out).write_text(json.dumps(result, indent=1))
print(json.dumps({k: result[k] for k in ('score', 'raw', 'ceiling', 'sessions')}, indent=1))
"""
WRAPPER = brainscore_runs.wrapper(body=BODY_WRAPPER)


def main():
    import cowley2026_fixtures
    import neural_family_fixtures
    from brainscore_runs import seeded_alexnet_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = cowley2026_fixtures.write_store(scratch / "store")
        weights = seeded_alexnet_weights(scratch / "torch")
        out = scratch / "result.json"
        # Brain-Score's result cache off (RESULTCACHING_DISABLE=1): every session benchmark computes its own
        # ceiling (the sessions' identifiers differ, so the cache would give the same numbers)
        env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1",
                   TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"), MT_HOME=str(scratch / "mt"))
        run = subprocess.run([args.brainscore_python, "-c", WRAPPER, str(args.runner.resolve()), str(scratch / "store"),
                              IDENTIFIER, str(out)], env=env, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(f"{IDENTIFIER}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
        result = json.loads(out.read_text())
        print(run.stdout, flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's Cowley2026.V4-pls (and its four session benchmarks) on "
                    "tests/cowley2026_fixtures.py's files (seed 0) with alexnet, torch.manual_seed(0) weights; see "
                    "tests/reference/make_cowley2026_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_cowley2026_reference.py "
                       "--brainscore-python .venv-reference/bin/python --runner tests/reference/brainscore_runner.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": result.pop("versions"),
            "benchmarks": {IDENTIFIER: result},
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
