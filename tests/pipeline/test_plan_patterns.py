"""Wildcard constraints (src/brainpipe/pipeline/plan/patterns.py): each file of an output pattern that several rules
write (results/ceilings/{benchmark}.json, results/{model}/{benchmark}/layers/{layer}.json, the headline
results/{model}/{benchmark}.json, results/activations/{model}/{stimuli}/{layer}.nc, resources/assemblies/{dataset}.nc)
matches the constraints of exactly one rule, for every benchmark, model and data set the plan knows. Checked as
Snakemake uses them: embedded in the whole path's regular expression (snakemake.io.regex_from_filepattern)."""

import re

import pytest

from brainpipe.pipeline import grid_cells
from brainpipe.pipeline.plan.patterns import MODEL, NOTHING, alternatives
from plan_fixtures import plan_with

PLAN = plan_with()
PATTERNS = PLAN.patterns
#: every benchmark the registry knows: built-in and the config's
IDENTIFIERS = sorted(PLAN.registry.identifiers())
#: the rules of results/ceilings/{benchmark}.json and results/{model}/{benchmark}/layers/{layer}.json, by kind
LAYER_KINDS = {"generic": PATTERNS.generic_benchmark, "properties": PATTERNS.properties_benchmark,
               "threshold": PATTERNS.threshold_benchmark, "sessions": PATTERNS.sessions_benchmark,
               "ost": PATTERNS.ost_benchmark}
#: a grid with empty cells of each reason: a temporal model on a behavioural benchmark or a region it does not map,
#: and cells config skip_benchmarks leaves out (one of them an OST benchmark)
CELLS_PLAN = plan_with({"models": ["pixels", "alexnet_untrained", "recurrent_demo"],
                        "benchmarks": ["family:SyntheticShapes", "Kar2019-ost", "SyntheticShapesOST-ost",
                                       "SyntheticShapesBehaviour-i2n"],
                        "skip_benchmarks": {"alexnet_untrained": ["SyntheticShapes.IT-pls", "SyntheticShapesOST-ost"],
                                            "pixels": ["SyntheticShapesBehaviour-i2n"]}})


def path_regex(pattern: str, **constraints) -> re.Pattern:
    """``pattern`` with each {wildcard} its constraint, as Snakemake embeds them: the text between escaped, each
    wildcard a named group, '$' at the end; Snakemake matches it from the path's start (re.match)."""
    parts = re.split(r"\{(\w+)\}", pattern)
    return re.compile("".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>{constraints.get(part, '[^/]+')})"
                              for i, part in enumerate(parts)) + "$")


def headline_rules(patterns) -> dict:
    """The rules of the headline results/{model}/{benchmark}.json, their constraints embedded."""
    headline = "results/{model}/{benchmark}.json"
    model = patterns.scored_model
    return {"score": path_regex(headline, model=model, benchmark=patterns.generic_headline_benchmark),
            "score_behaviour": path_regex(headline, model=model, benchmark=patterns.behaviour_benchmark),
            "score_ost": path_regex(headline, model=model, benchmark=patterns.ost_benchmark),
            "empty_cell": path_regex("results/{cell}.json",
                                     cell=grid_cells.cell_pattern(patterns.plan.grid.empty_cells))}


def rules_taking(path: str, rules: dict) -> set:
    return {name for name, regex in rules.items() if regex.match(path)}


def layer_kinds_taking(path):
    """The kinds whose constraint, embedded in the ceiling's or the layer score's output pattern, matches ``path``."""
    taking = set()
    for kind, pattern in LAYER_KINDS.items():
        ceiling = path_regex("results/ceilings/{benchmark}.json", benchmark=pattern)
        layer = path_regex("results/{model}/{benchmark}/layers/{layer}.json", model=MODEL, benchmark=pattern)
        if ceiling.match(path) or layer.match(path):
            taking.add(kind)
    return taking


