"""What a user expects of an installed package: declared dependencies, a version, `python -m brainpipe`, a licence,
a citation and a changelog that names this release."""

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

import brainpipe

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: import name -> distribution name, where they differ
DISTRIBUTION = {"PIL": "pillow", "sklearn": "scikit-learn", "yaml": "pyyaml", "netCDF4": "netcdf4"}


def third_party_imports(*folders):
    names = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Import):
                    names |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    names.add(node.module.split(".")[0])
    rules = "\n".join(p.read_text() for p in [ROOT / "Snakefile", *(ROOT / "workflow" / "rules").glob("*.smk")])
    names |= {line.split()[1].split(".")[0] for line in rules.splitlines() if line.startswith(("import ", "from "))}
    ours = ("brainpipe", "brainpipe_startup")  # the package and the startup hook (pyproject py-modules)
    return {name for name in names if name not in sys.stdlib_module_names and name not in ours}


def declared():
    return {requirement.split(">")[0].split("=")[0].split("<")[0].strip().lower()
            for requirement in PYPROJECT["project"]["dependencies"]}


def test_every_runtime_import_is_a_declared_dependency():
    needed = {DISTRIBUTION.get(name, name).lower() for name in third_party_imports("src", "workflow/scripts")}
    assert needed - declared() == set(), f"imported but not in pyproject.toml dependencies: {needed - declared()}"


def test_declared_dependencies_are_pinned_in_requirements():
    pinned = {line.split("==")[0].strip().lower() for line in (ROOT / "requirements.txt").read_text().splitlines()
              if "==" in line and not line.startswith("#")}
    assert declared() - pinned == set(), f"declared but not pinned in requirements.txt: {declared() - pinned}"


def test_version_everywhere_is_the_release():
    version = brainpipe.__version__
    run = subprocess.run([sys.executable, "-m", "brainpipe", "--version"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0 and run.stdout.strip() == f"brainpipe {version}", run.stdout + run.stderr
    assert f"## {version} " in (ROOT / "CHANGELOG.md").read_text()
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert citation["version"] == version and citation["cff-version"] == "1.2.0"
    assert (ROOT / "LICENSE").read_text().startswith("MIT License") and PYPROJECT["project"]["license"] == "MIT"


def test_python_m_brainpipe_is_the_command():
    run = subprocess.run([sys.executable, "-m", "brainpipe", "list"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "MajajHong2015.IT-pls" in run.stdout
