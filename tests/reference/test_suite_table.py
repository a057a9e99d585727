"""The suite store, the Brain-Score runner and the committed reference table (tests/data/reference/suite_table.tsv).

* Fast: the store's groups give every Brain-Score 2.4.2 identifier exactly one group; a group written alone has a
  manifest and checksums.json that are the files' own sha1s; the table has exactly the rows its record
  (suite_table.json) says were run, each row's |Δ| is the difference of its numbers, and every row where a side has
  no number says why; the runner parses its arguments and defines its file source without the reference venv; the
  Makefile's reference venv installs the CPU torch first and Brain-Score without plugin installs.
* Slow: the documented store command, then brainpipe's side of the table rerun from that store for a sample of
  families, equal to the committed rows within :data:`TOLERANCE` (it fails when a number drifts).
"""

import csv
import hashlib
import json
import math
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

import suite_store
import suite_table

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "reference" / "brainscore_runner.py"
TABLE = ROOT / "tests" / "data" / "reference" / "suite_table.tsv"
#: Families rerun by the slow test (a neural PLS and a behavioural label-task family: about a minute each).
SAMPLE = ("Rajalingham2020", "Geirhos2021colour")
#: brainpipe against its own committed numbers: the same code on the same files, so only floating-point noise.
TOLERANCE = 1e-6


def test_every_identifier_is_in_exactly_one_group():
    counts = {}
    for group in suite_store.groups():
        for identifier in suite_store.group_identifiers(group):
            counts[identifier] = counts.get(identifier, 0) + 1
    identifiers = suite_store.identifiers()
    assert len(identifiers) == 291
    assert {i: counts.get(i, 0) for i in identifiers if counts.get(i, 0) != 1} == {}
    assert [g.name for g in suite_store.groups()].count("Li2026") == 1


def test_a_group_alone_writes_files_manifest_and_checksums(tmp_path):
    manifest = suite_store.write_suite_store(tmp_path, "small", only=["Li2026"], log=lambda *_: None)
    checksums = json.loads((tmp_path / "checksums.json").read_text())
    assert checksums == manifest["files"] == json.loads((tmp_path / "manifest.json").read_text())["files"]
    assert sorted(checksums) == ["assy_Li2026_Assembly.nc", "stimulus_Li2026_Stimuli.csv",
                                 "stimulus_Li2026_Stimuli.zip"]
    for name, sha1 in checksums.items():
        assert hashlib.sha1((tmp_path / name).read_bytes()).hexdigest() == sha1
    li2026 = [i for i in suite_store.identifiers() if i.startswith("Li2026.")]
    assert manifest["groups"]["Li2026"]["identifiers"] == li2026 and len(li2026) == 12
    assert not set(li2026) & set(manifest["unwritable"])
    # every other identifier is listed as not written yet, none silently missing
    assert set(manifest["identifiers"]) == set(li2026)
    assert not list(tmp_path.glob(".writing-*"))  # the scratch folder is gone


def test_the_larger_store_differs_only_where_a_writer_has_a_larger_size(tmp_path):
    """The documented command for the larger store (docs/performance.md, "On the larger store"), for two groups:
    Kar2019's writer has a larger size (320 images), so its files differ from the small store's; Bracci2019's has one
    size, so its files are the small store's byte for byte, which is what lets the docs add up the small store's
    figures of such groups with the larger store's."""
    manifests = {}
    for scale in suite_store.SCALES:
        written = subprocess.run([sys.executable, str(ROOT / "tests" / "reference" / "suite_store.py"), "--scale",
                                  scale, "--out", str(tmp_path / scale), "--groups", "Kar2019", "Bracci2019"],
                                 capture_output=True, text=True, timeout=600)
        assert written.returncode == 0, written.stderr[-3000:]
        manifests[scale] = json.loads((tmp_path / scale / "manifest.json").read_text())
        assert manifests[scale]["scale"] == scale
    small, large = manifests["small"], manifests["large"]

    def files(manifest, group):
        return {name: manifest["files"][name] for name in manifest["groups"][group]["files"]}

    assert files(large, "Bracci2019") == files(small, "Bracci2019")
    kar_small, kar_large = files(small, "Kar2019"), files(large, "Kar2019")
    assert kar_small and set(kar_small) == set(kar_large)
    assert all(kar_small[name] != kar_large[name] for name in kar_small), (kar_small, kar_large)


