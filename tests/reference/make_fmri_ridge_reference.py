#!/usr/bin/env python
"""Brain-Score 2.4.2's own train/test ridge benchmarks (Hebart2023_fmri, Papale2025, Gifford2022) run
on tests/fmri_fixtures.py's files and a seeded
alexnet: the fixture tests/data/fmri_ridge_reference.json of tests/test_fmri_ridge.py.

Run with brainpipe's venv (it writes the fixture files and the weights), pointing it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner (the project tool
tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_fmri_ridge_reference.py \\
        [--benchmarks Hebart2023_fmri.V1-ridge ...]

As tests/reference/make_neural_families_reference.py: Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``
(its data plugin's loaders on the fixture files under their real object names, its TrainTestNeuralBenchmark,
ridge_split / ridgecv_split metrics and internal-consistency ceiling, its alexnet plugin with the region→layer map
V1 features.2, V2 features.7, V4 features.7, IT features.12) with ``torch.manual_seed(0)`` alexnet weights.
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "fmri_ridge_reference.json"

BENCHMARKS = [f"Hebart2023_fmri.{region}-{metric}" for metric in ("ridge", "ridgecv")
              for region in ("V1", "V2", "V4", "IT")]
BENCHMARKS += [f"Papale2025.{region}-{metric}" for metric in ("ridge", "ridgecv") for region in ("V1", "V4", "IT")]
BENCHMARKS += ["Gifford2022.IT-ridge", "Gifford2022.IT-ridgecv"]


def main():
    import brainscore_runs
    import fmri_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=BENCHMARKS)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = {**fmri_fixtures.hebart2023_fmri_store(scratch / "store"),
                **fmri_fixtures.papale2025_store(scratch / "store"),
                **fmri_fixtures.gifford2022_store(scratch / "store")}
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        for identifier in args.benchmarks:
            result = brainscore_runs.run_benchmark(args.brainscore_python, args.runner, scratch / "store", identifier,
                                                   scratch)
            results[identifier], versions = brainscore_runs.entry(result), result["versions"]
            print(identifier, results[identifier], flush=True)
            # written after every benchmark: a long run keeps what it computed
            brainscore_runs.write_reference(args.out, script=Path(__file__).name, fixtures="fmri_fixtures.py",
                                            sums=sums, weights=weights, versions=versions, results=results,
                                            what="train/test ridge benchmarks")


if __name__ == "__main__":
    main()
