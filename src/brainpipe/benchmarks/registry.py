"""One registry of benchmark families, from three sources that all produce a :class:`Family`:

1. built-in modules of the ``families`` folder (``majajhong2015.py``, ``freemanziemba2013.py``, ...),
   each declaring ``FAMILIES`` (and the data it downloads: ``ASSEMBLIES``, ``STIMULUS_SETS``) — written exactly
   as a user would write a plugin;
2. ``benchmark_zoo:`` entries of the config (:mod:`brainpipe.benchmarks.declared`);
3. user plugin files (:mod:`brainpipe.benchmarks.custom`): every ``*.py`` in the folders listed under config
   ``benchmark_plugins``, or ``package.module:Class`` entries there.

A family name defined twice is an error naming both definitions.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import pkgutil
from dataclasses import dataclass, field, replace
from pathlib import Path

from brainpipe.data.catalog import Catalog

from .base import IDENTIFIER, Benchmark, Family, build, with_access  # noqa: F401  (IDENTIFIER re-exported)
from brainpipe.io.user_files import import_user_file

from .custom import CustomBenchmark, PluginError, check_declaration
from .declared import declared_family
from .declared_behaviour import declared_behaviour_family, is_behavioural
from .declared_properties import declared_properties_family, is_properties, neurons_definitions
from .ost_family import build_ost, is_ost

#: The folder of the built-in families: each of its modules (but ``_``-prefixed helpers) declares ``FAMILIES``.
FAMILIES_FOLDER = Path(__file__).parent / "families"


def _sha1_file(path) -> str:
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()[:12]


@dataclass
class Registry:
    families: dict = field(default_factory=dict)
    assemblies: dict = field(default_factory=dict)
    stimulus_sets: dict = field(default_factory=dict)

    def add(self, family: Family, assemblies=None, stimulus_sets=None):
        if family.name in self.families:
            raise ValueError(f"benchmark family {family.name!r} is defined twice: by {self.families[family.name].origin}"
                             f" and by {family.origin}; rename one")
        self.families[family.name] = family
        for kind, mapping in (("assembly", assemblies or {}), ("stimulus set", stimulus_sets or {})):
            target = self.assemblies if kind == "assembly" else self.stimulus_sets
            for key, entry in mapping.items():
                if key in target and target[key] != entry:
                    raise ValueError(f"{kind} {key!r} is declared twice with different files (by {family.origin})")
                target.setdefault(key, entry)  # the same files declared again: the first declaration names them

    def benchmark(self, identifier: str, settings=None, access=None) -> Benchmark:
        """The benchmark ``identifier`` with its settings resolved; ValueError naming what is wrong."""
        built = build_ost(identifier, self.families, settings) or build(identifier, self.families, settings)
        return with_access(built, access)

    def identifiers(self):
        return [identifier for name, family in self.families.items() for identifier in family_identifiers(family)]


def family_identifiers(family: Family):
    """The benchmark identifiers of one family: ``Family-metric`` for behaviour, else ``Family.region-metric``."""
    if family.identifiers:  # Brain-Score's own identifiers of a neural family (Family.identifiers)
        return [identifier for identifier, _, _ in family.identifiers]
    if family.behaviours:  # Brain-Score's own identifier where it does not read Family-metric
        return [b.identifier or f"{family.name}-{b.name}" for b in family.behaviours]
    if family.properties or is_ost(family) or not family.region_in_identifier:  # OST (Kar2019-ost): one region, not named
        return [f"{family.name}-{metric}" for metric in family.metrics]
    return [f"{family.name}.{region}-{metric}" for region in family.regions for metric in family.metrics]


@functools.lru_cache(maxsize=1)
def _builtin():
    registry = Registry()
    for info in sorted(pkgutil.iter_modules([str(FAMILIES_FOLDER)]), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"brainpipe.benchmarks.families.{info.name}")
        fingerprint = _sha1_file(module.__file__)
        assemblies = getattr(module, "ASSEMBLIES", {})
        stimulus_sets = getattr(module, "STIMULUS_SETS", {})
        for family in getattr(module, "FAMILIES", []):
            registry.add(replace(family, origin=f"built-in ({module.__name__})", fingerprint=fingerprint),
                         assemblies, stimulus_sets)
    return registry


def builtin() -> Registry:
    """The built-in families (a fresh copy: callers may add to it)."""
    base = _builtin()
    return Registry(dict(base.families), dict(base.assemblies), dict(base.stimulus_sets))


def builtin_data():
    """(assemblies, stimulus sets) declared by the built-in family modules: the default download catalog."""
    base = _builtin()
    return dict(base.assemblies), dict(base.stimulus_sets)


@functools.lru_cache(maxsize=1)
def default_catalog():
    """The built-in families' data as a download catalog (:class:`brainpipe.data.catalog.Catalog`)."""
    return Catalog(*builtin_data())


