#!/usr/bin/env python
"""Brain-Score 2.4.2's own Allen2022 benchmarks run on tests/allen2022_fixtures.py's files and a seeded alexnet: the
fixture tests/data/allen2022_reference.json of tests/test_allen2022.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(the project tool brainscore_reference.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_allen2022_reference.py \\
        --brainscore-python /work/bsref/.venv/bin/python --runner PATH/TO/brainscore_reference.py \\
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


def main():
    import allen2022_fixtures
    import neural_family_fixtures
    from make_neural_families_reference import WRAPPER, seeded_alexnet_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", required=True)
    ap.add_argument("--runner", required=True, type=Path)
    ap.add_argument("--benchmarks", nargs="*", default=BENCHMARKS)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = allen2022_fixtures.allen2022_store(scratch / "store")
        weights = seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        result = {}
        for identifier in args.benchmarks:
            out = scratch / f"{identifier}.json"
            # Brain-Score's own result cache, in the scratch folder and so for this run only: the benchmarks of
            # one stimulus set reuse its activations, as on Brain-Score's servers
            env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                       RESULTCACHING_HOME=str(scratch / "result_caching"),
                       TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                       MT_HOME=str(scratch / "mt"))
            run = subprocess.run([args.brainscore_python, "-c", WRAPPER, str(args.runner.resolve()),
                                  "--fixtures", str(scratch / "store"), "--benchmark", identifier,
                                  "--model", "alexnet", "--out", str(out)], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            results[identifier] = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
            results[identifier]["files"] = sorted({f["file"] for f in result["files"]})
            print(identifier, results[identifier], flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's Allen2022 benchmarks on tests/allen2022_fixtures.py's files (seed 0) with "
                    "alexnet, torch.manual_seed(0) weights; see tests/reference/make_allen2022_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_allen2022_reference.py "
                       "--brainscore-python /work/bsref/.venv/bin/python "
                       "--runner PATH/TO/brainscore_reference.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": result.get("versions") or previous.get("versions"),
            "benchmarks": dict(sorted(results.items())),
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
