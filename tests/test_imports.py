"""Jobs that run no network start without torch, and parsing the workflow imports neither torch nor scikit-learn
(importing torch takes about 2 s, scikit-learn about 1 s: per job, and per `snakemake` start)."""

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPTS = REPO / "workflow" / "scripts"
NETWORK_JOBS = {"activations", "activations_temporal", "trial_activations"}  # the jobs that always run a network (fit_fold and gram: torch only on a GPU)


def imports_of(script: Path):
    tree = ast.parse(script.read_text())
    return [ast.unparse(node) for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]


def loaded_after(lines):
    code = "\n".join(lines + ["import sys", "print(' '.join(sorted(sys.modules)))"])
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert run.returncode == 0, run.stderr
    return set(run.stdout.split())


def test_jobs_without_a_network_do_not_import_torch():
    lines = [line for script in sorted(SCRIPTS.glob("*.py")) if script.stem not in NETWORK_JOBS
             for line in imports_of(script)]
    loaded = loaded_after(lines)
    assert "torch" not in loaded and "torchvision" not in loaded


def test_workflow_parse_imports_neither_torch_nor_sklearn():
    # the library imports of workflow/rules/common.smk
    common = (REPO / "workflow" / "rules" / "common.smk").read_text()
    lines, statement = [], None
    for line in common.splitlines():  # whole statements, also those continued in parentheses
        if line.startswith("from brainpipe"):
            statement = line
        elif statement is not None:
            statement += "\n" + line
        if statement is not None and statement.count("(") == statement.count(")"):
            lines.append(statement)
            statement = None
    assert lines
    loaded = loaded_after(lines)
    assert not {"torch", "torchvision", "sklearn"} & loaded


def test_fold_and_gram_jobs_compute_without_torch_or_sklearn():
    """What a pls / ridge / ridgecv / linear fold job and a Gram job do on a CPU (the workflow's path: the Gram
    matrix, then each fold fitted from it) imports neither torch nor scikit-learn: they cost ~2 s and ~1 s per job,
    more than the fits themselves at Brain-Score's sizes."""
    lines = imports_of(SCRIPTS / "fit_fold.py") + imports_of(SCRIPTS / "gram.py") + [
        "import numpy as np, xarray as xr",
        "from brainpipe.benchmarks import parse",
        "from brainpipe.neural.metrics import gram_matrix, run_fold_gram, uses_gram",
        "rng = np.random.default_rng(0)",
        "ids = ('presentation', [f's{k:02d}' for k in range(40)])",
        "source = xr.DataArray(rng.standard_normal((40, 30)).astype(np.float32), dims=('presentation', 'neuroid'),"
        " coords={'stimulus_id': ids})",
        "target = xr.DataArray(rng.standard_normal((40, 3)), dims=('presentation', 'neuroid'), coords={"
        "'stimulus_id': ids, 'object_name': ('presentation', ['a', 'b'] * 20), 'neuroid_id': ('neuroid', list('xyz'))})",
        "gram = gram_matrix(source, device='cpu')",
        "for metric in ('pls', 'ridge', 'ridgecv', 'linear'):",
        "    benchmark = parse('SyntheticShapes.IT-' + metric)",
        "    assert uses_gram(benchmark)",
        "    assert len(run_fold_gram(benchmark, gram, target, 0)['values']) == 3",
    ]
    loaded = loaded_after(lines)
    assert "brainpipe.neural.gram_fit" in loaded  # the fits did run
    assert not {"torch", "torchvision", "sklearn"} & loaded


def test_device_auto_asks_torch_only_where_a_gpu_can_exist():
    from brainpipe.models.devices import cuda_possible

    loaded = loaded_after(["from brainpipe.models.devices import resolve_device", "assert resolve_device('cpu') == 'cpu'",
                           "print(resolve_device('auto'))"])
    assert ("torch" in loaded) == cuda_possible()
    if not cuda_possible():
        assert "cpu" in loaded  # resolve_device('auto') printed it


