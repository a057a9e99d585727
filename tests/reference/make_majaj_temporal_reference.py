#!/usr/bin/env python
"""Brain-Score 2.4.2's own ``MajajHong2015public.{V4,IT}-temporal-pls`` run on tests/majaj_temporal_fixtures.py's
files and a seeded alexnet: the fixture tests/data/majaj_temporal_reference.json of tests/test_majaj_temporal.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner (the project tool
tests/reference/brainscore_runner.py, whose file source serves Brain-Score's requests from a folder):

    BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_majaj_temporal_reference.py

Brain-Score's benchmark returns one ceiled score per 10-ms bin (a bare 1-D array: ``explained_variance`` builds
``Score(raw ** 2 / ceiling)`` from numpy values, so its dimension is ``dim_0``; its ``raw`` and ``ceiling`` attributes
keep ``time_bin``, and the raw score's ``error`` is per bin): the runner's one-number summary
does not fit, so this script calls the runner's file source and then ``load_benchmark(id)(load_model('alexnet'))``
itself and stores every bin. alexnet is Brain-Score's plugin (region→layer map V4 features.7, IT features.12) with
``torch.manual_seed(0)`` weights under torchvision's IMAGENET1K_V1 file name in a scratch TORCH_HOME, as
tests/reference/make_neural_rest_reference.py does; it is static, so Brain-Score's TemporalAligned copies its
response to every bin.

    ... --benchmarks MajajHong2015public.V4-temporal-pls --region-layers '{"V4": "features.12"}'

commits V4 to features.12 instead of the plugin's features.7 (stored with the numbers as ``region_layers``; the
slow test scores it with an alexnet entry committing the same): Brain-Score's PLS on the (bin × stimulus) samples
of features.7's 64896 units takes CPU-minutes per split, too long on a shared machine and in CI.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "reference"))
OUT = REPO / "tests" / "data" / "majaj_temporal_reference.json"
BENCHMARKS = ["MajajHong2015public.V4-temporal-pls", "MajajHong2015public.IT-temporal-pls"]

# Run inside the reference venv (tests/reference/brainscore_runs.py's wrapper, its region-layer prelude): install
# the runner's file source, score, and write every bin.
BODY = """
from pathlib import Path
import numpy as np
runner, fixtures, identifier, out = sys.argv[1:5]
served = []
runpy.run_path(runner)['serve_store'](Path(fixtures).resolve(), served)
from brainscore_vision import load_benchmark, load_model
score = load_benchmark(identifier)(load_model('alexnet'))
import pickle
Path(out + '.pkl').write_bytes(pickle.dumps(score))  # the whole Score, should a field below not be there
raw, ceiling = score.attrs['raw'], score.attrs['ceiling']
values = lambda a: np.asarray(a, dtype=float).ravel().tolist()
def bins(a, level):  # the time_bin MultiIndex's levels (named time_bin_start / time_bin_end, or unnamed tuples)
    try:
        if level in a.coords:
            return values(a[level])
        return [float(pair[0 if level == 'time_bin_start' else 1]) for pair in a['time_bin'].values]
    except Exception as error:
        return repr(error)
result = {'dims': list(score.dims), 'score': values(score), 'raw': values(raw), 'ceiling': values(ceiling),
          'error': values(score.attrs['error']) if 'error' in score.attrs else None,
          'ceiling_error': values(ceiling.attrs['error']) if 'error' in ceiling.attrs else None,
          # the ceiled score is a bare array (explained_variance: Score(np.power(raw, 2) / ceiling), dim_0); its raw
          # and ceiling keep time_bin
          'time_bin_start': bins(raw, 'time_bin_start'), 'time_bin_end': bins(raw, 'time_bin_end'),
          'ceiling_time_bin_start': bins(ceiling, 'time_bin_start'),
          'raw_dims': list(raw.dims), 'ceiling_dims': list(ceiling.dims), 'repr': repr(score)[:3000],
          'files': sorted({f['file'] for f in served}),
          'versions': {m: __import__(m).__version__ for m in ('numpy', 'torch', 'torchvision')}}
result['versions']['brainscore_vision'] = '2.4.2'
Path(out).write_text(json.dumps(result, indent=1))
print(identifier, json.dumps({k: result[k] for k in ('score', 'raw', 'ceiling')}))
"""


def main():
    import majaj_temporal_fixtures
    import neural_family_fixtures
    import brainscore_runs

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--region-layers", default=None, help='JSON {region: layer} overriding the plugin\'s map, '
                    'e.g. \'{"V4": "features.12"}\' (stored with the numbers)')
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = majaj_temporal_fixtures.majaj_temporal_store(scratch / "store")
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        for identifier in args.benchmarks:
            out = scratch / f"{identifier}.json"
            env = brainscore_runs.reference_env(
                scratch, **({"REFERENCE_REGION_LAYERS": args.region_layers} if args.region_layers else {}))
            run = subprocess.run([args.brainscore_python, "-c",
                                  brainscore_runs.wrapper(prelude=brainscore_runs.REGION_LAYERS, body=BODY),
                                  str(args.runner.resolve()), str(scratch / "store"), identifier, str(out)],
                                 env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            versions = result.pop("versions")
            if args.region_layers:  # the committed layers differ from the alexnet plugin's
                result["region_layers"] = json.loads(args.region_layers)
            results[identifier] = result
            print(identifier, result["score"], flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's MajajHong2015public.{V4,IT}-temporal-pls on tests/majaj_temporal_fixtures.py's "
                    "files (seed 0) with alexnet, torch.manual_seed(0) weights: per 10-ms bin ceiled score, raw, "
                    "ceiling and the raw score's error; see tests/reference/make_majaj_temporal_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_majaj_temporal_reference.py "
                       "--brainscore-python .venv-reference/bin/python "
                       "--runner tests/reference/brainscore_runner.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": versions,
            "benchmarks": dict(sorted(results.items())),
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
