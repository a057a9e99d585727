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
folds, score_layer, score); ``--regions`` picks the regions scored. Each region's fold reads alexnet's layer for it
one subject's rows at a time (V1 features.2 and V2/V4 features.7 are 4.7 and 6.5 GB for the union, a subject's
rows a quarter of that; IT's features.12 0.9 GB).

Usage::

    nice .venv/bin/python perf/bench_zerbe2026_scale.py                      # real counts (≈ 1.3 GB of files)
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --voxels 800 --keep  # smaller, keep the folder
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --persubject         # the per-subject pools' data stages
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --persubject --all-stages --regions IT
    nice .venv/bin/python perf/bench_zerbe2026_scale.py --persubject --all-stages --regions V4  # the largest layer

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
