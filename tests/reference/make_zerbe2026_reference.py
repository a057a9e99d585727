#!/usr/bin/env python
"""Brain-Score 2.4.2's own Zerbe2026 (LAION-fMRI) benchmarks run on tests/zerbe2026_fixtures.py's files and a seeded
alexnet: the fixture tests/data/zerbe2026_reference.json of tests/test_zerbe2026.py.

Run with brainpipe's venv (it writes the fixture files and the weights) and point it at the reference venv that has
brainscore-vision 2.4.2 (never installed into brainpipe's .venv) and at the reference runner (the project tool
tests/reference/brainscore_runner.py, which serves Brain-Score's file requests from a folder):

    .venv/bin/python tests/reference/make_zerbe2026_reference.py \\
        [--benchmarks Zerbe2026_fmri.V1-tau-ridgecv ...]

Brain-Score's LAION-fMRI plugin reads three things besides its S3 assemblies: the split lists of the
``laion_fmri`` package (ViCCo-Group/LAION-fMRI ``laion_fmri/splits``: ``get_split_masks(trials, name, pool,
ood_types=)`` matches ``trials['label']`` against the JSON's ``train_ids`` / ``test_ids``), which the reference venv
does not have: a stand-in package with that one function, reading the fixture's ``splits/<pool>/<name>.json``, is
put first on PYTHONPATH; the DUA-gated stimuli, read from ``$LAION_FMRI_STIMULI_DIR`` (``manifest.csv`` and the
images: the fixture's ``stimuli/``); and alexnet, as in make_neural_families_reference.py (region→layer map V1
features.2, V2/V4 features.7, IT features.12; ``torch.manual_seed(0)`` weights under torchvision's file name).
"""

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1].parent
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "reference"))
OUT = REPO / "tests" / "data" / "zerbe2026_reference.json"

REGIONS = ("V1", "V2", "V4", "IT")
BENCHMARKS = [f"Zerbe2026_fmri.{region}-{kind}" for kind in ("tau-ridgecv", "ood-ridgecv", "rdm-pearson", "cka")
              for region in REGIONS]

#: The stand-in for laion_fmri.splits (the reference venv has no laion_fmri package): the fixture's split lists.
SPLITS_STANDIN = '''
import json, os, re
from pathlib import Path
import numpy as np

_OOD = re.compile(r"^shared_4rep_OOD_([a-zA-Z0-9-]+)_.+\\.(png|jpg)$")


def get_split_masks(trials, name, pool, variant_id=0, ood_types=None):
    raw = json.loads((Path(os.environ["ZERBE_SPLITS_DIR"]) / pool / f"{name}.json").read_text())
    variant = next(v for v in raw["variants"] if int(v["variant_id"]) == variant_id)
    train, test = set(variant["train_ids"]), list(variant["test_ids"])
    if ood_types is not None:
        keep = set(ood_types)
        test = [i for i in test if (_OOD.match(i).group(1) if _OOD.match(i) else None) in keep]
    test = set(test)
    labels = trials["label"].to_numpy()
    return (np.array([label in train for label in labels], dtype=bool),
            np.array([label in test for label in labels], dtype=bool))
'''


def main(benchmarks=BENCHMARKS, out=OUT, write_store=None, script=Path(__file__).name, doc=__doc__,
         what="Zerbe2026 benchmarks"):
    """The reference run; make_zerbe2026_persubject_reference.py calls it with the per-subject pools' store."""
    import zerbe2026_fixtures
    import brainscore_runs

    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--brainscore-python", default=str(REPO / ".venv-reference" / "bin" / "python"))
    ap.add_argument("--runner", type=Path, default=str(REPO / "tests" / "reference" / "brainscore_runner.py"))
    ap.add_argument("--benchmarks", nargs="*", default=benchmarks)
    ap.add_argument("--out", type=Path, default=out)
    args = ap.parse_args()
    previous = json.loads(args.out.read_text()) if args.out.exists() else {}
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        store = scratch / "store"
        sums = (write_store or zerbe2026_fixtures.write_store)(store)
        package = scratch / "standin" / "laion_fmri"
        (package / "splits").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "splits" / "__init__.py").write_text(SPLITS_STANDIN)
        weights = brainscore_runs.seeded_alexnet_weights(scratch / "torch")
        results = dict(previous.get("benchmarks", {}))
        versions = previous.get("versions")
        env = brainscore_runs.reference_env(scratch, LAION_FMRI_STIMULI_DIR=str(store / "stimuli"),
                                            ZERBE_SPLITS_DIR=str(store / "splits"), BRAINSCORE_SKIP_MEMORY_CHECK="1",
                                            PYTHONPATH=str(scratch / "standin"))
        for identifier in args.benchmarks:
            result = brainscore_runs.run_benchmark(args.brainscore_python, args.runner, store, identifier, scratch,
                                                   env=env)
            results[identifier], versions = brainscore_runs.entry(result), result["versions"]
            print(identifier, results[identifier], flush=True)
        brainscore_runs.write_reference(args.out, script=script, fixtures="zerbe2026_fixtures.py", sums=sums,
                                        weights=weights, versions=versions, results=results, what=what)


if __name__ == "__main__":
    main()
