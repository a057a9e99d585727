"""Brain-Score 2.4.2's own Kato2026 scores on brainpipe's fixture files, stored for tests/test_kato2026.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_kato2026_reference.py \\
        --tool PATH/TO/brainscore_reference.py [--bsref /work/bsref/.venv/bin/python]

As tests/reference/make_scialom2024_reference.py (same shim, same tool, ``BS_INSTALL_DEPENDENCIES=no
RESULTCACHING_DISABLE=1``): the fixture store ``tests/behaviour_fixtures_kato.write_store`` (seed 0, byte-identical
each run) and a TORCH_HOME with the prototype alexnet (``write_torch_home``); per benchmark Brain-Score's own code
loads the data (and the base condition's), places the images on screen, runs the label task (max aggregation), masks
by the base images, the kato_* metric and its ceiling. Writes tests/data/kato2026/brainscore.json.
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
OUT = REPO / "tests" / "data" / "kato2026" / "brainscore.json"

DATASETS = ("Ori", "Fil", "Lin", "SilTex", "Sil", "Tex", "LinFil", "Sparse", "Dense")
BENCHMARKS = tuple(f"Kato2026{d}-{m}" for m in ("error_consistency", "accuracy_distance") for d in DATASETS)


def multi_shim(shim: str) -> str:
    """The shim, but running the tool once per job in one interpreter (Brain-Score's imports take most of a run):
    argv = [tool, JSON list of the tool's argument lists]. Each run is the tool's own ``main`` as from the command
    line (it patches the data source anew and loads the benchmark and the model afresh)."""
    head = shim.split("sys.argv = sys.argv[1:]")[0]
    return head + """
import json
tool, jobs = sys.argv[1], json.loads(sys.argv[2])
namespace = runpy.run_path(tool)
for job in jobs:
    sys.argv = [tool] + job
    code = namespace["main"]()
    if code:
        sys.exit(code)
"""


def main():
    import behaviour_fixtures_kato as fk
    from make_behaviour_families_reference import SHIM

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default="/work/bsref/.venv/bin/python")
    parser.add_argument("--tool", required=True, help="the brainscore_reference.py tool (see the docstring)")
    parser.add_argument("--only", nargs="*", help="these benchmarks only (merged into the stored file)")
    args = parser.parse_args()
    stored = json.loads(OUT.read_text()) if args.only and OUT.exists() else {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix="bs-kato-"))
    store, home = work / "store", work / "torch_home"
    sums = fk.write_store(store)
    fk.write_torch_home(home)
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    identifiers = args.only or BENCHMARKS
    jobs = [["--fixtures", str(store), "--benchmark", identifier, "--model", "alexnet", "--out",
             str(work / f"{identifier}.json")] for identifier in identifiers]
    run = subprocess.run([args.bsref, "-c", multi_shim(SHIM), args.tool, json.dumps(jobs)], env=env,
                         capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"Brain-Score failed:\n{run.stderr[-3000:]}")
    for identifier in identifiers:
        out = work / f"{identifier}.json"
        result = json.loads(out.read_text())
        served = {f["file"]: f["served_sha1"] for f in result["files"]}
        assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
        stored["benchmarks"][identifier] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                            "weights": "kato_prototypes", "files": served}
        stored["versions"] = result["versions"]
        print(json.dumps({identifier: stored["benchmarks"][identifier]}), flush=True)
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_kato2026_reference.py "
                         "(brainscore_reference.py in /work/bsref/.venv: brainscore-vision 2.4.2, torch 2.13.0+cpu)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
