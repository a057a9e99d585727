"""Brain-Score 2.4.2's own Kato2026 scores on brainpipe's fixture files, stored for tests/test_kato2026.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_kato2026_reference.py

As tests/reference/make_scialom2024_reference.py (same shim, same tool, ``BS_INSTALL_DEPENDENCIES=no
RESULTCACHING_DISABLE=1``): the fixture store ``tests/behaviour_fixtures_kato.write_store`` (seed 0, byte-identical
each run) and a TORCH_HOME with the prototype alexnet (``write_torch_home``); per benchmark Brain-Score's own code
loads the data (and the base condition's), places the images on screen, runs the label task (max aggregation), masks
by the base images, the kato_* metric and its ceiling. Writes tests/data/kato2026/brainscore.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "src"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "kato2026" / "brainscore.json"

DATASETS = ("Ori", "Fil", "Lin", "SilTex", "Sil", "Tex", "LinFil", "Sparse", "Dense")
BENCHMARKS = tuple(f"Kato2026{d}-{m}" for m in ("error_consistency", "accuracy_distance") for d in DATASETS)


def main():
    import behaviour_fixtures_kato as fk
    from brainscore_runs import behaviour_references

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    parser.add_argument("--only", nargs="*", help="these benchmarks only (merged into the stored file)")
    args = parser.parse_args()
    stored = json.loads(OUT.read_text()) if args.only and OUT.exists() else None
    behaviour_references(bsref=args.bsref, tool=args.tool, identifiers=args.only or BENCHMARKS,
                         write_store=fk.write_store, write_torch_home=fk.write_torch_home, weights="kato_prototypes",
                         script=Path(__file__).name, out=OUT, stored=stored, prefix="bs-kato-")


if __name__ == "__main__":
    main()
