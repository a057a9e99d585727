"""Allen2022 at real size: each workflow stage's wall time and peak memory, against the memory its rule declares.

Writes a real-size stand-in of one Allen2022 variant (tests/allen2022_fixtures.py at the real counts: 412 train +
103 test images (× 3 repetitions) and 57,242 volumetric voxels over 8 subjects (V1 9039, V2 8792, V4 3982,
IT 35429, as data/allen2022_fmri/data_packaging/notebooks/volumetric/03a_nsd_packaging_prep.ipynb prints), or
with ``--surface`` 157,992 fsaverage vertices (surface/03_surface_packaging_prep.ipynb; split over the regions in
the volumetric proportions), or with ``--subjects 4`` the 800 + 200 images of the 4-subject files), then runs
the workflow from scratch for alexnet (seeded weights, no network) on every identifier of that variant
(4 regions × ridge, rdm) and prints, per rule, the jobs' wall time (Snakemake's benchmark TSVs) and peak resident
memory (the job's own last log line, or Snakemake's max_rss) beside the ``mem_mb`` the rule declared. A job whose
peak exceeds its declared memory is flagged OVER (a SLURM job would be killed) and the script exits 1.

Usage::

    nice .venv/bin/python perf/bench_allen2022_scale.py                  # volume, 8 subjects (the default)
    nice .venv/bin/python perf/bench_allen2022_scale.py --surface        # 157,992 vertices
    nice .venv/bin/python perf/bench_allen2022_scale.py --subjects 4 --keep

The images are 64-pixel stand-ins (the model resizes every image to 224 pixels, so extraction costs the same as
for NSD's 425-pixel images, bar decoding). Timings depend on the machine's load: compare them only on a quiet one.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

#: voxels of all 8 subjects per region (volumetric notebook 03a); the 4-subject files hold about half
VOLUME_VOXELS = {"V1": 9039, "V2": 8792, "V4": 3982, "IT": 35429}
SURFACE_VERTICES = 157992
IMAGES = {8: (412, 103), 4: (800, 200)}


def per_subject_counts(surface: bool) -> dict:
    """Neuroids per subject and region (the files hold the same number for every subject here)."""
    total = sum(VOLUME_VOXELS.values())
    scale = SURFACE_VERTICES / total if surface else 1.0
    return {region: max(1, round(count * scale / 8)) for region, count in VOLUME_VOXELS.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--surface", action="store_true", help="fsaverage vertices instead of volumetric voxels")
    parser.add_argument("--subjects", type=int, choices=(8, 4), default=8)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the working folder")
    args = parser.parse_args()

    import torch

    import allen2022_fixtures as fixtures
    from brainio_fixtures import _sha1
    from brainpipe.models._torchvision import import_torchvision
    from rule_memory import jobs, print_timings, report, run
    from test_real_data_workflow import write_checksums, write_config

    variant = "8subj" if args.subjects == 8 else "4subj"
    prefix = f"Allen2022_fmri{'_surface' if args.surface else ''}{'_4subj' if args.subjects == 4 else ''}"
    identifiers = [f"{prefix}.{region}-{metric}" for region in ("V1", "V2", "V4", "IT") for metric in ("ridge", "rdm")]
    folder = Path(tempfile.mkdtemp(prefix="bench_allen2022_"))
    over = []
    try:
        counts = per_subject_counts(args.surface)
        n_train, n_test = IMAGES[args.subjects]
        started = time.perf_counter()
        names = fixtures.write_variant(folder / "store", variant, n_train, n_test, voxels=counts,
                                       surfaces=(args.surface,))
        sums = {name: _sha1((folder / "store" / name).read_bytes()) for name in names}
        n_neuroids = sum(counts.values()) * len(fixtures.SUBJECTS[variant])
        print(f"{prefix}: {n_train} train + {n_test} test images (x 3 repetitions), {n_neuroids} neuroids "
              f"({', '.join(f'{r} {c}' for r, c in counts.items())} per subject); files written in "
              f"{time.perf_counter() - started:.0f} s:")
        for name in names:
            print(f"  {name}: {(folder / 'store' / name).stat().st_size / 2 ** 20:.1f} MiB")
        weights = folder / "alexnet-seed0.pth"
        torch.manual_seed(0)
        torch.save(import_torchvision().models.alexnet(weights=None).state_dict(), weights)
        work = folder / "work"
        work.mkdir()
        local = {name: str(folder / "store" / name) for name in sums}
        config = write_config(folder, identifiers, dict(local_files=local, checksums_override=str(
            write_checksums(folder, sums))), weights_file=weights)
        started = time.perf_counter()
        output = run(work, REPO, [config], [f"results/alexnet/{i}.json" for i in identifiers], {}, args.cores)
        print(f"\nworkflow: {time.perf_counter() - started:.0f} s wall for {len(identifiers)} identifiers "
              f"({args.cores} cores)")
        print_timings(work)
        over = report(list(jobs(output, work)), f"{prefix} at real size: declared mem_mb and measured peak", show="")
        import json

        for identifier in identifiers:
            result = json.loads((work / "results" / "alexnet" / f"{identifier}.json").read_text())
            print(f"{identifier}: score {result['score']:.4f}, raw {result['raw']:.4f}, ceiling {result['ceiling']:.4f}")
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    raise SystemExit(1 if over else 0)


if __name__ == "__main__":
    main()
