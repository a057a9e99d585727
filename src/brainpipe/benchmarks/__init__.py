"""Benchmarks: the machinery of benchmark families (what a family is, a registry, the two user patterns, the
registries of ceilings and fold fits) and, in ``families/``, one module per built-in family.

* ``base.py``: what a family and a benchmark are (plain data), identifiers, settings and their defaults;
* ``registry.py``: discovers families — every module of ``families/``, config ``benchmark_zoo`` entries, plugin files;
* ``declared.py`` (and ``declared_behaviour.py``, ``declared_properties.py``): the "declared" pattern (a config
  entry, no code);
* ``custom.py``: the plugin pattern (:class:`CustomBenchmark` in a Python file);
* ``ceilings.py``, ``folds.py``: the ceiling and fold-fit stages, by registered method name;
* ``ost_family.py``: families of object solution times (Kar2019);
* ``families/``: one module per built-in family (``majajhong2015.py``, ``freemanziemba2013.py``, ...), written as a
  user's plugin is: a new family is a new module there and touches no shared file.

``parse(identifier)`` knows the built-in families; ``load(identifier, config)`` also the config's;
``default_catalog()`` lists the built-in families' data for download.

May import: :mod:`brainpipe.data`, :mod:`brainpipe.neural`, :mod:`brainpipe.behaviour`, :mod:`brainpipe.models`,
:mod:`brainpipe.io`. Never pipeline.
"""

from .base import (METRICS, REGRESSION_METRICS, REPRESENTATIONAL_METRICS, SETTING_DEFAULTS,
                                       FIXED_TRAIN_TEST_METRICS, TEMPORAL_METRICS, Benchmark, Family, configured_access, with_access)
from .custom import CustomBenchmark, PluginError
from .registry import IDENTIFIER, Registry, builtin, default_catalog, from_config

__all__ = ["METRICS", "REGRESSION_METRICS", "REPRESENTATIONAL_METRICS", "SETTING_DEFAULTS", "FIXED_TRAIN_TEST_METRICS",
           "TEMPORAL_METRICS", "Benchmark", "CustomBenchmark", "Family", "IDENTIFIER", "PluginError", "Registry",
           "builtin", "default_catalog", "from_config", "load", "parse", "with_access", "configured_access", "FAMILIES"]


def parse(identifier, settings=None) -> Benchmark:
    """A built-in benchmark by identifier (settings resolved); ValueError naming what is unknown."""
    return builtin().benchmark(identifier, settings)


def load(identifier, config=None, base_dir=".") -> Benchmark:
    """A benchmark of the built-ins or of ``config`` (benchmark_zoo, benchmark_plugins), with the config's
    ``benchmark_settings`` and ``data.access`` applied: exactly what the workflow scores."""
    config = config or {}
    registry = from_config(config, base_dir)
    settings = (config.get("benchmark_settings") or {}).get(identifier)
    benchmark = registry.benchmark(identifier, settings)
    return with_access(benchmark, configured_access(config, benchmark.family_name))


def __getattr__(name):
    if name == "FAMILIES":  # name -> Family of the built-in families
        return builtin().families
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
