"""What the reference scripts (tests/reference/make_*_reference.py, suite_table.py) share: running Brain-Score 2.4.2
benchmarks in the reference venv on fixture files with seeded alexnet weights, and writing the reference JSON.

The reference venv (``make reference-venv``: :data:`REFERENCE_PYTHON`) has brainscore-vision 2.4.2, never installed
into brainpipe's .venv; the runner is this repository's tests/reference/brainscore_runner.py (:data:`RUNNER`), which
serves Brain-Score's file requests from a folder and calls ``load_benchmark(id)(load_model('alexnet'))``.
Brain-Score's alexnet plugin reads torchvision's IMAGENET1K_V1 file; :func:`seeded_alexnet_weights` puts
``torch.manual_seed(0); torchvision.models.alexnet(weights=None).state_dict()`` under that name in a scratch
TORCH_HOME. :data:`WRAPPER` makes ``import torchvision`` work first (the runner's ``import_torchvision``: the reference
venv's torchvision wheel is a CUDA build beside CPU torch), so that a script's prelude may import Brain-Score.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

#: This repository's Brain-Score runner (run inside the reference venv).
RUNNER = Path(__file__).resolve().with_name("brainscore_runner.py")

#: The reference venv's interpreter (`make reference-venv`; REFERENCE_VENV=... there makes it elsewhere).
REFERENCE_PYTHON = REPO / ".venv-reference" / "bin" / "python"

#: Run inside the reference venv: make ``import torchvision`` work, run ``PRELUDE`` (a script's extra set-up, e.g.
#: registering benchmarks Brain-Score leaves unregistered), then hand over to the runner (argv[1]) with the rest of
#: the arguments, as if it were run from the command line.
WRAPPER = """
import json, runpy, sys
runpy.run_path(sys.argv[1])['import_torchvision']()
PRELUDE
runner = sys.argv[1]
sys.argv = [runner] + sys.argv[2:]
runpy.run_path(runner, run_name='__main__')
"""


#: :data:`WRAPPER`'s hand-over for many runs in one interpreter (Brain-Score's imports take most of a run):
#: argv = [runner, JSON list of the runner's argument lists]; each run is the runner's own ``main`` as from the
#: command line (it patches the data source anew and loads the benchmark and the model afresh).
MANY_RUNS = """
runner, jobs = sys.argv[1], json.loads(sys.argv[2])
namespace = runpy.run_path(runner)
for job in jobs:
    sys.argv = [runner] + job
    code = namespace["main"]()
    if code:
        sys.exit(code)
"""


#: A prelude: commit a region to another layer than the alexnet plugin's map does
#: (``REFERENCE_REGION_LAYERS='{"V4": "features.12"}'`` in the environment: :func:`reference_env`'s ``extra``), as a
#: test's model config does where the plugin's layer makes a fit too slow for a fixture.
REGION_LAYERS = """
import json as _json, os as _os
if _os.environ.get('REFERENCE_REGION_LAYERS'):
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
    _load_map = ModelCommitment.load_region_layer_map_json
    ModelCommitment.load_region_layer_map_json = lambda self, identifier: {
        **(_load_map(self, identifier) or {}), **_json.loads(_os.environ['REFERENCE_REGION_LAYERS'])}
"""


def wrapper(prelude: str = "", many: bool = False, body: str | None = None) -> str:
    """:data:`WRAPPER` with ``prelude`` (Python source run in the reference venv before the runner); ``many``: the
    runner once per argument list (:data:`MANY_RUNS`); ``body``: this source instead of the hand-over to the
    runner."""
    source = WRAPPER.replace("PRELUDE\n", prelude.strip("\n") + "\n" if prelude else "")
    if many or body is not None:
        source = source[:source.index("runner = sys.argv[1]")] + (MANY_RUNS if many else body).lstrip("\n")
    return source


def seeded_alexnet_weights(torch_home: Path) -> Path:
    """torch.manual_seed(0) alexnet weights under torchvision's IMAGENET1K_V1 file name in ``torch_home``."""
    import torch

    from brainpipe.models._torchvision import import_torchvision

    torchvision = import_torchvision()
    name = torchvision.models.AlexNet_Weights.IMAGENET1K_V1.url.rsplit("/", 1)[1]
    path = torch_home / "hub" / "checkpoints" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    torch.save(torchvision.models.alexnet(weights=None).state_dict(), path)
    return path


