"""Brain-Score 2.4.2's own Scialom2024 scores on brainpipe's fixture files, stored for tests/test_scialom2024.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_scialom2024_reference.py

As tests/reference/make_behaviour_families_reference.py (same shim, same tool, ``BS_INSTALL_DEPENDENCIES=no
RESULTCACHING_DISABLE=1``): the fixture store ``write_store(STORE, ('Scialom2024',))`` (seed 0, byte-identical each
run) and a TORCH_HOME with the prototype alexnet (``WEIGHTS['Scialom2024']``); per benchmark Brain-Score's own code
loads the data, shows the images, runs the label task, the metric and the ceiling. Writes
tests/data/scialom2024/brainscore.json.
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
OUT = REPO / "tests" / "data" / "scialom2024" / "brainscore.json"

BENCHMARKS = ("Scialom2024_rgbBehavioralAccuracyDistance", "Scialom2024_phosphenes-12BehavioralAccuracyDistance",
              "Scialom2024_phosphenes-allBehavioralAccuracyDistance",
              "Scialom2024_phosphenes-allBehavioralErrorConsistency", "Scialom2024_rgbEngineeringAccuracy",
              "Scialom2024_phosphenes-12EngineeringAccuracy")


def main():
    import behaviour_fixtures_families as ff
    from make_behaviour_families_reference import SHIM

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    args = parser.parse_args()
    stored = {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix="bs-scialom-"))
    store, home = work / "store", work / "torch_home"
    sums = ff.write_store(store, ("Scialom2024",))
    ff.write_torch_home(home, ff.WEIGHTS["Scialom2024"])
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    for identifier in BENCHMARKS:
        out = work / f"{identifier}.json"
        run = subprocess.run([args.bsref, "-c", SHIM, args.tool, "--fixtures", str(store), "--benchmark",
                              identifier, "--model", "alexnet", "--out", str(out)], env=env, capture_output=True,
                             text=True)
        if run.returncode:
            sys.exit(f"{identifier}: Brain-Score failed:\n{run.stderr[-3000:]}")
        result = json.loads(out.read_text())
        served = {f["file"]: f["served_sha1"] for f in result["files"]}
        assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
        stored["benchmarks"][identifier] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                            "weights": ff.WEIGHTS["Scialom2024"], "files": served}
        stored["versions"] = result["versions"]
        print(json.dumps({identifier: stored["benchmarks"][identifier]}), flush=True)
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_scialom2024_reference.py "
                         "(brainscore_runner.py in .venv-reference: brainscore-vision 2.4.2, torch 2.13.0+cpu)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
