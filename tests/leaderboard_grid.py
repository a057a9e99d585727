"""A Brain-Score-sized grid of score files (50 models × the 291 benchmarks Brain-Score vision 2.4.2 registers),
written by the functions the score stages use: brainpipe.pipeline.scoring.aggregate (neural folds, behaviour's one
comparison), brainpipe.properties.stages.property_score (properties), brainpipe.pipeline.headline.headline (the
headline with provenance) and brainpipe.io.write_json; then the leaderboard as workflow/scripts/leaderboard.py
builds it from those files. The numbers are random (seeded): the grid tests the page, not a model."""

from pathlib import Path

import numpy as np

from brainpipe import benchmarks as bench
from brainpipe.io import read_json, write_json
from brainpipe.pipeline import leaderboard_page, report
from brainpipe.pipeline.headline import headline
from brainpipe.pipeline.provenance import versions
from brainpipe.pipeline.scoring import aggregate

BRAIN_SCORE_291 = Path(bench.__file__).parent / "brainscore_identifiers_2.4.2.txt"


def brain_score_identifiers():
    """The 291 benchmark identifiers of Brain-Score vision 2.4.2 (the list the selector `suite:brainscore` names)."""
    return [line.strip() for line in BRAIN_SCORE_291.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def _layer_score(benchmark, rng, quality):
    """One layer's score dict as the benchmark's scoring stage computes it, from random folds and ceiling."""
    kind = benchmark.kind
    if kind == "properties":
        from brainpipe.properties.stages import property_score

        bins = np.linspace(0, 1, 11)
        data = rng.beta(2, 2, 40)
        model = np.clip(rng.beta(2, 2, 40) * (0.5 + quality) / 1.5, 0, 1)
        return property_score(model, data, bins, {"ceiling": 0.8 + 0.1 * rng.random(), "error": 0.01},
                              seed=0, property_name=benchmark.metric)
    if kind == "behaviour":
        value = 0.2 + 0.6 * quality * rng.random()
        ceiling = 0.7 + 0.2 * rng.random()
        fold = {"value": value, "error": 0.02, "per_split": [value, value * 0.98]}
        return aggregate(benchmark, [fold], {"ceiling": ceiling, "error": 0.01, "per_split": [ceiling, ceiling]})
    if kind == "temporal":
        bins = 5
        folds = [{"fold": k, "value": list(0.1 + 0.5 * quality * rng.random(bins))} for k in range(3)]
        return aggregate(benchmark, folds, {"ceiling": list(0.5 + 0.3 * rng.random(bins)),
                                            "error": list(0.01 * rng.random(bins))})
    folds = [{"fold": k, "value": 0.1 + 0.6 * quality * rng.random()} for k in range(benchmark.n_folds)]
    if benchmark.normalisation == "own":  # a plugin that ceils per subject reports its ceiled score itself
        folds[0]["plugin_score"] = folds[0]["value"] * 0.9
    return aggregate(benchmark, folds, {"ceiling": 0.6 + 0.3 * rng.random(), "error": 0.005})


def write_grid(root, n_models=50, identifiers=None, seed=0):
    """results/<model>/<benchmark>.json and results/ceilings/<benchmark>.json under ``root`` for ``n_models``
    models × ``identifiers`` (default: Brain-Score's 291), every third model with a per-layer sweep; returns
    (models, identifiers)."""
    rng = np.random.default_rng(seed)
    identifiers = list(identifiers or brain_score_identifiers())
    models = [f"model_{i:02d}" + ("_resnet50_with_a_longer_name" if i % 7 == 3 else "") for i in range(n_models)]
    loaded = {b: bench.parse(b) for b in identifiers}
    for b, benchmark in loaded.items():
        layers = ["layer1", "layer2", "layer3", "layer4"]
        ceiling = None
        for index, model in enumerate(models):
            quality = rng.random()
            committed = "layer3"
            scored = layers if index % 3 == 0 else [committed]
            per_layer = {layer: dict(_layer_score(benchmark, rng, quality), model=model, benchmark=b, layer=layer)
                         for layer in scored}
            spec = {"architecture": model, "layers": {"IT": committed}}
            data = {"dataset": benchmark.family.dataset, "access": benchmark.access,
                    "stimulus_set": benchmark.family.stimulus_set, "visual_degrees": benchmark.visual_degrees,
                    "settings": benchmark.settings, "files": []}
            result = headline(per_layer, committed, spec, benchmark.metadata(), data, versions())
            write_json(result, Path(root) / "results" / model / f"{b}.json")
            ceiling = ceiling or {"benchmark": b, "ceiling": result["ceiling"], "error": result.get("ceiling_error")}
        write_json(ceiling, Path(root) / "results" / "ceilings" / f"{b}.json")
    return models, identifiers


def write_leaderboard(root, models, identifiers):
    """results/leaderboard.csv and .html from the files :func:`write_grid` wrote, as the leaderboard rule does
    (its facts: the benchmarks' definitions)."""
    root = Path(root)
    headlines = [read_json(root / "results" / m / f"{b}.json") for m in models for b in identifiers]
    ceilings = {b: read_json(root / "results" / "ceilings" / f"{b}.json") for b in identifiers}
    facts = {b: report.benchmark_facts(bench.parse(b)) for b in identifiers}
    table = report.leaderboard(headlines, ceilings, models=models, benchmarks=identifiers, facts=facts)
    report.write_leaderboard_csv(table, root / "results" / "leaderboard.csv")
    page = leaderboard_page.leaderboard_html(table, headlines, ceilings, facts=facts)
    (root / "results" / "leaderboard.html").write_text(page)
    return table, root / "results" / "leaderboard.html"
