"""The OST metric at the real size: brainpipe's numpy version beside Brain-Score's TensorFlow one, same features.

Usage::

    nice .venv/bin/python perf/bench_ost.py                                  # 1320 images, 18 bins, 512 features
    nice .venv/bin/python perf/bench_ost.py --features 512 4096 --threads 1
    nice .venv/bin/python perf/bench_ost.py --skip-reference                 # brainpipe only
    nice .venv/bin/python perf/bench_ost.py --features 25088 --splits 1      # CORnet-S IT's size, 1 of 10 splits
    nice .venv/bin/python perf/bench_ost.py --features 25088 --splits 1 --time-mapping 100 100 2   # and its 2 steps

Data: tests/reference/make_ost_reference.py's ``synthetic`` at the size of Kar2019-ost (1320 images, 10 labels,
18 bins of 10 ms from 70 ms) with ``--features`` neuroids, float32: each image's class emerges at its own latency.
``--time-mapping START MS_PER_STEP STEPS`` gives the features a temporal model's shape: each bin answers with the
step whose committed bin starts nearest (``brainpipe.models.temporal.nearest_steps``), here the synthetic bin nearest
that step's start, as CORnet-S IT's ``[100, 100, 2]`` answers Kar2019's 18 bins with 2 steps; brainpipe then trains
one classifier per step, Brain-Score one per bin.
Each side runs in its own subprocess on the same saved arrays, with ``--threads`` BLAS / OpenMP / TensorFlow
threads: brainpipe (``brainpipe.neural.ost.ost_correlation``) in this interpreter; Brain-Score
(``brainscore_vision.metrics.ost.metric.OSTCorrelation`` with its ``TFProbabilitiesClassifier``) in the reference
environment given by ``--reference-python`` (default ``$BRAINPIPE_BS_PYTHON``, else /work/bsref-tf/.venv/bin/python;
see tests/reference/make_ost_reference.py for how it is installed). Printed per side: wall and CPU seconds, peak
RSS, the score; then the speed-up and the agreement (|Δ score|, per-image OSTs). The machine's load average is
printed with the figures: timings are only comparable on a quiet machine, CPU seconds less affected than wall.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests" / "reference")]

KAR2019_LABELS = ["bear", "elephant", "person", "car", "dog", "apple", "chair", "plane", "bird", "zebra"]
DEFAULT_REFERENCE = os.environ.get("BRAINPIPE_BS_PYTHON", "/work/bsref-tf/.venv/bin/python")


def load():
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def peak_rss_mib() -> float:
    """This process's peak resident memory (VmHWM: unlike getrusage's ru_maxrss it does not carry the parent's
    peak across fork + exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_data(path: Path, n_images: int, n_bins: int, n_features: int, time_mapping=None):
    import numpy as np

    import make_ost_reference as reference

    starts = np.arange(70, 70 + 10 * n_bins, 10)
    ids, labels, features, i1, ost = reference.synthetic(n_images, n_features, seed=7,
                                                         label_names=np.array(KAR2019_LABELS), time_bin_starts=starts)
    if time_mapping:
        from brainpipe.models.temporal import nearest_steps, parse_time_mapping

        region_bins = parse_time_mapping({"time_mapping": {"IT": list(time_mapping)}})["IT"]
        steps = nearest_steps(region_bins, [(start, start + 10) for start in starts])
        source = {step: int(np.abs(starts - region_bins[step][0]).argmin()) for step in region_bins}
        features = np.ascontiguousarray(features[:, :, [source[step] for step in steps]])
    np.savez(path, stimulus_ids=ids, labels=labels, features=features, target_i1=i1, target_ost=ost,
             time_bin_starts=starts)


def worker(side: str, data: Path):
    """Runs one side and prints one JSON line: seconds, peak RSS, score, per-image OSTs per split."""
    import numpy as np

    d = dict(np.load(data))
    if side == "brainpipe":
        from threadpoolctl import threadpool_limits

        from brainpipe.neural.ost import ost_correlation

        with threadpool_limits(int(os.environ["BENCH_THREADS"])):
            wall, cpu = time.perf_counter(), time.process_time()
            result = ost_correlation(d["features"], d["time_bin_starts"], d["labels"], d["target_i1"],
                                     d["target_ost"], n_splits=int(os.environ.get("BENCH_SPLITS", "10")))
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        score, error, per_split = result.score, result.error, result.per_split
        test_ids = [d["stimulus_ids"][t].tolist() for t in result.test_indices]
        osts = [o.tolist() for o in result.predicted_osts]
    else:
        os.environ["BS_INSTALL_DEPENDENCIES"] = "no"
        import make_ost_reference as reference

        source, target = reference.assemblies(d["stimulus_ids"], d["labels"], d["features"], d["target_i1"],
                                              d["target_ost"], time_bin_starts=d["time_bin_starts"])
        wall, cpu = time.perf_counter(), time.process_time()
        result, records, _ = reference.run_upstream(source, target, time_bin_starts=d["time_bin_starts"],
                                                    splits=int(os.environ.get("BENCH_SPLITS", "10")))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        score, error, per_split = float(result.values), float(result.attrs["error"]), records["scores"]
        test_ids = [t.tolist() for t in records["test_ids"]]
        osts = [o.tolist() for o in records["osts"]]
    rss = peak_rss_mib()
    print("RESULT " + json.dumps({"wall": wall, "cpu": cpu, "rss_mib": rss, "score": score, "error": error,
                                  "per_split": per_split, "test_ids": test_ids, "osts": osts}))


