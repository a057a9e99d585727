"""Pattern "declared", behavioural: a family of human-behaviour benchmarks from a ``benchmark_zoo:`` entry, no code.

Example (README, "Your own benchmark")::

    benchmark_zoo:
      MyChoices2024:
        stimuli: {csv: data/my/stimulus_MyChoices2024.csv, zip: data/my/stimulus_MyChoices2024.zip}
        behaviour: {file: data/my/assy_MyChoices2024.nc, sha1: ...}   # human trials (`brainpipe package --choices`)
        task: label                         # label | probabilities | odd_one_out
        labels: [dog, cat, car, truck]      # label: names mapped to ImageNet classes, or {plane: [airplane, 895]}
        metrics: [error_consistency, accuracy]
        visual_degrees: 8

Each metric becomes ``<Family>-<metric>`` (no region) and runs through the same stages as the built-in behavioural
families (brainpipe.behaviour.stages): the model's task on cached activations, the metric's ceiling on the human
data (or a declared number), the ceiled score. The defaults per metric are those of the Brain-Score benchmarks that
use it (:data:`METRIC_DEFAULTS`).
"""

from __future__ import annotations

import hashlib
import json

from .base import BEHAVIOUR_NORMALISATIONS, Behaviour, Family, Readout, closest
from .declared import _checked_coords, _fail, _remote, _unknown_keys
from brainpipe.data.catalog import AssemblyEntry, StimulusSetEntry

KEYS = {"stimuli", "stimulus_set", "behaviour", "task", "labels", "fitting_stimuli", "fitting_label_column",
        "metrics", "ceiling", "normalisation", "clip", "options", "visual_degrees", "number_of_trials", "version",
        "parent", "bibtex", "notes"}
REQUIRED = ("stimuli", "behaviour", "task", "visual_degrees")
BEHAVIOUR_KEYS = {"file", "sha1", "coords"}
#: Coordinates of the human trials the metrics read, by Brain-Score's names (``coords`` maps them to the file's).
#: Not ``stimulus_id``: the stimulus columns are merged by it when the file is read (a file may say ``image_id``).
COORDS = ("subject", "truth", "condition", "sample_obj", "dist_obj", "image_1", "image_2", "image_3",
          "participant_id", "block", "correct", "distractor_nums", "trial_type")
OPTION_KEYS = {"lapse_rate", "scale", "chance", "similarity", "variables", "ceiling_skipna"}

#: metric -> (task, default ceiling, default normalisation, default clip), from the Brain-Score benchmarks that use
#: the metric (brain-score/vision brainscore_vision/benchmarks/): geirhos2021/benchmark.py (error consistency:
#: computed, raw/ceiling bounded to [0, 1]; top-1 accuracy: ceiling 1, not bounded), rajalingham2018/benchmarks/
#: benchmark.py (i2n: per-split r_k/sqrt(c_k), not bounded), hebart2023/benchmark.py (odd-one-out match: a fixed
#: ceiling, chance-corrected, bounded), ferguson2024/benchmark.py (value delta: raw/ceiling bounded);
#: accuracy_distance (scialom2024 et al.) with benchmarks/__init__.py ``ceil_score``: raw/ceiling, not bounded.
METRIC_DEFAULTS = {
    "error_consistency": ("label", "computed", "raw_over_ceiling", True),
    "accuracy": ("label", 1.0, "raw_over_ceiling", False),
    "accuracy_distance": ("label", "computed", "raw_over_ceiling", False),
    "i2n": ("probabilities", "computed", "raw_over_sqrt_ceiling_per_split", False),
    "i1": ("probabilities", "computed", "raw_over_sqrt_ceiling_per_split", False),
    "value_delta": ("probabilities", "computed", "raw_over_ceiling", True),
    "odd_one_out_match": ("odd_one_out", None, "chance_corrected", True),
}
TASKS = ("label", "probabilities", "odd_one_out")


def is_behavioural(entry) -> bool:
    """A benchmark_zoo entry declares behaviour when it names human trials (``behaviour:``) instead of recordings."""
    return isinstance(entry, dict) and "behaviour" in entry


def _labels(name, value):
    """``labels``: 'imagenet', a list of label names, or {label: ImageNet classes} (brainpipe.behaviour.label_sets:
    indices, WordNet ids, ImageNet class names or labels brainpipe maps, mixed)."""
    from brainpipe.behaviour.label_sets import LabelSetError, accepted_forms, label_set
    try:
        return label_set(value)
    except LabelSetError as error:
        if error.unmapped:
            example = ", ".join(f"{label}: [<ImageNet classes>]" for label in error.unmapped)
            _fail(name, error.key, f"{error.message}; map it yourself: labels: {{{example}, ...}}, each label to one "
                                   f"or a list of: {accepted_forms()}")
        _fail(name, error.key, error.message)


