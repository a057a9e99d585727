#!/usr/bin/env python
"""Brain-Score 2.4.2's own Zerbe2026_fmri_persubject (LAION-fMRI per-subject pools) benchmarks run on
tests/zerbe2026_fixtures.py's ``write_persubject_store`` files and a seeded alexnet: the fixture
tests/data/zerbe2026_persubject_reference.json of tests/test_zerbe2026_persubject.py.

Run with brainpipe's venv and point it at the reference venv with brainscore-vision 2.4.2 (never installed into
brainpipe's .venv) and at the reference runner (tests/reference/brainscore_runner.py):

    .venv/bin/python tests/reference/make_zerbe2026_persubject_reference.py \\
        [--benchmarks Zerbe2026_fmri_persubject.V1-tau-ridgecv ...]

As tests/reference/make_zerbe2026_reference.py (whose stand-in for ``laion_fmri.splits.get_split_masks`` this
reuses: it reads the fixture's ``splits/<pool>/<name>.json``, here the pools ``sub-XX``), with Brain-Score's result
cache on (its default and its servers' setting: the per-subject children share one ceiling, see
brainpipe.benchmarks.families.zerbe2026.RIDGE_CEILING_OF_FIRST_SUBJECT).
"""

import sys
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
    from make_zerbe2026_reference import main as reference_run

    reference_run(BENCHMARKS, OUT, zerbe2026_fixtures.write_persubject_store, Path(__file__).name, __doc__,
                  "Zerbe2026_fmri_persubject benchmarks (write_persubject_store)")


if __name__ == "__main__":
    main()
