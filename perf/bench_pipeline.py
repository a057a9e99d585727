"""Pipeline figures: activation extraction speed vs a bare torch loop, and the default grid's wall time.

    .venv/bin/python perf/bench_pipeline.py [--images 320] [--skip-grid]

Extraction: brainpipe.models.activations.extract (hooks on every requested layer, NetCDF-ready coordinates) against
the simplest possible torch loop over the same images (PIL load, resize, normalise, forward; no hooks), both for
an untrained alexnet on CPU with all cores. Grid: `snakemake --cores 2` on config/config.yaml in a fresh folder.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from brainpipe import demo  # noqa: E402
from brainpipe.models.activations import extract  # noqa: E402
from brainpipe.models.brain_model import IMAGENET_MEAN, IMAGENET_STD, ActivationsModel  # noqa: E402
from brainpipe.data.stimuli import write_stimulus_table  # noqa: E402


def bare_loop(network, paths, batch_size):
    mean, std = np.array(IMAGENET_MEAN, np.float32), np.array(IMAGENET_STD, np.float32)
    started = time.perf_counter()
    with torch.no_grad():
        for start in range(0, len(paths), batch_size):
            batch = []
            for path in paths[start: start + batch_size]:
                image = Image.open(path).convert("RGB").resize((224, 224), Image.BILINEAR)
                batch.append(((np.asarray(image, np.float32) / 255 - mean) / std).transpose(2, 0, 1))
            network(torch.from_numpy(np.stack(batch)))
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=320)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--skip-grid", action="store_true")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, torch {torch.__version__}, {torch.get_num_threads()} threads")

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "stimuli"
        (folder / "images").mkdir(parents=True)
        per_object = max(2, args.images // 32)
        table, images = demo.generate_stimuli(images_per_object=per_object)
        for filename, image in zip(table["filename"], images):
            image.save(folder / filename)
        write_stimulus_table(table, folder)
        paths = [str(folder / f) for f in table["filename"]]

        model = ActivationsModel("alexnet_untrained", "alexnet", None, 0, "cpu")
        bare = bare_loop(model.network, paths, args.batch_size)
        layers = ["features.2", "features.7", "features.12"]
        started = time.perf_counter()
        extract(model, folder, layers, args.batch_size, progress=open(os.devnull, "w"))
        ours = time.perf_counter() - started
        n = len(paths)
        print(f"\nextraction, untrained alexnet, {n} images ({images[0].size[0]} px PNG), batch {args.batch_size}")
        print(f"  bare torch loop (no hooks, no output):        {n / bare:7.1f} images/s  ({bare:.1f} s)")
        print(f"  brainpipe extract, 3 layers with coords:     {n / ours:7.1f} images/s  ({ours:.1f} s)")
        print(f"  ratio brainpipe / bare:                      {bare / ours:7.2f}")

    if not args.skip_grid:
        with tempfile.TemporaryDirectory() as scratch:
            (Path(scratch) / "config").mkdir()
            shutil.copy(ROOT / "config" / "config.yaml", Path(scratch) / "config" / "config.yaml")
            snakemake = str(Path(sys.executable).parent / "snakemake")
            started = time.perf_counter()
            result = subprocess.run([snakemake, "-s", str(ROOT / "Snakefile"), "--cores", "2", "--quiet"],
                                    cwd=scratch, capture_output=True, text=True)
            wall = time.perf_counter() - started
            if result.returncode != 0:
                print(result.stderr[-3000:])
                raise SystemExit("grid run failed")
            print(f"\ndefault grid (config/config.yaml, snakemake --cores 2, from scratch): {wall:.0f} s wall")
            print((Path(scratch) / "results" / "summary.tsv").read_text())


if __name__ == "__main__":
    main()
