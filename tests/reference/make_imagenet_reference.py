"""Brain-Score 2.4.2's own ImageNet-top1 and ImageNet-C-noise-top1 scores on brainpipe's fixture files, stored for
tests/test_imagenet.py.

Run with brainpipe's venv (it writes the fixtures); Brain-Score runs in the separate reference venv::

    .venv/bin/python tests/reference/make_imagenet_reference.py [--only ImageNet-top1|ImageNet-C-noise-top1]

ImageNet-C-noise-top1: ``tests/reference/brainscore_runner.py`` (this repository's runner that serves each file Brain-Score asks for
from a folder under the object name it would download) on tests/engineering_fixtures.write_imagenet_c's
``imagenet_c.noise`` files: Brain-Score's benchmark finds no folder of its own machines and loads the registered
stimulus set whole (its public path), then runs the label task per corruption type and level.

Brain-Score's ``Imagenet2012`` reads its packaged imagenet2012.csv, whose image paths are on Brain-Score's own
machines; here, after constructing it, its stimulus set is rebuilt by the same lines of its ``__init__`` from the
fixture table (tests/engineering_fixtures.write_imagenet2012, seed 0: byte-identical files each run), with each
``stimulus_id``'s path the fixture's image. Everything else is Brain-Score's: the label task ('imagenet'), 10 trials,
the model's preprocessing and extraction (alexnet with the 'baker_prototypes' stand-in weights of
tests/behaviour_fixtures_families.py, through the torchvision op-schema shim), the accuracy metric.
Writes tests/data/imagenet/brainscore.json.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "src"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "imagenet" / "brainscore.json"

#: run in the reference venv after the shim: argv = fixture csv, images folder, out
RUNNER = """
import json, sys
from pathlib import Path
import numpy as np
import pandas as pd
from brainscore_core.supported_data_standards.brainio.stimuli import StimulusSet, StimulusSetLoader
from brainscore_vision import load_benchmark, load_model
csv, images, out = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
benchmark = load_benchmark("ImageNet-top1")
# benchmarks/imagenet/benchmark.py Imagenet2012.__init__, on the fixture table; paths: the fixture's images
stimulus_set = pd.read_csv(csv)
StimulusSetLoader.correct_stimulus_id_name(stimulus_set)
stimulus_set = StimulusSet(stimulus_set)
stimulus_set.stimulus_paths = {row.stimulus_id: str(images / row.filename) for row in stimulus_set.itertuples()}
benchmark._stimulus_set = stimulus_set
score = benchmark(load_model("alexnet"))
result = {"score": float(np.asarray(score)), "raw": None, "ceiling": float(np.asarray(benchmark.ceiling)),
          "error": float(np.asarray(score.attrs["error"])) if "error" in score.attrs else None}
versions = {m: __import__(m).__version__ for m in ("numpy", "torch", "torchvision")}
versions["brainscore_vision"] = "2.4.2"
Path(out).write_text(json.dumps({"benchmarks": {"ImageNet-top1": result}, "versions": versions}))
print(json.dumps(result))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bsref", default=str(REPO / ".venv-reference" / "bin" / "python"))
    parser.add_argument("--tool", default=str(REPO / "tests" / "reference" / "brainscore_runner.py"),
                        help="the Brain-Score runner")
    parser.add_argument("--only", choices=("ImageNet-top1", "ImageNet-C-noise-top1"))
    args = parser.parse_args()
    stored = json.loads(OUT.read_text()) if OUT.exists() else {"benchmarks": {}, "fixture_sha1": {}}
    if args.only != "ImageNet-top1":
        imagenet_c(args, stored)
    if args.only != "ImageNet-C-noise-top1":
        imagenet(args, stored)
    stored["command"] = ("BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_imagenet_reference.py "
                         "(in .venv-reference: brainscore-vision 2.4.2, torch 2.13.0+cpu)")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(stored, indent=1, sort_keys=True) + "\n")
    print(json.dumps(stored["benchmarks"], indent=1))


def imagenet_c(args, stored):
    import engineering_fixtures as ef
    from behaviour_fixtures_families import write_torch_home
    from make_behaviour_families_reference import SHIM

    work = Path(tempfile.mkdtemp(prefix="bs-imagenet-c-"))
    store, home = work / "store", work / "torch_home"
    sums = ef.write_imagenet_c(store, "noise")
    write_torch_home(home, "baker_prototypes")
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    out = work / "imagenet_c.json"
    run = subprocess.run([args.bsref, "-c", SHIM, args.tool, "--fixtures", str(store), "--benchmark",
                          "ImageNet-C-noise-top1", "--model", "alexnet", "--out", str(out)], env=env,
                         capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"ImageNet-C-noise-top1: Brain-Score failed:\n{run.stderr[-3000:]}")
    result = json.loads(out.read_text())
    served = {f["file"]: f["served_sha1"] for f in result["files"]}
    assert all(sums[name] == sha1 for name, sha1 in served.items()), "served files are not the fixture's"
    stored["benchmarks"]["ImageNet-C-noise-top1"] = {**{k: result[k] for k in ("score", "raw", "ceiling", "error")},
                                                     "weights": "baker_prototypes", "files": served}
    stored["fixture_sha1"].update(sums)


def imagenet(args, stored):
    import engineering_fixtures as ef
    from behaviour_fixtures_families import write_torch_home
    from make_behaviour_families_reference import SHIM

    work = Path(tempfile.mkdtemp(prefix="bs-imagenet-"))
    store, home, images = work / "store", work / "torch_home", work / "images"
    sums = ef.write_imagenet2012(store)
    with zipfile.ZipFile(store / "imagenet2012_val.zip") as archive:
        archive.extractall(images)
    write_torch_home(home, "baker_prototypes")
    runner = work / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1", TORCH_HOME=str(home),
               BRAINIO_HOME=str(work / "brainio"))
    out = work / "imagenet.json"
    run = subprocess.run([args.bsref, "-c", SHIM, str(runner), str(store / "imagenet2012.csv"), str(images),
                          str(out)], env=env, capture_output=True, text=True)
    if run.returncode:
        sys.exit(f"Brain-Score failed:\n{run.stderr[-3000:]}")
    result = json.loads(out.read_text())
    result["benchmarks"]["ImageNet-top1"].update(weights="baker_prototypes", files=sums)
    stored["benchmarks"].update(result["benchmarks"])
    stored["versions"] = result["versions"]
    stored["fixture_sha1"].update(sums)


if __name__ == "__main__":
    main()
