"""Reordering the keys of a config mapping reruns nothing: Snakemake compares rule params as text, so every dict
param built from the config has a fixed key order (workflow/rules/stimuli.smk, assembly.smk)."""

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).parent / "snakemake")


def snakemake(workdir, *args):
    return subprocess.run([SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "2",
                           "resources/assemblies/SyntheticShapes.nc", *args], cwd=workdir, capture_output=True,
                          text=True)


@pytest.mark.slow  # draws the demo stimuli and recordings (~25 s)
def test_reordered_synthetic_shapes_keys_rerun_nothing(tmp_path):
    (tmp_path / "config").mkdir()
    config_path = tmp_path / "config" / "config.yaml"
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    config["synthetic_shapes"].update(image_size=32, images_per_object=4)  # a smaller demo, drawn fast
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    first = snakemake(tmp_path)
    assert first.returncode == 0, first.stderr[-3000:]
    shapes = config["synthetic_shapes"]
    config["synthetic_shapes"] = {key: ({k: shapes[key][k] for k in reversed(list(shapes[key]))}
                                        if isinstance(shapes[key], dict) else shapes[key])
                                  for key in reversed(list(shapes))}
    config_path.write_text(yaml.safe_dump(config, sort_keys=False))
    assert list(yaml.safe_load(config_path.read_text())["synthetic_shapes"]["neuroids"]) == ["IT", "V4"]
    again = snakemake(tmp_path, "-n")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr, again.stdout[-3000:]
