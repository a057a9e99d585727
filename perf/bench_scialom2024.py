"""Scialom2024 on its fixture: brainpipe's cold time and jobs beside Brain-Score 2.4.2's on the same files.

Usage::

    .venv/bin/python perf/bench_scialom2024.py --tool PATH/TO/brainscore_reference.py \\
        [--bsref /work/bsref/.venv/bin/python] [--cores 2]

The Scialom2024 row of perf/bench_families.py (which see): tests/behaviour_fixtures_families.write_store(...,
('Scialom2024',)) — rgb, phosphenes-12 and the phosphenes-all composite in the real layouts (24, 24 and 72 images) —
and the prototype alexnet weights the fidelity test uses; every Scialom2024 benchmark on those data sets (6) in one
cold ``snakemake`` run beside one Brain-Score process running its own benchmarks on the same files.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_families  # noqa: E402

if __name__ == "__main__":
    sys.argv[1:1] = ["--families", "Scialom2024"]
    bench_families.main()
