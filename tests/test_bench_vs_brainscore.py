"""perf/bench_vs_brainscore.py: brainpipe against Brain-Score's own code, interleaved. The figures' arithmetic and the
argument checks here; brainpipe's side for real (slow). Brain-Score's side needs the reference venv
(make reference-venv), which this suite does not build: its command is listed in tests/test_readme_commands.py."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "perf"))

import bench_vs_brainscore as bench  # noqa: E402


def run(side, round_, wall, cpu, largest, tree):
    return {"side": side, "round": round_, "wall_s": wall, "cpu_s": cpu, "largest_mb": largest, "tree_mb": tree,
            "tree_pss_mb": tree / 2}


def test_rounds_alternate_which_side_goes_first():
    assert [bench.round_order(i, bench.SIDES) for i in range(3)] == [
        ["brainpipe", "brainscore"], ["brainscore", "brainpipe"], ["brainpipe", "brainscore"]]
    assert bench.round_order(1, ("brainpipe",)) == ["brainpipe"]


def test_summary_is_the_median_per_side_and_the_ratios_between_them():
    runs = [run("brainpipe", 1, 50.0, 80.0, 900.0, 1800.0), run("brainscore", 1, 200.0, 210.0, 2000.0, 2100.0),
            run("brainscore", 2, 220.0, 230.0, 2100.0, 2200.0), run("brainpipe", 2, 54.0, 84.0, 1000.0, 2000.0),
            run("brainpipe", 3, 70.0, 90.0, 950.0, 1900.0)]
    result = bench.summary(runs)
    assert result["median"]["brainpipe"] == {"wall_s": 54.0, "cpu_s": 84.0, "largest_mb": 950.0, "tree_mb": 1900.0,
                                             "tree_pss_mb": 950.0}
    assert result["median"]["brainscore"]["wall_s"] == 210.0  # the mean of an even count's middle two
    assert result["wall_ratio"] == pytest.approx(210.0 / 54.0)
    assert result["cpu_ratio"] == pytest.approx(220.0 / 84.0)
    assert result["largest_over_brainscore"] == pytest.approx(950.0 / 2050.0)
    assert result["tree_over_brainscore"] == pytest.approx(1900.0 / 2150.0)
    assert result["tree_pss_over_brainscore"] == pytest.approx(950.0 / 1075.0)
    one_side = bench.summary([run("brainpipe", 1, 50.0, 80.0, 900.0, 1800.0)])
    assert "wall_ratio" not in one_side and list(one_side["median"]) == ["brainpipe"]


def test_measured_reports_a_process_trees_cpu_and_memory(tmp_path):
    """A child that holds ~200 MB and starts a grandchild that holds ~100 MB: the largest process is the child's,
    the tree's peak counts both, and the CPU time includes the grandchild's busy loop."""
    code = ("import subprocess, sys, time\n"
            "held = bytearray(200 * 2**20)\n"
            "grandchild = subprocess.Popen([sys.executable, '-c', "
            "'import time\\nb = bytearray(100 * 2**20)\\nend = time.time() + 1.5\\nwhile time.time() < end: pass'])\n"
            "grandchild.wait()\n")
    figures = bench.measured([sys.executable, "-c", code], tmp_path, None, tmp_path / "log.txt")
    assert figures["exit"] == 0 and figures["wall_s"] >= 1.5
    assert figures["cpu_s"] >= 1.0  # the grandchild's loop
    assert 200 <= figures["largest_mb"] < 290
    assert figures["tree_mb"] >= 290  # both held at once
    assert 290 <= figures["tree_pss_mb"] <= figures["tree_mb"] + 1  # nothing shared but libraries: close to it


def test_arguments_are_checked_before_anything_runs(tmp_path):
    missing = tmp_path / "no-venv" / "python"
    result = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--brainscore-python",
                             str(missing)], capture_output=True, text=True)
    assert result.returncode == 2 and f"--brainscore-python {missing}: no such interpreter" in result.stderr
    assert "make reference-venv" in result.stderr and "--side brainpipe" in result.stderr
    result = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--side", "brainpipe",
                             "--identifiers", "MajajHong2015.IT-pls"], capture_output=True, text=True)
    assert result.returncode == 2 and "bench_headline.py's files serve MajajHong2015public.IT-pls" in result.stderr
    assert "--store STORE" in result.stderr  # where other benchmarks' files are
    result = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--store", str(tmp_path),
                             "--side", "brainpipe", "--identifiers", "Geirhos2021colour-top1"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and f"--store {tmp_path}: no manifest.json" in result.stderr


def test_groups_mode_checks_its_arguments(tmp_path):
    script = [sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--side", "brainpipe"]
    result = subprocess.run([*script, "--groups", "all"], capture_output=True, text=True)
    assert result.returncode == 2 and "--groups needs --store STORE" in result.stderr
    (tmp_path / "manifest.json").write_text(json.dumps({"groups": {"Kar2019": {"identifiers": ["Kar2019-ost"]}},
                                                        "unwritable": {}}))
    result = subprocess.run([*script, "--store", str(tmp_path), "--groups", "Kar*", "--identifiers", "Kar2019-ost"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and "give --groups or --identifiers, not both" in result.stderr
    result = subprocess.run([*script, "--store", str(tmp_path), "--groups", "Majaj*"], capture_output=True, text=True)
    assert result.returncode == 2 and "--groups Majaj*: no group of" in result.stderr and "Kar2019" in result.stderr


def test_group_totals_sum_the_medians_and_name_the_groups_where_brainpipe_took_longer(capsys):
    fast = {"group": "A", "identifiers": ["a1", "a2"],
            **bench.summary([run("brainpipe", 1, 10.0, 12.0, 500.0, 900.0),
                             run("brainscore", 1, 30.0, 33.0, 1000.0, 1000.0)])}
    slow = {"group": "B", "identifiers": ["b1"],
            **bench.summary([run("brainpipe", 1, 8.0, 9.0, 500.0, 900.0),
                             run("brainscore", 1, 6.0, 7.0, 1000.0, 1000.0)])}
    totals = bench.group_totals([fast, slow])
    assert totals["groups"] == 2 and totals["identifiers"] == 3
    assert totals["sums"] == {"brainpipe": {"wall_s": 18.0, "cpu_s": 21.0}, "brainscore": {"wall_s": 36.0, "cpu_s": 40.0}}
    assert totals["wall_ratio"] == pytest.approx(2.0) and totals["cpu_ratio"] == pytest.approx(40 / 21)
    assert totals["slower"] == ["B"]
    bench.print_group_table([fast, slow], {"ImageNet": "its images are the user's"})
    printed = capsys.readouterr().out
    assert printed.index("\nB ") < printed.index("\nA ")  # the group where brainpipe gains least first
    assert "groups where brainpipe took longer: B" in printed and "left out: ImageNet" in printed


def test_a_suite_store_run_takes_one_groups_identifiers():
    assert bench.store_group(["Geirhos2021colour-top1", "Geirhos2021edge-top1"]).name.startswith("Geirhos2021")
    with pytest.raises(ValueError, match="give one group's identifiers per run"):
        bench.store_group(["Geirhos2021colour-top1", "MajajHong2015public.IT-pls"])


@pytest.mark.slow
def test_brainpipe_side_runs_cold_each_round_and_scores_the_same(tmp_path):
    out = tmp_path / "figures.json"
    result = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--side", "brainpipe",
                             "--scale", "0.05", "--rounds", "2", "--data", str(tmp_path / "data"), "--json", str(out)],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    figures = json.loads(out.read_text())
    runs = figures["runs"]
    assert [(r["side"], r["round"]) for r in runs] == [("brainpipe", 1), ("brainpipe", 2)]
    scores = [r["scores"][bench.HEADLINE] for r in runs]
    assert scores[0] is not None and 0 < scores[0] < 1 and scores[0] == scores[1]  # cold twice, the same number
    for r in runs:
        assert r["exit"] == 0 and r["wall_s"] > 0 and r["cpu_s"] > 0 and 0 < r["largest_mb"] <= r["tree_mb"]
        assert 0 < r["tree_pss_mb"] <= r["tree_mb"]
    assert "median over rounds:" in result.stdout and "brainpipe" in result.stdout
