"""Brain-Score 2.4.2's own Maniquet2024 scores on brainpipe's fixture files, stored for tests/test_maniquet2024.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_maniquet2024_reference.py \\
        --tool PATH/TO/brainscore_reference.py [--bsref /work/bsref/.venv/bin/python]

As tests/reference/make_kato2026_reference.py (same shim, one interpreter for both benchmarks): the fixture store
``tests/behaviour_fixtures_maniquet.write_store`` (seed 0) and a TORCH_HOME with the seeded alexnet
(``torch.manual_seed(0)``); Brain-Score's own code fits the probabilities readout on the training images, predicts
the test images, and compares with the human trials. Writes tests/data/maniquet2024/brainscore.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "src"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "maniquet2024" / "brainscore.json"
BENCHMARKS = ("Maniquet2024-confusion_similarity", "Maniquet2024-tasks_consistency")


def main():
    import behaviour_fixtures_families as ff
    import behaviour_fixtures_maniquet as fm
    from make_behaviour_families_reference import SHIM
    from make_kato2026_reference import multi_shim

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default="/work/bsref/.venv/bin/python")
    parser.add_argument("--tool", required=True, help="the brainscore_reference.py tool (see the docstring)")
    args = parser.parse_args()
    stored = {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix="bs-maniquet-"))
    store, home = work / "store", work / "torch_home"
    sums = fm.write_store(store)
    ff.write_torch_home(home, "seeded")
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    jobs = [["--fixtures", str(store), "--benchmark", identifier, "--model", "alexnet", "--out",
             str(work / f"{identifier}.json")] for identifier in BENCHMARKS]
    run = subprocess.run([args.bsref, "-c", multi_shim(SHIM), args.tool, json.dumps(jobs)], env=env,
                         capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"Brain-Score failed:\n{run.stderr[-3000:]}")
    for identifier in BENCHMARKS:
        result = json.loads((work / f"{identifier}.json").read_text())
        served = {f["file"]: f["served_sha1"] for f in result["files"]}
        assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
        stored["benchmarks"][identifier] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                            "weights": "seeded", "files": served}
        stored["versions"] = result["versions"]
        print(json.dumps({identifier: stored["benchmarks"][identifier]}), flush=True)
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_maniquet2024_reference.py "
                         "(brainscore_reference.py in /work/bsref/.venv: brainscore-vision 2.4.2, torch 2.13.0+cpu)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