def _per_metric(name, entry, key, metric, default):
    """A setting given once for every metric, or as {metric: value}."""
    value = entry.get(key, default)
    if isinstance(value, dict):
        unknown = [m for m in value if m not in METRIC_DEFAULTS]
        if unknown:
            _fail(name, f"{key}.{unknown[0]}", f"not a behavioural metric{closest(unknown[0], METRIC_DEFAULTS)}")
        return value.get(metric, default)
    return value


def _behaviour(name, entry, metric, task, labels, options) -> Behaviour:
    wanted_task, ceiling_default, normalisation_default, clip_default = METRIC_DEFAULTS[metric]
    if wanted_task != task:
        _fail(name, "metrics", f"metric {metric!r} compares the {wanted_task!r} task's output, but task is {task!r}; "
                               f"metrics of {task!r}: {[m for m, d in METRIC_DEFAULTS.items() if d[0] == task]}")
    ceiling = _per_metric(name, entry, "ceiling", metric, ceiling_default or "computed")
    if isinstance(ceiling, bool) or not (ceiling == "computed" or isinstance(ceiling, (int, float)) and 0 < ceiling <= 1):
        _fail(name, "ceiling", f"expected computed or a number in (0, 1] (for {metric}), got {ceiling!r}")
    if ceiling == "computed" and ceiling_default is None:
        _fail(name, "ceiling", f"{metric} has no ceiling computed from the data (one choice per triplet gives no "
                               f"split-half); declare the number, e.g. ceiling: 0.6767 (Hebart2023's, from the paper)")
    per_split = normalisation_default == "raw_over_sqrt_ceiling_per_split"
    if per_split and ceiling != "computed":  # a number has no splits to divide by
        normalisation_default = "raw_over_ceiling"
    normalisation = _per_metric(name, entry, "normalisation", metric, normalisation_default)
    if normalisation not in BEHAVIOUR_NORMALISATIONS:
        _fail(name, "normalisation", f"unknown {normalisation!r}{closest(normalisation, BEHAVIOUR_NORMALISATIONS)}; "
                                     f"known: {list(BEHAVIOUR_NORMALISATIONS)}")
    if normalisation == "raw_over_sqrt_ceiling_per_split" and (metric not in ("i1", "i2n") or ceiling != "computed"):
        _fail(name, "normalisation", "raw_over_sqrt_ceiling_per_split needs per-split raw scores and ceilings: "
                                     "metrics i1/i2n with ceiling: computed")
    clip = _per_metric(name, entry, "clip", metric, clip_default)
    if not isinstance(clip, bool):
        _fail(name, "clip", f"expected true or false, got {clip!r}")
    if metric == "value_delta" and "lapse_rate" not in options:
        _fail(name, "options.lapse_rate", "value_delta needs the human lapse rate (Ferguson2024's per experiment)")
    return Behaviour(metric, task=task, metric=metric, normalisation=normalisation, clip=clip,
                     ceiling=float(ceiling) if ceiling != "computed" else "computed",
                     number_of_trials=int(entry.get("number_of_trials", 1)), parent=entry.get("parent"),
                     version=int(entry.get("version", 1)), choice_labels=labels if task == "label" else "imagenet",
                     options=tuple(sorted(options.items())))


def _options(name, entry, metrics):
    options = entry.get("options") or {}
    if not isinstance(options, dict):
        _fail(name, "options", f"expected a mapping, got {options!r}")
    _unknown_keys(name, "options", options, OPTION_KEYS)
    options = {key: tuple(value) if isinstance(value, list) else value for key, value in options.items()}
    if "similarity" in options and options["similarity"] not in ("dot", "cosine"):
        _fail(name, "options.similarity", f"expected dot or cosine, got {options['similarity']!r}")
    if "i2n" in metrics or "i1" in metrics:
        # a lab's trials rarely fill every image × offered object in both split halves; Brain-Score's public i2n
        # benchmark (rajalingham2018/benchmarks/benchmark.py) skips such missing cells in its ceiling, and so do we
        options.setdefault("ceiling_skipna", True)
    if "odd_one_out_match" in metrics:
        options.setdefault("chance", 1 / 3)
    return options


