"""brainpipe as a user gets it without cloning: a wheel built from the repository (`pip wheel`), installed into a
fresh venv outside the checkout, scores the demo benchmark with brainpipe.score() and `brainpipe score`, running the
workflow, config and profiles the wheel ships inside the package (setup.py copies them in as brainpipe/_workflow).
Building it leaves nothing in the checkout.

The fresh venv gets the project venv's dependencies (torch, snakemake, ...) through a .pth file instead of a
reinstall, which would take minutes: a .pth line only appends a folder to sys.path (the .pth files inside it, such
as the editable install's pointer to src/, are not read), so brainpipe comes from the wheel, as the test checks."""

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import yaml

from workflow_runs import ROOT, TINY

DEMO = "SyntheticShapes.IT-pls"
#: what setup.py copies into the package, as the repository holds it
WORKFLOW = ("Snakefile", "workflow", "config", "profiles")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """(the wheel built from this checkout by pip, the build's leftovers in the checkout)."""
    out = tmp_path_factory.mktemp("wheel")
    leftovers = [ROOT / "build", ROOT / "src" / "brainpipe.egg-info"]
    before = {path for path in leftovers if path.exists()}
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                            "--quiet", "--wheel-dir", str(out), str(ROOT)], capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (built,) = out.glob("brainpipe-*.whl")
    return built, [path for path in leftovers if path.exists() and path not in before]


def tracked(*paths):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: which files the repository holds is unknown")
    listed = subprocess.run(["git", "ls-files", "--", *paths], cwd=ROOT, capture_output=True, text=True, check=True)
    return [name for name in listed.stdout.splitlines() if (ROOT / name).is_file()]


def test_the_wheel_ships_the_workflow_and_its_build_leaves_nothing_in_the_checkout(wheel):
    built, left = wheel
    assert left == [], f"building the wheel left {left} in the checkout"
    names = set(zipfile.ZipFile(built).namelist())
    missing = [f"brainpipe/_workflow/{name}" for name in tracked(*WORKFLOW)
               if f"brainpipe/_workflow/{name}" not in names]
    assert missing == [], f"the wheel lacks the workflow's files: {missing}"
    data = [name.removeprefix("src/") for name in tracked("src/brainpipe") if not name.endswith(".py")]
    assert data and [name for name in data if name not in names] == [], "the package's data files are not all in it"
    assert not [name for name in names if name.endswith(".pyc") or "__pycache__" in name]
    entry_points = next(name for name in names if name.endswith(".dist-info/entry_points.txt"))
    assert "brainpipe = brainpipe.cli:main" in zipfile.ZipFile(built).read(entry_points).decode()


