#!/usr/bin/env python
"""Brain-Score 2.4.2's own benchmarks run on tests/neural_rest_fixtures.py's files and a seeded alexnet: the
fixture tests/data/neural_rest_reference.json of tests/test_neural_rest.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_neural_rest_reference.py \\
        [--benchmarks Sanghavi2020.V4-pls ...]

For each benchmark the runner calls Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``: its data plugin's
loaders (reading the fixture files under their real object names), its benchmark's preprocessing, PLS metric and
internal-consistency ceiling, and its alexnet plugin with the region→layer map models/alexnet/region_layer_map/
alexnet.json (V1 features.2, V4 features.7, IT features.12), whose IMAGENET1K_V1 weights file is replaced by
``torch.manual_seed(0); torchvision.models.alexnet(weights=None).state_dict()`` under torchvision's file name in a
scratch TORCH_HOME (tests/reference/brainscore_runs.py).
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "reference")]
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

# Run in the reference venv before the runner.
PRELUDE = """
# Bracci2019_RSA-V1 / -posteriorVTC: Brain-Score's plugin names them in a commented-out registry line (its
# benchmarks/bracci2019/__init__.py); they are registered here exactly as that line says, with the plugin's own class
if any(argument.startswith('Bracci2019_RSA-') for argument in sys.argv):
    import brainscore_vision.benchmarks.bracci2019
    from brainscore_vision import benchmark_registry
    from brainscore_vision.benchmarks.bracci2019.benchmark import _Bracci2019RSA
    for region in ('V1', 'posteriorVTC'):
        benchmark_registry[f'Bracci2019_RSA-{region}'] = (lambda r: lambda: _Bracci2019RSA(r))(region)
"""


def main():
    import brainscore_runs
    import neural_rest_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--region-layers", default=None, help='JSON {region: layer} overriding the plugin\'s map, '
                    'e.g. \'{"V4": "features.12"}\' (stored with the numbers)')
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = neural_rest_fixtures.write_all(scratch / "store")
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        for identifier in args.benchmarks:
            env = brainscore_runs.reference_env(
                scratch, **({"REFERENCE_REGION_LAYERS": args.region_layers} if args.region_layers else {}))
            result = brainscore_runs.run_benchmark(args.brainscore_python, args.runner, scratch / "store", identifier,
                                                   scratch, env=env, prelude=brainscore_runs.REGION_LAYERS + PRELUDE)
            results[identifier], versions = brainscore_runs.entry(result), result["versions"]
            if args.region_layers:  # the committed layers differ from the alexnet plugin's
                results[identifier]["region_layers"] = json.loads(args.region_layers)
            print(identifier, results[identifier], flush=True)
        brainscore_runs.write_reference(args.out, script=Path(__file__).name, fixtures="neural_rest_fixtures.py",
                                        sums=sums, weights=weights, versions=versions, results=results)


if __name__ == "__main__":
    main()
