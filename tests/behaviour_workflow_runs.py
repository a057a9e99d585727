"""Running the behavioural demo benchmark through the workflow."""

import os
import subprocess

from workflow_runs import ROOT, SNAKEMAKE, TINY


BENCHMARK = "SyntheticShapesBehaviour-i2n"


def snakemake(workdir, *args, target, configfiles=(TINY,)):
    """test_workflow's runner with a target, placed before --configfile (which takes several values)."""
    command = [SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir), "--cores", "2", target, *args,
               "--configfile", *map(str, configfiles)]
    result = subprocess.run(command, capture_output=True, text=True, cwd=workdir,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert result.returncode == 0, f"{result.stdout[-3000:]}\n{result.stderr[-5000:]}"
    return result