def fresh_venv(root, wheel):
    """A venv in ``root`` with the wheel installed by pip (no dependencies) and the project venv's packages on its
    path, plus the snakemake command pip writes for an installed snakemake. Returns (python, site-packages)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                              "--no-index", "--quiet", str(wheel)], capture_output=True, text=True)
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = sysconfig.get_paths()
    (site / "project-venv-dependencies.pth").write_text("\n".join(dict.fromkeys((ours["purelib"],
                                                                                 ours["platlib"]))) + "\n")
    script = (Path(sys.executable).parent / "snakemake").read_text().split("\n", 1)[1]
    (root / "bin" / "snakemake").write_text(f"#!{python}\n{script}")
    (root / "bin" / "snakemake").chmod(0o755)
    return python, site


def files(folder):
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if "__pycache__" not in p.parts)


@pytest.mark.slow  # a fresh venv and a real workflow run from it (about 90 s on 2 cores)
def test_the_installed_wheel_scores_the_demo_outside_the_checkout(wheel, tmp_path):
    python, site = fresh_venv(tmp_path / "venv", wheel[0])
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    bin_ = python.parent

    def run(*command, cwd):
        return subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True)

    where = run(python, "-c", "import brainpipe, brainpipe.pipeline.workflow_files as w; print(brainpipe.__file__); "
                              "print(w.folder())", cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    module, folder = map(Path, where.stdout.split())
    assert module == site / "brainpipe" / "__init__.py" and folder == site / "brainpipe" / "_workflow"
    shipped = files(folder)

    # a first run in an empty folder, with no config of its own: the shipped config is the one
    empty = tmp_path / "empty"
    empty.mkdir()
    listed = run(bin_ / "brainpipe", "list", cwd=empty)
    assert listed.returncode == 0 and "* pixels: pixels" in listed.stdout, listed.stderr
    unknown = run(bin_ / "brainpipe", "score", "nope", DEMO, cwd=empty)
    assert unknown.returncode == 1 and unknown.stdout == ""
    assert f"model 'nope' is not in model_zoo of {folder / 'config' / 'config.yaml'}; known: " in unknown.stderr
    assert "pixels" in unknown.stderr
    unknown = run(bin_ / "brainpipe", "score", "pixels", "Nope.IT-pls", cwd=empty)
    assert unknown.returncode == 1 and "brainpipe score: benchmark 'Nope.IT-pls': unknown family 'Nope'" in \
        unknown.stderr
    benchmark = run(python, "-c", f"import brainpipe; print(brainpipe.load_benchmark({DEMO!r}).n_folds)", cwd=empty)
    assert benchmark.returncode == 0 and benchmark.stdout.split() == ["10"], benchmark.stderr
    plan = run(bin_ / "snakemake", "-s", folder / "Snakefile", "-n", "--cores", "1",
               f"results/pixels/{DEMO}.json", cwd=empty)
    assert plan.returncode == 0 and "score_layer" in plan.stdout, plan.stdout[-2000:] + plan.stderr[-2000:]
    # a clone's src/ on PYTHONPATH comes first in this process: the shipped workflow refuses to mix the two
    mixed = subprocess.run([str(bin_ / "snakemake"), "-s", str(folder / "Snakefile"), "-n", "--cores", "1"],
                           cwd=empty, env={**env, "PYTHONPATH": str(ROOT / "src")}, capture_output=True, text=True)
    assert mixed.returncode != 0 and f"this Python process imports brainpipe from {ROOT / 'src' / 'brainpipe'}" in \
        mixed.stdout + mixed.stderr, mixed.stdout[-2000:] + mixed.stderr[-2000:]

    # the tiny grid's settings (tests/configs/tiny.yaml) over the shipped config: the reference numbers
    config = yaml.safe_load((folder / "config" / "config.yaml").read_text())
    config.update(yaml.safe_load(TINY.read_text()))
    (tmp_path / "tiny.yaml").write_text(yaml.safe_dump(config))
    work = tmp_path / "work"
    work.mkdir()
    scored = run(bin_ / "brainpipe", "score", "pixels", DEMO, "--config", tmp_path / "tiny.yaml", "--cores", "2",
                 cwd=work)
    assert scored.returncode == 0, scored.stdout[-2000:] + scored.stderr[-4000:]
    target = work / "results" / "pixels" / f"{DEMO}.json"
    reference = json.loads((ROOT / "tests/data/tiny_reference_scores.json").read_text())[f"pixels/{DEMO}"]
    result = json.loads(target.read_text())
    assert {key: result[key] for key in ("score", "raw", "ceiling")} == \
        {key: reference[key] for key in ("score", "raw", "ceiling")}
    assert scored.stdout.splitlines() == [
        f"pixels on {DEMO}: score {reference['score']:.4f} (raw {reference['raw']:.4f}, ceiling "
        f"{reference['ceiling']:.4f}, error {reference['error']:.4f}, layer pixels)", f"score JSON: {target}"]

    # from Python, in the same folder: the same number from the same files (nothing to recompute)
    again = run(python, "-c", "import json, sys, brainpipe; s = brainpipe.score('pixels', sys.argv[1], "
                              "config=sys.argv[2]); print(json.dumps([float(s), s.raw, s.ceiling]))",
                DEMO, tmp_path / "tiny.yaml", cwd=work)
    assert again.returncode == 0, again.stderr[-3000:]
    assert json.loads(again.stdout) == [reference["score"], reference["raw"], reference["ceiling"]]
    assert again.stderr.endswith("nothing to do (all up to date)\n"), again.stderr[-500:]
    assert files(folder) == shipped, "the run wrote into the installed package"
