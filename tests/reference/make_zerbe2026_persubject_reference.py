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
    import brainscore_runs
    from make_zerbe2026_reference import SPLITS_STANDIN

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
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        env = brainscore_runs.reference_env(scratch, LAION_FMRI_STIMULI_DIR=str(store / "stimuli"),
                                            ZERBE_SPLITS_DIR=str(store / "splits"), BRAINSCORE_SKIP_MEMORY_CHECK="1",
                                            PYTHONPATH=str(scratch / "standin"))
        for identifier in args.benchmarks:
            result = brainscore_runs.run_benchmark(args.brainscore_python, args.runner, store, identifier, scratch,
                                                   env=env)
            results[identifier], versions = brainscore_runs.entry(result), result["versions"]
            print(identifier, results[identifier], flush=True)
        brainscore_runs.write_reference(args.out, script=Path(__file__).name, fixtures="zerbe2026_fixtures.py",
                                        sums=sums, weights=weights, versions=versions, results=results,
                                        what="Zerbe2026_fmri_persubject benchmarks (write_persubject_store)")

if __name__ == "__main__":
    main()
