#!/usr/bin/env python
"""Brain-Score 2.4.2's own 22 Marques2020 benchmarks on the arrays a brainpipe workflow wrote: the fixture of
tests/test_marques2020_workflow.py.

Runs in the reference venv (never in brainpipe's .venv), on the files that test keeps:

    BRAINPIPE_KEEP_MARQUES=/tmp/marques .venv/bin/python -m pytest -m slow tests/test_marques2020_workflow.py
    BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1 .venv-reference/bin/python \\
        tests/reference/make_marques2020_reference.py /tmp/marques tests/data/properties_chain/marques2020.json

What is Brain-Score's: ``load_benchmark(identifier)`` for each of the 22 identifiers — its data plugin's loaders
(the property assemblies and stimulus sets are read from KEPT/store under the object names Brain-Score asks for:
``s3.get_path`` and ``s3.load_file_from_s3`` are replaced, nothing else), the benchmark, the property function, the
receptive-field filter, the affine map and firing rates (properties_common.py), ``BootstrapDistributionSimilarity``
and ``NeuronalPropertyCeiling``. What is brainpipe's: the model's activations, served by replacing
``properties_common.record_from_model`` with brainpipe's activation files of the committed layer
(KEPT/work/results/activations/<model>/<set>--target8.00--source<degrees>/<layer>.nc, the stimuli placed on
screen as Brain-Score's ``place_on_screen`` places them), matched by stimulus_id.

Randomness: the raw score is ``np.random.seed(SEED); benchmark(model)`` (the raw score is its first draw) and the
ceiling ``np.random.seed(SEED); benchmark.ceiling``, as brainpipe's stages draw them; ceiled = raw / ceiling.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("BS_INSTALL_DEPENDENCIES", "no")
os.environ.setdefault("RESULTCACHING_DISABLE", "1")

import numpy as np  # noqa: E402

SEED = 0  # brainpipe.properties.ks_similarity.DEFAULT_SEED
MODEL, LAYER, MODEL_DEGREES = "alexnet_untrained", "features.2", 8.0


def serve_fixtures(store: Path):
    from brainscore_core.supported_data_standards.brainio import s3

    def get_path(identifier, file_type, bucket, version_id, sha1_, filename_prefix=None, folder_name=None):
        prefix = filename_prefix or ("stimulus_" if file_type in ("csv", "zip") else "assy_")
        path = store / f"{prefix}{identifier.replace('.', '_')}.{file_type}"
        assert path.is_file(), f"Brain-Score asks for {path.name}, which the fixture store lacks"
        return str(path)

    def load_file_from_s3(bucket, path, local_filepath, sha1=None, version_id=None):
        import shutil
        Path(local_filepath).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(store / Path(path).name, local_filepath)

    s3.get_path = get_path
    s3.load_file_from_s3 = load_file_from_s3


def main(kept: Path, out: Path, timed: bool = False):
    serve_fixtures(kept / "store")
    import brainscore_vision
    import xarray as xr
    from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly
    from brainscore_vision.benchmark_helpers import properties_common as pc

    activations = kept / "work" / "results" / "activations" / MODEL

    served = {}

    def record_from_model(model, stimulus_identifier, number_of_trials):
        # each file read once (a model's look_at would recompute them); a copy per call, as Brain-Score's callers
        # rectify the values in place
        if stimulus_identifier not in served:
            served[stimulus_identifier] = read_activations(stimulus_identifier)
        return served[stimulus_identifier].copy(deep=True)

    def read_activations(stimulus_identifier):
        stimulus_set = brainscore_vision.load_stimulus_set(stimulus_identifier)
        degrees = float(np.unique(stimulus_set["degrees"])[0])
        folder = stimulus_identifier if degrees == MODEL_DEGREES else \
            f"{stimulus_identifier}--target{MODEL_DEGREES:.2f}--source{degrees:.2f}"
        with xr.open_dataarray(activations / folder / f"{LAYER}.nc") as a:
            a = a.load()
        order = {s: i for i, s in enumerate(a["stimulus_id"].values.astype(str))}
        ids = stimulus_set["stimulus_id"].astype(str).values
        values = a.transpose("presentation", "neuroid").values[[order[s] for s in ids]]
        coords = {c: ("presentation", stimulus_set[c].values) for c in stimulus_set.columns
                  if c not in ("filename", "image_file_name", "image_path_within_store")}
        coords["neuroid_id"] = ("neuroid", a["neuroid_id"].values.astype(str))
        return NeuroidAssembly(values.copy(), coords=coords, dims=["presentation", "neuroid"])

    pc.record_from_model = record_from_model

    class Model:
        identifier = MODEL

        def start_recording(self, region, time_bins):
            pass

    import brainscore_vision.benchmarks.marques2020  # noqa: F401  (its __init__ registers the 22)
    identifiers = sorted(i for i in brainscore_vision.benchmark_registry if i.startswith("Marques2020_"))
    assert len(identifiers) == 22, identifiers
    result = {"seed": SEED, "model": MODEL, "layer": LAYER, "scores": {}}
    import time
    for identifier in identifiers:
        started, started_cpu = time.perf_counter(), time.process_time()
        benchmark = brainscore_vision.load_benchmark(identifier)
        np.random.seed(SEED)
        score = benchmark(Model())
        raw = score.attrs["raw"]
        np.random.seed(SEED)
        ceiling = benchmark.ceiling
        result["scores"][identifier] = {
            "raw": float(raw.values), "error": float(raw.attrs["error"]), "ceiling": float(ceiling.values),
            "ceiling_error": float(ceiling.attrs["error"]), "score": float(raw.values) / float(ceiling.values),
            "parent": benchmark.parent, "version": benchmark.version}
        if timed:  # perf/bench_properties.py: the time of loading, scoring and ceiling one benchmark
            result["scores"][identifier]["seconds"] = time.perf_counter() - started
            result["scores"][identifier]["cpu_seconds"] = time.process_time() - started_cpu  # all threads
        print(identifier, result["scores"][identifier], flush=True)
    if timed:
        import resource
        result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    from importlib.metadata import version
    result["versions"] = {p: version(p) for p in ("brainscore-vision", "numpy", "scipy")}
    result["command"] = " ".join(["tests/reference/make_marques2020_reference.py", *sys.argv[1:]])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), "--time" in sys.argv[3:])
