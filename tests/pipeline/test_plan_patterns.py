"""Wildcard constraints (src/brainpipe/pipeline/plan/patterns.py): each file of a shared output pattern
(results/ceilings/{benchmark}.json, results/{model}/{benchmark}/layers/{layer}.json) matches the constraint of
exactly one kind of rule. Checked as Snakemake uses them: embedded in the whole path's regular expression."""

import re

import pytest

from brainpipe.pipeline.plan.patterns import NOTHING, alternatives
from plan_fixtures import plan_with

PATTERNS = plan_with().patterns
KINDS = {"generic": PATTERNS.generic_benchmark, "properties": PATTERNS.properties_benchmark,
         "threshold": PATTERNS.threshold_benchmark, "sessions": PATTERNS.sessions_benchmark,
         "behaviour": PATTERNS.behaviour_benchmark}


def rules_taking(path):
    """The kinds whose constraint, embedded in the ceiling's or the layer score's output pattern, matches ``path``."""
    taking = set()
    for kind, pattern in KINDS.items():
        ceiling = rf"results/ceilings/(?P<benchmark>{pattern})\.json"
        layer = rf"results/(?P<model>[^/]+)/(?P<benchmark>{pattern})/layers/(?P<layer>[^/]+)\.json"
        if re.fullmatch(ceiling, path) or re.fullmatch(layer, path):
            taking.add(kind)
    return taking


@pytest.mark.parametrize("identifier, kinds", [
    ("MajajHong2015public.IT-pls", {"generic"}),
    ("SyntheticShapesBehaviour-i2n", {"generic", "behaviour"}),  # its ceiling and layer scores are generic
    ("Scialom2024_rgbBehavioralAccuracyDistance", {"generic", "behaviour"}),  # Brain-Score's identifier, verbatim
    ("Marques2020_Ringach2002-circular_variance", {"properties"}),
    ("SyntheticGratings-or_bandwidth", {"properties"}),
    ("Malania2007.short2-threshold_elevation", {"threshold"}),
    ("Cowley2026.V4-pls", {"sessions"}),
    ("Cowley2026.190923.V4-pls", {"generic"}),  # a session is an ordinary benchmark
])
def test_each_benchmarks_ceiling_and_layer_scores_have_one_kind_of_rule(identifier, kinds):
    for path in (f"results/ceilings/{identifier}.json", f"results/m/{identifier}/layers/l.json"):
        assert rules_taking(path) - {"behaviour"} == kinds - {"behaviour"}, path


def test_behavioural_headlines_but_the_thresholds_score_in_one_job():
    behaviour = re.compile(rf"results/(?P<model>[^/]+)/(?P<benchmark>{PATTERNS.behaviour_benchmark})\.json")
    assert behaviour.fullmatch("results/m/SyntheticShapesBehaviour-i2n.json")
    assert behaviour.fullmatch("results/m/Scialom2024_rgbBehavioralAccuracyDistance.json")
    assert not behaviour.fullmatch("results/m/Malania2007.short2-threshold_elevation.json")
    assert not behaviour.fullmatch("results/m/MajajHong2015public.IT-pls.json")


def test_the_benchmark_wildcard_takes_every_identifier():
    benchmark = re.compile(PATTERNS.benchmark)
    for identifier in ("MajajHong2015public.IT-pls", "Scialom2024_rgbBehavioralAccuracyDistance", "Kar2019-ost"):
        assert benchmark.fullmatch(identifier), identifier
    assert not benchmark.fullmatch("MajajHong2015public")  # no metric


def test_alternatives_match_exactly_the_names():
    pattern = alternatives(["a.b", "c"])
    assert re.fullmatch(pattern, "a.b") and re.fullmatch(pattern, "c") and not re.fullmatch(pattern, "axb")
    assert alternatives([]) == NOTHING and not re.fullmatch(NOTHING, "")
