"""Scialom2024 on its fixture: brainpipe's cold time and jobs beside Brain-Score 2.4.2's on the same files.

Usage::

    .venv/bin/python perf/bench_scialom2024.py --tool PATH/TO/brainscore_reference.py \\
        [--bsref /work/bsref/.venv/bin/python] [--cores 2]

Data: tests/behaviour_fixtures_families.write_store(..., ('Scialom2024',)) — rgb, phosphenes-12 and the
phosphenes-all composite in the real layouts (24, 24 and 72 images) — and the prototype alexnet weights the
fidelity test uses. brainpipe: one cold ``snakemake`` run of every Scialom2024 benchmark on those data sets (6) in
an empty folder, the files served on 127.0.0.1; jobs = the rules that ran (Snakemake's ``benchmark:`` files, plus
fetch/prepare jobs counted from its log). Brain-Score: one process (the reference venv, cold imports included)
that loads alexnet once and runs Brain-Score's own benchmarks one after another on the same files, served by the
project's ``brainscore_reference.py`` tool (its ``install_fixture_source``). The machine's load average is printed
beside the figures: timings compare only on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "src"), str(REPO / "tests"), str(REPO / "tests" / "reference")]

DRIVER = """
import importlib.util, json, sys, time
tool, fixtures, out, ids = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
spec = importlib.util.spec_from_file_location("brainscore_reference", tool)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
from pathlib import Path
module.install_fixture_source(Path(fixtures).resolve(), [], False)
from brainscore_vision import load_benchmark, load_model
model = load_model("alexnet")
scores = {}
for identifier in ids:
    score = load_benchmark(identifier)(model)
    scores[identifier] = float(score.values)
Path(out).write_text(json.dumps(scores))
"""


def load():
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main():
    import behaviour_fixtures_families as ff
    from brainio_fixtures import local_http_server
    from make_behaviour_families_reference import SHIM
    from test_real_data_workflow import snakemake, write_checksums, write_config

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", required=True, help="the brainscore_reference.py tool")
    parser.add_argument("--bsref", default="/work/bsref/.venv/bin/python")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    ids = sorted(i for i in (REPO / "tests" / "data" / "brainscore_identifiers_2.4.2.txt").read_text().split()
                 if i.startswith("Scialom2024") and any(f"_{d}B" in i or f"_{d}E" in i for d in ff.SCIALOM_DATASETS))
    folder = Path(tempfile.mkdtemp(prefix="bench-scialom-"))
    sums = ff.write_store(folder / "store", ("Scialom2024",))
    ff.write_torch_home(folder / "torch_home", ff.WEIGHTS["Scialom2024"])
    weights = folder / "torch_home" / "hub" / "checkpoints" / ff.ALEXNET_FILE
    work = folder / "work"
    work.mkdir()
    print(f"load average before: {load()}")
    with local_http_server(folder / "store") as server:
        config = write_config(folder, ids, dict(base_url=server.url,
                                                checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights)
        start = time.perf_counter()
        run = snakemake(work, config, [f"results/alexnet/{i}.json" for i in ids], torch_home=folder / "torch_home",
                        args=("--cores", str(args.cores)))
        ours = time.perf_counter() - start
    if run.returncode:
        sys.exit(f"brainpipe failed:\n{run.stderr[-3000:]}")
    steps = re.findall(r"(\d+) of (\d+) steps", run.stderr)
    jobs = int(steps[-1][1]) if steps else None
    timed = sorted(p.relative_to(work / "logs" / "timing").parts[0] for p in (work / "logs" / "timing").rglob("*.tsv"))
    per_rule = {rule: timed.count(rule) for rule in dict.fromkeys(timed)}
    env = dict(os.environ, BS_INSTALL_DEPENDENCIES="no", RESULTCACHING_DISABLE="1",
               TORCH_HOME=str(folder / "torch_home"), BRAINIO_HOME=str(folder / "brainio"))
    driver = folder / "driver.py"
    driver.write_text(DRIVER)
    start = time.perf_counter()
    theirs_run = subprocess.run([args.bsref, "-c", SHIM, str(driver), args.tool, str(folder / "store"),
                                 str(folder / "bs.json"), *ids], env=env, capture_output=True, text=True)
    theirs = time.perf_counter() - start
    if theirs_run.returncode:
        sys.exit(f"Brain-Score failed:\n{theirs_run.stderr[-3000:]}")
    ours_scores = {i: json.loads((work / "results" / "alexnet" / f"{i}.json").read_text())["score"] for i in ids}
    their_scores = json.loads((folder / "bs.json").read_text())
    delta = max(abs(ours_scores[i] - their_scores[i]) for i in ids)
    print(f"Scialom2024 fixture ({len(ids)} benchmarks on {len(ff.SCIALOM_DATASETS)} stimulus sets), cold:")
    print(f"  brainpipe   {ours:6.1f} s, {jobs} jobs ({', '.join(f'{r} {n}' for r, n in per_rule.items())}), "
          f"--cores {args.cores}")
    print(f"  Brain-Score {theirs:6.1f} s, one process")
    print(f"  max |score difference| {delta:.2e}; load average after: {load()}")


if __name__ == "__main__":
    main()