def test_the_table_has_a_row_per_identifier_it_claims_and_consistent_numbers():
    table = suite_table.read_table()
    record = json.loads(suite_table.META.read_text())
    claimed = {i for group in record["groups"].values() for i in group["identifiers"]}
    assert table and set(table) == claimed
    groups = {i: g.name for g in suite_store.groups() for i in suite_store.group_identifiers(g)}
    for identifier, row in table.items():
        assert row["group"] == groups[identifier], identifier
        for key in ("score", "raw", "ceiling"):
            ours, theirs, delta = row[f"bp_{key}"], row[f"bs_{key}"], row[f"d_{key}"]
            if ours is None or theirs is None or math.isnan(ours) or math.isnan(theirs):
                assert delta is None or math.isnan(delta), (identifier, key)
            else:
                assert delta == pytest.approx(abs(ours - theirs), rel=1e-9, abs=1e-15), (identifier, key)
        for side in ("bp", "bs"):
            if row[f"{side}_score"] is None or math.isnan(row[f"{side}_score"]):
                assert row["note"], f"{identifier}: no {side} score and no note saying why"


def test_the_runner_parses_and_defines_its_file_source_without_brainscore():
    shown = subprocess.run([sys.executable, str(RUNNER), "--help"], capture_output=True, text=True)
    assert shown.returncode == 0 and "--store" in shown.stdout and "--keep-going" in shown.stdout, shown.stderr
    namespace = runpy.run_path(str(RUNNER))  # module level: no Brain-Score import
    assert {"serve_store", "score_one", "import_torchvision", "main"} <= set(namespace)
    refused = subprocess.run([sys.executable, str(RUNNER), "--store", "x", "--benchmark", "a", "b", "--out", "o"],
                             capture_output=True, text=True)
    assert refused.returncode == 2 and "--out takes one benchmark" in refused.stderr


def test_the_runner_reads_the_centre_of_a_score_with_an_aggregation_dimension():
    """Brain-Score's older Score layout (Igustibagus2024's readout benchmark): values [center, error] along
    ``aggregation``; the score is the centre (the mean of both was once read: 0.42 for a centre of 0.70)."""
    import xarray as xr

    score_numbers = runpy.run_path(str(RUNNER))["score_numbers"]
    older = xr.DataArray([0.7, 0.15], coords={"aggregation": ["center", "error"]}, dims=["aggregation"],
                         attrs={"raw": xr.DataArray([[0.6, 0.8]], dims=["split", "domain"])})
    assert score_numbers(older) == {"score": 0.7, "raw": pytest.approx(0.7), "ceiling": None, "error": 0.15}
    current = xr.DataArray(0.4, attrs={"raw": 0.5, "ceiling": 0.625, "error": 0.01})
    assert score_numbers(current) == {"score": 0.4, "raw": 0.5, "ceiling": 0.625, "error": 0.01}


def test_make_reference_venv_installs_cpu_torch_first_and_no_plugin_requirements(tmp_path):
    venv = tmp_path / "ref"
    steps = subprocess.run(["make", "-n", "reference-venv", f"REFERENCE_VENV={venv}"], cwd=ROOT, capture_output=True,
                           text=True)
    assert steps.returncode == 0, steps.stderr
    lines = steps.stdout.splitlines()
    torch = next(n for n, line in enumerate(lines) if "torch==2.13.0+cpu" in line)
    brainscore = next(n for n, line in enumerate(lines) if "requirements-reference.txt" in line)
    assert torch < brainscore and "torchvision==0.28.0" in lines[torch]
    assert lines[brainscore].startswith("BS_INSTALL_DEPENDENCIES=no ")
    pins = (ROOT / "tests" / "reference" / "requirements-reference.txt").read_text()
    assert "brainscore-vision==2.4.2" in pins and "\ntorch" not in pins  # torch only from the CPU step
    assert ".venv-reference/" in (ROOT / ".gitignore").read_text().splitlines()


