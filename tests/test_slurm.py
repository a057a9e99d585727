"""The slurm profile against a real single-node SLURM cluster (slurmctld + slurmd + slurmdbd on 127.0.0.1).

Needs root on Debian (apt installs munge/slurm/mariadb on first use); deselected by default:

    sudo .venv/bin/pytest -m slurm tests/test_slurm.py -s      # -s shows the job ids and wall times

The cluster comes from .ci/slurm/setup.sh and is stopped by .ci/slurm/teardown.sh (pid files only) after the
module, also when a test fails. The tiny grid (tests/configs/tiny.yaml) runs in a temporary directory with

    snakemake -s <repo>/Snakefile --directory <tmp> --configfile config/config.yaml tests/configs/tiny.yaml \
        --profile profiles/slurm --workflow-profile tests/slurm/ci

tiny.yaml is merged over config/config.yaml; both are named because the Snakefile's `configfile:` is relative
to the working directory and so not found in <tmp>. In snakemake 9 --workflow-profile overrides --profile per
top-level key, so the CI file is the override (the reverse order would not override anything). The SLURM run's
scores must equal a local `snakemake --cores 2` run bit for bit. The profile's job groups (features, scores,
benchmarks) travel as one sbatch each: the run submits exactly as many SLURM jobs as its dry run shows group jobs
and single jobs (perf/count_submissions.py parses it), each group as a SLURM job of its own. A dry run of N models
× every Brain-Score benchmark through the profile prints how many submissions that grid would make (first test;
it needs no SLURM). A second run asks for device=cuda on the
CPU-only node: the activations jobs must fail in SLURM and snakemake must report them with their logs.
The last test runs teardown.sh itself and checks that the machine is as setup found it (packages, /etc/slurm,
munge key) and that a local no-op `snakemake -n` starts as fast as before setup: a slurm.conf left pointing
at the stopped controller made the SLURM executor plugin's `scontrol show config` wait 10 s at every start.

Environment knobs: BRAINPIPE_SLURM_TIMEOUT (seconds per snakemake run, default 1800),
BRAINPIPE_SLURM_CONFIG (another config file for the grid), BRAINPIPE_SLURM_KEEP=1 (leave the daemons running),
BRAINPIPE_SLURM_SUITE_MODELS (models in the suite's dry run, default 1, about 30 s; 10 take minutes, 50 about
10 minutes and 1.5 GB on 2 cores: docs/tutorials/cluster.md has their figures).
"""

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slurm

REPO = Path(__file__).resolve().parents[1]
SETUP = REPO / ".ci" / "slurm" / "setup.sh"
TEARDOWN = REPO / ".ci" / "slurm" / "teardown.sh"
SNAKEFILE = REPO / "Snakefile"
DEFAULT_CONFIG = REPO / "config" / "config.yaml"
# alexnet_untrained's IT layer on the demo stimuli at its 8 degrees (config/config.yaml's model_zoo entry).
TORCH_LAYER_FILE = "results/activations/alexnet_untrained/SyntheticShapes--target8.00--source10.00/features.12.nc"
TINY = Path(os.environ.get("BRAINPIPE_SLURM_CONFIG", REPO / "tests" / "configs" / "tiny.yaml"))
SLURM_PROFILE = REPO / "profiles" / "slurm"
CI_PROFILE = REPO / "tests" / "slurm" / "ci"
RUN_TIMEOUT = int(os.environ.get("BRAINPIPE_SLURM_TIMEOUT", "1800"))
SCORE_KEYS = ("score", "raw", "ceiling")
SUBMITTED = re.compile(r"submitted with SLURM jobid (\d+) \(log: ([^)]+)\)")
SUITE_MODELS = int(os.environ.get("BRAINPIPE_SLURM_SUITE_MODELS", "1"))
GROUPS = ("features", "scores", "benchmarks")  # profiles/slurm's job groups