def reference_env(scratch: Path, **extra: str) -> dict:
    """The reference run's environment: Brain-Score's own result cache in the scratch folder (so for this run only:
    the benchmarks of one stimulus set reuse its activations, as on Brain-Score's servers), its homes there too."""
    return dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                RESULTCACHING_HOME=str(scratch / "result_caching"), TORCH_HOME=str(scratch / "torch"),
                BRAINIO_HOME=str(scratch / "brainio"), MT_HOME=str(scratch / "mt"), **extra)


def run_benchmark(brainscore_python, runner, store: Path, identifier: str, scratch: Path, *,
                  env: dict | None = None, prelude: str = "") -> dict:
    """Brain-Score's ``identifier`` on alexnet with the fixture files in ``store``: the runner's result JSON
    (score, raw, ceiling, error, files, versions). Exits naming the identifier, with Brain-Score's output, if it
    fails."""
    out = scratch / f"{identifier}.json"
    run = subprocess.run([str(brainscore_python or REFERENCE_PYTHON), "-c", wrapper(prelude),
                          str(Path(runner or RUNNER).resolve()), "--store", str(store), "--benchmark", identifier, "--model", "alexnet", "--out", str(out)],
                         env=env or reference_env(scratch), capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
    return json.loads(out.read_text())


def entry(result: dict) -> dict:
    """The numbers and files of one runner result, as the reference JSONs store them."""
    stored = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
    stored["files"] = sorted({f["file"] for f in result["files"]})
    return stored


def write_reference(out: Path, *, script: str, fixtures: str, sums: dict, weights: Path, versions, results: dict,
                    what: str = "benchmarks") -> None:
    """The reference JSON: what was run on which files and weights, the command that regenerates it, the numbers."""
    import neural_family_fixtures
    import torch

    summary = {
        "what": f"Brain-Score 2.4.2's {what} on tests/{fixtures}'s files (seed 0) with alexnet, "
                f"torch.manual_seed(0) weights; see tests/reference/{script}",
        "command": f".venv/bin/python tests/reference/{script}  (Brain-Score in .venv-reference: make reference-venv; "
                   "tests/reference/brainscore_runner.py)",
        "fixture_sha1": sums,
        "weights_state_sha256": neural_family_fixtures.state_digest(torch.load(weights)),
        "versions": versions,
        "benchmarks": dict(sorted(results.items())),
    }
    out.write_text(json.dumps(summary, indent=1) + "\n")


def behaviour_references(*, bsref=None, tool=None, identifiers, write_store, write_torch_home, weights: str,
                         script: str, out: Path, stored: dict | None = None, prefix: str = "bs-") -> None:
    """Brain-Score's behavioural ``identifiers`` in one reference-venv process on the files ``write_store(folder)``
    writes (returning name -> sha1) and the alexnet weights ``write_torch_home(folder)`` puts in a TORCH_HOME
    (``weights`` names them in the JSON); the numbers, the files served (checked to be the fixture's) and the command
    go to ``out`` (merged into ``stored``, e.g. the file's earlier numbers)."""
    import tempfile

    stored = stored or {"benchmarks": {}}
    work = Path(tempfile.mkdtemp(prefix=prefix))
    store, home = work / "store", work / "torch_home"
    sums = write_store(store)
    write_torch_home(home)
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    jobs = [["--store", str(store), "--benchmark", identifier, "--model", "alexnet", "--out",
             str(work / f"{identifier}.json")] for identifier in identifiers]
    run = subprocess.run([str(bsref or REFERENCE_PYTHON), "-c", wrapper(many=True), str(tool or RUNNER),
                          json.dumps(jobs)], env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"Brain-Score failed:\n{run.stderr[-3000:]}")
    for identifier in identifiers:
        result = json.loads((work / f"{identifier}.json").read_text())
        served = {f["file"]: f["served_sha1"] for f in result["files"]}
        assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
        stored["benchmarks"][identifier] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                            "weights": weights, "files": served}
        stored["versions"] = result["versions"]
        print(json.dumps({identifier: stored["benchmarks"][identifier]}), flush=True)
    stored["command"] = (f".venv/bin/python tests/reference/{script}  (Brain-Score in .venv-reference: make "
                         "reference-venv; tests/reference/brainscore_runner.py)")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