@pytest.fixture(scope="module")
def small_store(tmp_path_factory):
    """The documented store command (docs/validation.md), once for this module's slow tests."""
    store = tmp_path_factory.mktemp("suite") / "store"
    written = subprocess.run([sys.executable, str(ROOT / "tests" / "reference" / "suite_store.py"), "--scale",
                              "small", "--out", str(store)], capture_output=True, text=True, timeout=1800)
    assert written.returncode == 0, written.stderr[-3000:]
    return store


@pytest.mark.slow
def test_brainpipe_side_from_the_store_reproduces_the_committed_rows(small_store, tmp_path):
    """The documented store command, then brainpipe's side of the table for SAMPLE, against the committed rows."""
    store = small_store
    manifest = json.loads((store / "manifest.json").read_text())
    assert len(manifest["identifiers"]) + len(set(manifest["unwritable"]) - set(manifest["identifiers"])) == 291
    committed = suite_table.read_table()
    sample = [i for i in committed if suite_store.family_of(i) in SAMPLE]
    assert {suite_store.family_of(i) for i in sample} == set(SAMPLE), "the committed table lacks a sampled family"
    out = tmp_path / "table.tsv"
    rerun = subprocess.run([sys.executable, str(ROOT / "tests" / "reference" / "suite_table.py"), "--store",
                            str(store), "--families", *SAMPLE, "--side", "brainpipe", "--out", str(out),
                            "--work", str(tmp_path / "work")], capture_output=True, text=True, timeout=3000)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    ours = suite_table.read_table(out)
    assert set(ours) == set(sample)
    for identifier in sample:
        for key in ("score", "raw", "ceiling"):
            now, then = ours[identifier][f"bp_{key}"], committed[identifier][f"bp_{key}"]
            if then is None:
                assert now is None, (identifier, key)
            else:
                assert now == pytest.approx(then, abs=TOLERANCE, nan_ok=True), (identifier, key, now, then)


@pytest.mark.slow
def test_bench_vs_brainscore_on_the_store_scores_as_the_committed_row(small_store, tmp_path):
    """perf/bench_vs_brainscore.py --store, brainpipe's side (Brain-Score's needs the reference venv): cold, with the
    group's stand-in weights, the same score as the reference table's brainpipe column."""
    out = tmp_path / "figures.json"
    run = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--store", str(small_store),
                          "--side", "brainpipe", "--rounds", "1", "--identifiers", "Rajalingham2018-i2n",
                          "--json", str(out)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["store"] == str(small_store.resolve()) and figures["scale"] is None
    (only,) = figures["runs"]
    then = suite_table.read_table()["Rajalingham2018-i2n"]["bp_score"]
    assert only["scores"]["Rajalingham2018-i2n"] == pytest.approx(then, abs=TOLERANCE)
    assert "group Rajalingham2018" in run.stdout


