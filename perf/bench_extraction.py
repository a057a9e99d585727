"""Memory and speed of streamed activation extraction against a bare torch loop (issue "Any model in" item 4).

Usage::

    .venv/bin/python perf/bench_extraction.py                        # every leaf layer, 800 and 3200 images
    .venv/bin/python perf/bench_extraction.py --quick                # 100 and 400 images, layer4 + head
    .venv/bin/python perf/bench_extraction.py --layers blocks --images 800 3200 --batch-size 32

Model: untrained torchvision resnet50 on CPU (all cores). Images: synthetic 256x256 PNGs (smooth noise with a
shape on it). For each image count, in its own fresh Python (so each peak RSS is its own):

- brainpipe: ``extract_to_folder`` (DataLoader decode workers, hooks on every requested layer, each batch
  streamed into one NetCDF per layer, written for real to --scratch);
- bare loop: PIL decode, resize, normalise, forward, no hooks, nothing kept (what the hardware allows).

Printed per run: wall time, images/s, peak RSS of the main process (VmHWM) and of the largest decode worker,
machine load (os.getloadavg) before and after. Targets: brainpipe's peak RSS flat in the number of images, and
its time within 1.2x of the bare loop. ``--layers``: ``all`` (every leaf module: about 115 MB of float32 per
image, so 800 images need about 92 GB of disk), ``blocks`` (each bottleneck's output, avgpool, fc: 22 MB per
image), ``head`` (layer4's blocks, avgpool, fc: 1.2 MB per image), or a comma-separated list of module names.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from peak_memory import run_worker, status_bytes  # noqa: E402  (perf/peak_memory.py)

ARCHITECTURE = "resnet50"


def layer_names(network, which):
    modules = dict(network.named_modules())
    if which == "all":
        return [name for name, module in modules.items() if name and not list(module.children())]
    if which == "blocks":
        return [name for name in modules if name.count(".") == 1 and name.startswith("layer")] + ["avgpool", "fc"]
    if which == "head":
        return [name for name in modules if name.count(".") == 1 and name.startswith("layer4")] + ["avgpool", "fc"]
    names = [name.strip() for name in which.split(",") if name.strip()]
    unknown = [name for name in names if name not in modules]
    if unknown:
        raise SystemExit(f"--layers: {ARCHITECTURE} has no module(s) {unknown}")
    return names


def write_images(folder, n, seed=0):
    """n synthetic 256x256 RGB PNGs and their stimuli.csv: smooth noise (so PNG decoding costs what photos'
    does, not what flat colour does) with a coloured ellipse."""
    import numpy as np
    import pandas as pd
    from PIL import Image, ImageDraw

    (folder / "images").mkdir(parents=True)
    rng = np.random.default_rng(seed)
    for k in range(n):
        noise = rng.integers(0, 256, (32, 32, 3), dtype=np.uint8)
        image = Image.fromarray(noise).resize((256, 256), Image.BILINEAR)
        x, y = rng.integers(40, 216, 2)
        ImageDraw.Draw(image).ellipse((x - 30, y - 20, x + 30, y + 20), fill=tuple(int(v) for v in rng.integers(0, 256, 3)))
        image.save(folder / f"images/{k:05d}.png")
    pd.DataFrame(dict(stimulus_id=[f"{k:05d}" for k in range(n)],
                      filename=[f"images/{k:05d}.png" for k in range(n)])).to_csv(folder / "stimuli.csv", index=False)


def bytes_per_image(network, layers):
    import torch

    sizes = {}
    modules = dict(network.named_modules())
    hooks = [modules[name].register_forward_hook(lambda m, i, o, name=name: sizes.__setitem__(name, o.numel()))
             for name in layers]
    with torch.inference_mode():
        network(torch.zeros(1, 3, 224, 224))
    for hook in hooks:
        hook.remove()
    return 4 * sum(sizes.values())


class BatchClock(io.StringIO):
    """A progress sink that notes when each batch finished (one progress line per batch)."""

    def __init__(self):
        super().__init__()
        self.times = []

    def write(self, text):
        self.times += [time.perf_counter()] * text.count("\n")
        return super().write(text)


# --- workers: each runs in its own Python ----------------------------------------------------------------------

def worker(mode, stimuli, layers, batch_size, workers, output):
    import numpy as np
    import torch
    from PIL import Image

    from brainpipe.models.activations import extract_to_folder
    from brainpipe.models.brain_model import IMAGENET_MEAN, IMAGENET_STD, ActivationsModel
    from brainpipe.data.stimuli import read_stimulus_set

    torch.set_num_threads(os.cpu_count())
    model = ActivationsModel(f"{ARCHITECTURE}_untrained", ARCHITECTURE, None, 0, "cpu")
    layers = layers.split(",")
    paths = read_stimulus_set(stimuli)["path"].tolist()
    rss_model = status_bytes("VmRSS")
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    clock = BatchClock()
    if mode == "brainpipe":
        extract_to_folder(model, stimuli, layers, output, batch_size, None if workers == "auto" else int(workers),
                          progress=clock)
    else:  # the bare loop: decode, resize, forward; no hooks, no output kept
        mean, std = np.array(IMAGENET_MEAN, np.float32), np.array(IMAGENET_STD, np.float32)
        with torch.inference_mode():
            for start in range(0, len(paths), batch_size):
                batch = []
                for path in paths[start: start + batch_size]:
                    image = Image.open(path).convert("RGB").resize((224, 224), Image.BILINEAR)
                    batch.append(((np.asarray(image, np.float32) / 255 - mean) / std).transpose(2, 0, 1))
                model.network(torch.from_numpy(np.stack(batch)))
                print("batch done", file=clock)
    wall = time.perf_counter() - started
    # after the first batch: the per-image rate without one-off costs (workers' start, coordinate variables)
    steady = (len(paths) - min(batch_size, len(paths))) / (clock.times[-1] - clock.times[0]) \
        if len(clock.times) > 1 else float("nan")
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024  # largest decode worker (Linux: kB)
    print(json.dumps(dict(wall=wall, images=len(paths), first_batch=clock.times[0] - started, steady=steady, peak_rss=status_bytes("VmHWM"), rss_model=rss_model,
                          worker_peak_rss=children, load_before=load_before, load_after=os.getloadavg()[0],
                          threads=torch.get_num_threads())))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, nargs="+", help="image counts (default 800 3200; --quick: 100 400)")
    parser.add_argument("--layers", help="all | blocks | head | a,b,c (default all; --quick: head)")
    parser.add_argument("--batch-size", type=int, help="images per forward pass (default 64; --quick: 32)")
    parser.add_argument("--workers", default="auto", help="decode workers for brainpipe (default auto)")
    parser.add_argument("--quick", action="store_true", help="smaller defaults: 100 and 400 images, head layers")
    parser.add_argument("--scratch", default=None, help="folder for images and outputs (default: a temp folder)")
    parser.add_argument("--skip-bare", action="store_true", help="do not time the bare loop")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per run")
    parser.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        mode, stimuli, layers, batch_size, workers, output = args.worker
        return worker(mode, stimuli, layers, int(batch_size), workers, output)

    counts = args.images or ([100, 400] if args.quick else [800, 3200])
    which = args.layers or ("head" if args.quick else "all")
    batch_size = args.batch_size or (32 if args.quick else 64)

    import torch

    from brainpipe.models.brain_model import load_torchvision

    network = load_torchvision(ARCHITECTURE)
    layers = layer_names(network, which)
    per_image = bytes_per_image(network, layers)
    del network
    scratch = Path(args.scratch or tempfile.mkdtemp(prefix="bench_extraction."))
    scratch.mkdir(parents=True, exist_ok=True)
    need = per_image * max(counts)
    free = shutil.disk_usage(scratch).free
    if need > 0.9 * free:
        raise SystemExit(f"{which} layers x {max(counts)} images write {need / 1e9:.1f} GB, but {scratch} has "
                         f"{free / 1e9:.1f} GB free: pass --layers blocks/head, fewer --images, or another --scratch")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()}, torch {torch.__version__} "
          f"({torch.get_num_threads()} threads)")
    print(f"{ARCHITECTURE} untrained, CPU, {len(layers)} layers ({which}): {per_image / 1e6:.1f} MB float32 per image; "
          f"batch {batch_size}; one batch of all layers = {per_image * batch_size / 1e9:.2f} GB; "
          f"decode workers {args.workers}")
    rows = []
    try:
        for n in counts:
            stimuli = scratch / f"stimuli_{n}"
            if not (stimuli / "stimuli.csv").exists():
                started = time.perf_counter()
                write_images(stimuli, n)
                print(f"  wrote {n} PNGs in {time.perf_counter() - started:.0f} s", flush=True)
            modes = ["brainpipe"] + ([] if args.skip_bare else ["bare"])
            for mode in modes:
                output = scratch / f"out_{n}"
                result = run_worker(__file__, [mode, stimuli, ",".join(layers), batch_size, args.workers, output],
                                    f"{mode} on {n} images", args.timeout)
                shutil.rmtree(output, ignore_errors=True)
                if result is None:
                    print(f"  {mode} on {n} images: timed out after {args.timeout:.0f} s")
                    continue
                rows.append((n, mode, result))
                print(f"  {mode:9s} {n:5d} images: {result['wall']:7.1f} s  {n / result['wall']:6.1f} images/s  "
                      f"(first batch done at {result['first_batch']:.1f} s, then {result['steady']:.2f} images/s)  "
                      f"peak RSS {result['peak_rss'] / 2**30:5.2f} GiB (after model load "
                      f"{result['rss_model'] / 2**30:.2f}), largest decode worker "
                      f"{result['worker_peak_rss'] / 2**30:.2f} GiB; load {result['load_before']:.1f} -> "
                      f"{result['load_after']:.1f}", flush=True)
    finally:
        if not args.scratch:
            shutil.rmtree(scratch, ignore_errors=True)

    print(f"\n| images | brainpipe s | bare s | ratio | ratio after 1st batch | brainpipe peak RSS | bare peak RSS "
          f"| activations (held whole before streaming) |")
    print("|---|---|---|---|---|---|---|---|")
    by = {(n, mode): r for n, mode, r in rows}
    for n in counts:
        ours, bare = by.get((n, "brainpipe")), by.get((n, "bare"))
        ratio = f"{ours['wall'] / bare['wall']:.2f}" if ours and bare else "-"
        steady = f"{bare['steady'] / ours['steady']:.2f}" if ours and bare else "-"
        print(f"| {n} | {ours['wall']:.1f} | {bare['wall'] if bare else float('nan'):.1f} | {ratio} | {steady} | "
              f"{ours['peak_rss'] / 2**30:.2f} GiB | {bare['peak_rss'] / 2**30 if bare else float('nan'):.2f} GiB | "
              f"{per_image * n / 2**30:.1f} GiB |" if ours else f"| {n} | - | - | - | - | - | - | - |")
    print(f"load average now {os.getloadavg()}")


if __name__ == "__main__":
    main()