def test_json_only_jobs_start_without_array_libraries():
    """The score job reads and writes JSON only: brainpipe.io imports numpy / pandas / xarray where arrays are
    read or written (~0.4 s a job)."""
    loaded = loaded_after(imports_of(SCRIPTS / "score.py") + [
        "from brainpipe.io import write_json, read_json",
        "import tempfile, os, math",
        "path = os.path.join(tempfile.mkdtemp(), 's.json')",
        "write_json({'a': [1.0, float('nan')], 'b': {'c': 2}}, path)",
        "assert read_json(path) == {'a': [1.0, None], 'b': {'c': 2}}"])
    assert not {"numpy", "pandas", "xarray"} & loaded


def test_gram_fold_job_reads_its_files_without_xarray(tmp_path):
    """A fold fitted from the Gram reads the Gram and the target with netCDF4 alone (xarray and pandas: ~0.4 s of a
    one-second job) and gives the values it gives from xarray's reading."""
    import numpy as np
    import xarray as xr

    from brainpipe.benchmarks import parse
    from brainpipe.io import read_netcdf, write_netcdf
    from brainpipe.neural.metrics import gram_matrix, run_fold_gram

    rng = np.random.default_rng(0)
    ids = ("presentation", [f"s{k:02d}" for k in range(40)])
    source = xr.DataArray(rng.standard_normal((40, 30)).astype(np.float32), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ids})
    target = xr.DataArray(rng.standard_normal((40, 3)).astype(np.float32), dims=("presentation", "neuroid"),
                          coords={"stimulus_id": ids, "object_name": ("presentation", ["a", "b"] * 20),
                                  "neuroid_id": ("neuroid", list("xyz"))}, name="target")
    write_netcdf(gram_matrix(source), tmp_path / "gram.nc")
    write_netcdf(target.isel(presentation=rng.permutation(40)), tmp_path / "target.nc")  # another stimulus order
    benchmark = parse("SyntheticShapes.IT-pls")
    expected = run_fold_gram(benchmark, read_netcdf(tmp_path / "gram.nc"), read_netcdf(tmp_path / "target.nc"), 3)
    loaded = loaded_after(imports_of(SCRIPTS / "fit_fold.py") + [  # the job's own path: the script's one call
        "import json",
        "from brainpipe.benchmarks import parse",
        f"job = FoldJob({str(tmp_path / 'gram.nc')!r}, {str(tmp_path / 'target.nc')!r}, fold=3, layer='layer')",
        "result, _ = fit_fold(parse('SyntheticShapes.IT-pls'), job)",
        f"json.dump(result, open({str(tmp_path / 'fold.json')!r}, 'w'))"])
    assert not {"xarray", "pandas", "torch", "sklearn"} & loaded
    import json

    written = json.loads((tmp_path / "fold.json").read_text())
    assert written.pop("seconds") >= 0
    assert written == json.loads(json.dumps(expected))


def test_loading_a_benchmark_imports_no_array_or_stats_library():
    """ceiling, fit_fold and score_layer jobs first load their benchmark from the registry, which imports every
    built-in family module: none may import scipy.stats (~1 s), xarray, pandas, torch or scikit-learn at import
    time (a family imports what its metric needs where it computes)."""
    loaded = loaded_after(["import yaml", "from brainpipe import benchmarks",
                           "config = yaml.safe_load(open('config/config.yaml'))",
                           "assert benchmarks.load('Geirhos2021colour-top1', config).kind == 'behaviour'",
                           "assert benchmarks.builtin().identifiers()"])
    assert not {"scipy.stats", "xarray", "pandas", "torch", "torchvision", "sklearn"} & loaded


def test_behaviour_bookkeeping_jobs_import_neither_sklearn_nor_scipy_stats():
    """A behavioural ceiling, fold (one comparison) or score_layer job imports the behaviour metrics and tasks
    modules: only the probabilities readout needs scikit-learn and only i1/i2n's d′ scipy.stats, where they
    compute (~1.5 s and ~1 s of a job that otherwise takes about one)."""
    lines = imports_of(SCRIPTS / "ceiling.py") + imports_of(SCRIPTS / "fit_fold.py") + imports_of(
        SCRIPTS / "score_layer.py") + ["from brainpipe.behaviour import stages, metrics, tasks"]
    loaded = loaded_after(lines)
    assert "brainpipe.behaviour.i1i2" in loaded and "brainpipe.behaviour.tasks" in loaded
    assert not {"sklearn", "scipy.stats", "torch", "torchvision"} & loaded