def declared_behaviour_family(name: str, entry: dict) -> tuple[Family, dict, dict]:
    """(family, {dataset: AssemblyEntry}, {stimulus set: StimulusSetEntry}) of one behavioural benchmark_zoo entry;
    ValueError naming the key for anything malformed."""
    if not name.isalnum():
        _fail(name, "", "a family name is letters and digits only (it becomes '<name>-<metric>')")
    _unknown_keys(name, "", entry, KEYS)
    for key in REQUIRED:
        if key not in entry:
            _fail(name, key, "missing (required for a behavioural entry: " + ", ".join(REQUIRED) + ")")
    stimuli, human = entry["stimuli"], entry["behaviour"]
    if not isinstance(stimuli, dict) or "csv" not in stimuli or "zip" not in stimuli:
        _fail(name, "stimuli", "expected {csv: <path or URL>, zip: <path or URL>} (make them with `brainpipe package`)")
    if not isinstance(human, dict) or "file" not in human:
        _fail(name, "behaviour", "expected {file: <NetCDF of the human trials>, sha1: ..., coords: {...}} "
                                 "(make it from a CSV of trials with `brainpipe package --choices`)")
    _unknown_keys(name, "behaviour", human, BEHAVIOUR_KEYS)
    coords = _checked_coords(name, "behaviour", human, COORDS)

    task = entry["task"]
    if task not in TASKS:
        _fail(name, "task", f"unknown task {task!r}{closest(task, TASKS)}; known: {list(TASKS)}")
    # default: every metric of the task that needs no more than subject, stimulus, choice (and truth / distractor)
    metrics = entry.get("metrics") or [m for m, d in METRIC_DEFAULTS.items() if d[0] == task and m != "value_delta"]
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        _fail(name, "metrics", f"expected a list of behavioural metric names, got {metrics!r}")
    for metric in metrics:
        if metric not in METRIC_DEFAULTS:
            _fail(name, "metrics", f"unknown behavioural metric {metric!r}{closest(metric, METRIC_DEFAULTS)}; known: "
                                   f"{list(METRIC_DEFAULTS)}")
    labels = _labels(name, entry.get("labels")) if task == "label" else None
    if task != "label" and "labels" in entry:
        _fail(name, "labels", f"only the label task reads labels; task is {task!r}")
    options = _options(name, entry, metrics)
    behaviours = tuple(_behaviour(name, entry, metric, task, labels, options) for metric in metrics)

    stimulus_set = str(entry.get("stimulus_set", name))  # a shared name: one stimulus set with a neural entry
    if not stimulus_set.replace("_", "").isalnum():
        _fail(name, "stimulus_set", f"letters, digits and '_' only, got {stimulus_set!r}")
    csv = _remote(name, "stimuli.csv", stimuli["csv"], stimuli.get("csv_sha1"), f"stimulus_{stimulus_set}.csv")
    zip_ = _remote(name, "stimuli.zip", stimuli["zip"], stimuli.get("zip_sha1"), f"stimulus_{stimulus_set}.zip")
    nc = _remote(name, "behaviour.file", human["file"], human.get("sha1"), f"assy_{name}.nc")
    stimulus_sets = {stimulus_set: StimulusSetEntry(stimulus_set, csv, zip_)}
    fitting_set = None
    if task == "probabilities":
        fitting = entry.get("fitting_stimuli")
        if fitting is None:  # the readout is fitted on the test images themselves (as Rajalingham2018public)
            fitting_set = stimulus_set
        else:
            if not isinstance(fitting, dict) or "csv" not in fitting or "zip" not in fitting:
                _fail(name, "fitting_stimuli", "expected {csv: ..., zip: ...}: the images the readout is fitted on, "
                                               "with a label column (fitting_label_column, default image_label)")
            fitting_set = f"{name}_fitting"
            stimulus_sets[fitting_set] = StimulusSetEntry(
                fitting_set, _remote(name, "fitting_stimuli.csv", fitting["csv"], fitting.get("csv_sha1"),
                                     f"stimulus_{fitting_set}.csv"),
                _remote(name, "fitting_stimuli.zip", fitting["zip"], fitting.get("zip_sha1"),
                        f"stimulus_{fitting_set}.zip"))
    elif "fitting_stimuli" in entry or "fitting_label_column" in entry:
        _fail(name, "fitting_stimuli", f"only the probabilities task fits a readout; task is {task!r}")
    label_column = entry.get("fitting_label_column", "image_number" if "value_delta" in metrics else "image_label")
    fingerprint = hashlib.sha1(json.dumps(entry, sort_keys=True, default=str).encode()).hexdigest()[:12]
    try:
        family = Family(
            name=name, dataset=name, stimulus_set=stimulus_set, regions=(),
            visual_degrees=float(entry["visual_degrees"]), stratification=None, source="brainio",
            notes=str(entry.get("notes", "")), version=int(entry.get("version", 1)), parent=entry.get("parent"),
            bibtex=str(entry.get("bibtex", "")), coords=tuple(sorted(coords.items())),
            origin=f"config benchmark_zoo.{name}", fingerprint=fingerprint, behaviours=behaviours,
            readout=Readout(fitting_set, label_column=str(label_column)) if fitting_set else None)
    except (TypeError, ValueError) as error:
        _fail(name, "", f"a value has the wrong type ({error})")
    return family, {name: AssemblyEntry(name, nc, stimulus_set)}, stimulus_sets
