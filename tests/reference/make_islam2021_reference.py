"""Brain-Score 2.4.2's own Islam2021 scores on brainpipe's fixture files, stored for tests/test_islam2021.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_islam2021_reference.py

(``tests/reference/brainscore_runner.py``: this repository's runner that runs a Brain-Score benchmark on local fixture files, serving
each file Brain-Score asks for from a folder under the object name it would download.)

The fixture store (tests/engineering_fixtures.write_islam2021, seed 0: byte-identical files each run) and a
TORCH_HOME with ``torch.manual_seed(0)`` alexnet weights; then, in one reference-venv process (the tool's file
source installed once, through the torchvision op-schema shim of make_behaviour_families_reference.py), each of the
8 benchmarks: Brain-Score's data loader, the model's preprocessing and extraction, the seeded pairing and the
dimensionality metric. Brain-Score's benchmark returns the metric's value (its ceiling ``Score(1)`` is not applied):
stored as score and raw, with the benchmark's ceiling. Writes tests/data/islam2021/brainscore.json.
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
OUT = REPO / "tests" / "data" / "islam2021" / "brainscore.json"

BENCHMARKS = tuple(f"Islam2021-{factor}_{region}_dimensionality" for region in ("v1", "v2", "v4", "it")
                   for factor in ("shape", "texture"))

#: run in the reference venv after the shim: argv = tool, fixtures, out, benchmark ids
RUNNER = """
import importlib.util, json, sys
import numpy as np
tool_path, fixtures, out, identifiers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
spec = importlib.util.spec_from_file_location("brainscore_runner", tool_path)
tool = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tool)
from pathlib import Path
served = []
tool.serve_store(Path(fixtures).resolve(), served)
from brainscore_vision import load_benchmark, load_model
model = load_model("alexnet")
results = {}
for identifier in identifiers:
    benchmark = load_benchmark(identifier)
    score = benchmark(model)
    results[identifier] = {"score": float(np.asarray(score)), "raw": float(np.asarray(score)),
                           "ceiling": float(np.asarray(benchmark.ceiling)), "error": None,
                           "files": {f["file"]: f["served_sha1"] for f in served}}
    print(json.dumps({identifier: results[identifier]["score"]}), flush=True)
versions = {m: __import__(m).__version__ for m in ("numpy", "torch", "torchvision")}
versions["brainscore_vision"] = "2.4.2"
Path(out).write_text(json.dumps({"benchmarks": results, "versions": versions}))
"""


def main():
    import engineering_fixtures as ef
    from behaviour_fixtures_families import write_torch_home
    from make_behaviour_families_reference import SHIM

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bs-islam-"))
    store, home = work / "store", work / "torch_home"
    sums = ef.write_islam2021(store)
    write_torch_home(home, "seeded")
    runner = work / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    out = work / "islam2021.json"
    run = subprocess.run([args.bsref, "-c", SHIM, str(runner), args.tool, str(store), str(out), *BENCHMARKS],
                         env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"Brain-Score failed:\n{run.stderr[-3000:]}")
    result = json.loads(out.read_text())
    for identifier, entry in result["benchmarks"].items():
        assert all(sums[name] == sha1 for name, sha1 in entry["files"].items()), "served files are not the fixture's"
        entry["weights"] = "seeded"
    stored = {"benchmarks": result["benchmarks"], "versions": result["versions"], "fixture_sha1": sums,
              "command": ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_islam2021_reference.py "
                          "(brainscore_runner.py in .venv-reference: brainscore-vision 2.4.2, torch 2.13.0+cpu)")}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    print(json.dumps({i: e["score"] for i, e in stored["benchmarks"].items()}, indent=1))


if __name__ == "__main__":
    main()
