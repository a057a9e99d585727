"""Running the workflow as the README's commands do, and following its recovery advice literally."""

import os
import re
import subprocess

from workflow_runs import ROOT, SNAKEMAKE, TINY


NARROW = "models: [pixels]\nbenchmarks: [SyntheticShapes.IT-pls]\n"


def command(workdir, args):
    """A README command line run on ``workdir`` with the tiny config (2 cores on this machine)."""
    assert args[0] == "snakemake"
    args = list(args[1:])
    if "--cores" in args:
        args[args.index("--cores") + 1] = "2"
    narrow = workdir / "narrow.yaml"
    narrow.write_text(NARROW)
    return [SNAKEMAKE, "-s", str(ROOT / "Snakefile"), "--directory", str(workdir),
            "--configfile", str(TINY), str(narrow), *args]


def run(workdir, args, check=True):
    result = subprocess.run(command(workdir, args), capture_output=True, text=True, cwd=workdir,
                            env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    if check and result.returncode != 0:
        raise AssertionError(f"{args} failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-5000:]}")
    return result


def forced_by_advice(output):
    """The output the corrupt-file message says to force (relative to the working directory, as Snakemake runs)."""
    advice = re.search(r"erun the same snakemake command with --forcerun '([^']+)' added", output)
    assert advice, output[-4000:]
    return advice.group(1)
