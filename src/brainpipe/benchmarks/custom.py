"""Pattern "custom": a benchmark with its own logic, written by a user in one Python file.

The counterpart of Brain-Score's ``BenchmarkBase`` subclasses (brain-score/vision brainscore_vision/benchmarks/
__init__.py). A plugin file (in a folder named by config ``benchmark_plugins``, or ``module:Class``) defines a
subclass of :class:`CustomBenchmark`::

    from brainpipe.benchmarks import CustomBenchmark

    class ShapesCategoryRSA(CustomBenchmark):
        family = "ShapesCategoryRSA"     # identifiers: ShapesCategoryRSA.<region>-<metric>
        data = "SyntheticShapes"         # whose recordings and stimuli it uses (a built-in or declared family)
        regions = ("IT",)
        metric = "catrdm"
        version = 1
        bibtex = "@misc{...}"

        def ceiling(self, trials):         # (presentation × neuroid) per-trial recordings, one region
            return {"ceiling": 0.9, "error": 0.0}
        def compare(self, activations, target):   # model layer and trial-averaged recordings, same stimuli order
            return {"raw": 0.5}

The workflow still runs it as stages: the activations come from the shared cache (the model sees the data family's
stimuli at the data family's visual degrees), ``ceiling`` runs once as its own cached job
(``results/ceilings/<identifier>.json``), ``compare`` as one job per model × layer, and the score is
``normalisation``-ceiled like any other. Editing the file reruns exactly its benchmarks' jobs.
"""

from __future__ import annotations

import math

#: "own": ``compare`` returns the ceiled ``score`` itself (a benchmark that ceils each subject on its own and
#: averages, as Brain-Score's multi-subject benchmarks do: mean(raw_s²/ceiling_s) is not mean(raw)²/mean(ceiling)).
#: 'squared_ratio_bounded': (raw / ceiling)², bounded to [0, 1] (brain-score/vision benchmarks/coggan2024_fMRI/
#: benchmark.py ``ceiler`` then ``bound_score``)
NORMALISATIONS = ("raw_over_ceiling", "raw2_over_ceiling", "none", "own", "squared_ratio_bounded")


class PluginError(ValueError):
    """A plugin file that cannot be used; the message names the file."""


class CustomBenchmark:
    """Base class of custom benchmarks: declare the class attributes, implement ``ceiling`` and ``compare``."""

    family: str = ""
    data: str = ""
    regions: tuple = ()
    metric: str = ""
    version: int = 1
    parent: str | None = None
    bibtex: str = ""
    normalisation: str = "raw_over_ceiling"
    visual_degrees: float | None = None     # None: the data family's
    # Several metrics served by one class (built-in families whose identifiers name several, e.g.
    # Zerbe2026_fmri.V1-tau-ridgecv / -rdm-pearson): the identifiers' suffixes; ``self.metric`` is the one a
    # benchmark was built for (see for_metric). Empty: the one ``metric``.
    metrics: tuple = ()

    def for_metric(self, metric: str) -> "CustomBenchmark":
        """The instance that computes ``metric`` (the benchmark parser calls it for each identifier): with
        ``metrics``, a copy set to one of them; a class configured per metric in another way (Islam2021's factor ×
        region, ``Family.metric_regions``) overrides this; otherwise the one instance."""
        import copy

        if not self.metrics:
            return self
        if metric not in self.metrics:
            raise ValueError(f"{type(self).__name__} has no metric {metric!r}; its metrics: {list(self.metrics)}")
        bound = copy.copy(self)
        bound.metric = metric
        return bound

    def ceiling(self, trials) -> dict:
        """{'ceiling': float in (0, 1], 'error': float} from the per-trial recordings of one region."""
        raise NotImplementedError

    def compare(self, activations, target) -> dict:
        """{'raw': float, optional 'error': float} from a model layer's activations and the averaged recordings.
        Both are (presentation × neuroid) DataArrays whose presentations are in the same stimulus order.
        With ``normalisation = "own"`` also 'score': the ceiled score, computed here."""
        raise NotImplementedError


def check_declaration(benchmark: CustomBenchmark, where: str) -> None:
    """Raise PluginError naming ``where`` (file:Class) and the attribute when the class is not usable."""
    for name in ("family", "data", "metric"):
        value = getattr(benchmark, name, "")
        if not isinstance(value, str) or not value.isalnum() and not value.replace("_", "").isalnum():
            raise PluginError(f"{where}: class attribute {name!r} must be a non-empty name, got {value!r}")
    if not benchmark.metric.replace("_", "").isalnum() or benchmark.metric != benchmark.metric.lower():
        raise PluginError(f"{where}: metric {benchmark.metric!r} must be lower case letters, digits and _")
    if not benchmark.regions or not all(isinstance(r, str) and r.isalnum() for r in benchmark.regions):
        raise PluginError(f"{where}: regions must be a non-empty tuple of region names, got {benchmark.regions!r}")
    if benchmark.normalisation not in NORMALISATIONS:
        raise PluginError(f"{where}: normalisation {benchmark.normalisation!r} is not one of {NORMALISATIONS}")
    for method in ("ceiling", "compare"):
        if getattr(type(benchmark), method) is getattr(CustomBenchmark, method):
            raise PluginError(f"{where}: implement {method}() (see brainpipe.benchmarks.custom)")


def checked_result(result, keys, where: str, what: str) -> dict:
    """A plugin's returned dict with finite floats under ``keys`` (the first is required); PluginError otherwise. A
    value may be NaN where the dict says why under ``reason`` (a text): the score is then null with that reason."""
    if not isinstance(result, dict) or keys[0] not in result:
        raise PluginError(f"{where}: {what}() must return a dict with key {keys[0]!r}, got {result!r:.200}")
    checked = dict(result)
    for key in keys:
        if key not in result:
            continue
        try:
            value = float(result[key])
        except (TypeError, ValueError):
            raise PluginError(f"{where}: {what}() returned {key}={result[key]!r}, not a number") from None
        if not math.isfinite(value) and not (isinstance(result.get("reason"), str) and result["reason"].strip()):
            raise PluginError(f"{where}: {what}() returned {key}={value}, not a finite number")
        checked[key] = value
    return checked