def run_side(python: str, side: str, data: Path, threads: int, splits: int):
    env = {**os.environ, "BENCH_THREADS": str(threads), "BENCH_SPLITS": str(splits),
           "OMP_NUM_THREADS": str(threads),
           "OPENBLAS_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads),
           "TF_NUM_INTRAOP_THREADS": str(threads), "TF_NUM_INTEROP_THREADS": str(threads),
           "TF_CPP_MIN_LOG_LEVEL": "3", "BS_INSTALL_DEPENDENCIES": "no", "TQDM_DISABLE": "1"}
    done = subprocess.run([python, __file__, "--worker", side, str(data)], env=env, capture_output=True, text=True)
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        raise SystemExit(f"{side} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(lines[-1][len("RESULT "):])


def agreement(ours, theirs):
    import numpy as np

    pairs = []
    for ids_a, osts_a, ids_b, osts_b in zip(ours["test_ids"], ours["osts"], theirs["test_ids"], theirs["osts"]):
        by_id = dict(zip(ids_b, osts_b))  # matched by stimulus id, split by split
        pairs += [(ost, by_id[i]) for i, ost in zip(ids_a, osts_a)]
    a, b = np.array(pairs, dtype=float).T
    same_nan = np.isnan(a) == np.isnan(b)
    both = ~np.isnan(a) & ~np.isnan(b)
    diff = np.abs(a[both] - b[both])
    return {"images_x_splits": len(a), "nan_agree": float(same_nan.mean()), "defined": int(both.sum()),
            "within_0.01ms": float((diff < 0.01).mean()) if diff.size else float("nan"),
            "within_1ms": float((diff < 1).mean()) if diff.size else float("nan"),
            "max_abs_ms": float(diff.max()) if diff.size else float("nan"),
            "delta_score": abs(ours["score"] - theirs["score"])}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--images", type=int, default=1320)
    parser.add_argument("--bins", type=int, default=18)
    parser.add_argument("--features", type=int, nargs="+", default=[512])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--splits", type=int, default=10,
                        help="the first N of the metric's 10 splits (both sides), for large feature counts")
    parser.add_argument("--time-mapping", type=int, nargs=3, metavar=("START", "MS_PER_STEP", "STEPS"),
                        help="features of a temporal model with this CORnet-style time mapping (e.g. 100 100 2)")
    parser.add_argument("--reference-python", default=DEFAULT_REFERENCE)
    parser.add_argument("--skip-reference", action="store_true")
    parser.add_argument("--worker", nargs=2, metavar=("SIDE", "DATA"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker[0], Path(args.worker[1]))
    reference = None if args.skip_reference else args.reference_python
    if reference and not Path(reference).exists():
        print(f"no reference environment at {reference}: Brain-Score's side skipped")
        reference = None
    print(f"machine: {os.cpu_count()} CPUs, load {load()}; threads per side: {args.threads}")
    summary = []
    with tempfile.TemporaryDirectory() as folder:
        for n_features in args.features:
            data = Path(folder) / f"ost_{n_features}.npz"
            make_data(data, args.images, args.bins, n_features, args.time_mapping)
            mapped = f" (bins from time mapping {args.time_mapping})" if args.time_mapping else ""
            print(f"\n{args.images} images × {n_features} features × {args.bins} bins{mapped}, {args.splits} splits")
            ours = run_side(sys.executable, "brainpipe", data, args.threads, args.splits)
            print(f"  brainpipe (numpy):      wall {ours['wall']:7.1f} s  cpu {ours['cpu']:7.1f} s  "
                  f"peak RSS {ours['rss_mib']:6.0f} MiB  score {ours['score']:.6f}  (load {load()})")
            keys = ("wall", "cpu", "rss_mib", "score")
            row = {"features": n_features, "splits": args.splits, "brainpipe": {k: ours[k] for k in keys}}
            if reference:
                theirs = run_side(reference, "brainscore", data, args.threads, args.splits)
                print(f"  Brain-Score (TF):       wall {theirs['wall']:7.1f} s  cpu {theirs['cpu']:7.1f} s  "
                      f"peak RSS {theirs['rss_mib']:6.0f} MiB  score {theirs['score']:.6f}  (load {load()})")
                match = agreement(ours, theirs)
                print(f"  speed-up: wall {theirs['wall'] / ours['wall']:.1f}×, cpu {theirs['cpu'] / ours['cpu']:.1f}×;"
                      f" |Δ score| {match['delta_score']:.2e}; per-image OSTs: {match['defined']} defined of "
                      f"{match['images_x_splits']}, NaN pattern agrees {match['nan_agree']:.3f}, "
                      f"within 0.01 ms {match['within_0.01ms']:.3f}, max |Δ| {match['max_abs_ms']:.2e} ms")
                row.update(brainscore={k: theirs[k] for k in keys}, agreement=match)
            summary.append(row)
    print(f"\nload {load()}\n" + json.dumps(summary))


if __name__ == "__main__":
    main()
