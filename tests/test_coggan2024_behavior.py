"""tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity: the declaration as Brain-Score 2.4.2's, the metric and
ceiling against a plain-numpy computation, and end to end (slow): the fixture files (tests/behaviour_fixtures_coggan,
in the real layouts) served on 127.0.0.1, downloaded and scored by ``snakemake``; raw, ceiling and ceiled score equal
Brain-Score 2.4.2's own benchmark on the same files and seeded weights (tests/data/coggan2024_behavior/
brainscore.json, written by tests/reference/make_coggan2024_behavior_reference.py) to 1e-6 (both fit
the same logistic readout; equal to the last digit on the fixture).
"""

import json
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from brainpipe import benchmarks
from brainpipe.behaviour import metrics
from brainpipe.behaviour.condition_accuracy import condition_wise_accuracy_ceiling, condition_wise_accuracy_similarity

REFERENCE = Path(__file__).parent / "data" / "coggan2024_behavior" / "brainscore.json"
ID = "tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"


def test_declaration():
    b = benchmarks.parse(ID)
    assert ID in benchmarks.builtin().identifiers()
    assert (b.parent, b.version, b.visual_degrees, b.behaviour.clip, b.behaviour.task) == (
        "behavior", 1, 10.0, False, "probabilities")
    assert (b.family.readout.stimulus_set, b.family.stimulus_set) == (
        "tong.Coggan2024_behavior_fitting", "tong.Coggan2024_behavior")
    catalog = benchmarks.default_catalog()
    assert (catalog.assembly(b.family.dataset).file.name, catalog.assembly(b.family.dataset).file.sha1) == (
        "assy_tong_Coggan2024_behavior.nc", "c1ac4a268476c35bbe40081358667a03d3544631")
    assert catalog.stimulus_set("tong.Coggan2024_behavior_fitting").csv.sha1 == \
        "136e48992305ea78a4fb77e9dfc75dcf01e885d0"
    assert metrics.normalise(0.5, 0.8, "raw_over_ceiling_squared", False).score == pytest.approx((0.5 / 0.8) ** 2)


def _human(rng, subjects=4, per=30):
    n = subjects * per
    occluder = rng.choice(["a", "b", "c"], n)
    colour = rng.choice(["k", "w"], n)
    visibility = rng.choice([0.2, 0.6, 1.0], n)
    cls = rng.choice(["x", "y"], n)
    correct = rng.random(n) < 0.6
    return xr.DataArray(np.where(correct, cls, "z").astype(object), dims=("presentation",), coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(n)]),
        "subject": ("presentation", np.repeat([f"sub-{s:02}" for s in range(subjects)], per)),
        "object_class": ("presentation", cls), "occluder_type": ("presentation", occluder),
        "occluder_color": ("presentation", colour), "visibility": ("presentation", visibility),
        "human_accuracy": ("presentation", correct.astype(int))})


def _cells(h, values):
    """{subject: {(occluder, colour): mean of values over its trials with visibility < 1}}."""
    out = {}
    for i in range(h.sizes["presentation"]):
        if h["visibility"].values[i] < 1:
            key = (h["occluder_type"].values[i], h["occluder_color"].values[i])
            out.setdefault(h["subject"].values[i], {}).setdefault(key, []).append(values[i])
    return {s: {k: np.mean(v) for k, v in cells.items()} for s, cells in out.items()}


def test_similarity_and_ceiling_by_hand():
    rng = np.random.default_rng(0)
    human = _human(rng)
    model = np.where(rng.random(human.sizes["presentation"]) < 0.5, human["object_class"].values, "z")
    people = _cells(human, human["human_accuracy"].values)
    machine = _cells(human, (model == human["object_class"].values).astype(int))
    rs = []
    for s in sorted(people):
        keys = sorted(people[s])
        rs.append(np.corrcoef([people[s][k] for k in keys], [machine[s][k] for k in keys])[0, 1])
    assert condition_wise_accuracy_similarity(model, human).score == pytest.approx(np.mean(rs))
    nc = []
    for s in people:
        keys = sorted(people[s])
        rest = [np.mean([people[o][k] for o in people if o != s and k in people[o]]) for k in keys]
        nc.append(np.corrcoef([people[s][k] for k in keys], rest)[0, 1])
    assert condition_wise_accuracy_ceiling(human).score == pytest.approx(np.mean(nc))


# ----------------------------------------------------------------------------------- end to end vs Brain-Score


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    import behaviour_fixtures_coggan as fc
    import behaviour_fixtures_families as ff
    from brainio_fixtures import local_http_server
    from real_data_runs import snakemake, write_checksums, write_config

    reference = json.loads(REFERENCE.read_text())
    folder = tmp_path_factory.mktemp("coggan2024")
    sums = fc.write_store(folder / "store")
    for theirs in reference["benchmarks"].values():
        assert {name: sums[name] for name in theirs["files"]} == theirs["files"]
    weights = ff.write_torch_home(folder / "torch_home", "seeded")
    work = folder / "work"
    work.mkdir()
    with local_http_server(folder / "store") as server:
        config = write_config(folder, [ID], dict(base_url=server.url,
                                                 checksums_override=str(write_checksums(folder, sums))),
                              weights_file=weights)
        run = snakemake(work, config, [f"results/alexnet/{ID}.json"], torch_home=folder / "torch_home")
    assert run.returncode == 0, run.stderr[-5000:]
    return json.loads((work / "results" / "alexnet" / f"{ID}.json").read_text())


@pytest.mark.slow
def test_equals_brainscore(scored):
    theirs = json.loads(REFERENCE.read_text())["benchmarks"][ID]
    for key in ("score", "raw", "ceiling"):
        assert scored[key] == pytest.approx(theirs[key], abs=1e-6), key
    assert (scored["parent"], scored["version"]) == ("behavior", 1)


def test_fixture_scores_are_not_degenerate():
    theirs = json.loads(REFERENCE.read_text())["benchmarks"][ID]
    assert 0 < theirs["ceiling"] < 1 and np.isfinite(theirs["raw"]) and theirs["raw"] != 0
