#!/usr/bin/env python
"""Brain-Score 2.4.2's own Allen2022 benchmarks run on tests/allen2022_fixtures.py's files and a seeded alexnet: the
fixture tests/data/allen2022_reference.json of tests/test_allen2022.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_allen2022_reference.py \\
        [--benchmarks Allen2022_fmri.V1-ridge ...]

For each benchmark the runner calls Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``: the Allen2022 data
plugins' loaders (reading the fixture files under their real object names), the benchmark's preprocessing
(nc_testset > 30, region, repetition averaging), its ``dual_ridge_split`` metric fitted per subject, its
internal-consistency ceiling per subject, its RSABenchmark and RSACeiling, and its alexnet plugin with seeded
weights exactly as tests/reference/make_neural_families_reference.py describes.
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
OUT = REPO / "tests" / "data" / "allen2022_reference.json"

PREFIXES = ("Allen2022_fmri", "Allen2022_fmri_4subj", "Allen2022_fmri_surface", "Allen2022_fmri_surface_4subj")
BENCHMARKS = [f"{prefix}.{region}-{metric}" for prefix in PREFIXES for region in ("V1", "V2", "V4", "IT")
              for metric in ("ridge", "rdm")]


# One Brain-Score process for all the benchmarks (its start-up, about a minute under load, paid once): the runner's
# own file source, then ``load_benchmark(id)(load_model('alexnet'))`` per identifier, numbers read as the runner
# reads them (its ``main``). The same model object scores every benchmark, so its activations are extracted once per
# stimulus set, as Brain-Score's result cache would reuse them.
MANY = """
import json, runpy, sys
from pathlib import Path
runner = runpy.run_path(sys.argv[1], run_name='brainscore_runner')
fixtures, out, identifiers = Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:]
served = []
runner['serve_store'](fixtures.resolve(), served)
import numpy as np
from brainscore_vision import load_benchmark, load_model
model = load_model('alexnet')
def value(x):
    if x is None:
        return None
    a = np.asarray(x, dtype=float)
    return float(a) if a.size == 1 else float(np.nanmean(a))
results = {}
for identifier in identifiers:
    served.clear()
    score = load_benchmark(identifier)(model)
    results[identifier] = {'score': value(np.asarray(score).ravel()[0]), 'raw': value(score.attrs.get('raw')),
                           'ceiling': value(score.attrs.get('ceiling')), 'error': value(score.attrs.get('error')),
                           'files': sorted({f['file'] for f in served})}
    print(identifier, results[identifier], flush=True)
versions = {m: __import__(m).__version__ for m in ('numpy', 'torch', 'torchvision')}
versions['brainscore_vision'] = '2.4.2'
out.write_text(json.dumps({'benchmarks': results, 'versions': versions}, indent=1))
"""


def main():
    import allen2022_fixtures
    import brainscore_runs

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=BENCHMARKS)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = allen2022_fixtures.allen2022_store(scratch / "store")
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        out = scratch / "results.json"
        env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1",
                   TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                   MT_HOME=str(scratch / "mt"))
        wrapper = brainscore_runs.wrapper().replace("runpy.run_path(runner, run_name='__main__')", "exec(MANY)")
        run = subprocess.run([args.brainscore_python, "-c", f"MANY = {MANY!r}\n" + wrapper, str(args.runner.resolve()),
                              str(args.runner.resolve()), str(scratch / "store"), str(out), *args.benchmarks],
                             env=env, stdout=None, stderr=subprocess.PIPE, text=True)
        if run.returncode != 0:
            sys.exit(f"Brain-Score failed:\n{run.stderr[-5000:]}")
        result = json.loads(out.read_text())
        results.update(result["benchmarks"])
        brainscore_runs.write_reference(args.out, script=Path(__file__).name, fixtures="allen2022_fixtures.py",
                                        sums=sums, weights=weights, results=results,
                                        versions=result.get("versions") or previous.get("versions"),
                                        what="Allen2022 benchmarks")


if __name__ == "__main__":
    main()
