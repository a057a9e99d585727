#!/usr/bin/env python
"""Brain-Score 2.4.2's own benchmark code on a folder of fixture files: the reference numbers of brainpipe's fidelity
tests (tests/reference/make_*_reference.py, tests/reference/suite_table.py).

Runs inside the reference venv (``make reference-venv``: brainscore-vision 2.4.2, CPU torch; never brainpipe's
.venv). Brain-Score reads every data file through brainscore_core's brainio fetcher (brain-score/core
brainscore_core/supported_data_standards/brainio/fetch.py): ``BotoFetcher(location=S3 URL, local_filename=<sha1>)``
names the local copy ``$BRAINIO_HOME/<sha1>/<object name>`` and downloads it from S3 when it is not there;
``fetch_file`` then compares the copy's sha1 with the registry's. This runner replaces exactly those two steps:

* the download: the object name (the last part of the S3 path: ``assy_<identifier, . → _>.nc``,
  ``stimulus_<identifier>.csv`` / ``.zip``, or a folder download's file name) is copied from the store folder to the
  path Brain-Score chose (a copy, so that unzipping beside it never writes into the store);
* the sha1 comparison: fixture files have the real names, not the real contents, so the sha1 Brain-Score expected
  and the one served are recorded (``files`` in the output) instead of compared.

Everything else is Brain-Score's: the data plugins' loaders, the stimulus-set unzip, the benchmark, metric and
ceiling, the model plugin's preprocessing and extraction. A file the store lacks stops that benchmark with its name.

    BS_INSTALL_DEPENDENCIES=no TORCH_HOME=... .venv-reference/bin/python tests/reference/brainscore_runner.py \\
        --store STORE --benchmark ID [ID ...] [--model alexnet] [--out FILE | --out-dir DIR] [--keep-going]

One process can score several benchmarks (Brain-Score's imports are paid once; each benchmark and the model are
loaded afresh, as ``brainscore_vision.score`` does). Output per benchmark: benchmark, model, score, raw, ceiling,
error (each one number: the mean where Brain-Score returns several), seconds (load_benchmark + load_model + scoring),
files served, versions, and ``failure`` (Brain-Score's exception, with --keep-going) instead of numbers.
Model weights come from TORCH_HOME (tests/reference/brainscore_runs.py writes the seeded alexnet under
torchvision's file name); no network is needed. ``--list-files`` prints which files a benchmark asks for, up to the
first one the store lacks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import time
import traceback
from pathlib import Path

# brainscore_vision's plugin loader pip-installs each plugin's requirements into the running interpreter unless
# this says no; the reference venv is made once, by `make reference-venv`. No result cache unless the caller asks
# for one (a cached activation or ceiling from another store would be silently reused).
os.environ["BS_INSTALL_DEPENDENCIES"] = "no"
os.environ.setdefault("RESULTCACHING_DISABLE", "1")


class MissingStoreFile(RuntimeError):
    """Brain-Score asked for a file the store does not have."""


def file_sha1(path) -> str:
    digest = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def import_torchvision():
    """``import torchvision`` beside the CPU torch: the torchvision 0.28.0 wheel from PyPI is built against CUDA torch,
    and its import registers fake kernels for two operator schemas (``torchvision::nms``, ``qnms``) that only its
    C++ extension defines; where the extension did not load, define the two schemas first and import again (the
    operators are never called: no benchmark runs detection). brainpipe.models._torchvision does the same."""
    import torch

    try:
        import torchvision
    except RuntimeError as error:
        if "torchvision::nms" not in str(error):
            raise
        library = torch.library.Library("torchvision", "FRAGMENT")
        library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        library.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
            del sys.modules[name]
        import torchvision
    return torchvision


def serve_store(store: Path, served: list) -> None:
    """Make brainscore_core's fetcher take every file from ``store``: each request appended to ``served`` as
    {file, expected_sha1, served_sha1, what}."""
    from brainscore_core.supported_data_standards.brainio import fetch

    store = Path(store).resolve()
    expected = {}  # local path -> the sha1 Brain-Score's registry gives for it (the folder name of its cache copy)

    def place(self):
        name = os.path.basename(self.relative_path)
        source = store / name
        what = f"s3://{self.bucketname}/{self.relative_path}"
        if not source.is_file():
            served.append({"file": name, "expected_sha1": self.local_filename if _is_sha1(self.local_filename)
                           else None, "served_sha1": None, "what": what})
            raise MissingStoreFile(f"Brain-Score asks for {name} ({what}); the store {store} has no such file")
        target = Path(self.output_filename)
        served_sha1 = file_sha1(source)
        if not target.is_file() or file_sha1(target) != served_sha1:
            target.parent.mkdir(parents=True, exist_ok=True)
            unpacked = target.with_suffix("")  # brainio unzips beside the zip and reuses a folder that exists
            if target.suffix == ".zip" and unpacked.is_dir():
                shutil.rmtree(unpacked)
            shutil.copyfile(source, target)
        expected[str(target)] = self.local_filename if _is_sha1(self.local_filename) else None
        served.append({"file": name, "expected_sha1": expected[str(target)], "served_sha1": served_sha1,
                       "what": what})
        return str(target)

    def compare_sha1(path, expected_sha1):  # recorded in `served` (the fixture is not the real file)
        return None

    fetch.BotoFetcher.fetch = place
    fetch.verify_sha1 = compare_sha1


def _is_sha1(text) -> bool:
    return isinstance(text, str) and len(text) == 40 and all(c in "0123456789abcdef" for c in text)


def number(value):
    """One float of a Score attribute (None if absent; the NaN-skipping mean of several values, e.g. per time bin)."""
    import numpy as np

    if value is None:
        return None
    array = np.asarray(value, dtype=float)
    if array.size == 0:
        return None
    return float(array.ravel()[0]) if array.size == 1 else float(np.nanmean(array))


def versions() -> dict:
    from importlib.metadata import version

    return {name: version(name) for name in ("brainscore-vision", "brainscore-core", "numpy", "scipy",
                                             "scikit-learn", "xarray", "torch", "torchvision")}


def score_one(identifier: str, model_identifier: str, store: Path) -> dict:
    """Brain-Score's ``load_benchmark(identifier)(load_model(model_identifier))`` on the store's files."""
    from brainscore_vision import load_benchmark, load_model

    served: list = []
    serve_store(store, served)
    start = time.perf_counter()
    benchmark = load_benchmark(identifier)
    model = load_model(model_identifier)
    score = benchmark(model)
    seconds = time.perf_counter() - start
    return {"benchmark": identifier, "model": model_identifier, **score_numbers(score), "seconds": round(seconds, 3),
            "files": served, "versions": versions()}


def score_numbers(score) -> dict:
    """score, raw, ceiling and error of a Brain-Score Score. A Score of the older layout (Igustibagus2024's readout
    benchmark) holds ``aggregation: [center, error]``: its score is the centre, not the mean of the two."""
    attrs = getattr(score, "attrs", {})
    error = number(attrs.get("error"))
    if "aggregation" in getattr(score, "dims", ()):
        score, error = score.sel(aggregation="center"), number(score.sel(aggregation="error"))
    return {"score": number(score), "raw": number(attrs.get("raw")), "ceiling": number(attrs.get("ceiling")),
            "error": error}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", "--fixtures", dest="store", required=True, type=Path,
                        help="folder of files under the object names Brain-Score downloads")
    parser.add_argument("--benchmark", required=True, nargs="+", help="Brain-Score benchmark identifier(s)")
    parser.add_argument("--model", default="alexnet", help="a Brain-Score model identifier (load_model)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--out", type=Path, help="the result JSON (one benchmark)")
    where.add_argument("--out-dir", type=Path, help="one <benchmark>.json per benchmark")
    parser.add_argument("--keep-going", action="store_true",
                        help="record a benchmark's exception as its 'failure' and go on with the next")
    parser.add_argument("--list-files", action="store_true",
                        help="print the files a benchmark asks for (up to the first the store lacks)")
    args = parser.parse_args(argv)
    if args.out and len(args.benchmark) > 1:
        parser.error("--out takes one benchmark; use --out-dir for several")
    import_torchvision()
    import numpy  # noqa: F401  (before brainscore_vision: its plugins import it anyway)

    failed = 0
    for identifier in args.benchmark:
        if args.list_files:
            served: list = []
            serve_store(args.store, served)
            from brainscore_vision import load_benchmark, load_model
            try:
                load_benchmark(identifier)(load_model(args.model))
            except MissingStoreFile as missing:
                print(f"{identifier}: {missing}", file=sys.stderr)
            print(json.dumps({"benchmark": identifier, "files_asked_for": served}, indent=1))
            continue
        try:
            result = score_one(identifier, args.model, args.store)
        except Exception as error:  # noqa: BLE001 (recorded with --keep-going: the table says why)
            if not args.keep_going:
                raise
            failed += 1
            result = {"benchmark": identifier, "model": args.model, "score": None, "raw": None, "ceiling": None,
                      "error": None, "seconds": None, "files": [],
                      "failure": f"{type(error).__name__}: {error}"[:2000],
                      "traceback": traceback.format_exc()[-4000:]}
        print(json.dumps({key: result.get(key) for key in ("benchmark", "score", "raw", "ceiling", "seconds",
                                                          "failure") if key in result}), flush=True)
        out = args.out or (args.out_dir / f"{identifier}.json" if args.out_dir else None)
        if out:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
