"""Zerbe2026 (LAION-fMRI) at real size: each workflow stage's wall time and peak memory, against the memory its rule
declares.

Writes a real-size stand-in of the shared pool (tests/zerbe2026_fixtures.py at the real counts: 1,121 regular + 371
OOD images, tau split 897 train / 224 test; five subjects with 6,379 voxels each in V1/V2/V4/IT, the count
Brain-Score's data/laion_fmri/nc_reproduction/README.md gives for sub-01, split evenly over the regions; every image
``--repetitions`` times per subject, default 8: the real shared images have 4 or 12), then runs the workflow from
scratch for alexnet (seeded weights, no network: every file is a ``data.local_files`` entry, as for a user with the
DUA-gated data) on all 16 identifiers (4 regions × tau-ridgecv, ood-ridgecv, rdm-pearson, cka) and prints, per rule,
the jobs' wall time (Snakemake's benchmark TSVs) and peak resident memory (the job's own last log line, or
Snakemake's max_rss) beside the ``mem_mb`` the rule declared. A job whose peak exceeds its declared memory is
flagged OVER (a SLURM job would be killed) and the script exits 1.

With ``--persubject``, the per-subject pools instead (``Zerbe2026_fmri_persubject``: every subject's 4,712 own
images besides the shared ones, its own tau split of 1,167 test images; ``--repetitions`` per image, default 2 here):
the data set joins the five files over the union of ≈ 25,000 stimuli, which is where memory goes, so the run stops
at the prepared data and the ceilings (fetch_assembly, prepare_assembly, ceiling; no extraction of 25,000 images).
With ``--all-stages`` the run goes on to the scores (the ≈ 25,000 images extracted once, the per-subject RidgeCV
folds, score_layer, score); ``--regions IT`` keeps the regions whose fold fits in a small machine (IT reads
alexnet's features.12, 9,216 units: 0.9 GB for the union; V1's features.2 and V2/V4's features.7 are 4.7 and
6.5 GB, read whole by the fold job with per-subject copies besides: their fold memory is printed as an
EXTRAPOLATION from the measured IT fold, not measured).

Usage::

    nice .venv/bin/python perf/bench_zerbe2026_scale.py                      # real counts (≈ 1.3 GB of files)
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --voxels 800 --keep  # smaller, keep the folder
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --persubject         # the per-subject pools' data stages
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --persubject --all-stages --regions IT

The images are 128-pixel stand-ins (the model resizes every image to 224 pixels, so extraction costs what it costs
for the real images, bar decoding). Timings depend on the machine's load: compare them only on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: the real shared pool (brain-score/vision brainscore_vision/data/laion_fmri/__init__.py: 1,492 images every
#: subject saw; benchmarks/laion_fmri: tau 897 / 224, ood 1,121 / 371) and sub-01's V1/V2/V4/IT voxels
N_REGULAR, N_OOD, N_TAU_TEST, VOXELS_PER_SUBJECT = 1121, 371, 224, 6379
IDENTIFIERS = [f"Zerbe2026_fmri.{region}-{kind}" for kind in ("tau-ridgecv", "ood-ridgecv", "rdm-pearson", "cka")
               for region in ("V1", "V2", "V4", "IT")]
#: the per-subject pools (data/laion_fmri/__init__.py: 5,833 natural images per subject, 1,121 shared + 4,712 own;
#: tau 20 % test)
N_UNIQUE, N_PERSUBJECT_TAU_TEST = 4712, 1167
PERSUBJECT = [f"Zerbe2026_fmri_persubject.{region}-{kind}" for kind in ("tau-ridgecv", "ood-ridgecv")
              for region in ("V1", "V2", "V4", "IT")]


#: the per-subject pools' union: every image the model sees once (1,492 shared + 5 subjects × 4,712 own)
N_UNION = N_REGULAR + N_OOD + 5 * N_UNIQUE
#: alexnet's layers in the grid (config/config.yaml model_zoo.alexnet.layers: V1 features.2, V2/V4 features.7,
#: IT features.12)
LAYER_UNITS = {"features.2": 64 * 27 * 27, "features.7": 384 * 13 * 13, "features.12": 256 * 6 * 6}


def fold_bound_mb(units: int, subjects_images: int = N_REGULAR + N_UNIQUE + N_OOD) -> float:
    """What a per-subject fold job holds besides what does not grow with the layer (MB): the layer read whole
    (N_UNION × units float32) and, for the subject being fitted, its rows copied twice (X[train], X[test], then
    their concatenation in ridgecv_split_subject)."""
    return (N_UNION + 2 * subjects_images) * units * 4 / 1e6


def extrapolated_folds(declared_it: int, measured_it: int) -> str:
    """The other regions' fold jobs from the IT fold's: measured = the IT fold's part that does not grow with the
    layer + :func:`fold_bound_mb` of the region's layer; declared = the IT fold's ``fold_mem_mb`` (1000 + 3 × (layer
    + target) MB, the regions' targets equal here) with 3 × the layer values' difference."""
    rest = measured_it - fold_bound_mb(LAYER_UNITS["features.12"])
    lines = [f"\nEXTRAPOLATION (not measured): the other regions' fold jobs, from the IT fold's measured "
             f"{measured_it} MB (declared {declared_it}) = {rest:.0f} MB + the layer-sized part (fold_bound_mb)"]
    for region, layer in (("V1", "features.2"), ("V2/V4", "features.7")):
        units = LAYER_UNITS[layer]
        grown = N_UNION * (units - LAYER_UNITS["features.12"]) * 4 / 1e6
        needs, declared = rest + fold_bound_mb(units), declared_it + 3 * grown
        lines.append(f"  {region} ({layer}, {units:,} units, layer values {N_UNION * units * 4 / 1e9:.1f} GB): ≈ "
                     f"{needs:,.0f} MB of ≈ {declared:,.0f} MB declared {'OVER' if needs > declared else 'ok'}")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--voxels", type=int, default=VOXELS_PER_SUBJECT, help="voxels per subject (all regions)")
    parser.add_argument("--repetitions", type=int, default=None,
                        help="presentations of every image per subject (default 8; 2 with --persubject)")
    parser.add_argument("--persubject", action="store_true", help="the per-subject pools' data stages (see above)")
    parser.add_argument("--all-stages", action="store_true",
                        help="--persubject: on to the scores (extraction of the union, folds), not only the data")
    parser.add_argument("--regions", nargs="+", choices=("V1", "V2", "V4", "IT"), default=["V1", "V2", "V4", "IT"],
                        help="--persubject: the regions scored")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the working folder")
    args = parser.parse_args()

    import torch

    import zerbe2026_fixtures as fixtures
    from brainpipe.models._torchvision import import_torchvision
    from rule_memory import jobs, print_timings, report, run
    from test_real_data_workflow import write_checksums, write_config

    fixtures.N_REGULAR, fixtures.N_OOD, fixtures.N_TAU_TEST = N_REGULAR, N_OOD, N_TAU_TEST
    fixtures.VOXELS_PER_REGION = max(1, round(args.voxels / len(fixtures.REGIONS)))
    repetitions = args.repetitions or (2 if args.persubject else 8)
    fixtures.REPETITIONS = (repetitions, repetitions)
    per_region = fixtures.VOXELS_PER_REGION
    fixtures.N_UNIQUE, fixtures.PERSUBJECT_TAU_TEST = N_UNIQUE, N_PERSUBJECT_TAU_TEST
    fixtures.PERSUBJECT_REPETITIONS, fixtures.PERSUBJECT_VOXELS = (repetitions, repetitions), (per_region, per_region)
    fixtures.PERSUBJECT_GAPS = {}
    identifiers = [i for i in PERSUBJECT if i.split(".")[1].split("-")[0] in args.regions] if args.persubject \
        else IDENTIFIERS
    folder = Path(tempfile.mkdtemp(prefix="bench_zerbe2026_"))
    over = []
    try:
        started = time.perf_counter()
        sums = (fixtures.write_persubject_store if args.persubject else fixtures.write_store)(folder / "store")
        files = {name: sha1 for name, sha1 in sums.items() if "/" not in name}  # brainpipe's object names
        print(f"{identifiers[0].split('.')[0]}: {N_REGULAR} + {N_OOD} shared images"
              f"{f' + {N_UNIQUE} own per subject' if args.persubject else ''} x {repetitions} repetitions, "
              f"{len(fixtures.SUBJECTS)} subjects x {fixtures.VOXELS_PER_REGION * len(fixtures.REGIONS)} voxels; "
              f"files written in {time.perf_counter() - started:.0f} s:")
        for name in files:
            print(f"  {name}: {(folder / 'store' / name).stat().st_size / 2 ** 20:.1f} MiB")
        weights = folder / "alexnet-seed0.pth"
        torch.manual_seed(0)
        torch.save(import_torchvision().models.alexnet(weights=None).state_dict(), weights)
        work = folder / "work"
        work.mkdir()
        local = {name: str(folder / "store" / name) for name in files}
        config = write_config(folder, identifiers, dict(local_files=local, checksums_override=str(
            write_checksums(folder, files))), weights_file=weights)
        started = time.perf_counter()
        scored = not args.persubject or args.all_stages
        targets = [f"results/{'alexnet' if scored else 'ceilings'}/{i}.json" for i in identifiers]
        output = run(work, REPO, [config], targets, {}, args.cores)
        print(f"\nworkflow: {time.perf_counter() - started:.0f} s wall for {len(targets)} targets ({args.cores} cores)")
        print_timings(work)
        rows = list(jobs(output, work))
        over = report(rows, f"{identifiers[0].split('.')[0]} at real size: declared mem_mb and measured peak", show="")
        folds = [(declared, measured) for rule, declared, measured, what in rows if rule == "fit_fold" and measured]
        if args.persubject and args.all_stages and folds and "IT" in args.regions:
            declared_it, measured_it = max(folds, key=lambda f: f[1])
            print(extrapolated_folds(declared_it, measured_it))
        for identifier in identifiers if scored else []:
            result = json.loads((work / "results" / "alexnet" / f"{identifier}.json").read_text())
            print(f"{identifier}: score {result['score']:.4f}, raw {result['raw']:.4f}, "
                  f"ceiling {result['ceiling']:.4f}")
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    raise SystemExit(1 if over else 0)


if __name__ == "__main__":
    main()
