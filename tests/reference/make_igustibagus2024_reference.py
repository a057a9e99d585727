#!/usr/bin/env python
"""Brain-Score 2.4.2's own Igustibagus2024 benchmarks run on tests/igustibagus_fixtures.py's files and a seeded
alexnet: the fixture tests/data/igustibagus2024_reference.json of tests/test_igustibagus2024.py.

Run with brainpipe's venv (it writes the fixture files and the weights), pointing at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner (the project tool
tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_igustibagus2024_reference.py \\
        [--benchmarks Igustibagus2024-ridge ...]

Each benchmark is Brain-Score's ``load_benchmark(id)(load_model('alexnet'))`` (its data plugin's loaders, the
benchmark's preprocessing, metric and ceiling; alexnet's IT layer features.12 with
``torch.manual_seed(0)`` weights under torchvision's IMAGENET1K_V1 file name, as
tests/reference/make_neural_families_reference.py). ``Igustibagus2024.IT_readout-accuracy`` draws its 1000
train/test image splits with sklearn's ``train_test_split`` and no random_state, i.e. from numpy's global
generator: the wrapper seeds that generator with ``np.random.seed(SEED)`` right after the benchmark has built its
domain dictionary (just before the first draw), which is what brainpipe's readout does with
``RandomState(SEED)``. The wrapper also records the readout's per-domain accuracies.
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

OUT = REPO / "tests" / "data" / "igustibagus2024_reference.json"
BENCHMARKS = ("Igustibagus2024-ridge", "Igustibagus2024.IT_readout-accuracy")
SEED = 0  # brainpipe.benchmarks.families.igustibagus2024.READOUT_SEED

# Seed the readout's draws (numpy's global generator, READOUT_SEED in the environment) where the 1000 splits start:
# a prelude of brainscore_runs.wrapper (also tests/reference/suite_table.py's).
SEEDING = """
import os
import numpy as np
from brainscore_vision.benchmarks.igustibagus2024 import domain_transfer_analysis as analysis
build = analysis.get_crossdomain_data_dictionary
def seeded(*args, **kwargs):
    result = build(*args, **kwargs)
    np.random.seed(int(os.environ['READOUT_SEED']))  # the 1000 splits' train_test_split draws start here
    return result
analysis.get_crossdomain_data_dictionary = seeded
"""

# Run inside the reference venv: make ``import torchvision`` work, seed the readout's draws, record the per-domain
# accuracies, run the runner.
BODY_WRAPPER = SEEDING + """
call = analysis._OOD_AnalysisBenchmark.__call__
def recorded(self, candidate):
    score = call(self, candidate)
    raw = score.attrs['raw'].mean('split')
    details = {'per_domain': {str(d): float(v) for d, v in zip(raw['domain'].values, raw.values)},
               'center': float(score.sel(aggregation='center')), 'error': float(score.sel(aggregation='error'))}
    with open(os.environ['READOUT_DETAILS'], 'w') as f:
        json.dump(details, f)
    return score
analysis._OOD_AnalysisBenchmark.__call__ = recorded
runner = sys.argv[1]
sys.argv = [runner] + sys.argv[2:]
runpy.run_path(runner, run_name='__main__')
"""
WRAPPER = brainscore_runs.wrapper(body=BODY_WRAPPER)


def main():
    import igustibagus_fixtures
    import neural_family_fixtures
    from brainscore_runs import seeded_alexnet_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = igustibagus_fixtures.write_store(scratch / "store")
        weights = seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        for identifier in args.benchmarks:
            out, details = scratch / f"{identifier}.json", scratch / f"{identifier}.details.json"
            env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                       RESULTCACHING_HOME=str(scratch / "result_caching"),
                       TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                       MT_HOME=str(scratch / "mt"), READOUT_SEED=str(SEED), READOUT_DETAILS=str(details))
            run = subprocess.run([args.brainscore_python, "-c", WRAPPER, str(args.runner.resolve()),
                                  "--fixtures", str(scratch / "store"), "--benchmark", identifier,
                                  "--model", "alexnet", "--out", str(out)], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            results[identifier] = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
            if details.exists():
                results[identifier].update(json.loads(details.read_text()))
            results[identifier]["files"] = sorted({f["file"] for f in result["files"]})
            versions = result["versions"]
            print(identifier, results[identifier], flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's Igustibagus2024 benchmarks on tests/igustibagus_fixtures.py's files (seed 0) "
                    "with alexnet, torch.manual_seed(0) weights; the readout's splits drawn after "
                    f"np.random.seed({SEED}); see tests/reference/make_igustibagus2024_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_igustibagus2024_reference.py "
                       "--brainscore-python .venv-reference/bin/python --runner tests/reference/brainscore_runner.py",
            "readout_seed": SEED,
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": versions,
            "benchmarks": dict(sorted(results.items())),
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
