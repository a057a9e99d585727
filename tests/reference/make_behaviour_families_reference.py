"""Brain-Score 2.4.2's own scores of the issue-26 families on brainpipe's fixture files, stored for
tests/test_behaviour_families.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_behaviour_families_reference.py

(``tests/reference/brainscore_runner.py``: this repository's runner that runs a Brain-Score benchmark on local fixture files, serving
each file Brain-Score asks for from a folder under the object name it would download.)

Per family, the fixture store (tests/behaviour_fixtures_families.write_store, seed 0: byte-identical files each run)
and a TORCH_HOME with the family's stand-in alexnet weights (``WEIGHTS``: seeded, or the seeded network with a
prototype readout); then, per benchmark, ``brainscore_runner.py --store STORE --benchmark ID --model alexnet``
in the reference venv (``BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1``), through a shim that defines
torchvision's two missing op schemas first (the CPU torch / CUDA torchvision wheel mismatch that
brainpipe.models._torchvision works around too). Everything else is Brain-Score's code: data loaders, place_on_screen,
the model's preprocessing and extraction, the label task, the metric, the ceiling. Writes
tests/data/behaviour_families/brainscore.json: per benchmark score, raw, ceiling, error and the files served with
their sha1s, plus the command and versions.
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
import brainscore_runs  # noqa: E402 (found through the path above)

OUT = REPO / "tests" / "data" / "behaviour_families" / "brainscore.json"

#: fixture family -> the benchmarks scored on it
BENCHMARKS = {
    "Hermann2020": ("Hermann2020cueconflict-shape_bias", "Hermann2020cueconflict-shape_match"),
    "Baker2022": ("Baker2022frankenstein-accuracy_delta", "Baker2022fragmented-accuracy_delta",
                  "Baker2022inverted-accuracy_delta"),
    "ObjectNet": ("ObjectNet-top1",),
    "Lonnqvist2024": ("Lonnqvist2024_InlabInstructionsBehavioralAccuracyDistance",
                      "Lonnqvist2024_InlabNoInstructionsBehavioralAccuracyDistance",
                      "Lonnqvist2024_EngineeringAccuracy"),
    "BMD2024": ("BMD2024.texture_1Behavioral-accuracy_distance", "BMD2024.dotted_2Behavioral-accuracy_distance"),
}

#: The reference-venv wrapper around the runner (tests/reference/brainscore_runs.py).
SHIM = brainscore_runs.wrapper()


def main():
    import behaviour_fixtures_families as ff

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    parser.add_argument("--only", nargs="*", help="fixture families (default: all)")
    args = parser.parse_args()
    stored = json.loads(OUT.read_text()) if OUT.exists() else {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix="bs-families-"))
    for family, identifiers in BENCHMARKS.items():
        if args.only and family not in args.only:
            continue
        store = work / family / "store"
        sums = ff.write_store(store, (family,))
        home = work / family / "torch_home"
        ff.write_torch_home(home, ff.WEIGHTS[family])
        env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
                   BRAINIO_HOME=str(work / family / "brainio"))
        for identifier in identifiers:
            out = work / family / f"{identifier}.json"
            run = subprocess.run([args.bsref, "-c", SHIM, args.tool, "--fixtures", str(store), "--benchmark",
                                  identifier, "--model", "alexnet", "--out", str(out)],
                                 env=env, capture_output=True, text=True)
            if run.returncode:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stderr[-3000:]}")
            result = json.loads(out.read_text())
            served = {f["file"]: f["served_sha1"] for f in result["files"]}
            assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
            stored["benchmarks"][identifier] = {
                **{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                "fixture_family": family, "weights": ff.WEIGHTS[family], "files": served}
            stored["versions"] = result["versions"]
            print(json.dumps({identifier: stored["benchmarks"][identifier]}))
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python "
                         "tests/reference/make_behaviour_families_reference.py (brainscore_runner.py in "
                         ".venv-reference: brainscore-vision 2.4.2, torch 2.13.0+cpu)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
