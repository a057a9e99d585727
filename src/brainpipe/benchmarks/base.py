"""What a benchmark is: a family (the data and the experiment's constants, declared as data) × a region × a metric.

An identifier is ``{family}.{region}-{metric}``, as Brain-Score names them (``MajajHong2015.IT-pls``), or, for
behaviour, ``{family}-{metric}`` with no region (``Rajalingham2018public-i2n``, ``Geirhos2021colour-top1``). The
family fixes the data (assembly + stimulus set) and the experiment's constants; the metric suffix picks the metric
(for behaviour: one of the family's :class:`Behaviour` entries).
Families come from three sources, all producing a :class:`Family` (see :mod:`brainpipe.benchmarks.registry`):
built-in modules in this package, ``benchmark_zoo:`` entries in the config, and users' plugin files.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, replace

from brainpipe.neural.metric_names import (MASK_METRICS, REGRESSION_METRICS, REPRESENTATIONAL_METRICS,
                                           REVERSE_METRICS, FIXED_TRAIN_TEST_METRICS, TEMPORAL_METRICS)

#: ``Family.region-metric`` (neural) or ``Family-metric`` (behaviour: no region). Family names may hold '_'
#: (Ferguson2024tilted_line); the first '-' ends the family. A metric may hold '-' (Brain-Score's
#: ``Zerbe2026_fmri.V1-tau-ridgecv``: a custom benchmark's metric names split and metric).
IDENTIFIER = re.compile(r"^(?P<family>[A-Za-z0-9_]+)(?:\.(?P<region>[A-Za-z0-9]+))?-(?P<metric>[a-z_0-9]+(?:-[a-z_0-9]+)*)$")
METRICS = (REGRESSION_METRICS + FIXED_TRAIN_TEST_METRICS + REPRESENTATIONAL_METRICS + TEMPORAL_METRICS + REVERSE_METRICS
           + MASK_METRICS)
#: Metrics a family offers only where its declaration lists them (allowed_metrics): adding one leaves every other
#: family's identifiers as they were
OPT_IN_METRICS = REVERSE_METRICS + MASK_METRICS

#: Per-benchmark settings (config ``benchmark_settings``) and their defaults (brain-score/vision
#: benchmark_helpers/neural_common.py and metrics/regression_correlation/metric.py: 10 splits, train 0.9, seed 1,
#: PLS 25 components; ridge alpha 1). ``visual_degrees`` defaults to the family's.
SETTING_DEFAULTS = {"splits": 10, "train_size": 0.9, "random_state": 1, "pls_components": 25, "ridge_alpha": 1.0}
SETTING_TYPES = {"splits": int, "train_size": float, "random_state": int, "pls_components": int,
                 "ridge_alpha": float, "visual_degrees": float}

#: How a raw score becomes a ceiled one (brain-score/vision benchmark_helpers/neural_common.py
#: ``explained_variance`` for regressions since Jan 2026; benchmarks/__init__.py for RSA/CKA).
NORMALISATIONS = ("raw2_over_ceiling", "raw_over_ceiling", "none")
CEILING_KINDS = ("internal_consistency", "none")  # or a fixed number, or "median_of:<neuroid coordinate>"
#: Split-half consistency of each neuroid, Spearman-Brown corrected, median over neuroids (Brain-Score's
#: SplitHalfPredictorConsistency, brain-score/vision metrics/predictor_consistency/ceiling.py; reverse_pls)
PREDICTOR_CONSISTENCY = "predictor_consistency"
#: A ceiling read from the data: the median over the scored neuroids of a per-neuroid reliability coordinate
#: (brain-score/vision brainscore_vision/benchmarks/li2026/benchmark.py ``_reliability_ceiling``).
MEDIAN_OF = "median_of:"


def closest(name, known):
    """' (did you mean X?)' for the nearest known name, or ''."""
    match = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean {match[0]!r}?)" if match else ""


#: BrainModel tasks (brain-score/vision model_helpers/brain_transformation/behavior.py) and what each reads.
BEHAVIOUR_TASKS = ("label", "probabilities", "odd_one_out")
BEHAVIOUR_NORMALISATIONS = ("raw_over_ceiling", "raw_over_sqrt_ceiling_per_split", "chance_corrected",
                            "raw_over_ceiling_squared")


@dataclass(frozen=True)
class Behaviour:
    """One behavioural benchmark of a family (the identifier's suffix): the task the model performs, the metric
    comparing its output with the human data, and how the raw score is ceiled. Plain data.

    ``ceiling``: 'computed' (the metric's ceiling on the human data, brainpipe.behaviour.metrics.ceiling) or a
    fixed number (Hebart2023 0.6767, Ferguson2024's precomputed ceilings, accuracy 1). ``choice_labels`` (label
    task): 'imagenet' (WordNet ids) or a tuple of labels mapped through ImageNet class indices. ``options``:
    ((key, value), ...) passed to the metric (e.g. ``skipna``, ``scale``, ``lapse_rate``, ``chance``).
    """

    name: str                          # identifier suffix: 'i2n', 'error_consistency', 'top1', 'match', ...
    task: str                          # one of BEHAVIOUR_TASKS
    metric: str                        # a brainpipe.behaviour.metrics metric
    normalisation: str = "raw_over_ceiling"  # one of BEHAVIOUR_NORMALISATIONS
    clip: bool = False                 # bound the ceiled score to [0, 1] (Brain-Score's bound_score)
    ceiling: str | float = "computed"
    visual_degrees: float | None = None  # None: the family's
    number_of_trials: int = 1
    parent: str | None = None          # Brain-Score's leaderboard parent ('behavior', 'Geirhos2021', ...)
    version: int = 1
    choice_labels: str | tuple = "imagenet"
    options: tuple = ()
    # Brain-Score's identifier where it is not '<Family>-<name>' (BMD2024.texture_1Behavioral-accuracy_distance,
    # Lonnqvist2024_EngineeringAccuracy): listed and parsed verbatim (see verbatim_identifiers)
    identifier: str | None = None


@dataclass(frozen=True)
class PropertyMeasure:
    """One properties benchmark of a family (the identifier's suffix): which single-neuron property of which
    property set is compared between the model's units and the recorded neurons (Brain-Score's PropertiesBenchmark,
    brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py). Plain data.

    ``property_set``: a key of :data:`brainpipe.properties.sets.PROPERTY_SETS` (``ringach2002``, ...) or
    ``plugin:<file>`` for a user's property function; ``stimulus_set``: the stimuli the property is measured on;
    ``dataset``: the neural property table (neuron × property, bins in its attributes ``<property>_bins``).
    """

    name: str                 # identifier suffix: 'or_bandwidth', 'circular_variance', ...
    property: str             # column of both property tables: 'bandwidth', 'circular_variance', ...
    property_set: str
    stimulus_set: str
    dataset: str
    parent: str | None = None
    version: int = 1


@dataclass(frozen=True)
class Neurons:
    """How model units become "neurons" before any property (brain-score/vision properties_common.py): the
    receptive-field and blank stimulus sets of the RF mapping, and the orientation set the affine map to firing
    rates is fitted on. ``name`` keys the cached stages (results/properties/<model>/<layer>/<name>/...)."""

    name: str
    receptive_field_stimulus_set: str
    blank_stimulus_set: str
    orientation_stimulus_set: str
    visual_degrees: float | None = None  # the three sets' degrees; None: the family's

    @property
    def stimulus_sets(self):
        return (self.receptive_field_stimulus_set, self.blank_stimulus_set, self.orientation_stimulus_set)


@dataclass(frozen=True)
class Temporal:
    """Time-resolved recordings scored per time bin by the temporal (spantime) metrics: ``window`` (ms) is cut into
    ``bin``-ms bins. ``alignment`` 'portion': the file's bins (MajajHong2015.temporal's sliding 20-ms windows) are
    resampled onto ``bin``-ms bins from the window's start to the file's last end, as Brain-Score's
    assembly_time_align does (brainpipe.data.time_align; the prepare_aligned_assembly stage); None: source bins
    inside each bin are averaged."""

    window: tuple                   # ms; the window cut into bins
    bin: int = 10                   # ms; the bin width
    alignment: str | None = None


@dataclass(frozen=True)
class TrainTest:
    """A fixed train/test design (Brain-Score's TrainTestNeuralBenchmark, benchmark_helpers/neural_common.py): one
    fit, no cross-validation, in one of two forms.

    Two data sets: the regression is fitted on ``dataset`` (shown as ``stimulus_set``) and scored on the family's
    own ``dataset`` (the test recordings, whose repetitions also give the ceiling). With the family's
    ``subject_coord`` a mapping is fitted per subject (its ``alpha_coord``), ceiled per subject and averaged.

    Joined files (Allen2022): ``files`` = (("train", data set key), ("test", data set key)) are joined into the
    family's ``dataset`` before preparing it (a presentation coordinate 'split':
    brainpipe.data.train_test.TRAIN_TEST_COORD) and their stimulus sets into its ``stimulus_set``; regressions fit
    on the train images and score the repetition-averaged test images (one fold), the ceiling reads the test
    repetitions only. (Two forms landed in parallel; folding ``dataset`` into ``files`` is left for later.)

    ``alphas``: the ridgecv alphas where not brainpipe.neural.gram_fit.ALPHA_LIST. ``score_per``: regressions
    scored per value of this neuroid coordinate (Brain-Score's alpha_coord, 'subject'): each value's median r
    squared over its own ceiling, averaged over the values.
    """

    dataset: str | None = None       # the train recordings (two data sets)
    stimulus_set: str | None = None  # the train stimuli (two data sets)
    files: tuple = ()                # (("train", key), ("test", key)) joined into one data set
    alphas: tuple | None = None
    score_per: str | None = None


@dataclass(frozen=True)
class Selection:
    """Recordings prepared with a selection (brainpipe.data.selection; Igustibagus2024): the neuroids whose mean
    split-half consistency over all trials exceeds ``consistency_threshold``, then only the presentations whose
    coordinates lie in ``presentation_filter`` ((coordinate, (values, ...)), ...). Cross-validation drops the train
    stimuli sharing a non-zero value of the presentation coordinate ``train_exclusion`` with the test stimuli
    (Brain-Score's igustibagus2024 ``_preprocess_indices`` on ``background_id``)."""

    consistency_threshold: float
    presentation_filter: tuple = ()
    train_exclusion: str | None = None


@dataclass(frozen=True)
class PrivateRecordings:
    """Brain-Score's default part of a family's recordings where it is not public (MajajHong2015.private): the
    data set and stimulus set a benchmark switches to with config ``data.access: private``."""

    dataset: str
    stimulus_set: str


@dataclass(frozen=True)
class Readout:
    """The stimuli a behavioural probabilities readout is fitted on, and their class column."""

    stimulus_set: str
    label_column: str = "image_label"


@dataclass(frozen=True)
class Family:
    """What a benchmark family measures: which data, shown how, split how, ceiled how. Plain data.

    ``origin`` says where the family was defined (shown by ``brainpipe list``) and ``fingerprint`` is a hash of that
    definition (module file, config entry or plugin file): it is a rule parameter, so editing a family reruns its
    benchmarks' jobs and nothing else.
    """

    name: str
    dataset: str                    # assembly key (catalog entry, or a generated data set's name)
    stimulus_set: str               # stimulus set id
    regions: tuple
    visual_degrees: float
    stratification: str | None      # presentation coordinate for stratified CV
    time_window: tuple = (70, 170)  # ms; bins inside are averaged into one
    temporal: Temporal | None = None  # time-resolved recordings: the bins of the temporal (spantime) metrics
    exact_time_bin: bool = False    # take the one bin equal to time_window instead of averaging those inside
    # Neuroids kept: ((coordinate, threshold), ...) keeps those whose coordinate exceeds each threshold (Li2026's
    # reliability_window > 0.4). single_response: the file holds one response per stimulus (no repetitions):
    # the target is the file's presentations in file order, as Brain-Score scores an assembly it does not average.
    neuroid_filter: tuple = ()
    single_response: bool = False
    # rdm compares one RDM per value of this neuroid coordinate (Brain-Score's RSABenchmark, ``subject``), ceiled
    # by the inter-subject consistency (RSACeiling)
    subject_coord: str | None = None
    # Presentations with a NaN are dropped (Brain-Score's Cadena2017 ``dropna('presentation')``): from the target
    # after repetition averaging (stimuli not shown to every neuroid), and from the trials the ceiling reads;
    # "target": from the target only (Brain-Score's Cadena2017-mask ceils on every trial)
    drop_nan_presentations: bool | str = False
    # Brain-Score names the family's one region in none of its identifiers ('Cadena2017-pls'): '<Family>-<metric>'
    region_in_identifier: bool = True
    # A function of brainpipe.data.reindex applied to the file on load, for files without the coordinates brainpipe
    # reads (Bracci2019: region from its roi codes, a neuroid id): Brain-Score's data plugins do the same on load
    reindex: str | None = None
    # ((recorded region, model region), ...): which of the model's committed layers stands for a recorded region
    # that models do not name (Bracci2019's anteriorVTC is the model's IT); unlisted regions are their own
    model_regions: tuple = ()
    # ((metric, region), ...): Brain-Score names the region inside the metric ('Islam2021-shape_v1_dimensionality',
    # region_in_identifier False): the family's metrics, and the region whose committed layer each one scores
    metric_regions: tuple = ()
    number_of_trials: int = 1
    source: str = "brainio"         # 'brainio' (fetched: Brain-Score's store, a URL or a local file) or 'demo'
    notes: str = ""
    fixed_train_test: bool = False          # stimuli carry a train/test 'split' column (for the *_split metrics)
    private: PrivateRecordings | None = None  # Brain-Score's default part of the recordings, if not public
    allowed_metrics: tuple | None = None     # None: every metric the data supports
    ceiling: str | float = "internal_consistency"  # or a fixed number, or 'none' (score = raw)
    version: int = 1
    parent: str | None = None       # leaderboard group; None = the region (V1, V2, V4, IT)
    bibtex: str = ""
    sources: tuple = ()             # upstream files every constant comes from
    coords: tuple = ()              # ((brainpipe name, name in the file), ...) for declared data
    origin: str = "built-in"
    fingerprint: str = ""
    plugin: object = field(default=None, compare=False, repr=False)  # a CustomBenchmark for custom logic
    # Behaviour (regions = ()): the benchmarks (identifier suffix -> task, metric, ceiling), the stimuli a
    # probabilities readout is fitted on, and the conditions dropped from the human data before scoring.
    behaviours: tuple = ()
    readout: Readout | None = None
    exclude_conditions: tuple = ()
    # Properties (Brain-Score's PropertiesBenchmark pattern): the measures (identifier suffix -> property) and how
    # units become neurons. Identifiers are '<Family>-<measure>' (no region: the family's one region, V1).
    properties: tuple = ()
    neurons: Neurons | None = None
    # A fixed train/test design: one fit, no cross-validation (Brain-Score's TrainTestNeuralBenchmark)
    train_test: TrainTest | None = None
    # (start, stop, expected): an EEG file's time bins starting within [start, stop] (the file's unit), exactly
    # ``expected`` of them, each scored as a neuroid of its own (Gifford2022; brainpipe.data.time_points)
    time_points: tuple | None = None
    # Brain-Score's identifiers kept verbatim for a neural family whose identifiers do not read
    # '<Family>.<region>-<metric>' of its own name: ((identifier, region, metric), ...). Where set, these are the
    # family's identifiers (MajajHong2015public.V4-reverse_pls is Brain-Score's muzellec2026 plugin, on
    # MajajHong2015's data but not one of brainpipe's MajajHong2015public benchmarks)
    identifiers: tuple = ()
    # Recordings prepared with a selection of neuroids and presentations (Igustibagus2024); None: the ordinary
    # preparation
    selection: Selection | None = None
    # A benchmark averaged over separately recorded sessions, each with its own images and neurons (Brain-Score's
    # Cowley2026 ``_CombinedNeuralBenchmark``): the identifiers of the session benchmarks (each an ordinary
    # benchmark of a family of its own), scored separately and averaged per layer (score, raw and ceiling the
    # sessions' means; workflow/rules/sessions.smk). The family's own data set is the first session's.
    sessions: tuple = ()
    # ((metric, ((setting, default), ...)), ...): a metric's defaults where Brain-Score's differ from
    # SETTING_DEFAULTS (Cadena2017-mask: 4 cross-validation splits); the config's benchmark_settings still win
    metric_settings: tuple = ()
    # a behavioural family whose stimulus sets are too large to extract together with its paper's other sets
    # (ImageNet, ImageNet-C, ObjectNet: 17,000 to 1,000,000 images a set): a job per set, as for neural families
    # (brainpipe.pipeline.plan.activations.extraction_group)
    extract_per_stimulus_set: bool = False

    @property
    def is_behavioural(self):
        return bool(self.behaviours)

    def behaviour(self, name):
        return next(b for b in self.behaviours if b.name == name)

    @property
    def is_properties(self):
        return bool(self.properties)

    def measure(self, name):
        return next(m for m in self.properties if m.name == name)

    @property
    def metrics(self):
        """The metrics this family's data supports (and its declaration allows)."""
        if self.behaviours:
            return tuple(b.name for b in self.behaviours)
        if self.properties:
            return tuple(m.name for m in self.properties)
        if self.metric_regions:  # metrics naming their region (Islam2021-shape_v1_dimensionality)
            return tuple(metric for metric, _ in self.metric_regions)
        if self.plugin is not None:  # a plugin serving several metrics lists them (CustomBenchmark.metrics)
            return tuple(getattr(self.plugin, "metrics", ()) or (self.plugin.metric,))
        supported = tuple(m for m in METRICS if (m not in TEMPORAL_METRICS or self.temporal)
                          and (m not in FIXED_TRAIN_TEST_METRICS or self.fixed_train_test)
                          and (m not in OPT_IN_METRICS or m in (self.allowed_metrics or ())))
        if self.allowed_metrics is not None:
            return tuple(m for m in supported if m in self.allowed_metrics)
        return supported

    @property
    def stimulus_sets(self):
        sets = {s for s in (self.stimulus_set, self.private and self.private.stimulus_set,
                            self.readout and self.readout.stimulus_set,
                            self.train_test and self.train_test.stimulus_set) if s}
        sets |= {m.stimulus_set for m in self.properties}
        # a label task masked by the model's choices on base images reads those too (Kato2026's Ori / Sil)
        sets |= {dict(b.options)["base_stimulus_set"] for b in self.behaviours if "base_stimulus_set" in dict(b.options)}
        return sets | set(self.neurons.stimulus_sets if self.neurons else ())

    @property
    def recorded_datasets(self) -> tuple:
        """The data sets of the family's own recordings: its (public) one, its private part's and its train part's."""
        return tuple(d for d in (self.dataset, self.private and self.private.dataset,
                                 self.train_test and self.train_test.dataset) if d)

    @property
    def bibtex_key(self):
        """The citation key of the bibtex entry (``@article{majaj2015simple, ...}`` → ``majaj2015simple``)."""
        head = self.bibtex.split(",", 1)[0]
        return head.split("{", 1)[1].strip() if "{" in head else ""


@dataclass(frozen=True)
class Benchmark:
    identifier: str
    family_name: str
    family: Family
    region: str | None              # None for behaviour
    metric: str
    settings: dict = field(default_factory=dict, compare=False)

    @property
    def behaviour(self) -> Behaviour | None:
        return self.family.behaviour(self.metric) if self.family.behaviours else None

    @property
    def measure(self) -> PropertyMeasure | None:
        return self.family.measure(self.metric) if self.family.properties else None

    @property
    def kind(self):
        if self.family.behaviours:
            return "behaviour"
        if self.family.properties:
            return "properties"
        if self.family.plugin is not None:
            return "custom"
        if self.metric in REPRESENTATIONAL_METRICS:
            return "representational"
        if self.metric in TEMPORAL_METRICS:
            return "temporal"
        if self.metric in REVERSE_METRICS:  # the recordings predict the model's units (no Gram fit)
            return "reverse"
        return "regression"

    @property
    def visual_degrees(self):
        return self.settings.get("visual_degrees", self.family.visual_degrees)

    @property
    def recorded_settings(self) -> dict:
        """The settings a score JSON records (``data.settings``): those its computation reads. A behavioural or
        properties benchmark reads only its visual degrees (no folds, no regression); a neural one the fold
        settings and its own regression's parameter (pls_components for PLS, ridge_alpha for ridge). A plugin's
        are all kept (it may read any)."""
        if self.kind in ("behaviour", "properties"):
            return {"visual_degrees": self.visual_degrees}
        if self.kind == "custom":
            return dict(self.settings)
        regression = self.metric.removesuffix("_split").removeprefix("spantime_").removeprefix("reverse_")
        unused = {"pls": ("ridge_alpha",), "ridge": ("pls_components",)}.get(regression,
                                                                          ("pls_components", "ridge_alpha"))
        return {key: value for key, value in self.settings.items() if key not in unused}

    @property
    def model_region(self):
        """The model region whose committed layer is scored (the recorded region unless the family maps it)."""
        return dict(self.family.model_regions).get(self.region, self.region)

    @property
    def n_folds(self):
        """Independent jobs the metric is fitted in: CV folds, or 1 for a fixed split / a whole-set comparison."""
        if self.kind in ("custom", "behaviour", "properties") or self.metric in FIXED_TRAIN_TEST_METRICS or self.metric in ("rdm", "cka", "cka_biased"):
            return 1
        train_test = self.family.train_test
        if train_test and (train_test.dataset or (train_test.files and self.kind == "regression")):
            return 1  # one fit: the data's own train/test design
        return int(self.settings.get("splits", SETTING_DEFAULTS["splits"]))

    @property
    def parent(self):
        if self.behaviour is not None:
            return self.behaviour.parent or self.family.parent or "behavior"
        if self.measure is not None:
            return self.measure.parent or self.family.parent or self.region
        if hasattr(self.family.plugin, "parent_of"):  # a plugin whose metrics have different parents (Zerbe2026)
            return self.family.plugin.parent_of(self.region)
        return self.family.parent or self.region

    @property
    def version(self):
        if self.measure is not None:
            return self.measure.version
        return self.behaviour.version if self.behaviour is not None else self.family.version

    @property
    def access(self):
        """Which part of its recordings the benchmark scores on: 'public' or 'private' where Brain-Score publishes a
        data set in two parts (the data set key says which: MajajHong2015.public), else 'all' (Brain-Score's
        ``access`` of a data set)."""
        return access_of(self.family.dataset)

    @property
    def normalisation(self):
        """raw → ceiled: raw²/ceiling for regressions, raw/ceiling for similarity metrics, raw when no ceiling;
        for behaviour the benchmark's own (brainpipe.behaviour.normalise kinds)."""
        if self.behaviour is not None:
            return self.behaviour.normalisation
        if self.kind == "properties":  # brain-score/vision benchmarks/__init__.py ceil_score: raw / ceiling
            return "raw_over_ceiling"
        if self.family.ceiling == "none":
            return "none"
        if self.kind == "custom":
            return self.family.plugin.normalisation
        return "raw_over_ceiling" if self.kind == "representational" else "raw2_over_ceiling"

    def metadata(self):
        """What every score JSON says about the benchmark (Brain-Score's version / parent / bibtex, our origin)."""
        return {"version": self.version, "parent": self.parent, "bibtex_key": self.family.bibtex_key,
                "bibtex": self.family.bibtex,
                "origin": self.family.origin, "definition": self.family.fingerprint}


#: The two parts Brain-Score publishes some data sets in (its ``access`` of a data set; config ``data.access``).
ACCESS_LEVELS = ("public", "private")


def access_of(dataset):
    """'public' / 'private' for a data set key ending so (MajajHong2015.private), else 'all' (the whole data set)."""
    part = str(dataset).rsplit(".", 1)[-1]
    return part if "." in str(dataset) and part in ACCESS_LEVELS else "all"


def configured_access(config, family_name):
    """The part of ``family_name``'s recordings the config asks for (``data.access``; ``data.splits`` is its name
    before brainpipe 0.3, still read), or None (public). A family named under both with two values is an error."""
    data = (config or {}).get("data") or {}
    chosen, old = (data.get("access") or {}).get(family_name), (data.get("splits") or {}).get(family_name)
    if chosen is not None and old is not None and chosen != old:
        raise ValueError(f"config data.access.{family_name} is {chosen!r} but data.splits.{family_name} (its old "
                         f"name) is {old!r}: keep data.access only")
    return chosen if chosen is not None else old


def resolve_settings(identifier, family, settings=None):
    """The benchmark's settings with every default filled in and types normalised, so that writing a default out
    in the config gives the same rule parameters (and so the same cached results) as leaving it out. A bad
    setting is a ValueError naming the benchmark, as every other error of :func:`build`."""
    settings = dict(settings or {})
    unknown = [key for key in settings if key not in SETTING_TYPES]
    if unknown:
        raise ValueError(f"benchmark {identifier!r}: unknown setting {unknown[0]!r}"
                         f"{closest(unknown[0], SETTING_TYPES)}; known: {sorted(SETTING_TYPES)}")
    degrees = family.visual_degrees
    if family.behaviours:  # a behavioural benchmark may show its stimuli at other degrees (Geirhos2021 3° vs top1)
        behaviour = next((b for b in family.behaviours if b.identifier == identifier), None) or next(
            (b for b in family.behaviours if b.identifier is None and identifier.endswith(f"-{b.name}")), None)
        if behaviour is not None and behaviour.visual_degrees is not None:
            degrees = behaviour.visual_degrees
    resolved = dict(SETTING_DEFAULTS, visual_degrees=degrees)
    for metric, defaults in family.metric_settings:  # the metric's own defaults (Family.metric_settings)
        if identifier.endswith(f"-{metric}"):
            resolved.update(defaults)
    for key, value in settings.items():
        try:
            resolved[key] = SETTING_TYPES[key](value)
        except (TypeError, ValueError):
            raise ValueError(f"benchmark {identifier!r}: setting {key}: expected a {SETTING_TYPES[key].__name__}, "
                             f"got {value!r}") from None
    resolved["visual_degrees"] = float(resolved["visual_degrees"])
    return resolved


def verbatim_identifiers(families) -> dict:
    """{identifier: (family name, behaviour or metric name)} of the benchmarks that keep Brain-Score's own
    identifier because it does not read '<Family>-<metric>' (Behaviour.identifier) or names another family's
    data (Family.identifiers: see :func:`neural_verbatim_identifiers` for their regions)."""
    verbatim = {b.identifier: (name, b.name) for name, family in families.items() for b in family.behaviours
                if b.identifier}
    verbatim.update({i: (name, metric) for i, (name, _, metric) in neural_verbatim_identifiers(families).items()})
    return verbatim


def neural_verbatim_identifiers(families) -> dict:
    """{identifier: (family name, region, metric)} of the neural families' verbatim identifiers (Family.identifiers)."""
    return {identifier: (name, region, metric) for name, family in families.items()
            for identifier, region, metric in family.identifiers}


def build(identifier, families, settings=None) -> Benchmark:
    """Parse and check ``identifier`` against ``families`` (name → Family); ValueError naming what is unknown."""
    neural = neural_verbatim_identifiers(families).get(identifier)
    if neural is not None:  # a neural identifier Brain-Score spells its own way (Family.identifiers)
        name, region, metric = neural
        resolved = resolve_settings(identifier, families[name], settings)
        return Benchmark(identifier, name, families[name], region, metric, resolved)
    verbatim = verbatim_identifiers(families).get(identifier)
    if verbatim is not None:
        name, metric = verbatim
        resolved = resolve_settings(identifier, families[name], settings)
        return Benchmark(identifier, name, families[name], None, metric, resolved)
    match = IDENTIFIER.match(identifier)
    if not match:
        raise ValueError(f"benchmark {identifier!r}: expected '<Family>.<region>-<metric>', e.g. MajajHong2015.IT-pls "
                         f"(or '<Family>-<metric>' for behaviour, e.g. Rajalingham2018public-i2n)")
    name, region, metric = match.group("family", "region", "metric")
    if name not in families:
        raise ValueError(f"benchmark {identifier!r}: unknown family {name!r}{closest(name, families)}; "
                         f"`brainpipe list` shows the {len(families)} known families and their benchmarks")
    family = families[name]
    if family.identifiers:
        raise ValueError(f"benchmark {identifier!r}: {name}'s benchmarks are named as Brain-Score names them: "
                         f"{[i for i, _, _ in family.identifiers]}")
    if family.properties:  # '<Family>-<measure>': the region is the family's one (Brain-Score names none)
        if region is not None:
            raise ValueError(f"benchmark {identifier!r}: {name} is a properties benchmark named without a region; "
                             f"write '{name}-{metric}'")
        if metric not in family.metrics:
            raise ValueError(f"benchmark {identifier!r}: {name} has no property {metric!r}"
                             f"{closest(metric, family.metrics)}; its properties: {list(family.metrics)}")
        resolved = resolve_settings(identifier, family, settings)
        measure = family.measure(metric)  # the measure's own data and stimuli (DeValois1982 has two of each)
        family = replace(family, dataset=measure.dataset, stimulus_set=measure.stimulus_set)
        return Benchmark(identifier, name, family, family.regions[0], metric, resolved)
    if family.behaviours:
        if region is not None:
            raise ValueError(f"benchmark {identifier!r}: {name} is behavioural and has no regions; "
                             f"write '{name}-{metric}'")
        if metric not in family.metrics:
            raise ValueError(f"benchmark {identifier!r}: {name} has no behavioural metric {metric!r}"
                             f"{closest(metric, family.metrics)}; its metrics: {list(family.metrics)}")
        resolved = resolve_settings(identifier, family, settings)
        return Benchmark(identifier, name, family, None, metric, resolved)
    if not family.region_in_identifier:  # 'Cadena2017-pls': the family's one region, unnamed
        if region is not None:
            raise ValueError(f"benchmark {identifier!r}: Brain-Score names {name}'s benchmarks without a region; "
                             f"write '{name}-{metric}'")
        region = dict(family.metric_regions).get(metric, family.regions[0])
    if region is None:
        raise ValueError(f"benchmark {identifier!r}: {name} is neural; name a region: '{name}.<region>-{metric}' "
                         f"with region in {list(family.regions)}")
    if region not in family.regions:
        raise ValueError(f"benchmark {identifier!r}: {name} has no region {region!r}; it has {list(family.regions)}")
    if family.plugin is None and metric not in METRICS:
        raise ValueError(f"benchmark {identifier!r}: unknown metric {metric!r}{closest(metric, METRICS)}; "
                         f"known: {list(METRICS)}")
    if metric not in family.metrics:
        if metric in TEMPORAL_METRICS and not family.temporal:
            why = f"needs time-resolved recordings, which {name} does not have"
        elif metric in FIXED_TRAIN_TEST_METRICS and not family.fixed_train_test:
            why = f"needs a fixed train/test split, which {name} does not have"
        else:
            why = f"is not declared by {name}"
        raise ValueError(f"benchmark {identifier!r}: metric {metric!r} {why}; its metrics: {list(family.metrics)}")
    resolved = resolve_settings(identifier, family, settings)
    if family.plugin is not None and (getattr(family.plugin, "metrics", ()) or family.metric_regions):
        # one plugin class, several metrics (Zerbe2026's four, Islam2021's factor × region): set to this one
        family = replace(family, plugin=family.plugin.for_metric(metric))
    return Benchmark(identifier, name, family, region, metric, resolved)


def with_access(benchmark: Benchmark, access) -> Benchmark:
    """Switch a family that has private recordings (Brain-Score's default for MajajHong2015.* and
    FreemanZiemba2013.*) to them. ``access`` is 'public' (brainpipe's default: downloadable) or 'private'."""
    if access in (None, "public"):
        return benchmark
    if access != "private":
        raise ValueError(f"access must be 'public' or 'private', got {access!r}")
    family = benchmark.family
    if family.private is None:
        raise ValueError(f"benchmark family {benchmark.family_name} has no private recordings")
    family = replace(family, dataset=family.private.dataset, stimulus_set=family.private.stimulus_set,
                     notes=f"private recordings ({family.private.dataset})")
    return replace(benchmark, family=family)
