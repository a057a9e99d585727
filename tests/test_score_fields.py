"""A score JSON records only what applies to its benchmark, and null where Brain-Score has nothing.

* ``data.settings``: a behavioural benchmark reads no folds and fits no regression, so it lists only its visual
  degrees (not ``splits``, ``pls_components``, ``ridge_alpha``); a neural one lists its own regression's parameter.
* A declared ceiling keeps the error its family publishes (Ferguson2024's) and has none otherwise (Hebart2023's
  0.6767: ``ceiling_error`` null, not 0.0: brain-score/vision benchmarks/hebart2023/benchmark.py sets no error).
* A benchmark whose Brain-Score score carries no ceiling (``Behaviour.ceiling`` 'none', e.g. brain-score/vision
  benchmarks/objectnet/benchmark.py returns the accuracy itself) records ``ceiling`` null and its raw score.
"""

import json
from dataclasses import replace

import pytest

from brainpipe import benchmarks
from brainpipe.behaviour.ceiled import DECLARED, NO_CEILING, aggregate, ceiling_json, declared_ceiling
from brainpipe.io import as_json
from behaviour_workflow_runs import BENCHMARK, snakemake
from workflow_runs import with_config

NEURAL_ONLY = ("splits", "train_size", "random_state", "pls_components", "ridge_alpha")


@pytest.mark.parametrize("identifier", ["Ferguson2024tilted_line-value_delta", "Hebart2023-match",
                                        "ObjectNet-top1", "Malania2007.short2-threshold_elevation"])
def test_behavioural_settings_are_the_visual_degrees_only(identifier):
    b = benchmarks.parse(identifier)
    assert b.recorded_settings == {"visual_degrees": b.visual_degrees}
    assert set(NEURAL_ONLY) <= set(b.settings)  # (still resolved: the rules' parameters are unchanged)


def test_neural_settings_name_their_own_regression_only():
    pls = benchmarks.parse("MajajHong2015.IT-pls").recorded_settings
    assert pls["pls_components"] == 25 and "ridge_alpha" not in pls and pls["splits"] == 10
    ridge = benchmarks.parse("MajajHong2015.IT-ridge").recorded_settings
    assert ridge["ridge_alpha"] == 1.0 and "pls_components" not in ridge
    rdm = benchmarks.parse("MajajHong2015.IT-rdm").recorded_settings
    assert not {"pls_components", "ridge_alpha"} & set(rdm)


def fold(raw):
    return as_json({"value": raw, "error": None})


def test_hebart_declared_ceiling_has_no_error():
    b = benchmarks.parse("Hebart2023-match")
    ceiling = as_json(ceiling_json(declared_ceiling(b.behaviour), DECLARED))
    assert ceiling["ceiling"] == 0.6767 and ceiling["error"] is None
    result = aggregate(b, [fold(0.5)], ceiling)
    assert result["ceiling"] == 0.6767 and result["ceiling_error"] is None
    assert result["score"] == pytest.approx((0.5 - 1 / 3) / (0.6767 - 1 / 3))


def test_ferguson_declared_ceiling_keeps_its_published_error():
    b = benchmarks.parse("Ferguson2024tilted_line-value_delta")
    result = aggregate(b, [fold(0.4)], as_json(ceiling_json(declared_ceiling(b.behaviour), DECLARED)))
    assert (result["ceiling"], result["ceiling_error"]) == (0.912, 0.064)


def test_a_benchmark_without_a_ceiling_records_none():
    declared = benchmarks.parse("ObjectNet-top1")
    behaviour = replace(declared.behaviour, ceiling=NO_CEILING)
    b = replace(declared, family=replace(declared.family, behaviours=(behaviour,)))
    ceiling = as_json(ceiling_json(declared_ceiling(behaviour), DECLARED))
    result = aggregate(b, [as_json({"value": 0.25, "error": 0.43})], ceiling)
    assert (result["score"], result["raw"], result["error"]) == (0.25, 0.25, 0.43)
    assert result["ceiling"] is None and result["ceiling_error"] is None and result["formula"] == "raw (no ceiling)"


@pytest.mark.slow  # a real workflow run (seconds to a minute on 2 cores): CI runs it (make test-slow)
def test_a_behavioural_score_file_lists_no_neural_settings(tmp_path):
    """The real workflow's score file for the behavioural demo."""
    work = with_config(tmp_path / "work")
    snakemake(work, target=f"results/pixels/{BENCHMARK}.json")
    score = json.loads((work / "results" / "pixels" / f"{BENCHMARK}.json").read_text())
    assert score["data"]["settings"] == {"visual_degrees": 10.0}
