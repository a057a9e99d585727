"""Brain-Score 2.4.2's own Malania2007 scores on brainpipe's fixture files, stored for tests/test_malania2007.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_malania2007_reference.py

(``tests/reference/brainscore_runner.py``: this repository's runner that runs a Brain-Score benchmark on local fixture files, serving
each file Brain-Score asks for from a folder under the object name it would download.)

The fixture store (tests/malania_fixtures.write_store, seed 0: byte-identical files each run) and a TORCH_HOME with
the seeded alexnet (``torch.manual_seed(0)``, tests/behaviour_fixtures_families.write_torch_home 'seeded'); then, per
benchmark, ``brainscore_runner.py --store STORE --benchmark ID --model alexnet`` in the reference venv
(``BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1``), through the shim that defines torchvision's two missing op
schemas first (as make_behaviour_families_reference.py). Everything else is Brain-Score's code: loaders,
place_on_screen, microsaccades, the probabilities readout, the threshold metrics and ceilings. Writes
tests/data/malania2007/brainscore.json: per benchmark score, raw, ceiling, error and the files served with their
sha1s, plus the command and versions.
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

OUT = REPO / "tests" / "data" / "malania2007" / "brainscore.json"
BENCHMARKS = ("Malania2007.vernieracuity-threshold", "Malania2007.short2-threshold_elevation")
#: scored on malania_fixtures.write_informative_store (fits that succeed; stored under "informative"). Not the
#: vernier acuity: upstream raises TypeError there as soon as one fit succeeds (see brainpipe.benchmarks.families.malania2007)
INFORMATIVE = ("Malania2007.short4-threshold_elevation",)

#: The reference-venv wrapper around the runner (tests/reference/brainscore_runs.py).
SHIM = brainscore_runs.wrapper()

#: For the informative store: each threshold Brain-Score's metric computes (baseline first, then the condition)
#: and its psychometric points, printed as 'THRESHOLD <json>' (the runner itself reports only the score)
THRESHOLDS = brainscore_runs.wrapper(prelude="""
import json as _json
from brainscore_vision.metrics.threshold import metric as _metric
_compute = _metric.Threshold.compute_threshold
def _reported(self, source, independent_variable):
    threshold = _compute(self, source, independent_variable)
    x, y = _metric.Threshold.aggregate_psychometric_fit_data(source[independent_variable].values,
                                                             _metric.Threshold.convert_proba_to_correct(source))
    print("THRESHOLD " + _json.dumps({"threshold": threshold if isinstance(threshold, str) else float(threshold),
                                      "x": [float(v) for v in x], "proportion_correct": [float(v) for v in y]}),
          flush=True)
    return threshold
_metric.Threshold.compute_threshold = _reported
""")


VERNIER_CEILING = """
import json, sys
import numpy as np, xarray as xr
from brainscore_core.supported_data_standards.brainio.assemblies import PropertyAssembly
from brainscore_vision.benchmarks.malania2007.benchmark import filter_baseline_subjects
from brainscore_vision.metrics.threshold.metric import Threshold
store = sys.argv[1]
def load(name):
    a = xr.open_dataset(f"{store}/assy_Malania2007_{name}.nc")["data"]
    return PropertyAssembly(a.values, coords={"subject": ("subject", [str(s) for s in a["subject"].values])},
                            dims=["subject"])
base = load("vernier-only")
ceilings = [float(Threshold("image_label", threshold_accuracy=0.75).ceiling(filter_baseline_subjects(load(c), base)[1]).values)
            for c in ["short-2", "short-4", "short-6", "short-8", "short-16", "equal-2", "long-2", "equal-16", "long-16"]]
print(json.dumps(float(np.mean(ceilings))))
"""


def main():
    import behaviour_fixtures_families as ff
    import malania_fixtures as mf

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    parser.add_argument("--only", nargs="*", help="identifiers (default: all of BENCHMARKS and INFORMATIVE)")
    args = parser.parse_args()
    stored = json.loads(OUT.read_text()) if OUT.exists() else {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix="bs-malania-"))
    stores = {"benchmarks": (work / "store", mf.write_store(work / "store")),
              "informative": (work / "informative", mf.write_informative_store(work / "informative"))}
    home = work / "torch_home"
    ff.write_torch_home(home, "seeded")
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    for identifier in args.only or BENCHMARKS + INFORMATIVE:
        section = "informative" if identifier in INFORMATIVE else "benchmarks"
        store, sums = stores[section]
        out = work / f"{identifier}.json"
        run = subprocess.run([args.bsref, "-c", THRESHOLDS if section == "informative" else SHIM, args.tool,
                              "--fixtures", str(store), "--benchmark",
                              identifier, "--model", "alexnet", "--out", str(out)],
                             env=env, capture_output=True, text=True)
        if run.returncode:
            sys.exit(f"{identifier}: Brain-Score failed:\n{run.stderr[-3000:]}")
        result = json.loads(out.read_text())
        served = {f["file"]: f["served_sha1"] for f in result["files"]}
        assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
        stored.setdefault(section, {})[identifier] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                                      "weights": "seeded", "files": served}
        if section == "informative":  # [baseline, condition]: ThresholdElevation computes them in this order
            stored[section][identifier]["thresholds"] = [
                json.loads(line.split(" ", 1)[1]) for line in run.stdout.splitlines() if line.startswith("THRESHOLD ")]
        if identifier.endswith("vernieracuity-threshold"):  # its mean score has no ceiling attribute: mean_ceiling
            run = subprocess.run([args.bsref, "-c", VERNIER_CEILING, str(work / "store")], env=env,
                                 capture_output=True, text=True, check=True)
            stored["benchmarks"][identifier]["mean_ceiling"] = json.loads(run.stdout.strip().splitlines()[-1])
        stored["versions"] = result["versions"]
        print(json.dumps({identifier: stored[section][identifier]}), flush=True)
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_malania2007_reference.py "
                         "(brainscore_runner.py in .venv-reference: brainscore-vision 2.4.2)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