@pytest.mark.parametrize("identifier, kinds", [
    ("MajajHong2015public.IT-pls", {"generic"}),
    ("SyntheticShapesBehaviour-i2n", {"generic"}),  # a behavioural benchmark's ceiling and layer scores are generic
    ("Scialom2024_rgbBehavioralAccuracyDistance", {"generic"}),  # Brain-Score's identifier, verbatim
    ("Marques2020_Ringach2002-circular_variance", {"properties"}),
    ("SyntheticGratings-or_bandwidth", {"properties"}),
    ("Malania2007.short2-threshold_elevation", {"threshold"}),
    ("Cowley2026.V4-pls", {"sessions"}),
    ("Cowley2026.190923.V4-pls", {"generic"}),  # a session is an ordinary benchmark
    ("Kar2019-ost", {"ost"}),
    ("SyntheticShapesOST-ost", {"ost"}),
])
def test_each_benchmarks_ceiling_and_layer_scores_have_one_kind_of_rule(identifier, kinds):
    for path in (f"results/ceilings/{identifier}.json", f"results/m/{identifier}/layers/l.json"):
        assert layer_kinds_taking(path) == kinds, path


def test_every_known_benchmark_has_one_ceiling_rule_and_one_layer_score_rule():
    for identifier in IDENTIFIERS:
        for path in (f"results/ceilings/{identifier}.json", f"results/m/{identifier}/layers/l.json"):
            assert len(layer_kinds_taking(path)) == 1, (path, layer_kinds_taking(path))


def test_every_known_benchmark_has_one_headline_rule():
    rules = headline_rules(PATTERNS)
    assert PLAN.grid.empty_cells == {}
    for identifier in IDENTIFIERS:
        assert len(rules_taking(f"results/alexnet_untrained/{identifier}.json", rules)) == 1, identifier
    assert rules_taking("results/m/SyntheticShapesBehaviour-i2n.json", rules) == {"score_behaviour"}
    assert rules_taking("results/m/Scialom2024_rgbBehavioralAccuracyDistance.json", rules) == {"score_behaviour"}
    assert rules_taking("results/m/Kar2019-ost.json", rules) == {"score_ost"}
    # a threshold benchmark's headline is its committed layer's score
    assert rules_taking("results/m/Malania2007.short2-threshold_elevation.json", rules) == {"score"}
    assert rules_taking("results/m/MajajHong2015public.IT-pls.json", rules) == {"score"}


def test_result_folders_are_no_models_for_the_headline_rules():
    """The score rules' own model constraint keeps the common one: a ceiling is no model's headline."""
    rules = headline_rules(PATTERNS)
    for identifier in ("SyntheticShapesBehaviour-i2n", "Kar2019-ost", "MajajHong2015public.IT-pls"):
        assert rules_taking(f"results/ceilings/{identifier}.json", rules) == set(), identifier
        assert rules_taking(f"results/behaviour/{identifier}.json", rules) == set(), identifier


def test_each_cell_of_the_grid_has_one_headline_rule_and_an_empty_one_the_empty_cell_rule():
    empty = CELLS_PLAN.grid.empty_cells
    assert {"recurrent_demo/SyntheticShapesBehaviour-i2n", "pixels/SyntheticShapesBehaviour-i2n",
            "alexnet_untrained/SyntheticShapes.IT-pls", "alexnet_untrained/SyntheticShapesOST-ost",
            "recurrent_demo/SyntheticShapes.V4-pls"} <= set(empty)
    rules = headline_rules(CELLS_PLAN.patterns)
    for model in CELLS_PLAN.grid.models:
        for identifier in CELLS_PLAN.grid.benchmarks:
            taking = rules_taking(f"results/{model}/{identifier}.json", rules)
            assert len(taking) == 1, (model, identifier, taking)
            assert (taking == {"empty_cell"}) == (f"{model}/{identifier}" in empty), (model, identifier, taking)
    # a cell is a pair: the same benchmark is scored for another model, the same model scores another benchmark
    assert rules_taking("results/alexnet_untrained/SyntheticShapes.V4-pls.json", rules) == {"score"}
    assert rules_taking("results/pixels/SyntheticShapes.IT-pls.json", rules) == {"score"}
    # object solution times: a temporal model's cell is scored, a static model's is empty (its bins are all alike)
    assert rules_taking("results/recurrent_demo/Kar2019-ost.json", rules) == {"score_ost"}
    assert rules_taking("results/alexnet_untrained/Kar2019-ost.json", rules) == {"empty_cell"}
    assert "static model" in empty["pixels/Kar2019-ost"]
    assert rules_taking("results/alexnet_untrained/SyntheticShapesBehaviour-i2n.json", rules) == {"score_behaviour"}


