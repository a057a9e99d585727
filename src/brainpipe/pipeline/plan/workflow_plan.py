"""One grid's plan: the config and the benchmark registry, the lookups every job's input and params functions make
(a benchmark with its settings, a model's entry, the family of a data set) and the parts that plan each stage."""

from __future__ import annotations

import functools

from brainpipe.benchmarks.base import configured_access

from ..stage_code import stage_code
from .activations import Activations
from .behaviour import Behaviour
from .errors import PlanError
from .grid import Grid
from .patterns import Patterns
from .properties import Properties
from .recordings import Recordings
from .scores import Scores
from .sources import DataSources
from .temporal import Temporal
from .threshold import Thresholds


class WorkflowPlan:
    """What the jobs of a grid read and write, from ``config`` (validated, its ``benchmarks`` expanded into
    identifiers) and ``registry`` (every benchmark family: pipeline.workflow_config.load_registry). Built once per
    parse (common.smk's ``PLAN``); the rules use its methods as input and params functions.

    Parts, one per stage or concern: ``sources`` (the catalog and the files read in place), ``recordings`` (prepared
    data sets), ``activations`` (stimulus folders and layer files), ``temporal``, ``behaviour``, ``scores`` (folds,
    ceilings, headline scores), ``grid`` (the grid's targets), ``patterns`` (wildcard constraints), ``properties``,
    ``threshold``."""

    def __init__(self, config: dict, registry):
        self.config = config
        self.registry = registry
        # models the last whole run finished, with nothing changed since (pipeline/finished_models.py): their files
        # are read as they are and no rule makes them (patterns); set by common.smk before the rules are read
        self.finished_models: frozenset[str] = frozenset()
        # asked for by every job's input and params functions (2,400 times for 44 benchmarks); a parse has one config
        self.benchmark = functools.cache(self._benchmark)
        # asked by the params of every preparation job of a data set (811 times for 3 models × Brain-Score), each
        # a scan of every family
        self.dataset_family = functools.cache(self._dataset_family)
        # {(family origin, fingerprint): definition_code}: the stage code reads the family module's files, and
        # every job of a benchmark asks for it (definition)
        self._definition_codes: dict[tuple, str] = {}
        self.sources = DataSources(self)
        self.recordings = Recordings(self)
        self.activations = Activations(self)
        self.temporal = Temporal(self)
        self.behaviour = Behaviour(self)
        self.scores = Scores(self)
        self.grid = Grid(self)
        self.patterns = Patterns(self)
        self.properties = Properties(self)
        self.threshold = Thresholds(self)

    @property
    def families(self):
        """Every benchmark family of the registry (built-in, config benchmark_zoo, benchmark_plugins)."""
        return self.registry.families.values()

    def _benchmark(self, identifier: str):
        """Parse a benchmark id with its config overrides; a bad id stops the run with the parser's message."""
        try:
            settings = (self.config.get("benchmark_settings") or {}).get(identifier)
            family = identifier.split("-", 1)[0].split(".", 1)[0]
            benchmark = self.registry.benchmark(identifier, settings, configured_access(self.config, family))
        except ValueError as error:
            raise PlanError(f"benchmark {identifier}: {error}") from None
        if settings and benchmark.family.sessions:  # (Family.sessions) its jobs are its sessions': so are its settings
            raise PlanError(f"config benchmark_settings.{identifier}: {identifier} averages its sessions' scores; "
                            f"give the settings to each session instead: {', '.join(benchmark.family.sessions)}")
        return benchmark

    def model(self, name: str) -> dict:
        """A model's config model_zoo entry."""
        zoo = self.config["model_zoo"]
        if name not in zoo:
            raise PlanError(f"model {name!r} is not in config model_zoo; known: {sorted(zoo)}")
        return zoo[name]

    def _dataset_family(self, dataset: str):
        """The (first) family whose recordings are ``dataset``: its public, private or train data set, or a train or
        test file of a joined data set (Allen2022); not a family averaging sessions (Family.sessions), which borrows
        its first session's."""
        families = [f for f in self.families if (dataset in f.recorded_datasets
                    or f.train_test and dataset in dict(f.train_test.files).values()) and not f.sessions]
        if not families:
            raise PlanError(f"no benchmark family uses data set {dataset!r}")
        return families[0]

    def definition(self, wildcards) -> dict:
        """Fingerprint of the family's definition, its version and ceiling, passed as a parameter: editing one
        family reruns its benchmarks' jobs and nothing else. A built-in family's is its module's stage code
        (``family:<module>`` in pipeline/stage_code.json: moving or rewording the module reruns nothing); a config
        entry's or plugin file's is the hash of its text (Family.fingerprint)."""
        b = self.benchmark(wildcards.benchmark)
        key = (b.family.origin, b.family.fingerprint)
        if key not in self._definition_codes:
            self._definition_codes[key] = definition_code(b.family)
        return {"family": self._definition_codes[key], "version": b.version, "ceiling": b.family.ceiling}

    def sessions_of(self, identifier: str) -> list[str]:
        """The session benchmarks a combined benchmark averages (Family.sessions), in the family's order."""
        return list(self.benchmark(identifier).family.sessions)


def definition_code(family) -> str:
    """The code fingerprint of a family's definition: for a built-in family (origin ``built-in (<module>)``) the
    stage code of its module, else the family's own fingerprint (the hash of its config entry or plugin file)."""
    origin = family.origin
    if not origin.startswith("built-in ("):
        return family.fingerprint
    return stage_code(f"family:{origin[len('built-in ('):-1].rsplit('.', 1)[-1]}")
