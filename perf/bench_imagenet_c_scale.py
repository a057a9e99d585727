"""ImageNet-C at real size: every stage after extraction on a logits file of the real shape, and extraction per
1,000 images extrapolated to the whole set.

An ImageNet-C category is one stimulus set of 750,000 (noise) or 1,000,000 images (blur, weather, digital:
brainpipe.benchmarks.families.imagenet_c), extracted in one job of its own (``extract_per_stimulus_set``), of which
the top-1 benchmark reads one layer, the model's 1000 logits. This writes, in a scratch folder:

* the stimulus folder's table (``stimuli.csv``: the fixture's columns, tests/engineering_fixtures.py
  ``imagenet_c``) with the real number of rows, without the images (no stage after extraction opens them);
* the logits layer file exactly as the activations stage writes it (NetcdfRowWriter with
  brainpipe.models.activations' coordinates and attributes; seeded random logits), N × 1000 float32;

then runs, each in a fresh process as a cluster job would, what the workflow's scripts do:

* ``behaviour_task`` (workflow/scripts/behaviour_task.py): stages.task_inputs + run_task + write_netcdf;
* ``score_behaviour`` (workflow/scripts/score_behaviour.py): the task output and the stimulus set's target
  (stored_stimulus_target), stages.comparison, the declared ceiling and aggregate;
* with ``--whole N``: the label task as it was before it streamed (the whole file read at once, then the labels),
  on the first N presentations only (the whole 1,000,000 would need ≈ 13 GB);
* ``activations`` on ``--extract`` (1,000) generated 224-pixel JPEGs with alexnet_untrained (config/config.yaml,
  batch 64, the committed logits layer), timed and extrapolated linearly to N images: an EXTRAPOLATION, printed as
  one.

For each: wall seconds, peak resident memory of the process (getrusage), the ``mem_mb`` its rule declares
(workflow/rules/*.smk's formula on these inputs: ``mb(input, factor)``), the disk its output takes, and the load
average before and after.

Usage::

    nice -n 5 .venv/bin/python perf/bench_imagenet_c_scale.py                    # noise: 750,000 images
    nice -n 5 .venv/bin/python perf/bench_imagenet_c_scale.py --images 1000000   # blur / weather / digital
    nice -n 5 .venv/bin/python perf/bench_imagenet_c_scale.py --images 20000 --whole 20000 --extract 200

Needs ≈ 4.5 GB of free disk for 1,000,000 images (logits 4.0 GB, task output, table). Timings depend on the
machine's load: compare them only on a quiet one.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL, LAYER, BENCHMARK = "alexnet_untrained", "classifier.6", "ImageNet-C-noise-top1"
STIMULI = "imagenet_c.noise"
TYPES = ("gaussian_noise", "shot_noise", "impulse_noise", "glass_blur")  # 4 types: the 1,000,000-image categories


def _synsets():
    from brainpipe.behaviour._synsets import SYNSETS
    return SYNSETS


def write_table(folder: Path, n: int) -> Path:
    """stimuli.csv of n images: types × levels 1-5 × validation images, as the fixture's columns."""
    import numpy as np
    import pandas as pd

    from brainpipe.data.stimuli import write_stimulus_table

    folder.mkdir(parents=True)
    index = np.arange(n)
    val = index % 50000
    kind = np.array(TYPES)[(index // 250000) % len(TYPES)]
    level = (index // 50000) % 5 + 1
    names = np.char.add(np.char.add(np.char.add(kind.astype(str), "_"), level.astype(str)),
                        np.char.add("_ILSVRC2012_val_", np.char.zfill(val.astype(str), 8)))
    synset = np.array(_synsets())[val % 1000]
    table = pd.DataFrame({"stimulus_id": names, "filename": np.char.add(names, ".JPEG"), "image_id": names,
                          "noise_type": kind, "noise_level": level, "synset": synset, "label": val % 1000})
    write_stimulus_table(table, folder)
    return folder


def write_logits(path: Path, stimulus_ids, seed=0, rows=50000):
    """The logits layer as the activations stage writes it (brainpipe.models.activations._stream_to_files)."""
    import numpy as np

    from brainpipe.io.netcdf import NetcdfRowWriter
    from brainpipe.models.activations import DIMS, _attrs, _coords

    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    n = len(stimulus_ids)
    with NetcdfRowWriter(path, f"{MODEL}.{LAYER}", DIMS, (n, 1000), _coords(MODEL, LAYER, (1000,), stimulus_ids),
                         _attrs(MODEL, LAYER)) as out:
        for start in range(0, n, rows):
            out.write(start, rng.standard_normal((min(rows, n - start), 1000), dtype=np.float32))


# --- the stages, each run in its own process (``--stage``) -------------------------------------------------------

def stage_task(work: Path):
    """workflow/scripts/behaviour_task.py."""
    from brainpipe.behaviour import stages
    from brainpipe.io import write_netcdf

    inputs = stages.task_inputs({"features": str(work / "logits.nc")})
    output = stages.run_task({"task": "label", "choice_labels": "imagenet", "layer": LAYER}, **inputs)
    write_netcdf(output, work / "task.nc")
    return [work / "task.nc"]


def stage_task_whole(work: Path):
    """The label task as before it streamed: the whole file read (read_netcdf), then the labels in one block."""
    from brainpipe.behaviour import tasks
    from brainpipe.io import read_netcdf, write_netcdf

    logits = read_netcdf(work / "logits_whole.nc", required_coords=("stimulus_id",))
    output = tasks.label(logits, "imagenet", block=logits.sizes["presentation"] + 2)
    write_netcdf(output, work / "task_whole.nc")
    return [work / "task_whole.nc"]


def stage_score(work: Path):
    """workflow/scripts/score_behaviour.py, less the provenance (versions, headline JSON's model and data info)."""
    from brainpipe import benchmarks
    from brainpipe.behaviour import stages
    from brainpipe.behaviour.ceiled import DECLARED, ceiling_json, declared_ceiling
    from brainpipe.behaviour.stimulus_targets import stored_stimulus_target
    from brainpipe.data.stimuli import CSV_NAME
    from brainpipe.io import as_json, read_netcdf, write_json
    from brainpipe.pipeline.scoring import aggregate

    benchmark = benchmarks.load(BENCHMARK, {})
    model = read_netcdf(work / "task.nc", required_coords=("stimulus_id",))
    human = stored_stimulus_target(work / STIMULI / CSV_NAME, "synset", work)
    human.attrs["source"] = str(work / STIMULI)
    fold = as_json(stages.comparison(benchmark, model, human))
    ceiling = as_json(ceiling_json(declared_ceiling(benchmark.behaviour), DECLARED))
    layer = as_json(aggregate(benchmark, [fold], ceiling))
    write_json(layer, work / "score.json")
    return [work / "score.json"]


def stage_extract(work: Path):
    """workflow/scripts/activations.py on the generated images: the logits layer of alexnet_untrained."""
    import torch
    import yaml

    from brainpipe.models.activations import extract_to_files
    from brainpipe.models.brain_model import load_activations_model

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    torch.set_num_threads(2)  # the rule's threads
    model = load_activations_model(MODEL, config["model_zoo"][MODEL], "cpu")
    with open(work / "extract.log", "w") as log:
        extract_to_files(model, work / "images", {LAYER: work / "extracted" / f"{LAYER}.nc"},
                         config.get("batch_size", 64), None, progress=log)
    return [work / "extracted" / f"{LAYER}.nc"]


STAGES = {"task": stage_task, "task_whole": stage_task_whole, "score": stage_score, "extract": stage_extract}


def run_stage(name: str, work: Path) -> dict:
    """One stage in a fresh process: wall s, peak MB (its own getrusage), output bytes, load before/after."""
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, __file__, "--stage", name, "--work", str(work)], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    wall = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"stage {name} failed:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    measured = json.loads(done.stdout.strip().splitlines()[-1])
    return dict(measured, wall=wall, load=(load_before, os.getloadavg()[0]))


def declared_mb(rule: str, inputs) -> int:
    """The rule's ``mem_mb`` on these inputs: its ``mb(input, factor=F)`` (workflow/rules/behaviour.smk)."""
    from brainpipe.pipeline.plan.resources import mb

    text = (REPO / "workflow" / "rules" / "behaviour.smk").read_text()
    body = text[text.index(f"rule {rule}:"):]
    factor = re.search(r"mem_mb=lambda wildcards, input: mb\(input, factor=(\d+)\)", body[:body.index("\nrule ")]
                       if "\nrule " in body else body)
    return mb(inputs, factor=int(factor.group(1)))


def write_images(folder: Path, n: int):
    """n 224-pixel JPEGs (ImageNet-C's size) of noise, and their stimuli.csv."""
    import numpy as np
    import pandas as pd
    from PIL import Image

    from brainpipe.data.stimuli import write_stimulus_table

    folder.mkdir(parents=True)
    rng = np.random.default_rng(1)
    names = [f"gaussian_noise_1_{i:08d}.JPEG" for i in range(n)]
    for name in names:
        Image.fromarray(rng.integers(0, 256, (224, 224, 3), dtype=np.uint8)).save(folder / name, quality=85)
    write_stimulus_table(pd.DataFrame({"stimulus_id": [n.removesuffix(".JPEG") for n in names], "filename": names}),
                         folder)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=750_000, help="images of the category (750,000 or 1,000,000)")
    parser.add_argument("--whole", type=int, default=0, help="also the whole-file label task on this many images")
    parser.add_argument("--extract", type=int, default=1000, help="images to extract (0: skip extraction)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument("--stage", choices=sorted(STAGES), help=argparse.SUPPRESS)
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stage:  # a child: run one stage, print its own peak memory and output size
        outputs = STAGES[args.stage](args.work)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        print(json.dumps({"peak_mb": round(peak), "disk_mb": round(sum(p.stat().st_size for p in outputs) / 1e6, 1)}))
        return

    import pandas as pd

    from brainpipe.data.stimuli import CSV_NAME

    work = Path(tempfile.mkdtemp(prefix="bench_imagenet_c_"))
    rows = []  # (stage, images, wall s, peak MB, declared MB, disk MB, load)
    try:
        print(f"ImageNet-C at {args.images:,} images (scratch {work}); load average at start "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        started = time.perf_counter()
        write_table(work / STIMULI, args.images)
        ids = pd.read_csv(work / STIMULI / CSV_NAME, usecols=["stimulus_id"], dtype=str)["stimulus_id"].to_numpy(object)
        write_logits(work / "logits.nc", ids)
        print(f"written in {time.perf_counter() - started:.0f} s: stimuli.csv "
              f"{(work / STIMULI / CSV_NAME).stat().st_size / 1e6:.0f} MB, logits "
              f"{(work / 'logits.nc').stat().st_size / 1e6:.0f} MB ({args.images:,} × 1000 float32)")

        result = run_stage("task", work)
        rows.append(("behaviour_task", args.images, result, declared_mb("behaviour_task", [work / "logits.nc"])))
        result = run_stage("score", work)
        # on a real run the stimulus folder holds the images too: mb() counts them (see the note printed below)
        rows.append(("score_behaviour", args.images, result,
                     declared_mb("score_behaviour", [work / "task.nc", work / STIMULI])))
        if args.whole:
            write_logits(work / "logits_whole.nc", ids[: args.whole])
            result = run_stage("task_whole", work)
            rows.append(("behaviour_task (whole file, before)", args.whole, result,
                         declared_mb("behaviour_task", [work / "logits_whole.nc"])))
            whole = __import__("xarray").open_dataarray(work / "task_whole.nc")
            streamed = __import__("xarray").open_dataarray(work / "task.nc")
            same = bool((whole.values == streamed.values[:, : args.whole]).all())
            print(f"whole-file labels equal the streamed ones on the first {args.whole:,}: {same}")
            if not same:
                raise SystemExit("the streamed label task differs from the whole-file one")
        if args.extract:
            write_images(work / "images", args.extract)
            result = run_stage("extract", work)
            rows.append(("activations (alexnet_untrained, logits)", args.extract, result, 8000))
            # the stage's own rate (its last progress line: images / s since the first batch began) apart from
            # the job's fixed cost (process start, torch, the model)
            rate = float(re.findall(r"([\d.]+) images/s", (work / "extract.log").read_text())[-1])
            fixed = max(0.0, result["wall"] - args.extract / rate)
            print(f"\nextraction of {args.extract:,} images: {result['wall']:.1f} s = {fixed:.1f} s fixed (process, "
                  f"torch, model) + {args.extract / rate:.1f} s at {rate:.1f} images/s ({1000 / rate:.1f} s per "
                  f"1,000 images; 2 threads, batch 64)")
            print(f"EXTRAPOLATION (linear in images, at this machine's load): {args.images:,} images ≈ "
                  f"{(fixed + args.images / rate) / 3600:.1f} h in one job, logits file "
                  f"{args.images * 1000 * 4 / 1e9:.1f} GB; its memory stays that of one batch (the stage streams "
                  f"batch by batch into the file)")

        print(f"\n{'stage':<42} {'images':>9} {'wall s':>7} {'peak MB':>8} {'declared mem_mb':>15} "
              f"{'disk MB':>8} {'load before/after':>18}  ok")
        over = False
        for name, images, r, declared in rows:
            bad = r["peak_mb"] > declared
            over |= bad
            print(f"{name:<42} {images:>9,} {r['wall']:>7.1f} {r['peak_mb']:>8} {declared:>15} {r['disk_mb']:>8} "
                  f"{r['load'][0]:>8.1f}/{r['load'][1]:<8.1f}  {'OVER' if bad else 'ok'}")
        table_mb = (work / STIMULI / CSV_NAME).stat().st_size / 1e6
        print(f"\nscore_behaviour's declared mem_mb counts its input stimulus folder (mb() sums every file in it): "
              f"here the table alone ({table_mb:.0f} MB); with the real images (≈ 17 KB each if ImageNet-C's 3.75 M JPEGs "
              f"take ≈ 65 GB: an estimate) it would declare ≈ "
              f"{1000 + 4 * (table_mb + args.images * 0.017 + rows[0][2]['disk_mb']):,.0f} MB")
        score = json.loads((work / "score.json").read_text())
        print(f"score on random logits: {score['score']:.5f} (chance: {1 / 1000})")
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    raise SystemExit(1 if over else 0)


if __name__ == "__main__":
    main()
