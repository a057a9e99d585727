"""Brain-Score 2.4.2's own Coggan2024_behavior scores on brainpipe's fixture files, stored for tests/test_coggan2024_behavior.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_coggan2024_behavior_reference.py

As tests/reference/make_kato2026_reference.py (same shim, one interpreter for both benchmarks): the fixture store
``tests/behaviour_fixtures_coggan.write_store`` (seed 0) and a TORCH_HOME with the seeded alexnet
(``torch.manual_seed(0)``); Brain-Score's own code fits the probabilities readout on the training images, predicts
the occluded images, and correlates the condition-wise accuracies with each subject's. Writes tests/data/coggan2024_behavior/brainscore.json.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "src"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "coggan2024_behavior" / "brainscore.json"
BENCHMARKS = ("tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity",)


def main():
    import behaviour_fixtures_families as ff
    import behaviour_fixtures_coggan as fm
    from brainscore_runs import behaviour_references

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    args = parser.parse_args()
    behaviour_references(bsref=args.bsref, tool=args.tool, identifiers=BENCHMARKS, write_store=fm.write_store,
                         write_torch_home=lambda home: ff.write_torch_home(home, "seeded"), weights="seeded",
                         script=Path(__file__).name, out=OUT, prefix="bs-coggan-")


if __name__ == "__main__":
    main()
