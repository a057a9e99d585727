"""Jobs import this checkout's brainpipe even when another copy is installed (e.g. an editable install of
another clone): Snakemake's script preamble appends to sys.path, so without the Snakefile putting src/ first on
PYTHONPATH the installed copy would run inside jobs while the rerun fingerprints come from this checkout."""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "tests" / "configs" / "tiny.yaml"
MARKER_CODE = """
import os as _os
if _os.environ.get("BRAINPIPE_OTHER_COPY_MARKER"):  # added by tests/test_own_library.py
    with open(_os.environ["BRAINPIPE_OTHER_COPY_MARKER"], "a") as _f:
        _f.write(f"{_os.getpid()} {__file__}\\n")
"""


def python_with_other_copy(tmp_path):
    """A throwaway venv whose site-packages holds, in this order, a copy of brainpipe that records every import
    of itself, then this test's environment (snakemake, torch, and this checkout's own editable install)."""
    other = tmp_path / "other-clone" / "src"
    shutil.copytree(ROOT / "src" / "brainpipe", other / "brainpipe", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "brainpipe" / "__init__.py", "a") as init:
        init.write(MARKER_CODE)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "00-other-clone.pth").write_text(f"{other}\n")  # what `pip install -e` of the other clone writes
    (site / "zz-test-env.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return python, other


@pytest.mark.slow  # one real snakemake run: ~10 s idle, ~25 s on a loaded 2-core machine
def test_jobs_run_this_checkouts_library_when_another_copy_is_installed(tmp_path):
    python, other = python_with_other_copy(tmp_path)
    marker = tmp_path / "imports-of-the-other-copy.txt"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SNAKEMAKE_PROFILE")}
    env["BRAINPIPE_OTHER_COPY_MARKER"] = str(marker)

    # The setup really shadows this checkout: a plain `import brainpipe` in that Python finds the other copy.
    found = subprocess.run([str(python), "-c", "import brainpipe; print(brainpipe.__file__)"], env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert Path(found).parent == other / "brainpipe"
    marker.unlink()

    workdir = tmp_path / "work"
    (workdir / "config").mkdir(parents=True)
    shutil.copy(ROOT / "config" / "config.yaml", workdir / "config" / "config.yaml")
    result = subprocess.run([str(python), "-m", "snakemake", "-s", str(ROOT / "Snakefile"), "--directory",
                             str(workdir), "--cores", "1", "--configfile", str(TINY), "--workflow-profile", "none",
                             "resources/stimuli/SyntheticShapes"],
                            cwd=workdir, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (workdir / "resources/stimuli/SyntheticShapes/stimuli.csv").exists()  # a real script job ran
    imports = marker.read_text() if marker.exists() else ""
    assert not imports, f"a process of the run imported the other copy of brainpipe:\n{imports}"


def test_library_goes_first_on_pythonpath_once(monkeypatch, tmp_path):
    from brainpipe.pipeline.workflow_config import ConfigError, use_library_in_jobs

    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(["/elsewhere", str(ROOT / "src"), ""]))
    use_library_in_jobs(ROOT / "src")
    assert os.environ["PYTHONPATH"].split(os.pathsep) == [str((ROOT / "src").resolve()), "/elsewhere"]
    with pytest.raises(ConfigError, match=r"already imported brainpipe from .*Start snakemake in a fresh process"):
        use_library_in_jobs(tmp_path)  # this process runs ROOT/src/brainpipe, not tmp_path/brainpipe