@pytest.mark.slow
def test_bench_vs_brainscore_runs_the_store_group_by_group(small_store, tmp_path):
    """perf/bench_vs_brainscore.py --groups (the suite against Brain-Score family by family, docs/performance.md),
    brainpipe's side: each group's every identifier, its committed score, the table and the sums over the groups."""
    out = tmp_path / "groups.json"
    run = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_vs_brainscore.py"), "--store", str(small_store),
                          "--side", "brainpipe", "--rounds", "1", "--groups", "Kar2019", "Hebart2023",
                          "--json", str(out)], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(out.read_text())
    committed = suite_table.read_table()
    assert [group["group"] for group in figures["groups"]] == ["Kar2019", "Hebart2023"]  # the store's group order
    for group in figures["groups"]:
        (only,) = group["runs"]
        assert set(only["scores"]) == set(group["identifiers"]) == {
            i for i in committed if committed[i]["group"] == group["group"]}
        for identifier, score in only["scores"].items():
            then = committed[identifier]["bp_score"]
            assert (score is None) if then is None else score == pytest.approx(then, abs=TOLERANCE), identifier
    totals = figures["totals"]
    assert totals["groups"] == 2 and totals["identifiers"] == 2 and list(totals["sums"]) == ["brainpipe"]
    assert totals["sums"]["brainpipe"]["wall_s"] == pytest.approx(
        sum(group["median"]["brainpipe"]["wall_s"] for group in figures["groups"]))
    assert "=== Kar2019 (1 identifiers)" in run.stdout and "2 groups, 2 identifiers: brainpipe" in run.stdout


def table_seconds(*identifiers):
    """Brain-Score's seconds for these identifiers in the committed table, summed."""
    with TABLE.open() as handle:
        return sum(float(row["bs_seconds"]) for row in csv.DictReader(handle, delimiter="\t")
                   if row["identifier"] in identifiers)


def test_bench_suite_puts_brainscores_seconds_beside_each_family(tmp_path):
    """perf/bench_suite.py --report: per family, brainpipe's job seconds of a run's figures, Brain-Score's seconds for
    the same identifiers from the committed table, their ratio; families where brainpipe took longer are marked."""
    figures = {"identifiers": ["MajajHong2015.IT-pls", "MajajHong2015.V4-pls", "Kar2019-ost", "Geirhos2021colour-top1"],
               "families": {"MajajHong2015": [30, 10.0], "Kar2019": [4, 1000.0], "(shared)": [5, 2.0]}}
    (tmp_path / "run.json").write_text(json.dumps(figures))
    run = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_suite.py"), "--report",
                          str(tmp_path / "run.json")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = {line.split()[0]: line for line in run.stdout.splitlines()[1:-1]}
    rows = {family: line.split()[1:] for family, line in lines.items()}
    theirs = table_seconds("MajajHong2015.IT-pls", "MajajHong2015.V4-pls")
    assert rows["MajajHong2015"][:3] == ["30", "10.0", f"{theirs:.1f}"] and float(rows["MajajHong2015"][3]) == \
        pytest.approx(theirs / 10.0, abs=0.01), rows
    assert lines["Kar2019"].endswith("<- brainpipe slower") and "slower" not in lines["MajajHong2015"], lines
    assert rows["(shared)"][2:] == ["-", "-"], rows  # no Brain-Score counterpart
    assert "Geirhos2021colour" not in rows  # no brainpipe jobs of its own in these figures: not printed
    assert run.stdout.splitlines()[-1].endswith("brainpipe's job seconds larger in 1 of 2 families: Kar2019"), \
        run.stdout
    missing = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_suite.py"), "--report",
                              str(tmp_path / "none.json")], capture_output=True, text=True, timeout=300)
    assert missing.returncode == 2 and f"--report {tmp_path / 'none.json'}: no such file" in missing.stderr, \
        missing.stderr


