"""Human choices as a lab exports them (a CSV, one row per trial) → Brain-Score's BehavioralAssembly (``brainpipe
package --choices``): one dimension ``presentation`` (a trial), the choice as the value, the trial's metadata as
coordinates with Brain-Score's names (brain-score/vision brainscore_vision/benchmarks/geirhos2021 and
rajalingham2018 data: ``stimulus_id``, ``subject``, ``truth``, ``condition``, ``sample_obj``/``dist_obj``;
hebart2023: ``image_1``..``image_3`` with the odd one out as ``image_3``).

Columns (``coords`` maps these names to yours, e.g. ``{"subject": "participant", "choice": "response"}``):

* every task: ``subject``, ``choice``;
* label / probabilities: ``stimulus_id``, ``truth`` (the correct answer: every metric of these tasks compares the
  choice with it), optional ``condition`` and ``distractor`` (the other object a 2AFC trial offered; with it the
  task is ``probabilities`` and the metrics i2n/i1);
* odd_one_out: ``image_1``, ``image_2``, ``image_3`` (the triplet, any order) and ``choice`` (one of the three).

Any other column is kept as a coordinate (e.g. a value-delta experiment's ``block``, ``participant_id``).

The label task's label set (``--labels``, default the truths) is checked as the run will check it
(:func:`checked_labels`): each label maps to ImageNet classes (brainpipe.behaviour.label_sets), every truth is a
label and every choice too, so that no trial is dropped or refused later by a job.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .package_tables import (PackagingError, _line_numbers, _no_blanks, _read_csv, _require_columns, _some,
                             _unknown_stimuli, renamed_columns)

TASKS = ("label", "probabilities", "odd_one_out")
#: a choice that is no answer: the run keeps it as an error (brainpipe.behaviour.stages.NO_RESPONSE)
NO_RESPONSE = "na"
#: a condition for data without one: error consistency is computed per condition (upstream's aggregate)
NO_CONDITION = "all"
_TRIPLET = ("image_1", "image_2", "image_3")
#: the columns a choices file is read by (a column --coords names twice is copied to these only)
_READ = ("stimulus_id", "subject", "choice", "truth", "condition", "distractor", *_TRIPLET)


def infer_task(rows: pd.DataFrame) -> str:
    if set(_TRIPLET) <= set(rows.columns):
        return "odd_one_out"
    return "probabilities" if "distractor" in rows.columns else "label"


def read_choices(path, table: pd.DataFrame, coords: dict | None = None, task: str | None = None) -> tuple:
    """(assembly, task) of a choices CSV, checked against the stimulus table; PackagingError naming the file, the
    line and the value otherwise."""
    path = Path(path)
    rows = renamed_columns(_read_csv(path, "human choices, --choices", raw=True), path, coords or {}, _READ)
    if rows.empty:
        raise PackagingError(f"{path}: no rows; one row per trial is needed")
    task = task or infer_task(rows)
    if task not in TASKS:
        raise PackagingError(f"--task {task!r}: expected one of {', '.join(TASKS)}")
    needed = ["subject", "choice"] + (list(_TRIPLET) if task == "odd_one_out" else ["stimulus_id"])
    if task == "probabilities":
        needed += ["truth", "distractor"]
    if task == "label":  # every metric of the label task compares choices with the correct answers
        needed += ["truth"]
    _require_columns(rows, path, needed, " (one row per trial; map your column names with --coords, e.g. "
                                         "--coords subject=participant,choice=response"
                                         + (",truth=correct_label; the label task's metrics (error consistency, "
                                            "accuracy, accuracy distance) compare each choice with the trial's truth"
                                            if task == "label" else "") + ")")
    _no_blanks(rows, path, needed)
    for column in ("truth", "condition", "distractor"):
        if column in rows.columns:
            _no_blanks(rows, path, [column])
    if task == "odd_one_out":
        return _triplets(rows, path, table), task
    _unknown_stimuli(rows["stimulus_id"], path, table)
    if task == "probabilities":  # a 2AFC trial's answer is one of the two objects it offered
        offered = (rows["choice"] == rows["truth"]) | (rows["choice"] == rows["distractor"])
        if not offered.all():
            line = _line_numbers(~offered)[0]
            bad = rows[~offered].iloc[0]
            raise PackagingError(f"{path}, line {line}: choice {bad['choice']!r} is neither the truth "
                                 f"{bad['truth']!r} nor the distractor {bad['distractor']!r} "
                                 f"({int((~offered).sum())} such trial(s)); a 2AFC answer is one of the two")
    coords = {"stimulus_id": rows["stimulus_id"], "subject": rows["subject"]}
    if "truth" in rows.columns:
        coords["truth"] = rows["truth"]
    coords["condition"] = rows["condition"] if "condition" in rows.columns else NO_CONDITION
    if "distractor" in rows.columns:  # Rajalingham2018's names: the sample (= truth) and the distractor object
        coords.update(sample_obj=rows["truth"], dist_obj=rows["distractor"])
    return _assembly(rows, coords, exclude={"distractor"}), task


def _triplets(rows: pd.DataFrame, path: Path, table: pd.DataFrame) -> xr.DataArray:
    """Triplets with the human odd one out stored as ``image_3`` (Brain-Score's layout, hebart2023)."""
    triplet = rows[list(_TRIPLET)].to_numpy(dtype=object)
    _unknown_stimuli(triplet.ravel(), path, table)
    chosen = triplet == rows["choice"].to_numpy(dtype=object)[:, None]
    if not chosen.any(axis=1).all():
        line = _line_numbers(~chosen.any(axis=1))[0]
        raise PackagingError(f"{path}, line {line}: choice {rows['choice'].iloc[line - 2]!r} is not one of the "
                             f"triplet's images {list(triplet[line - 2])}; the odd one out is one of the three")
    others = [list(t[~c]) for t, c in zip(triplet, chosen)]
    if any(len(o) != 2 for o in others):
        line = _line_numbers([len(o) != 2 for o in others])[0]
        raise PackagingError(f"{path}, line {line}: the triplet {list(triplet[line - 2])} names an image twice")
    coords = {"image_1": [o[0] for o in others], "image_2": [o[1] for o in others], "image_3": rows["choice"],
              "stimulus_id": rows["choice"], "subject": rows["subject"]}
    return _assembly(rows, coords, exclude=set(_TRIPLET))


def _assembly(rows: pd.DataFrame, coords: dict, exclude=()) -> xr.DataArray:
    """The trials as a BehavioralAssembly: text coordinates as text, numeric extra columns as numbers."""
    n = len(rows)
    out = {}
    for name, values in coords.items():
        values = np.full(n, values, dtype=object) if isinstance(values, str) else np.asarray(values, dtype=object)
        out[name] = ("presentation", np.array([str(v) for v in values], dtype=object))
    for column in rows.columns:
        if column in out or column in exclude or column == "choice":
            continue
        numbers = pd.to_numeric(rows[column], errors="coerce")
        values = numbers.to_numpy() if numbers.notna().all() else rows[column].to_numpy(dtype=object)
        out[column] = ("presentation", values)
    return xr.DataArray(rows["choice"].to_numpy(dtype=object), dims=("presentation",), coords=out)


def label_column(assembly: xr.DataArray, table: pd.DataFrame, path) -> str:
    """The probabilities task's readout is fitted on the stimuli, labelled by a stimulus column whose classes are
    the answers the people chose between: the first column (``image_label`` first) holding every ``truth``."""
    truths = set(map(str, assembly["truth"].values))
    columns = sorted(table.columns, key=lambda c: c != "image_label")
    for column in columns:
        if column not in ("stimulus_id", "filename") and truths <= set(table[column].astype(str)):
            return column
    raise PackagingError(f"{path}: the probabilities task fits a readout on the images labelled by a stimulus "
                         f"column holding the classes people chose between ({_some(sorted(truths))}); no column of "
                         f"the stimulus CSV holds them all (it has {list(table.columns)}). Add one (e.g. "
                         f"image_label)")


#: the labels a label task's entry may take, as ``--labels`` writes them (brainpipe.behaviour.label_sets)
LABELS_HELP = ("--labels plane=airplane,bird,car,dog (a label mapped to one ImageNet class or several joined by '+': "
               "plane=airplane+895), --labels labels.yaml (a file holding {plane: [airplane, 895], bird: bird, ...}) "
               "or --labels imagenet (the choices are WordNet ids)")


def parse_labels(text):
    """``--labels`` as the config's ``labels`` value: None, 'imagenet', a list of names with ``{label: targets}``
    items where a label is mapped, or what a YAML/JSON file (or inline YAML, ``{plane: [404]}``) holds. Comma-
    separated ``label`` or ``label=target[+target...]``; a target of digits is a class index."""
    import yaml

    if text is None or not isinstance(text, str):
        return text  # the Python API may pass the value itself
    text = text.strip()
    if text == "imagenet":
        return text
    path = Path(text)
    if path.suffix.lower() in (".yaml", ".yml", ".json"):
        try:
            value = yaml.safe_load(path.read_text())
        except FileNotFoundError:
            raise PackagingError(f"--labels {text}: no such file (a YAML or JSON mapping label -> ImageNet classes)"
                                 ) from None
        except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
            raise PackagingError(f"--labels {text}: not a readable YAML/JSON file ({error})") from None
        return value
    if text.startswith(("{", "[")):
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as error:
            raise PackagingError(f"--labels {text!r}: not readable as YAML ({error}); use {LABELS_HELP}") from None
    items = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        label, sep, targets = (part.strip() for part in item.partition("="))
        if not sep:
            items.append(label)
            continue
        listed = [int(t) if t.isdigit() else t for t in (t.strip() for t in targets.split("+")) if t]
        if not label or not listed:
            raise PackagingError(f"--labels: {item!r}: expected label=ImageNet class(es), e.g. plane=airplane or "
                                 f"plane=404+895")
        items.append({label: listed[0] if len(listed) == 1 else listed})
    return items or None


def _as_option(value, unmapped) -> str:
    """A ``labels`` value written as ``--labels`` text, each unmapped label mapped to its nearest known label."""
    pairs = list(value.items()) if isinstance(value, dict) else [
        next(iter(item.items())) if isinstance(item, dict) else (item, None) for item in value or ()]
    written = []
    for label, targets in pairs:
        if str(label) in unmapped:
            targets = _suggestion(str(label))
        listed = targets if isinstance(targets, (list, tuple)) else [] if targets is None else [targets]
        written.append(str(label) + ("=" + "+".join(map(str, listed)) if listed else ""))
    return ",".join(written)


def _suggestion(label: str) -> str:
    """The label brainpipe maps nearest to ``label`` (plane -> airplane), else a placeholder."""
    from brainpipe.behaviour.label_sets import nearest_label
    return nearest_label(label) or "<ImageNet classes>"


def checked_labels(labels, assembly: xr.DataArray, path) -> tuple:
    """(the entry's ``labels`` value, the label names) of a label task, checked as the run will check them: every
    label has ImageNet classes, every ``truth`` is a label and every choice one too (or 'na', no answer), so that
    nothing is dropped or refused later, in the ceiling job (brainpipe.behaviour.stages.check_human_choices)."""
    from brainpipe.behaviour.label_sets import LabelSetError, accepted_forms, label_set
    from brainpipe.behaviour.tasks import label_name

    given = labels is not None
    truths = np.array([str(v) for v in assembly["truth"].values], dtype=object)
    value = parse_labels(labels) if given else sorted(set(truths))
    where = "--labels" if given else f"{path}: the truth column's labels (the label set, without --labels)"
    try:
        resolved = label_set(value)
    except LabelSetError as error:
        if "." in error.key:  # labels.<label>: a target that names no ImageNet class
            raise PackagingError(f"{where}, label {error.key.split('.', 1)[1]!r}: {error.message}") from None
        hint = ""
        if error.unmapped:
            hint = (f"; map each to ImageNet classes: --labels {_as_option(value, error.unmapped)} (one class, "
                    "or several joined by '+': plane=airplane+895), or --labels labels.yaml, a file holding {plane: "
                    f"[airplane, 895], bird: bird, ...}}. A label maps to {accepted_forms()}")
        raise PackagingError(f"{where}: {error.message}{hint}") from None
    choices = np.array([str(v) for v in assembly.values], dtype=object)
    if resolved == "imagenet":
        from brainpipe.behaviour._synsets import SYNSETS
        names = set(SYNSETS)
        what = "the 1000 ImageNet WordNet ids (--labels imagenet)"
    else:
        names = {label_name(entry) for entry in resolved}
        what = f"the {len(names)} labels {sorted(names)}" + ("" if given else " (the truth column's values)")
    for column, values, allowed in (("truth", truths, names), ("choice", choices, names | {NO_RESPONSE})):
        outside = np.array([v not in allowed for v in values], dtype=bool)
        if outside.any():
            counts = pd.Series(values[outside]).value_counts(sort=False)
            listed = ", ".join(f"{v!r} ({n} trial(s))" for v, n in counts.items())
            raise PackagingError(
                f"{path}: {int(outside.sum())} trial(s) have a {column} that is not among {what}: {listed}, first "
                f"on line {_line_numbers(outside)[0]}. The run would refuse these trials (the model chooses among "
                f"the labels; a choice of {NO_RESPONSE!r} is no answer): "
                + ("with --labels imagenet every truth and choice is a WordNet id (n02690373); for labels of your "
                   f"own, map them instead: {LABELS_HELP}" if resolved == "imagenet" else
                   "add them to --labels, or fix the trials" if given or column == "truth" else
                   "add them to the label set with --labels (e.g. --labels "
                   f"{','.join(sorted(names | set(counts.index)))}), or fix the trials"))
    return value, names


def behaviour_entry(assembly: xr.DataArray, task: str, labels, files: dict, sha1s: dict, visual_degrees,
                    stimulus_set: str | None, ceiling=None, table=None, path=None) -> dict:
    """The behavioural benchmark_zoo entry of a packaged choices file: the task, its label set and the metrics the
    trials support (error consistency and accuracy distance need subjects, accuracy a truth; odd-one-out match a
    ceiling the data cannot give, so it is left for you to declare)."""
    entry = {"stimuli": {"csv": str(files["stimuli_csv"]), "zip": str(files["stimuli_zip"]),
                         "csv_sha1": sha1s["stimuli_csv"], "zip_sha1": sha1s["stimuli_zip"]}}
    if stimulus_set:
        entry["stimulus_set"] = stimulus_set
    entry.update(behaviour={"file": str(files["behaviour"]), "sha1": sha1s["behaviour"]}, task=task)
    if task == "label":  # labels: checked_labels' value; the choices have a truth (read_choices)
        entry["labels"] = labels
        entry["metrics"] = ["error_consistency", "accuracy", "accuracy_distance"]
    elif task == "probabilities":
        entry.update(fitting_label_column=label_column(assembly, table, path), metrics=["i2n"])
    else:
        if ceiling is None:
            raise PackagingError("odd-one-out choices give one answer per triplet, so no ceiling can be computed "
                                 "from them: pass --ceiling with the agreement between people you know (Hebart2023's "
                                 "is 0.6767, from the paper)")
        entry["metrics"] = ["odd_one_out_match"]
    if ceiling is not None:
        entry["ceiling"] = ceiling
    entry["visual_degrees"] = visual_degrees
    return entry
