#!/usr/bin/env python
"""Brain-Score 2.4.2's own benchmarks run on tests/neural_family_fixtures.py's files and a seeded alexnet: the
fixture tests/data/neural_families_reference.json of tests/test_neural_families.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner
(tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_neural_families_reference.py \\
        [--benchmarks Sanghavi2020.V4-pls ...]

For each benchmark the runner calls Brain-Score's ``load_benchmark(id)(load_model('alexnet'))``: its data plugin's
loaders (reading the fixture files under their real object names), its benchmark's preprocessing, PLS metric and
internal-consistency ceiling, and its alexnet plugin with the region→layer map models/alexnet/region_layer_map/
alexnet.json (V1 features.2, V4 features.7, IT features.12), whose IMAGENET1K_V1 weights file is replaced by
``torch.manual_seed(0); torchvision.models.alexnet(weights=None).state_dict()`` under torchvision's file name in a
scratch TORCH_HOME (tests/reference/brainscore_runs.py, which the other neural reference scripts share).
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "reference")]
OUT = REPO / "tests" / "data" / "neural_families_reference.json"

#: Identifier -> the fixture data set it reads.
BENCHMARKS = {
    "Sanghavi2020.V4-pls": "Sanghavi2020", "Sanghavi2020.IT-pls": "Sanghavi2020",
    "SanghaviJozwik2020.V4-pls": "SanghaviJozwik2020", "SanghaviJozwik2020.IT-pls": "SanghaviJozwik2020",
    "SanghaviMurty2020.V4-pls": "SanghaviMurty2020", "SanghaviMurty2020.IT-pls": "SanghaviMurty2020",
    "Rajalingham2020.IT-pls": "Rajalingham2020",
    **{f"Li2026.{region}-{metric}": "Li2026" for region in ("V1", "V2", "V4", "IT") for metric in ("pls", "ridgecv", "rdm")},
    "Cadena2017-pls": "Cadena2017",
    "Bracci2019.anteriorVTC-rdm": "Bracci2019",
}


def main():
    import brainscore_runs
    import neural_family_fixtures

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        sums = {**neural_family_fixtures.write_store(scratch / "store"),
                **neural_family_fixtures.li2026_store(scratch / "store"),
                **neural_family_fixtures.cadena2017_store(scratch / "store"),
                **neural_family_fixtures.bracci2019_store(scratch / "store")}
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        for identifier in args.benchmarks:
            result = brainscore_runs.run_benchmark(args.brainscore_python, args.runner, scratch / "store", identifier,
                                                   scratch)
            results[identifier], versions = brainscore_runs.entry(result), result["versions"]
            print(identifier, results[identifier], flush=True)
        brainscore_runs.write_reference(args.out, script=Path(__file__).name, fixtures="neural_family_fixtures.py",
                                        sums=sums, weights=weights, versions=versions, results=results)


if __name__ == "__main__":
    main()
