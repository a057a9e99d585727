#!/usr/bin/env python
"""Brain-Score 2.4.2's own train/test ridge benchmarks (Hebart2023_fmri, Papale2025, Gifford2022) run
on tests/fmri_fixtures.py's files and a seeded
alexnet: the fixture tests/data/fmri_ridge_reference.json of tests/test_fmri_ridge.py.

Run with brainpipe's venv (it writes the fixture files and the weights), pointing it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner (the project tool
brainscore_reference.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_fmri_ridge_reference.py \\
        --brainscore-python /work/bsref/.venv/bin/python --runner PATH/TO/brainscore_reference.py \\
        [--benchmarks Hebart2023_fmri.V1-ridge ...]

As tests/reference/make_neural_families_reference.py: Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``
(its data plugin's loaders on the fixture files under their real object names, its TrainTestNeuralBenchmark,
ridge_split / ridgecv_split metrics and internal-consistency ceiling, its alexnet plugin with the region→layer map
V1 features.2, V2 features.7, V4 features.7, IT features.12) with ``torch.manual_seed(0)`` alexnet weights.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(REPO / "tests"))
OUT = REPO / "tests" / "data" / "fmri_ridge_reference.json"

BENCHMARKS = [f"Hebart2023_fmri.{region}-{metric}" for metric in ("ridge", "ridgecv")
              for region in ("V1", "V2", "V4", "IT")]
BENCHMARKS += [f"Papale2025.{region}-{metric}" for metric in ("ridge", "ridgecv") for region in ("V1", "V4", "IT")]
BENCHMARKS += ["Gifford2022.IT-ridge", "Gifford2022.IT-ridgecv"]


def _neural_reference():
    """The wrapper and weights of make_neural_families_reference.py (the same seeded alexnet)."""
    path = Path(__file__).with_name("make_neural_families_reference.py")
    spec = importlib.util.spec_from_file_location("make_neural_families_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    import fmri_fixtures

    neural = _neural_reference()
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", required=True)
    ap.add_argument("--runner", required=True, type=Path)
    ap.add_argument("--benchmarks", nargs="*", default=BENCHMARKS)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = {**fmri_fixtures.hebart2023_fmri_store(scratch / "store"),
                **fmri_fixtures.papale2025_store(scratch / "store"),
                **fmri_fixtures.gifford2022_store(scratch / "store")}
        weights = neural.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        result = {}
        for identifier in args.benchmarks:
            out = scratch / f"{identifier}.json"
            env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                       RESULTCACHING_HOME=str(scratch / "result_caching"),
                       TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                       MT_HOME=str(scratch / "mt"))
            run = subprocess.run([args.brainscore_python, "-c", neural.WRAPPER, str(args.runner.resolve()),
                                  "--fixtures", str(scratch / "store"), "--benchmark", identifier,
                                  "--model", "alexnet", "--out", str(out)], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            results[identifier] = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
            results[identifier]["files"] = sorted({f["file"] for f in result["files"]})
            print(identifier, results[identifier], flush=True)
            write(args.out, sums, weights, result, previous, results)


def write(out, sums, weights, result, previous, results):
    """The reference JSON so far (written after every benchmark: a long run keeps what it computed)."""
    import neural_family_fixtures

    summary = {
        "what": "Brain-Score 2.4.2's train/test ridge benchmarks on tests/fmri_fixtures.py's files (seed 0) "
                "with alexnet, torch.manual_seed(0) weights; see tests/reference/make_fmri_ridge_reference.py",
        "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_fmri_ridge_reference.py "
                   "--brainscore-python /work/bsref/.venv/bin/python "
                   "--runner PATH/TO/brainscore_reference.py",
        "fixture_sha1": sums,
        "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
        "versions": result.get("versions") or previous.get("versions"),
        "benchmarks": dict(sorted(results.items())),
    }
    out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
