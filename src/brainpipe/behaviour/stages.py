"""The behavioural benchmark as workflow stages: the model's task on cached features, the raw score, the ceiling
and the ceiled score, each with JSON-ready results. Used by workflow/scripts/behaviour_task.py, ceiling.py,
fit_fold.py and brainpipe.pipeline.scoring; usable from Python alike.

A benchmark here is a :class:`brainpipe.benchmarks.Benchmark` whose family declares ``behaviours`` (see
brainpipe.benchmarks.base.Behaviour): the task the model performs, the metric, the ceiling and its normalisation.
The raw score, the ceiling and the metric's checks are looked up by the metric's name
(:mod:`brainpipe.behaviour.metric_registry`); the metrics any family may use register at the end of this module.
Upstream: brain-score/vision brainscore_vision/benchmarks/{rajalingham2018,geirhos2021,hebart2023,ferguson2024}.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import xarray as xr

from . import value_delta
from ._common import Result, as_text, coord, levels, require_coords, responses, source_name, where
from .ceiled import aggregate, declared_ceiling, from_json, to_json  # noqa: F401  (kept importable here)
from .metric_registry import lookup, register_metric

# metrics and tasks (scikit-learn, scipy) are imported where used: the workflow imports task_key at parse time.


def options(behaviour) -> dict:
    return dict(behaviour.options)


def task_key(behaviour, family, fitting_stimuli: str | None = None) -> str:
    """The folder name of a task's output under results/behaviour/<model>/: what the output depends on besides
    the model and the test stimuli (label set, fitting stimuli as the model saw them, similarity and triplets)."""
    if behaviour.task == "label":
        if behaviour.choice_labels == "imagenet":
            return "label"
        # a (label, imagenet indices) pair counts with its indices; plain names hash as they always did
        labels = "|".join(entry if isinstance(entry, str) else f"{entry[0]}={','.join(map(str, entry[1]))}"
                          for entry in behaviour.choice_labels)
        key = f"label-{len(behaviour.choice_labels)}labels-{hashlib.sha1(labels.encode()).hexdigest()[:8]}"
        opts = options(behaviour)
        if opts.get("labels_from_truth"):  # the data set's own truth labels come first (Kato2026)
            key = f"label-truth-{family.dataset}-plus-{len(behaviour.choice_labels)}labels-" \
                  f"{hashlib.sha1(labels.encode()).hexdigest()[:8]}"
        columns = opts.get("stimulus_columns")
        if columns:  # the output carries these stimulus-set columns (another file than the plain labels)
            key += f"-columns-{hashlib.sha1('|'.join(columns).encode()).hexdigest()[:8]}"
        if opts.get("aggregation", "mean") != "mean":
            key += f"-{opts['aggregation']}"
        if opts.get("base_stimulus_set"):  # masked where the model is wrong on the base images (as it saw them)
            key += f"-base-{fitting_stimuli}"
        return key
    if behaviour.task == "probabilities":  # value_delta: labels = parity of image_number, choices need the test table
        key = f"probabilities-fit-{fitting_stimuli}" + ("-oddball_parity" if behaviour.metric == "value_delta" else "")
        columns = options(behaviour).get("stimulus_columns")
        if columns:  # the output carries these test stimulus-set columns (Maniquet2024)
            key += f"-columns-{hashlib.sha1('|'.join(columns).encode()).hexdigest()[:8]}"
        return key
    return f"odd_one_out-{options(behaviour).get('similarity', 'dot')}-{family.dataset}"


def with_stimulus_columns(features: xr.DataArray, table: pd.DataFrame, columns) -> xr.DataArray:
    """``features`` with stimulus-set columns added along presentation by ``stimulus_id``; ValueError naming the
    column and the stimulus set when one is missing."""
    ids = as_text(coord(features, "stimulus_id"))
    table = table.assign(stimulus_id=table["stimulus_id"].astype(str)).set_index("stimulus_id")
    added = {}
    for column in columns:
        if column not in table.columns:
            raise ValueError(f"{table.attrs.get('source', 'stimulus set')}: no column {column!r} (has "
                             f"{sorted(table.columns)}); the task needs it")
        added[column] = ("presentation", table[column].reindex(ids).to_numpy(object))
    return features.assign_coords(added)


def task_spec(benchmark) -> dict:
    """Everything the model's task depends on besides the model, its layer and the stimuli: the workflow passes
    this (not the benchmark's name) to the task job, so two benchmarks sharing a task output share one job and a
    change to the grid's benchmark list does not rerun it."""
    behaviour, family = benchmark.behaviour, benchmark.family
    spec = {"task": behaviour.task}
    if behaviour.task == "label":
        spec["choice_labels"] = behaviour.choice_labels
        if options(behaviour).get("stimulus_columns"):  # columns of the test stimulus set the metric reads
            spec["stimulus_columns"] = list(options(behaviour)["stimulus_columns"])
        # Kato2026 (each only where declared, so other families' specs are unchanged): labels = sorted(set(truth))
        # of the human data + the declared ones, pooled by max, masked by the model's verdict on the base images
        if options(behaviour).get("labels_from_truth"):
            spec["labels_from_truth"] = True
        if options(behaviour).get("aggregation", "mean") != "mean":
            spec["aggregation"] = options(behaviour)["aggregation"]
        if options(behaviour).get("base_stimulus_set"):
            spec["base_stimulus_set"] = options(behaviour)["base_stimulus_set"]
    if behaviour.task == "probabilities":
        spec["fitting_label_column"] = family.readout.label_column
        spec["fitting_stimulus_set"] = family.readout.stimulus_set
        if behaviour.metric == "value_delta":  # labels: the column's parity (even = 'oddball')
            spec["labels"] = "oddball_parity"
        if options(behaviour).get("stimulus_columns"):  # test stimulus-set columns the metric reads (Maniquet2024)
            spec["stimulus_columns"] = list(options(behaviour)["stimulus_columns"])
    if behaviour.task == "odd_one_out":
        spec["similarity"] = options(behaviour).get("similarity", "dot")
        if options(behaviour).get("triplet_images") == "by_row":  # Hebart2023: upstream picks the images by row
            spec["triplet_images"] = "by_row"
    return spec


def run_task(task, features: xr.DataArray, fitting_features: xr.DataArray | None = None,
             fitting_table: pd.DataFrame | None = None, human: xr.DataArray | None = None,
             test_table: pd.DataFrame | None = None, base_features: xr.DataArray | None = None,
             base_table: pd.DataFrame | None = None) -> xr.DataArray:
    """The model's behaviour on the test stimuli: ``features`` are the test stimuli's logits (label) or readout
    features (probabilities, odd_one_out); a probabilities readout is fitted on ``fitting_features`` labelled by
    the fitting stimulus set's label column; odd_one_out takes its triplets from ``human``. ``test_table`` (the
    test stimulus set): value_delta reads ``image_number`` and ``block`` of each test stimulus from it. A label task
    with ``labels_from_truth`` takes its labels from ``human``'s truth; with ``base_stimulus_set`` it also labels
    ``base_features`` (the base images' logits; truth from ``base_table``) and masks the test choices by them
    (brainpipe.behaviour.base_condition). odd_one_out with ``triplet_images`` 'by_row' (Hebart2023) checks in
    ``test_table`` that row i is image i, as Brain-Score indexes it
    (:func:`brainpipe.behaviour.odd_one_out.check_row_positions`).
    ``task``: a behavioural benchmark or its :func:`task_spec`."""
    from . import metrics, tasks  # noqa: F401
    spec = task if isinstance(task, dict) else task_spec(task)
    if isinstance(features, xr.DataArray) and (spec["task"] != "label" or spec.get("base_stimulus_set")):
        # only the plain label task reads its features a block at a time (tasks.label); the others need them whole
        # (a no-op for features already in memory; task_inputs opens the test features lazily)
        features = features.load()
    if spec["task"] == "label":
        labels = "imagenet" if spec["choice_labels"] == "imagenet" else list(spec["choice_labels"])
        if spec.get("labels_from_truth"):  # upstream: sorted(set(assembly['truth'])) + the extra labels
            if human is None:
                raise ValueError("the label task takes its labels from the human data's truth; it needs the data")
            labels = sorted(set(as_text(coord(human, "truth")))) + labels
        aggregation = spec.get("aggregation", "mean")
        if spec.get("stimulus_columns"):  # e.g. Baker2022's animal / image_type / orientation of every image
            if test_table is None:
                raise ValueError(f"the label task needs the test stimulus set's table (columns "
                                 f"{spec['stimulus_columns']})")
            features = with_stimulus_columns(features, test_table, spec["stimulus_columns"])
        if not spec.get("base_stimulus_set"):
            return tasks.label(features, labels, aggregation)
        from .base_condition import NoBaseImageCorrect, mask_by_base, unscorable_choices
        if base_features is None or base_table is None or test_table is None:
            raise ValueError(f"the label task masked by base condition {spec['base_stimulus_set']} needs the base "
                             f"images' logits, the base and the test stimulus sets' tables")
        # both in their stimulus set's order, as upstream's look_at returns them (the masking pairs by position)
        choices = tasks.label(_in_table_order(features, test_table), labels, aggregation)
        base = with_stimulus_columns(_in_table_order(base_features, base_table), base_table, ["truth"])
        try:
            return mask_by_base(choices, tasks.label(base, labels, aggregation), base["truth"].values)
        except NoBaseImageCorrect as error:  # Brain-Score raises; a grid gets a null score that says why
            return unscorable_choices(choices, f"{error} (the base condition {spec['base_stimulus_set']})")
    if spec["task"] == "probabilities":
        column = spec["fitting_label_column"]
        fitting = with_stimulus_columns(fitting_features, fitting_table, [column])
        missing = pd.isna(pd.Series(fitting[column].values)).to_numpy()
        if missing.any():
            raise ValueError(f"fitting stimuli {spec.get('fitting_stimulus_set')}: {int(missing.sum())} fitting images "
                             f"have no {column!r} (e.g. {as_text(coord(fitting, 'stimulus_id'))[missing][:3]})")
        if spec.get("labels") == "oddball_parity":  # upstream labels by parity: even image_number = 'oddball'
            labels = value_delta.oddball_labels(fitting[column].values, _table_name(fitting_table))
            fitting = fitting.assign_coords(image_label=("presentation", labels))
        elif column != "image_label":
            fitting = fitting.rename({column: "image_label"}) if "image_label" not in fitting.coords else \
                fitting.assign_coords(image_label=fitting[column])
        if spec.get("labels") == "oddball_parity":  # value_delta: the model's choices need each test image's number and block
            if test_table is None:
                raise ValueError(f"value_delta needs the test stimulus set's table "
                                 f"(columns {list(VALUE_DELTA_TEST_COLUMNS)})")
            features = with_stimulus_columns(features, test_table, VALUE_DELTA_TEST_COLUMNS)
            absent = pd.isna(pd.Series(features["image_number"].values)).to_numpy()
            if absent.any():
                raise ValueError(f"{_table_name(test_table)}: {int(absent.sum())} test stimuli with features are not "
                                 f"in the stimulus set (column 'stimulus_id'), e.g. "
                                 f"{list(as_text(coord(features, 'stimulus_id'))[absent][:3])}")
        if spec.get("stimulus_columns"):  # e.g. Maniquet2024's image_label / manipulation of every test image
            if test_table is None:
                raise ValueError(f"the probabilities task needs the test stimulus set's table (columns "
                                 f"{spec['stimulus_columns']})")
            features = with_stimulus_columns(features, test_table, spec["stimulus_columns"])
        return tasks.probabilities(fitting, features)
    if spec["task"] == "odd_one_out":
        triplets = np.stack([as_text(coord(human, f"image_{k}")) for k in (1, 2, 3)], axis=1)
        _check_triplets(triplets, features, human)
        if spec.get("triplet_images") == "by_row":  # upstream's stimulus_set.loc[triplets]: row i must be image i
            if test_table is None:
                raise ValueError("the odd_one_out task needs the test stimulus set's table: Brain-Score selects the "
                                 "triplet images by its row positions, which must be the ids brainpipe looks up")
            from .odd_one_out import check_row_positions
            check_row_positions(triplets, test_table["stimulus_id"].astype(str).to_numpy(object),
                                _table_name(test_table), human.attrs.get("source"))
        return tasks.odd_one_out(features, triplets, spec.get("similarity", "dot"))
    raise ValueError(f"unknown task {spec['task']!r}")


def task_inputs(paths) -> dict:
    """The keyword arguments of :func:`run_task` read from the task job's files (input name -> path). The workflow
    gives each file only where the task reads it (workflow/rules/common.smk ``behaviour_task_inputs``):
    ``features`` (the test stimuli's layer file), ``fitting`` and ``fitting_stimuli`` (a probabilities readout's
    fitting features and stimulus set), ``test_stimuli``, ``base`` and ``base_stimuli`` (Kato2026's base
    condition), ``human`` (odd_one_out's triplets, or the truth a label set is taken from).

    ``features`` is opened without reading its values (:func:`brainpipe.io.open_netcdf`): the label task reads
    ImageNet-C's 1,000,000 × 1000 logits (4 GB) a block of presentations at a time; :func:`run_task` loads it whole
    for the other tasks."""
    from brainpipe.io import open_netcdf, read_netcdf

    def table(name):
        from brainpipe.data.stimuli import CSV_NAME

        csv = f"{paths[name]}/{CSV_NAME}"
        read = pd.read_csv(csv, dtype={"stimulus_id": str})
        read.attrs["source"] = csv
        return read

    def features(name):
        return read_netcdf(paths[name], required_coords=("stimulus_id",))

    inputs = {"features": open_netcdf(paths["features"], required_coords=("stimulus_id",))}
    if "fitting" in paths:
        inputs.update(fitting_features=features("fitting"), fitting_table=table("fitting_stimuli"))
    if "test_stimuli" in paths:
        inputs["test_table"] = table("test_stimuli")
    if "base" in paths:
        inputs.update(base_features=features("base"), base_table=table("base_stimuli"))
    if "human" in paths:
        inputs["human"] = features("human")
        inputs["human"].attrs["source"] = paths["human"]
    return inputs


def _in_table_order(features: xr.DataArray, table: pd.DataFrame) -> xr.DataArray:
    """``features`` reordered to the stimulus set's row order (every row must have features)."""
    return _subset(features, table["stimulus_id"].astype(str).to_numpy(object), _table_name(table))


#: what value_delta reads of each test stimulus (brain-score/vision benchmarks/ferguson2024/benchmark.py
#: ``process_model_choices``: distractor count and truth from image_number; the block for the delta line)
VALUE_DELTA_TEST_COLUMNS = ("image_number", "block")


def _table_name(table: pd.DataFrame | None) -> str:
    return table.attrs.get("source", "stimulus set") if table is not None else "stimulus set"


def _check_triplets(triplets: np.ndarray, features: xr.DataArray, human: xr.DataArray) -> None:
    """Every triplet image must be a stimulus the model saw; else one error naming the human data file, the
    coordinate(s) holding unknown ids and a few of them (before any similarity is computed)."""
    known = set(as_text(coord(features, "stimulus_id")))
    bad = {f"image_{k + 1}": sorted(set(triplets[:, k]) - known) for k in range(3)}
    bad = {name: ids for name, ids in bad.items() if ids}
    if bad:
        rows = int((~np.isin(triplets, list(known))).any(axis=1).sum())
        detail = "; ".join(f"coordinate {name!r}: {ids[:3]}" for name, ids in bad.items())
        raise ValueError(f"{where(human.attrs.get('source'))}{rows} triplets name stimuli that are not in the "
                         f"stimulus set the model saw ({detail}); the triplets and the stimulus set do not "
                         f"belong together")


def _subset(model: xr.DataArray, ids, name) -> xr.DataArray:
    """The model's output on exactly the stimuli of the (prepared) human data, in their order of appearance."""
    ids = list(dict.fromkeys(as_text(ids)))
    model_ids = as_text(coord(model, "stimulus_id"))
    position = {s: i for i, s in enumerate(model_ids)}
    missing = [s for s in ids if s not in position]
    if missing:
        raise ValueError(f"{where(name)}{len(missing)} stimuli of the human data have no model output (coordinate "
                         f"'stimulus_id'), e.g. {missing[:3]}")
    return model.isel(presentation=[position[s] for s in ids])


#: how published labelling data (bethgelab model-vs-human's human CSVs) mark a trial without an answer; Brain-Score
#: keeps such trials, where they count as errors (choice != truth), so they are not refused here
NO_RESPONSE = "na"


def check_human_choices(benchmark, human: xr.DataArray) -> None:
    """The human answers must be answers the task allows: ValueError naming the file and the coordinate otherwise.

    * a labelling task with a fixed label set (e.g. 16 object classes): every ``truth`` is one of them (upstream
      ``choice_labels = sorted(set(truth))``) and every choice too, or :data:`NO_RESPONSE` (a metric whose values
      are not choices says what they are: ``Metric.values``);
    * what the metric checks itself (``Metric.check_human``), e.g. i1/i2n: every choice is one of the two objects
      the trial offered (:func:`check_offered_objects`).
    """
    behaviour = benchmark.behaviour
    metric = lookup(behaviour.metric)
    name = human.attrs.get("source")
    choices = as_text(human.values)
    if behaviour.task == "label" and behaviour.choice_labels != "imagenet":
        from .tasks import label_name
        labels = {label_name(entry) for entry in behaviour.choice_labels}
        truths = as_text(coord(human, "truth")) if "truth" in human.coords else []
        no_answer = {NO_RESPONSE} | {str(v) for v in options(behaviour).get("invalid_responses", ())}
        checks = [("choices (the values)", choices, labels | no_answer), ("coordinate 'truth'", truths, labels)]
        if options(behaviour).get("labels_from_truth"):  # the labels are the data's truths (+ the declared ones);
            checks = []  # people may name a class this data set does not show (Kato2026's Sparse: 171 of 240 images)
        if metric.values is not None:  # e.g. Baker2022's values are whether the trial was correct (0/1)
            what, allowed = metric.values
            checks[0] = (what, choices, set(allowed))
        for what, values, allowed in checks:
            outside = np.array([v not in allowed for v in values], dtype=bool)
            if outside.any():
                raise ValueError(f"{where(name)}{int(outside.sum())} human trials have {what} outside the "
                                 f"benchmark's {len(labels)} labels: {levels(np.asarray(values)[outside])[:5]} "
                                 f"(labels: {sorted(labels)}); the data does not belong to this benchmark")
    if metric.check_human is not None:
        metric.check_human(benchmark, human)


def check_offered_objects(benchmark, human: xr.DataArray) -> None:
    """A two-alternative task (i1/i2n with ``sample_obj`` and ``dist_obj``): every choice is one of the two objects
    the trial offered (brain-score/vision metrics/i1i2/metric.py counts a choice as offered by either one)."""
    if not {"sample_obj", "dist_obj"} <= set(human.coords):
        return
    name = human.attrs.get("source")
    choices = as_text(human.values)
    sample, distractor = as_text(coord(human, "sample_obj")), as_text(coord(human, "dist_obj"))
    outside = (choices != sample) & (choices != distractor)
    if outside.any():
        first = int(np.flatnonzero(outside)[0])
        raise ValueError(f"{where(name)}{int(outside.sum())} human trials chose an object the trial did not "
                         f"offer (choice not in coordinates 'sample_obj'/'dist_obj'), e.g. presentation "
                         f"{first}: choice {choices[first]!r}, offered {sample[first]!r} and "
                         f"{distractor[first]!r}")


def raw_score(benchmark, model: xr.DataArray, human: xr.DataArray) -> Result:
    """The metric comparing the model's task output with the prepared human data: the registered metric's
    ``compare`` (brainpipe.behaviour.metric_registry), after :func:`check_human_choices`."""
    check_human_choices(benchmark, human)
    return lookup(benchmark.behaviour.metric).compare(benchmark, model, human)


def probability_choices(probabilities: xr.DataArray) -> xr.DataArray:
    """(presentation × choice) probabilities → the most probable choice per presentation (first on ties), as a
    label task's output (brain-score/vision benchmarks/lonnqvist2024/benchmark.py ``convert_proba_to_choices``)."""
    require_coords(probabilities, ["choice"], "model probabilities")
    probabilities = probabilities.transpose("presentation", "choice")
    choices = np.asarray(probabilities["choice"].values)[np.argmax(probabilities.values, axis=1)].astype(object)
    coords = {k: ("presentation", np.asarray(c.values)) for k, c in probabilities.coords.items()
              if c.dims == ("presentation",)}
    return xr.DataArray(choices[None, :], dims=("choice", "presentation"), coords=coords)


def per_condition(benchmark, model: xr.DataArray, human: xr.DataArray) -> list[dict] | None:
    """The comparison per condition (brainpipe.behaviour.error_consistency.per_condition) for the metrics that
    register one (``Metric.per_condition``: error consistency, accuracy), scored on labelled, conditioned human
    trials; None for the others or when the human data has no ``condition``/``subject``. Error consistency per
    condition only for the error-consistency metric (an accuracy benchmark shows its stimuli at other visual
    degrees)."""
    table_kwargs = lookup(benchmark.behaviour.metric).per_condition
    if table_kwargs is None or not {"condition", "subject", "truth"} <= set(human.coords):
        return None
    if options(benchmark.behaviour).get("invalid_responses"):  # the table counts every trial; these drop some
        return None
    from .error_consistency import per_condition as table
    model = _subset(model, coord(human, "stimulus_id"), human.attrs.get("source"))
    return table(model, human, **table_kwargs)


def comparison(benchmark, model: xr.DataArray, human: xr.DataArray) -> dict:
    """The one comparison of a behavioural benchmark as its JSON 'fold': the raw score (:func:`raw_score`), its
    per-condition table where there is one (:func:`per_condition`), and fold 0 over every human presentation. The
    fold file of ``fit_fold`` and the one-job headline of ``score_behaviour`` both hold this. A task output that
    says why it cannot be compared (its ``reason`` attribute: :func:`brainpipe.behaviour.base_condition.
    unscorable_choices`) gives a fold without a value and that reason, so the score is null and says why."""
    if model.attrs.get("reason"):
        return {"value": None, "error": None, "reason": str(model.attrs["reason"]), "fold": 0, "n_train": 0,
                "n_test": 0}
    result = to_json(raw_score(benchmark, model, human))
    conditions = per_condition(benchmark, model, human)  # None unless scored per condition
    if conditions:
        result["per_condition"] = conditions
    result.update(fold=0, n_train=0, n_test=int(human.sizes["presentation"]))
    return result


def ceiling(benchmark, human: xr.DataArray) -> Result:
    """The ceiling: a declared number, or the registered metric's ``ceiling`` computed on the human data."""
    behaviour = benchmark.behaviour
    check_human_choices(benchmark, human)
    declared = declared_ceiling(behaviour)  # a declared number, with its error where the family publishes one
    if declared is not None:
        return declared
    metric = lookup(behaviour.metric)
    if metric.ceiling is None:
        raise ValueError(f"{benchmark.identifier}: metric {behaviour.metric!r} computes no ceiling on the human data "
                         f"(registered by {metric.origin}); the benchmark must declare one (Behaviour.ceiling)")
    return metric.ceiling(benchmark, human)


# The metrics any family may use: each one's raw score and ceiling from the benchmark's options. A family's own
# metric registers in the family's module (brainpipe.benchmarks.families.maniquet2024); those below that only one family
# uses (accuracy_delta, condition_wise_accuracy, shape_bias / shape_match) could move to theirs the same way.

def _invalid_responses(benchmark) -> tuple:
    """Choices that are no answer (Kato2026's '', 'NaN'); () where the benchmark declares none."""
    return tuple(options(benchmark.behaviour).get("invalid_responses", ()))


def _on_human_stimuli(model: xr.DataArray, human: xr.DataArray) -> xr.DataArray:
    return _subset(model, coord(human, "stimulus_id"), human.attrs.get("source"))


def _answers_on_human_stimuli(benchmark, model: xr.DataArray, human: xr.DataArray) -> xr.DataArray:
    """The model's answers on the human data's stimuli: a probabilities readout answers with its most probable
    class (Lonnqvist2024)."""
    if benchmark.behaviour.task == "probabilities":
        model = probability_choices(model)
    return _on_human_stimuli(model, human)


def _i1i2(benchmark, model, human) -> Result:
    from . import metrics
    return getattr(metrics, benchmark.behaviour.metric)(_on_human_stimuli(model, human), human)


def _i1i2_ceiling(benchmark, human) -> Result:
    from . import metrics
    skipna = bool(options(benchmark.behaviour).get("ceiling_skipna", False))
    return metrics.ceiling(benchmark.behaviour.metric, human, skipna=skipna)


def _error_consistency(benchmark, model, human) -> Result:
    from . import metrics
    model, invalid = _on_human_stimuli(model, human), _invalid_responses(benchmark)
    return metrics.error_consistency(model, human, invalid) if invalid else metrics.error_consistency(model, human)


def _accuracy(benchmark, model, human) -> Result:
    """top1: the model's label vs the stimulus' truth, one per stimulus."""
    from . import metrics
    model = _answers_on_human_stimuli(benchmark, model, human)
    truth = dict(zip(as_text(coord(human, "stimulus_id")), coord(human, "truth")))
    return metrics.accuracy(model, np.array([truth[s] for s in as_text(coord(model, "stimulus_id"))]))


def _accuracy_distance(benchmark, model, human) -> Result:
    from . import metrics
    variables = tuple(options(benchmark.behaviour).get("variables", ()))
    return metrics.accuracy_distance(_answers_on_human_stimuli(benchmark, model, human), human, variables,
                                     _invalid_responses(benchmark))


def _ceiling_without_invalid(benchmark, human) -> Result:
    """error_consistency's and accuracy_distance's ceilings, over the valid answers where some are none."""
    from . import metrics
    invalid = _invalid_responses(benchmark)
    return metrics.ceiling(benchmark.behaviour.metric, human, **({"invalid": invalid} if invalid else {}))


def _plain_ceiling(benchmark, human) -> Result:
    """The metric's ceiling with no option (accuracy and shape_*: 1; odd_one_out_match: from the human data)."""
    from . import metrics
    return metrics.ceiling(benchmark.behaviour.metric, human)


def _value_delta(benchmark, model: xr.DataArray, human: xr.DataArray) -> Result:
    """brain-score/vision benchmarks/ferguson2024/benchmark.py ``__call__``: the model's probabilities → choices
    (``process_model_choices``), both integrals with the *human* lapse rate, value_delta of the two. The model's own
    trials (one per test image) against all human trials."""
    from . import metrics
    opts = options(benchmark.behaviour)
    require_coords(model, list(VALUE_DELTA_TEST_COLUMNS), "model probabilities")
    if "lapse_rate" not in opts:
        raise ValueError("value_delta needs the benchmark option 'lapse_rate' (the human lapse rate)")
    lapse_rate, scale = float(opts["lapse_rate"]), float(opts.get("scale", 1.0))
    numbers = coord(model, "image_number")
    choices = metrics.model_choices(model, numbers, value_delta.oddball_labels(numbers, source_name(model)))
    model_integral, human_integral = metrics.integral(choices, lapse_rate), metrics.integral(human, lapse_rate)
    result = metrics.value_delta(model_integral, human_integral, scale, integral_digits=value_delta.INTEGRAL_DIGITS)
    result.attrs["details"] = {"model_integral": model_integral, "human_integral": human_integral,
                               "lapse_rate": lapse_rate, "scale": scale,
                               "model_trials": int(choices.sizes["presentation"]),
                               "model_correct": int(choices["correct"].values.sum())}
    return result


def _value_delta_ceiling(benchmark, human) -> Result:
    """Split halves of the human trials, with the benchmark's own settings."""
    from . import metrics
    opts = options(benchmark.behaviour)
    if "lapse_rate" not in opts:
        raise ValueError(f"{benchmark.identifier}: value_delta needs the benchmark option 'lapse_rate' "
                         "(the human lapse rate) to compute its ceiling")
    return metrics.ceiling("value_delta", human, lapse_rate=float(opts["lapse_rate"]),
                           scale=float(opts.get("scale", 1.0)))


def _odd_one_out_match(benchmark, model, human) -> Result:
    from . import metrics
    return metrics.odd_one_out_match(model, human)


def _shape(benchmark, model, human) -> Result:
    """Hermann2020's shape_bias / shape_match: the target is the stimulus set itself."""
    from . import metrics
    return getattr(metrics, benchmark.behaviour.metric)(model, human)


def _accuracy_delta(benchmark, model, human) -> Result:
    """Baker2022: the model's labels on every image of the orientation."""
    from . import metrics
    opts = options(benchmark.behaviour)
    return metrics.accuracy_delta(model, human, tuple(opts["image_types"]), str(opts["orientation"]))


def _accuracy_delta_ceiling(benchmark, human) -> Result:
    """100 seeded subject halves, Spearman-Brown, median (Baker2022)."""
    from . import metrics
    opts = options(benchmark.behaviour)
    return metrics.ceiling("accuracy_delta", human, image_types=tuple(opts["image_types"]),
                           orientation=str(opts["orientation"]))


def _condition_wise_accuracy(benchmark, model, human) -> Result:
    """Coggan2024_behavior: one image per trial, the model's class."""
    from .condition_accuracy import condition_wise_accuracy_similarity
    return condition_wise_accuracy_similarity(responses(probability_choices(_on_human_stimuli(model, human))), human)


def _condition_wise_accuracy_ceiling(benchmark, human) -> Result:
    from .condition_accuracy import condition_wise_accuracy_ceiling
    return condition_wise_accuracy_ceiling(human)


register_metric("i1", _i1i2, _i1i2_ceiling, check_human=check_offered_objects)
register_metric("i2n", _i1i2, _i1i2_ceiling, check_human=check_offered_objects)
register_metric("error_consistency", _error_consistency, _ceiling_without_invalid,
                per_condition={"consistency": True})
register_metric("accuracy", _accuracy, _plain_ceiling, per_condition={"consistency": False})
register_metric("accuracy_distance", _accuracy_distance, _ceiling_without_invalid)
register_metric("value_delta", _value_delta, _value_delta_ceiling)
register_metric("odd_one_out_match", _odd_one_out_match, _plain_ceiling)
register_metric("shape_bias", _shape, _plain_ceiling)
register_metric("shape_match", _shape, _plain_ceiling)
register_metric("accuracy_delta", _accuracy_delta, _accuracy_delta_ceiling,
                values=("values (whether the trial was correct)", ("0", "1", "0.0", "1.0", "True", "False")))
register_metric("condition_wise_accuracy", _condition_wise_accuracy, _condition_wise_accuracy_ceiling)