def test_bench_suite_splits_an_extraction_of_several_folders_over_their_families(tmp_path):
    """A layer-set extraction job's timing file names only the model and its rule: its seconds go to the families of
    the stimulus folders it wrote (Snakemake's record of each output, .snakemake/metadata/<base64 of the path>),
    evenly per folder; a job that names no family stays "(shared)"."""
    import base64

    sys.path.insert(0, str(ROOT / "perf"))
    import bench_suite

    metadata = tmp_path / ".snakemake" / "metadata"
    metadata.mkdir(parents=True)
    outputs = {"results/activations/m/Geirhos2021_colour/features.12.nc": "activations_layers_0a",
               "results/activations/m/Geirhos2021_colour--target8.00--source3.00/features.12.nc":
                   "activations_layers_0a",
               "results/activations/m/Geirhos2021_contrast/features.12.nc": "activations_layers_0a",
               "results/activations/m/Geirhos2021_contrast/features.7.nc": "activations_layers_0a",
               "results/activations/m/Other/features.7.nc": "activations",  # a one-layer job: named by its path
               "results/m/x.json": "score"}
    long = "results/activations/m/" + "Geirhos2021_contrast--" + "x" * 200 + "/features.7.nc"
    outputs[long] = "activations_layers_0a"
    for path, rule in outputs.items():
        name = base64.urlsafe_b64encode(path.encode()).decode()
        parts = [name[i:i + 254] for i in range(0, len(name), 254)]  # Snakemake's cut of a name past 255 characters
        record = metadata.joinpath(*["@" + part for part in parts[:-1]], parts[-1])
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps({"rule": rule}))
    assert bench_suite.layer_set_folders(tmp_path) == {"activations_layers_0a": [
        "Geirhos2021_colour", "Geirhos2021_colour--target8.00--source3.00", "Geirhos2021_contrast",
        "Geirhos2021_contrast--" + "x" * 200]}
    timing = tmp_path / "logs" / "timing"
    for relative, seconds in {"activations/m/activations_layers_0a.tsv": 9.0, "fetch_stimuli/Unknown.tsv": 1.5,
                              "score/m/Geirhos2021colour-top1.tsv": 0.5}.items():
        (timing / relative).parent.mkdir(parents=True, exist_ok=True)
        (timing / relative).write_text(f"s\th:m:s\n{seconds}\t0:00:01\n")
    families = bench_suite.family_seconds(tmp_path, ["Geirhos2021colour-top1", "Geirhos2021contrast-top1"])
    assert families == {"Geirhos2021colour": [2, 5.0], "Geirhos2021contrast": [1, 4.5], "(shared)": [1, 1.5]}


#: The whole-suite grid's sample (perf/bench_suite.py): a neural PLS benchmark, a label task (no logits: pixels'
#: cell is empty), the OST benchmark (static models' cells are empty, the temporal model's is scored) and a V1
#: properties benchmark (recurrent_demo commits no V1 layer: its cell is empty).
GRID_SAMPLE = ("MajajHong2015public.IT-pls", "Geirhos2021colour-top1", "Kar2019-ost",
               "Marques2020_Ringach2002-or_bandwidth")


