"""A check before a PLS fold is fitted: more components than the layer has features.

Kept apart from the metric code on purpose: it refuses, it never changes a number, so it is not part of the fold
rule's code fingerprint (editing it reruns nothing).
"""

from __future__ import annotations


def check_components(benchmark, n_features, layer) -> None:
    """PLS with more components than the layer has features: Brain-Score's PLS (sklearn ``PLSRegression``) refuses
    it ("`n_components` upper bound is <features>"), so a benchmark does too, naming layer, features and components,
    before any fold is fitted (brainpipe's PLS would otherwise clamp silently and score other settings than asked)."""
    from .metric_names import REGRESSION_METRICS

    name = benchmark.metric.removesuffix("_split").removeprefix("spantime_")
    if benchmark.kind not in ("regression", "temporal") or name not in REGRESSION_METRICS or name != "pls":
        return
    components = int(benchmark.settings.get("pls_components", 25))
    if isinstance(n_features, int) and n_features < components:
        raise ValueError(f"{benchmark.identifier}: layer {layer!r} has {n_features} features, fewer than "
                         f"pls_components = {components}; Brain-Score's PLS (sklearn PLSRegression) refuses this "
                         f"(n_components upper bound = features). Set benchmark_settings.{benchmark.identifier}."
                         f"pls_components to at most {n_features}, or commit a layer with more features")