def count_submissions_script():
    """perf/count_submissions.py, the dry-run parser the docs' figures come from (a script, not a package)."""
    spec = importlib.util.spec_from_file_location("count_submissions", REPO / "perf" / "count_submissions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _why_not_here():
    """Reason this machine cannot host the test cluster, or None."""
    if os.name != "posix" or os.geteuid() != 0:
        return "needs root: .ci/slurm/setup.sh installs packages and starts munge/slurm/mariadb daemons"
    if not Path("/etc/debian_version").exists():
        return "needs Debian (the recipe uses Debian 12's slurm 22.05 packages); /etc/debian_version not found"
    if shutil.which("apt-get") is None:
        return "needs apt-get to install munge, slurmctld, slurmd, slurmdbd, mariadb-server"
    if shutil.which("timeout") is None:
        return "needs coreutils timeout"
    return None


def _env():
    env = dict(os.environ)
    env.pop("SNAKEMAKE_PROFILE", None)  # only the profiles named on the command line
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # jobs find this venv
    return env


def _snakemake():
    exe = Path(sys.executable).parent / "snakemake"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "snakemake"]


def _tail(text, lines=60):
    return "\n".join(text.splitlines()[-lines:])


def run_snakemake(workdir, *args, timeout=RUN_TIMEOUT):
    """Run the brainpipe workflow in workdir under `timeout -k 30`; returns (returncode, output, seconds)."""
    command = ["timeout", "-k", "30", str(timeout), *_snakemake(), "-s", str(SNAKEFILE), "--directory", str(workdir),
               "--configfile", str(DEFAULT_CONFIG), str(TINY), *map(str, args)]
    print(f"\n$ {' '.join(command)}", flush=True)
    start = time.monotonic()
    proc = subprocess.run(command, cwd=workdir, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    seconds = time.monotonic() - start
    (Path(workdir) / "snakemake-run.log").write_text(proc.stdout)
    if proc.returncode in (124, 137):
        pytest.fail(f"snakemake did not finish within {timeout}s (a stuck status poll hangs forever; check "
                    f"the daemons' logs in /tmp/slurmci/log). Last output:\n{_tail(proc.stdout)}")
    print(f"  rc={proc.returncode} wall={seconds:.1f}s (output: {workdir}/snakemake-run.log)", flush=True)
    return proc.returncode, proc.stdout, seconds


def slurm_profile_args():
    return ["--profile", SLURM_PROFILE, "--workflow-profile", CI_PROFILE]


def sacct_states(job_ids, attempts=10):
    """{job id: (state, exit code)} from `sacct -X` (the accounting DB), retried until every id is listed."""
    ids = ",".join(sorted(job_ids, key=int))
    states = {}
    for _ in range(attempts):
        proc = subprocess.run(["sacct", "-X", "-n", "-P", "-j", ids, "--format=JobIdRaw,State,ExitCode"],
                              capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0, f"sacct failed: {proc.stderr}"
        states = {}
        for line in proc.stdout.splitlines():
            job, state, exit_code = line.split("|")
            states[job] = (state.split()[0], exit_code)
        if set(job_ids) <= set(states):
            break
        time.sleep(1)
    return states


def submitted_jobs(output, workdir):
    """SLURM job ids snakemake reported, each with its log under <workdir>/.snakemake/slurm_logs."""
    jobs = {}
    for job_id, log in SUBMITTED.findall(output):
        jobs[job_id] = Path(log)
    logdir = Path(workdir) / ".snakemake" / "slurm_logs"
    for job_id, log in jobs.items():
        assert log.is_relative_to(logdir), f"job {job_id} logs to {log}, not under {logdir}"
    return jobs


def grid_scores(workdir):
    config = yaml.safe_load(TINY.read_text())
    scores = {}
    for model in config["models"]:
        for benchmark in config["benchmarks"]:
            path = Path(workdir) / "results" / model / f"{benchmark}.json"
            assert path.exists(), f"missing score {path}"
            scores[f"{model}/{benchmark}"] = json.loads(path.read_text())
    return scores


def machine_state():
    """What setup.sh may change and teardown.sh must put back: installed packages, /etc/slurm, the munge key."""
    packages = subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Abbrev} ${Package}\n"], capture_output=True,
                              text=True, check=True).stdout
    installed = {line.split()[1] for line in packages.splitlines() if line[1:2] == "i"}
    etc = Path("/etc/slurm")
    files = {str(f): f.read_bytes() for f in sorted(etc.rglob("*")) if f.is_file()} if etc.exists() else None
    return {"packages": installed, "/etc/slurm": files, "munge key": Path("/etc/munge/munge.key").exists()}