@pytest.mark.slow
def test_the_suite_grid_plans_every_benchmark_and_runs_a_sample_to_a_score_or_a_reason(small_store, tmp_path):
    """perf/bench_suite.py as documented (docs/performance.md): the whole selector plans for the three models of the
    issue's grid, and a sample runs to the end with every cell scored or empty with its reason."""
    script = str(ROOT / "perf" / "bench_suite.py")
    planned = subprocess.run([sys.executable, script, "--store", str(small_store), "--work", str(tmp_path / "plan"),
                              "--benchmarks", "suite:brainscore", "!family:Zerbe2026_fmri_persubject", "--dry-run"],
                             capture_output=True, text=True, timeout=900)
    assert planned.returncode == 0, planned.stdout[-3000:] + planned.stderr[-3000:]
    jobs = dict((name, int(count)) for name, count in
                (line.split() for line in planned.stdout.splitlines() if len(line.split()) == 2
                 and line.split()[1].isdigit()))
    assert jobs["total"] > 3000 and jobs["empty_cell"] > 100, jobs  # 3 models × 283 benchmarks
    figures = tmp_path / "figures.json"
    ran = subprocess.run([sys.executable, script, "--store", str(small_store), "--work", str(tmp_path / "run"),
                          "--benchmarks", *GRID_SAMPLE, "--json", str(figures)], capture_output=True, text=True,
                         timeout=1500)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    result = json.loads(figures.read_text())
    assert (result["cells"], result["missing"], result["snakemake_exit"]) == (12, 0, 0)
    assert result["scored"] + result["empty"] == 12 and result["empty"] >= 4
    cell = lambda model, identifier: json.loads((tmp_path / "run" / "results" / model / f"{identifier}.json")
                                                .read_text())
    assert cell("pixels", "Geirhos2021colour-top1")["score"] is None
    assert "logits" in cell("pixels", "Geirhos2021colour-top1")["reason"]
    assert cell("recurrent_demo", "Kar2019-ost")["score"] is not None
    assert cell("alexnet_untrained", "Kar2019-ost")["score"] is None
    assert cell("recurrent_demo", "Marques2020_Ringach2002-or_bandwidth")["score"] is None
    for identifier in ("MajajHong2015public.IT-pls", "Marques2020_Ringach2002-or_bandwidth"):
        assert 0 < cell("alexnet_untrained", identifier)["score"] <= 1
    assert result["disk_mb"] > 0 and result["peak_process_tree_mb"] >= result["peak_largest_process_mb"] > 0
    assert 0 < result["peak_process_tree_pss_mb"] <= result["peak_process_tree_mb"]
    assert "MajajHong2015public" in result["families"]
    # the per-family table beside Brain-Score's seconds for the same identifiers in the committed reference table
    header = next(line for line in ran.stdout.splitlines() if line.startswith("family "))
    assert header.split() == ["family", "jobs", "job", "s", "Brain-Score", "s", "BS", "/", "bp"], header
    majaj = next(line for line in ran.stdout.splitlines() if line.startswith("MajajHong2015public ")).split()
    assert float(majaj[3]) == pytest.approx(table_seconds("MajajHong2015public.IT-pls"), abs=0.05), majaj
    assert float(majaj[4]) == pytest.approx(float(majaj[3]) / float(majaj[2]), abs=0.01), majaj
    again = subprocess.run([sys.executable, script, "--report", str(figures)], capture_output=True, text=True,
                           timeout=300)  # the table of a run's figures again, running nothing
    assert again.returncode == 0 and again.stdout.splitlines()[0] == header, again.stdout + again.stderr
    # perf/bench_finished_planning.py as documented (docs/performance.md), on this finished run: two copies of
    # alexnet_untrained's folders, the whole run that records the three models finished, then the timed starts
    bench = subprocess.run([sys.executable, str(ROOT / "perf" / "bench_finished_planning.py"), "--work",
                            str(tmp_path / "run"), "--models", "3"], capture_output=True, text=True, timeout=900)
    assert bench.returncode == 0, bench.stdout[-3000:] + bench.stderr[-3000:]
    rows = {line[:52].strip(): line[52:].split() for line in bench.stdout.splitlines() if line.startswith("snakemake")}
    assert rows["snakemake -n (finished models skipped)"][:2] == ["3", "0"], bench.stdout  # 3 finished, nothing to do
    skipped_off = rows["snakemake -n, skip_finished_models=False"]
    assert skipped_off[0] == "0" and int(skipped_off[1]) == 0, bench.stdout  # every job planned: none needs to run
    one_more = rows["snakemake -n, one more model without results"]
    assert one_more[0] == "3" and int(one_more[1]) > 10, bench.stdout  # only the new model's jobs (and the tables)


def test_identifier_patterns_select_within_the_groups():
    """suite_table.py --identifiers: only the identifiers a pattern matches, in their groups (the headline
    MajajHong2015 IT rows without the group's V4 ones); with --families too, both must match."""
    manifest = {"groups": {g.name: {"identifiers": suite_store.group_identifiers(g)} for g in suite_store.groups()},
                "unwritable": {}}
    chosen = suite_table.selected(manifest, None, None, ["MajajHong2015*.IT-pls"])
    assert [(group.name, ids) for group, ids in chosen] == [
        ("MajajHong2015", ["MajajHong2015.IT-pls", "MajajHong2015public.IT-pls"])]
    assert suite_table.selected(manifest, ["Rajalingham2020"], None, ["MajajHong2015*"]) == []
    assert len(suite_table.selected(manifest, None, 1, None)) == len(suite_store.groups())
