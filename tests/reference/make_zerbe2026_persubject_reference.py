#!/usr/bin/env python
"""Brain-Score 2.4.2's own Zerbe2026_fmri_persubject (LAION-fMRI per-subject pools) benchmarks run on
tests/zerbe2026_fixtures.py's ``write_persubject_store`` files and a seeded alexnet: the fixture
tests/data/zerbe2026_persubject_reference.json of tests/test_zerbe2026_persubject.py.

Run with brainpipe's venv and point it at the reference venv with brainscore-vision 2.4.2 (never installed into
brainpipe's .venv) and at the reference runner (the project tool brainscore_reference.py):

    .venv/bin/python tests/reference/make_zerbe2026_persubject_reference.py \\
        --brainscore-python /work/bsref/.venv/bin/python --runner PATH/TO/brainscore_reference.py \\
        [--benchmarks Zerbe2026_fmri_persubject.V1-tau-ridgecv ...]

As tests/reference/make_zerbe2026_reference.py (whose stand-in for ``laion_fmri.splits.get_split_masks`` this
reuses: it reads the fixture's ``splits/<pool>/<name>.json``, here the pools ``sub-XX``), with Brain-Score's result
cache on (its default and its servers' setting: the per-subject children share one ceiling, see
brainpipe.benchmarks.zerbe2026.RIDGE_CEILING_OF_FIRST_SUBJECT).
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
OUT = REPO / "tests" / "data" / "zerbe2026_persubject_reference.json"

REGIONS = ("V1", "V2", "V4", "IT")
BENCHMARKS = [f"Zerbe2026_fmri_persubject.{region}-{kind}" for kind in ("tau-ridgecv", "ood-ridgecv")
              for region in REGIONS]


def main():
    import zerbe2026_fixtures
    from make_neural_families_reference import WRAPPER, seeded_alexnet_weights
    from make_zerbe2026_reference import SPLITS_STANDIN
    import neural_family_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", required=True)
    ap.add_argument("--runner", required=True, type=Path)
    ap.add_argument("--benchmarks", nargs="*", default=BENCHMARKS)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        store = scratch / "store"
        sums = zerbe2026_fixtures.write_persubject_store(store)
        package = scratch / "standin" / "laion_fmri"
        (package / "splits").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "splits" / "__init__.py").write_text(SPLITS_STANDIN)
        weights = seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        for identifier in args.benchmarks:
            out = scratch / f"{identifier}.json"
            env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                       RESULTCACHING_HOME=str(scratch / "result_caching"),
                       TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                       MT_HOME=str(scratch / "mt"), LAION_FMRI_STIMULI_DIR=str(store / "stimuli"),
                       ZERBE_SPLITS_DIR=str(store / "splits"), BRAINSCORE_SKIP_MEMORY_CHECK="1",
                       PYTHONPATH=str(scratch / "standin"))
            run = subprocess.run([args.brainscore_python, "-c", WRAPPER, str(args.runner.resolve()),
                                  "--fixtures", str(store), "--benchmark", identifier,
                                  "--model", "alexnet", "--out", str(out)], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            results[identifier] = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
            results[identifier]["files"] = sorted({f["file"] for f in result["files"]})
            print(identifier, results[identifier], flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's Zerbe2026_fmri_persubject benchmarks on tests/zerbe2026_fixtures.py's "
                    "write_persubject_store files (seed 0) with alexnet, torch.manual_seed(0) weights; see "
                    "tests/reference/make_zerbe2026_persubject_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/"
                       "make_zerbe2026_persubject_reference.py --brainscore-python /work/bsref/.venv/bin/python "
                       "--runner PATH/TO/brainscore_reference.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": result["versions"] if args.benchmarks else previous.get("versions"),
            "benchmarks": dict(sorted(results.items())),
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
