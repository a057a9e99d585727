"""Kar2019-ost at the real size through the workflow, for temporal models, and its OST stage beside Brain-Score's.

Usage::

    nice .venv/bin/python perf/bench_kar2019_temporal.py                       # demo recurrent net + CORnet-S
    nice .venv/bin/python perf/bench_kar2019_temporal.py --models recurrent_demo --compare --splits 10
    nice .venv/bin/python perf/bench_kar2019_temporal.py --models cornet_s_seeded --compare --splits 1

Writes a Kar2019 stand-in at the real size (tests/ost_fixtures.py: 1320 presentations of 1318 images, 10 labels,
the real object names, served from a file:// folder with its sha1s), then runs ``snakemake`` on
``results/<model>/Kar2019-ost.json`` for each model in a fresh folder and prints every job's wall time and peak
memory (Snakemake's benchmark files under logs/timing/): the extraction of all time steps (one forward per batch),
the mapping onto the 18 bins, the OST stage. ``--compare`` then runs the OST metric on that model's own 18-bin
features with brainpipe's numpy classifier and with Brain-Score's ``OSTCorrelation`` + TensorFlow classifier (the
reference environment, see perf/bench_ost.py), same arrays, and prints both times, the speed-up, |Δ score| and the
per-image OST agreement. Timings are only comparable on a quiet machine (the load average is printed).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests"), str(REPO / "perf"), str(REPO / "tests" / "reference")]

MODELS = {
    "recurrent_demo": None,  # config/config.yaml's entry
    "cornet_s_seeded": {"architecture": "brainpipe.models.cornet_s:build", "seed": 1,
                        "layers": {"IT": "IT.output"}, "time_mapping": {"IT": [100, 100, 2]}},
}


def timings(work: Path, model: str):
    rows = []
    for path in sorted((work / "logs" / "timing").rglob("*.tsv")):
        if model not in str(path) and "ost_target" not in str(path) and "fetch" not in str(path):
            continue
        with path.open() as handle:
            record = next(csv.DictReader(handle, delimiter="\t"))
        rows.append((str(path.relative_to(work / "logs" / "timing")), float(record["s"]), float(record["max_rss"])))
    return rows


def run_model(model: str, store: Path, sums: dict, folder: Path):
    work = folder / model
    work.mkdir()
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    if MODELS[model]:
        config["model_zoo"][model] = MODELS[model]
    config.update(models=[model], benchmarks=["Kar2019-ost"])
    (folder / "checksums.json").write_text(json.dumps(sums))
    config["data"] = {"base_url": store.as_uri() + "/", "cache_dir": str(folder / "cache"), "local_files": {},
                      "checksums_override": str(folder / "checksums.json")}
    (work / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    done = subprocess.run([str(Path(sys.executable).parent / "snakemake"), f"results/{model}/Kar2019-ost.json",
                           "--cores", "2", "-s", str(REPO / "Snakefile"), "--directory", str(work),
                           "--configfile", str(work / "config.yaml")], cwd=work, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(done.stdout[-2000:] + done.stderr[-4000:])
    score = json.loads((work / f"results/{model}/Kar2019-ost.json").read_text())
    print(f"\n{model}: Kar2019-ost score {score['score']} (raw {score['raw']}, layer {score['layer']})")
    for job, seconds, rss in timings(work, model):
        print(f"  {job:70s} {seconds:8.1f} s  peak {rss:8.0f} MB")
    return work, score


def compare(work: Path, model: str, threads: int, splits: int, reference: str):
    import xarray as xr

    import bench_ost

    score = json.loads((work / f"results/{model}/Kar2019-ost.json").read_text())
    layer = score["layer"]
    features = xr.open_dataarray(work / f"results/activations/{model}/Kar2019/timed/IT/70-250x10/{layer}.nc")
    target = xr.open_dataarray(work / "results/assemblies/Kar2019/ost/target.nc")
    rows = {s: k for k, s in enumerate(features["stimulus_id"].values.astype(str))}
    ids = target["stimulus_id"].values.astype(str)
    values = features.transpose("presentation", "neuroid", "time_bin").values[[rows[i] for i in ids]]
    data = work / "ost_arrays.npz"
    np.savez(data, stimulus_ids=ids, labels=target["image_label"].values.astype(str),
             features=values.astype(np.float32), target_i1=target["i1"].values, target_ost=target.values,
             time_bin_starts=np.arange(70, 250, 10))
    print(f"\nOST metric on {model}'s own features: {values.shape} (presentation, neuroid, bin), {splits} split(s), "
          f"{threads} thread(s) per side, load {bench_ost.load()}")
    ours = bench_ost.run_side(sys.executable, "brainpipe", data, threads, splits)
    print(f"  brainpipe (numpy):  wall {ours['wall']:8.1f} s  cpu {ours['cpu']:8.1f} s  peak {ours['rss_mib']:6.0f} "
          f"MiB  score {ours['score']:.6f}")
    if not Path(reference).exists():
        print(f"  no reference environment at {reference}: Brain-Score's side skipped")
        return
    theirs = bench_ost.run_side(reference, "brainscore", data, threads, splits)
    match = bench_ost.agreement(ours, theirs)
    print(f"  Brain-Score (TF):   wall {theirs['wall']:8.1f} s  cpu {theirs['cpu']:8.1f} s  peak "
          f"{theirs['rss_mib']:6.0f} MiB  score {theirs['score']:.6f}")
    print(f"  speed-up wall {theirs['wall'] / ours['wall']:.1f}×, cpu {theirs['cpu'] / ours['cpu']:.1f}×; "
          f"|Δ score| {match['delta_score']:.2e}; per-image OSTs: {match['defined']} defined of "
          f"{match['images_x_splits']}, NaN pattern agrees {match['nan_agree']:.3f}, within 1 ms "
          f"{match['within_1ms']:.3f}, within 0.01 ms {match['within_0.01ms']:.3f}, max |Δ| {match['max_abs_ms']:.3g} ms")
    print("RESULT " + json.dumps({"model": model, "shape": list(values.shape), "splits": splits,
                                  "brainpipe": {k: ours[k] for k in ("wall", "cpu", "rss_mib", "score")},
                                  "brainscore": {k: theirs[k] for k in ("wall", "cpu", "rss_mib", "score")},
                                  "agreement": match}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    parser.add_argument("--images", type=int, default=1318, help="unique images (2 more presentations repeat ids)")
    parser.add_argument("--compare", action="store_true", help="the OST stage beside Brain-Score's TF version")
    parser.add_argument("--splits", type=int, default=10)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reference-python", default=os.environ.get("BRAINPIPE_BS_PYTHON",
                                                                     "/work/bsref-tf/.venv/bin/python"))
    parser.add_argument("--keep", help="a folder to keep the runs in (default: a temporary one)")
    args = parser.parse_args()
    from ost_fixtures import write_kar2019_store

    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(args.keep or temporary)
        folder.mkdir(parents=True, exist_ok=True)
        store = folder / "store"
        sums = write_kar2019_store(store, n_images=args.images, labels=10, size=64)
        print(f"Kar2019 stand-in: {args.images + 2} presentations, {args.images} images, 10 labels, 18 bins")
        for model in args.models:
            work, _ = run_model(model, store, sums, folder)
            if args.compare:
                compare(work, model, args.threads, args.splits, args.reference_python)


if __name__ == "__main__":
    main()
