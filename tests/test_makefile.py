"""The Makefile's setup recipe (dry runs with make -n into a venv path that does not exist, so every step prints):
TORCH=cpu installs the CPU-only build of requirements.txt's torch pins from PyTorch's CPU index first; the default
leaves the build to pip's index (the CUDA build from the public PyPI on Linux), so the GPU path is unchanged."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_steps(tmp_path, *variables):
    done = subprocess.run(["make", "-n", "setup", f"VENV={tmp_path / 'venv'}", *variables], cwd=ROOT,
                          capture_output=True, text=True)
    return done.returncode, done.stdout.splitlines(), done.stderr


def pins():
    return re.findall(r"^(torch==\S+|torchvision==\S+)$", (ROOT / "requirements.txt").read_text(), flags=re.M)


def test_torch_cpu_installs_the_pinned_cpu_build_first(tmp_path):
    rc, steps, _ = setup_steps(tmp_path, "TORCH=cpu")
    assert rc == 0
    cpu = [i for i, step in enumerate(steps) if "--index-url https://download.pytorch.org/whl/cpu" in step]
    assert len(cpu) == 1 and steps[cpu[0]].split()[-2:] == pins(), steps
    requirements = next(i for i, step in enumerate(steps) if "-r requirements.txt" in step)
    assert cpu[0] < requirements  # requirements.txt then finds its pins satisfied by the CPU build


def test_default_setup_leaves_the_build_to_pips_index(tmp_path):
    rc, steps, _ = setup_steps(tmp_path)
    assert rc == 0 and not any("--index-url" in step for step in steps), steps
    assert any("-r requirements.txt" in step for step in steps)


def test_cpu_index_can_be_pointed_elsewhere_and_a_typo_stops(tmp_path):
    rc, steps, _ = setup_steps(tmp_path, "TORCH=cpu", "TORCH_CPU_INDEX=file:///mirror/simple")
    assert rc == 0 and any("--index-url file:///mirror/simple torch==" in step for step in steps)
    rc, _, error = setup_steps(tmp_path, "TORCH=gpu")
    assert rc != 0 and "TORCH must be 'default' or 'cpu', got 'gpu'" in error
