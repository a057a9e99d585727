#!/usr/bin/env python
"""Brain-Score 2.4.2's own benchmarks run on tests/neural_rest_fixtures.py's files and a seeded alexnet: the
fixture tests/data/neural_rest_reference.json of tests/test_neural_rest.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(the project tool brainscore_reference.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_neural_rest_reference.py \\
        --brainscore-python /work/bsref/.venv/bin/python --runner PATH/TO/brainscore_reference.py \\
        [--benchmarks Sanghavi2020.V4-pls ...]

For each benchmark the runner calls Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``: its data plugin's
loaders (reading the fixture files under their real object names), its benchmark's preprocessing, PLS metric and
internal-consistency ceiling, and its alexnet plugin with the region→layer map models/alexnet/region_layer_map/
alexnet.json (V1 features.2, V4 features.7, IT features.12), whose IMAGENET1K_V1 weights file is replaced by
``torch.manual_seed(0); torchvision.models.alexnet(weights=None).state_dict()`` under torchvision's file name in a
scratch TORCH_HOME. The reference venv's torchvision wheel is a CUDA build beside CPU torch; the two op schemas
its import needs are defined first, as brainpipe.models._torchvision does (the ops themselves are never used).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(REPO / "tests"))
OUT = REPO / "tests" / "data" / "neural_rest_reference.json"

#: The identifiers (tests/neural_rest_fixtures.py writes every file they read). The two reverse_pls benchmarks are
#: the slow ones (scikit-learn's PLS onto alexnet's 64896 V4 / 9216 IT units, 10 splits, then a per-unit scipy
#: pearsonr loop): several CPU minutes each; run them with --benchmarks to add them to an existing file.
#: MajajHong2015public.V4-reverse_pls is stored with V4 committed to features.12 (9216 units, as IT) instead of the
#: plugin's features.7 (64896 units: its run did not finish on a shared 2-core machine in over half an hour):
#:     ... --benchmarks MajajHong2015public.V4-reverse_pls --region-layers '{"V4": "features.12"}'
#: (stored as ``region_layers``; tests/test_neural_rest.py scores it with an alexnet entry committing the same).
BENCHMARKS = ["MajajHong2015public.V4-reverse_pls", "MajajHong2015public.IT-reverse_pls",
              "Bracci2019_RSA-V1", "Bracci2019_RSA-posteriorVTC",
              *(f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V2", "V4", "IT"))]

# Run inside the reference venv: make ``import torchvision`` work, then hand over to the runner.
WRAPPER = """
import runpy, sys, torch
try:
    import torchvision
except RuntimeError as error:
    if 'torchvision::nms' not in str(error):
        raise
    library = torch.library.Library('torchvision', 'FRAGMENT')
    library.define('nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor')
    library.define('qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor')
    for name in [n for n in sys.modules if n == 'torchvision' or n.startswith('torchvision.')]:
        del sys.modules[name]
    import torchvision
# A region's committed layer other than the alexnet plugin's (REFERENCE_REGION_LAYERS='{"V4": "features.12"}'):
# the same override as the test's model config, where the plugin's layer makes a fit too slow for a fixture
import json as _json, os as _os
if _os.environ.get('REFERENCE_REGION_LAYERS'):
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
    _load_map = ModelCommitment.load_region_layer_map_json
    ModelCommitment.load_region_layer_map_json = lambda self, identifier: {
        **(_load_map(self, identifier) or {}), **_json.loads(_os.environ['REFERENCE_REGION_LAYERS'])}
# Bracci2019_RSA-V1 / -posteriorVTC: Brain-Score's plugin names them in a commented-out registry line (its
# benchmarks/bracci2019/__init__.py); they are registered here exactly as that line says, with the plugin's own class
if any(argument.startswith('Bracci2019_RSA-') for argument in sys.argv):
    import brainscore_vision.benchmarks.bracci2019
    from brainscore_vision import benchmark_registry
    from brainscore_vision.benchmarks.bracci2019.benchmark import _Bracci2019RSA
    for region in ('V1', 'posteriorVTC'):
        benchmark_registry[f'Bracci2019_RSA-{region}'] = (lambda r: lambda: _Bracci2019RSA(r))(region)
runner = sys.argv[1]
sys.argv = [runner] + sys.argv[2:]
runpy.run_path(runner, run_name='__main__')
"""


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


def main():
    import neural_family_fixtures
    import neural_rest_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", required=True)
    ap.add_argument("--runner", required=True, type=Path)
    ap.add_argument("--benchmarks", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--region-layers", default=None, help='JSON {region: layer} overriding the plugin\'s map, '
                    'e.g. \'{"V4": "features.12"}\' (stored with the numbers)')
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = neural_rest_fixtures.write_all(scratch / "store")
        weights = seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        for identifier in args.benchmarks:
            out = scratch / f"{identifier}.json"
            # Brain-Score's own result cache, in the scratch folder and so for this run only: the benchmarks of
            # one stimulus set reuse its activations, as on Brain-Score's servers
            env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="0",
                       RESULTCACHING_HOME=str(scratch / "result_caching"),
                       TORCH_HOME=str(scratch / "torch"), BRAINIO_HOME=str(scratch / "brainio"),
                       MT_HOME=str(scratch / "mt"),
                       **({"REFERENCE_REGION_LAYERS": args.region_layers} if args.region_layers else {}))
            run = subprocess.run([args.brainscore_python, "-c", WRAPPER, str(args.runner.resolve()),
                                  "--fixtures", str(scratch / "store"), "--benchmark", identifier,
                                  "--model", "alexnet", "--out", str(out)], env=env, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{identifier}: Brain-Score failed:\n{run.stdout[-3000:]}\n{run.stderr[-5000:]}")
            result = json.loads(out.read_text())
            results[identifier] = {key: result[key] for key in ("score", "raw", "ceiling", "error")}
            results[identifier]["files"] = sorted({f["file"] for f in result["files"]})
            if args.region_layers:  # the committed layers differ from the alexnet plugin's
                results[identifier]["region_layers"] = json.loads(args.region_layers)
            print(identifier, results[identifier], flush=True)
        summary = {
            "what": "Brain-Score 2.4.2's benchmarks on tests/neural_rest_fixtures.py's files (seed 0) with "
                    "alexnet, torch.manual_seed(0) weights; see tests/reference/make_neural_rest_reference.py",
            "command": "BS_INSTALL_DEPENDENCIES=no .venv/bin/python tests/reference/make_neural_rest_reference.py "
                       "--brainscore-python /work/bsref/.venv/bin/python "
                       "--runner PATH/TO/brainscore_reference.py",
            "fixture_sha1": sums,
            "weights_state_sha256": neural_family_fixtures.state_digest(__import__("torch").load(weights)),
            "versions": result["versions"] if args.benchmarks else previous.get("versions"),
            "benchmarks": dict(sorted(results.items())),
        }
    args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