def test_each_model_has_one_activations_rule():
    pattern = "results/activations/{model}/{stimuli}/{layer}.nc"
    rules = {"activations_temporal": path_regex(pattern, model=PATTERNS.temporal_model),
             "activations": path_regex(pattern, model=PATTERNS.static_model)}
    assert PLAN.temporal.models == ["cornet_s", "recurrent_demo"]
    for model in sorted(PLAN.config["model_zoo"]) + ["cornet_s_v2", "my_recurrent_demo"]:
        expected = "activations_temporal" if model in PLAN.temporal.models else "activations"
        assert rules_taking(f"results/activations/{model}/SyntheticShapes/layer.nc", rules) == {expected}, model


def test_each_data_set_has_one_fetch_rule():
    pattern = "resources/assemblies/{dataset}.nc"
    rules = {"fetch_ost_assembly": path_regex(pattern, dataset=PATTERNS.ost_dataset),
             "fetch_assembly": path_regex(pattern, dataset=PATTERNS.fetched_dataset)}
    assert PLAN.temporal.ost_datasets == ["Kar2019"]
    for dataset in PLAN.sources.catalog.assemblies:
        expected = "fetch_ost_assembly" if dataset in PLAN.temporal.ost_datasets else "fetch_assembly"
        assert rules_taking(f"resources/assemblies/{dataset}.nc", rules) == {expected}, dataset


def test_the_benchmark_wildcard_takes_every_identifier():
    benchmark = re.compile(PATTERNS.benchmark)
    for identifier in IDENTIFIERS:
        assert benchmark.fullmatch(identifier), identifier
    assert not benchmark.fullmatch("MajajHong2015public")  # no metric


def test_alternatives_match_exactly_the_names():
    pattern = alternatives(["a.b", "c"])
    assert re.fullmatch(pattern, "a.b") and re.fullmatch(pattern, "c") and not re.fullmatch(pattern, "axb")
    assert alternatives([]) == NOTHING and not re.fullmatch(NOTHING, "")


def test_a_prefix_tree_matches_what_the_longest_first_alternation_matches():
    """plan.patterns.prefix_tree against the plain alternation it replaces (independent: Python's own alternation),
    on the suite's identifiers and the catalog's names and on hand-made names that are prefixes of each other: the
    same strings match, and a capture takes the same (longest) name."""
    import random

    from brainpipe.data import catalog as data_catalog
    from brainpipe.pipeline.plan.patterns import NOTHING, _longest_first, alternatives, prefix_tree

    from brainpipe import benchmarks as bench

    registry = bench.builtin()
    catalog = data_catalog.load_catalog(registry=registry)
    hand_made = ["a", "ab", "abc", "abd", "b", "a.b", "a-b", "a|b", "x(y)", ""]
    rng = random.Random(0)
    drawn = ["".join(rng.choice("ab.") for _ in range(rng.randint(1, 5))) for _ in range(60)]
    for names in (registry.identifiers(), list(catalog.stimulus_sets), list(catalog.assemblies), hand_made, drawn):
        plain = re.compile(f"(?P<name>{'|'.join(map(re.escape, _longest_first(names)))})")
        tree = re.compile(f"(?P<name>{prefix_tree(names)})")
        probes = set(names) | {n[:k] for n in names for k in range(len(n))} | {n + s for n in names
                                                                                 for s in ("x", ".", "/", "b")}
        for probe in probes:
            expected, got = plain.match(probe), tree.match(probe)
            assert (expected and expected.group("name")) == (got and got.group("name")), (probe, names[:5])
            assert bool(plain.fullmatch(probe)) == bool(tree.fullmatch(probe)), probe
    assert prefix_tree([]) == NOTHING and alternatives([]) == NOTHING
    # where one name extends another, alternatives keeps the order given (it decides which one a capture takes)
    assert alternatives(["a", "ab"]) == "a|ab" and alternatives(["ab", "cd"]) == prefix_tree(["ab", "cd"])
    assert len(prefix_tree(registry.identifiers())) < len("|".join(registry.identifiers())) * 0.6