def noop_start_seconds(workdir, repeats=2):
    """Fastest of `repeats` local dry runs: snakemake's start-up time, which loads the SLURM executor plugin."""
    times = []
    for _ in range(repeats):
        start = time.monotonic()
        rc, output, _ = run_snakemake(workdir, "-n", "--cores", "1", "--workflow-profile", "none", timeout=300)
        assert rc == 0, _tail(output)
        times.append(time.monotonic() - start)
    return min(times)


@pytest.fixture(scope="module")
def slurm_cluster(tmp_path_factory):
    reason = _why_not_here()
    if reason:
        print(f"\nSKIPPED test_slurm: {reason}")
        pytest.skip(reason)
    for needed in (SNAKEFILE, TINY, SLURM_PROFILE / "config.yaml", CI_PROFILE / "config.yaml"):
        assert needed.exists(), f"{needed} is missing"
    noop = tmp_path_factory.mktemp("noop")
    before = {"state": machine_state(), "noop_seconds": noop_start_seconds(noop), "noop_dir": noop}
    print(f"\nbefore setup: local no-op snakemake -n {before['noop_seconds']:.1f}s", flush=True)
    start = time.monotonic()
    proc = subprocess.run(["timeout", "-k", "10", "300", "bash", str(SETUP)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    try:
        if proc.returncode != 0:
            pytest.fail(f".ci/slurm/setup.sh failed (rc {proc.returncode}):\n{_tail(proc.stdout)}")
        print(f"\nSLURM up in {time.monotonic() - start:.1f}s:\n{_tail(proc.stdout, 8)}", flush=True)
        yield before
    finally:
        if os.environ.get("BRAINPIPE_SLURM_KEEP") == "1":
            print("BRAINPIPE_SLURM_KEEP=1: daemons left running; stop them with .ci/slurm/teardown.sh")
        else:
            down = subprocess.run(["timeout", "-k", "5", "120", "bash", str(TEARDOWN)], stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
            print(f"\nteardown (rc {down.returncode}):\n{down.stdout}", flush=True)


def test_suite_grid_through_the_profile_makes_hundreds_of_submissions():
    """N models × suite:brainscore, planned through profiles/slurm: the job groups send the grid to the cluster as
    a few hundred submissions, not one per job, and no group job asks for more CPUs or GPUs than the profile's
    caps."""
    counter = count_submissions_script()
    settings = yaml.safe_load((SLURM_PROFILE / "config.yaml").read_text())
    output, timing = counter.dry_run(SUITE_MODELS, ["suite:brainscore", "!ImageNet-top1"], "profiles/slurm")
    counts = counter.parse_dry_run(output, set(counter.localrules()))
    print(f"\n{SUITE_MODELS} models × suite:brainscore through profiles/slurm:")
    print(counter.HEADER)
    counter.report(str(SUITE_MODELS), counts, timing)
    one_per_job = counts["grouped_jobs"] + counts["single_jobs"]
    assert set(counts["groups_by_id"]) == set(GROUPS), counts["groups_by_id"]
    # the multi-layer extractions (activations_layers_<hash>) are in the features group too, not one sbatch each
    assert not [rule for rule in counts["singles_by_rule"] if rule.startswith("activations")], counts["singles_by_rule"]
    assert counts["submissions"] * 10 <= one_per_job, (
        f"{counts['submissions']} submissions for {one_per_job} cluster jobs: the groups should cut them tenfold")
    for group, (threads, _mem_mb, _runtime, gpu) in counts["largest_request"].items():
        assert threads <= settings["cores"] and gpu <= settings["resources"]["gpu"], (group, threads, gpu)


def test_tiny_grid_through_slurm_matches_local_run(slurm_cluster, tmp_path_factory):
    on_slurm = tmp_path_factory.mktemp("grid-slurm")
    # what the run will submit, from its dry run through the same profiles
    rc, dry_output, _ = run_snakemake(on_slurm, *slurm_profile_args(), "-n", "--quiet", "reason")
    assert rc == 0, _tail(dry_output, 120)
    counter = count_submissions_script()
    planned = counter.parse_dry_run(dry_output, set(counter.localrules()))
    print(counter.HEADER.split(" wall")[0])
    counter.report("tiny", planned)
    assert set(planned["groups_by_id"]) == set(GROUPS), planned["groups_by_id"]
    assert planned["submissions"] < planned["grouped_jobs"] + planned["single_jobs"], planned
    assert not [rule for rule in planned["singles_by_rule"] if rule.startswith("activations")], planned

    rc, output, slurm_seconds = run_snakemake(on_slurm, *slurm_profile_args())
    assert rc == 0, f"snakemake via SLURM failed (rc {rc}):\n{_tail(output, 120)}"

    # Jobs really went through SLURM: ids in snakemake's output, logs in .snakemake/slurm_logs, and sacct.
    jobs = submitted_jobs(output, on_slurm)
    assert jobs, f"no job was submitted to SLURM:\n{_tail(output)}"
    missing_logs = [job for job, log in jobs.items() if not log.is_file()]
    assert not missing_logs, f"no slurm log for jobs {missing_logs} (slurm-keep-successful-logs should keep them)"
    on_disk = {log.stem for log in (on_slurm / ".snakemake" / "slurm_logs").rglob("*.log")}
    assert set(jobs) == on_disk, f"logs {sorted(on_disk)} vs submitted {sorted(jobs)}"
    states = sacct_states(jobs)
    assert set(jobs) <= set(states), f"sacct -X does not list jobs {sorted(set(jobs) - set(states))}"
    not_completed = {job: states[job] for job in jobs if states[job][0] != "COMPLETED"}
    assert not not_completed, f"jobs not COMPLETED in sacct: {not_completed}"
    logdir = on_slurm / ".snakemake" / "slurm_logs"
    kinds = sorted({log.relative_to(logdir).parts[0] for log in jobs.values()})
    # each group job was one SLURM job (its log folder: group_<group>_<its rules>), and the run submitted what its
    # dry run planned
    for group in GROUPS:
        assert any(kind.startswith(f"group_{group}_") for kind in kinds), f"no {group} group job in SLURM; saw {kinds}"
    group_logs = [log for log in jobs.values() if log.relative_to(logdir).parts[0].startswith("group_")]
    assert len(group_logs) == planned["group_jobs"], (len(group_logs), planned)
    assert len(jobs) == planned["submissions"], f"{len(jobs)} SLURM jobs, the dry run planned {planned['submissions']}"

    on_host = tmp_path_factory.mktemp("grid-local")
    rc, local_output, local_seconds = run_snakemake(on_host, "--cores", "2", "--workflow-profile", "none")
    assert rc == 0, f"local snakemake failed (rc {rc}):\n{_tail(local_output, 120)}"

    slurm_scores, local_scores = grid_scores(on_slurm), grid_scores(on_host)
    assert slurm_scores.keys() == local_scores.keys()
    differences = {name: {key: (slurm_scores[name].get(key), local_scores[name].get(key)) for key in SCORE_KEYS
                          if slurm_scores[name].get(key) != local_scores[name].get(key)}
                   for name in slurm_scores}
    differences = {name: diff for name, diff in differences.items() if diff}
    for name, score in slurm_scores.items():
        assert all(key in score for key in SCORE_KEYS), f"{name}: score JSON lacks one of {SCORE_KEYS}: {score}"
    assert not differences, f"SLURM vs local scores differ (slurm, local): {differences}"

    print(f"\nSLURM run: {len(jobs)} SLURM jobs for {planned['grouped_jobs'] + planned['single_jobs']} jobs, ids "
          f"{sorted(jobs, key=int)}; kinds {kinds}; wall {slurm_seconds:.1f}s")
    print(f"local run (--cores 2): wall {local_seconds:.1f}s")
    for name, score in sorted(slurm_scores.items()):
        print(f"  {name}: " + ", ".join(f"{key}={score[key]!r}" for key in SCORE_KEYS))


def test_failing_job_is_reported_with_its_log(slurm_cluster, tmp_path_factory):
    """device=cuda on the CPU-only CI node: activations fails inside its SLURM job (torch has no CUDA)."""
    workdir = tmp_path_factory.mktemp("grid-failing")
    # A torch model's layer file as the target (the pixels model needs no torch, so it would not fail). Since
    # activations are per layer, that file is written by one of the rules `activations` / `activations_layers_<hash>`
    # (a set of missing layers of one model x stimulus folder is extracted in one job), so name the file, not a rule.
    rc, output, seconds = run_snakemake(workdir, *slurm_profile_args(), "--config", "device=cuda",
                                        "--", TORCH_LAYER_FILE)  # '--': --config would take the target as a value
    assert rc != 0, f"the run with device=cuda succeeded; it must fail in activations:\n{_tail(output)}"
    jobs = submitted_jobs(output, workdir)
    failed = dict(re.findall(r"SLURM-job '(\d+)' failed, SLURM status is: '([A-Z_]+)'", output))
    # a group job (the extraction is in `features` under profiles/slurm) is reported as "Error in group <name>" with
    # its SLURM log, not with the line above: its id is the submitted job whose log that is
    failed_logs = re.findall(r"message: Error in group \w+\n\s+log: (\S+)", output)
    failed |= {job: "FAILED" for job, log in jobs.items() if str(log) in failed_logs}
    assert failed, f"snakemake reported no failed SLURM job:\n{_tail(output, 120)}"
    assert set(failed) <= set(jobs), f"failed ids {sorted(failed)} not among submitted {sorted(jobs)}"
    assert "Error in rule activations" in output, _tail(output, 120)
    states = sacct_states(failed)
    assert all(states[job][0] == "FAILED" for job in failed), f"sacct states of failed jobs: {states}"
    for job in failed:
        log = jobs[job]
        assert log.is_file(), f"slurm log {log} of failed job {job} was deleted"
        assert f"Logfile {log}:" in output, f"slurm log of job {job} not shown in snakemake's output"
        # one layer's extraction, of rule activations or activations_layers_<hash>: in a features group job under
        # profiles/slurm (rule_activations... would be a run without the profile's groups)
        assert any(part.startswith(("rule_activations", "group_features")) for part in log.parts), \
            f"failed job {job} is not an activations job ({log})"
    assert "CUDA" in output, f"the CUDA error is not shown in snakemake's output:\n{_tail(output, 120)}"
    print(f"\nfailing run: submitted {sorted(jobs, key=int)}, failed {failed}, "
          f"sacct {states}; wall {seconds:.1f}s")


def test_teardown_restores_the_machine_and_local_starts_stay_fast(slurm_cluster):
    """Runs last: teardown.sh (the fixture's own teardown afterwards finds nothing left to do)."""
    if os.environ.get("BRAINPIPE_SLURM_KEEP") == "1":
        pytest.skip("BRAINPIPE_SLURM_KEEP=1: the cluster stays up")
    down = subprocess.run(["timeout", "-k", "5", "300", "bash", str(TEARDOWN)], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    print(f"\nteardown (rc {down.returncode}):\n{_tail(down.stdout, 15)}", flush=True)
    assert down.returncode == 0, _tail(down.stdout)
    before, after = slurm_cluster["state"], machine_state()
    assert after["packages"] == before["packages"], (
        f"teardown left packages {sorted(after['packages'] - before['packages'])} and removed "
        f"{sorted(before['packages'] - after['packages'])}")
    assert after["/etc/slurm"] == before["/etc/slurm"], "teardown did not restore /etc/slurm"
    assert after["munge key"] == before["munge key"]
    seconds = noop_start_seconds(slurm_cluster["noop_dir"])
    print(f"after teardown: local no-op snakemake -n {seconds:.1f}s (before setup {slurm_cluster['noop_seconds']:.1f}s)")
    # a stale slurm.conf costs the plugin's full 10 s scontrol timeout; 7 s of slack covers machine load (measured:
    # 14.4 s before, 19.3 s after on a 2-core machine at load 11)
    assert seconds < slurm_cluster["noop_seconds"] + 7, (
        f"a local no-op snakemake -n takes {seconds:.1f}s after the SLURM test, {slurm_cluster['noop_seconds']:.1f}s "
        "before it: SLURM client state left behind slows every start")
