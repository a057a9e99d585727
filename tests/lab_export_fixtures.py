"""Packaging a lab's export with `brainpipe package` from tests: the command line and its printed entries."""

import subprocess
import sys

import yaml


#: the lab's column names -> brainpipe's, one option for every file of the export (README "Packaging your data")
COORDS = ("stimulus_id=image,repetition=rep,neuroid_id=unit,region=area,subject=participant,choice=response,"
          "truth=correct_label,condition=noise_level")


def package(workdir, *args, check=True):
    """`brainpipe package` as a user runs it; returns (exit code, stdout, stderr)."""
    run = subprocess.run([sys.executable, "-m", "brainpipe", "package", *map(str, args)], cwd=workdir,
                         capture_output=True, text=True)
    if check and run.returncode != 0:
        raise AssertionError(run.stderr)
    return run


def lab_command(export, *extra, name="MyLab2024", out="data/MyLab2024"):
    return ("--name", name, "--images", export / "images", "--stimuli", export / "image_table.csv",
            "--visual-degrees", 8, "--out", out, *extra)


def entries(printed: str) -> dict:
    return yaml.safe_load(printed[printed.index("benchmark_zoo:"):])["benchmark_zoo"]
