"""Running the real workflow from tests: the repository's Snakefile on a working directory, dry-run output parsers."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")
TINY = ROOT / "tests" / "configs" / "tiny.yaml"


def snakemake(workdir, *args, configfiles=(TINY,), check=True):
    command = [SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "2",
               "--configfile", *map(str, configfiles), *args]
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    if check and result.returncode != 0:
        raise AssertionError(f"snakemake failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return result


def planned_outputs(result):
    """Output files of the jobs a dry run would execute."""
    text = result.stdout + result.stderr
    return re.findall(r"^\s+output: (.+)$", text, flags=re.M)


def with_config(path):
    """A working directory with the repository's config/config.yaml, which the Snakefile loads first."""
    (path / "config").mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "config" / "config.yaml", path / "config" / "config.yaml")
    return path


def job_counts(result):
    """{rule: jobs} of a dry run's "Job stats" table; a rule writing several layer files at once
    (activations_layers_<hash>) is counted as "activations_layers"."""
    text = result.stdout + result.stderr
    if "Nothing to be done" in text:
        return {}
    table = text.split("Job stats:", 1)[1].split("\ntotal", 1)[0]
    counts = {}
    for name, count in re.findall(r"^(\w+)\s+(\d+)$", table, flags=re.M):
        name = "activations_layers" if name.startswith("activations_layers_") else name
        counts[name] = counts.get(name, 0) + int(count)
    return counts


def file_times(root, folders=("results/activations", "results/gram", "results/pixels", "results/alexnet_untrained")):
    """{path: mtime_ns} of every file under the per-layer stages' folders (activations, Gram, folds, layer and
    headline scores)."""
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for folder in folders for p in (root / folder).rglob("*")
            if p.is_file()}