def _load_file(path: Path):
    """Import a plugin file as a module; PluginError naming the file when it raises."""
    return import_user_file(path, "brainpipe_plugin_", PluginError, f"benchmark plugin {path}")


def _plugin_classes(entry: str, base_dir: Path):
    """[(class, file, where)] for one ``benchmark_plugins`` entry: a folder of .py files, a .py file, or module:Class."""
    if ":" in entry and not entry.endswith(".py"):
        module_name, _, class_name = entry.partition(":")
        try:
            module = importlib.import_module(module_name)
        except Exception as error:
            raise PluginError(f"config benchmark_plugins: cannot import {module_name!r} ({type(error).__name__}: "
                              f"{error}); is it on PYTHONPATH?") from None
        cls = getattr(module, class_name, None)
        if cls is None:
            raise PluginError(f"config benchmark_plugins: {module_name} has no class {class_name!r}")
        return [(cls, Path(inspect.getfile(module)), entry)]
    path = Path(entry)
    if not path.is_absolute():
        path = base_dir / path
    if path.is_dir():
        files = sorted(path.glob("*.py"))
    elif path.is_file():
        files = [path]
    else:
        raise PluginError(f"config benchmark_plugins: {entry!r} is neither a folder nor a .py file "
                          f"(looked at {path})")
    found = []
    for file in files:
        module = _load_file(file)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, CustomBenchmark) and cls is not CustomBenchmark and cls.__module__ == module.__name__:
                found.append((cls, file, f"{file}:{cls.__name__}"))
    return found


def _custom_family(cls, file: Path, where: str, registry: Registry) -> Family:
    try:
        benchmark = cls()
    except Exception as error:
        raise PluginError(f"benchmark plugin {where}: creating it raised {type(error).__name__}: {error}") from None
    check_declaration(benchmark, where)
    data = registry.families.get(benchmark.data)
    if data is None:
        raise PluginError(f"benchmark plugin {where}: data = {benchmark.data!r} is not a known family; "
                          f"known: {sorted(registry.families)}")
    missing = [r for r in benchmark.regions if r not in data.regions]
    if missing:
        raise PluginError(f"benchmark plugin {where}: {benchmark.data} has no region(s) {missing}; "
                          f"it has {list(data.regions)}")
    degrees = benchmark.visual_degrees if benchmark.visual_degrees is not None else data.visual_degrees
    return replace(data, name=benchmark.family, regions=tuple(benchmark.regions), visual_degrees=float(degrees),
                   private=None, allowed_metrics=None, ceiling="custom",
                   version=int(benchmark.version), parent=benchmark.parent, bibtex=benchmark.bibtex,
                   notes=(cls.__doc__ or "").strip().split("\n")[0], origin=f"plugin {where}",
                   fingerprint=_sha1_file(file), plugin=benchmark, sources=(str(file),))


def from_config(config: dict | None, base_dir: str | Path = ".") -> Registry:
    """Built-ins + the config's ``benchmark_zoo`` + its ``benchmark_plugins`` (paths relative to ``base_dir``,
    the directory Snakemake runs in). ValueError (PluginError for plugin files) naming the key or file."""
    config = config or {}
    registry = builtin()
    zoo = config.get("benchmark_zoo") or {}
    if not isinstance(zoo, dict):
        raise ValueError(f"config benchmark_zoo: expected a mapping of family name -> declaration, got {zoo!r}")
    for name, entry in zoo.items():
        if is_properties(entry):  # a properties benchmark (a property table, a property set, stimuli)
            family, assemblies, stimulus_sets = declared_properties_family(
                str(name), entry, neurons_definitions(_builtin().families), base_dir)
        else:
            declare = declared_behaviour_family if is_behavioural(entry) else declared_family
            family, assemblies, stimulus_sets = declare(str(name), entry)
        registry.add(family, assemblies, stimulus_sets)
    plugins = config.get("benchmark_plugins") or []
    if not isinstance(plugins, list):
        raise ValueError(f"config benchmark_plugins: expected a list of folders, .py files or module:Class, "
                         f"got {plugins!r}")
    for entry in plugins:
        for cls, file, where in _plugin_classes(str(entry), Path(base_dir)):
            registry.add(_custom_family(cls, file, where, registry))
    return registry
