"""Human choices as a lab exports them (a CSV, one row per trial) → Brain-Score's BehavioralAssembly (``brainpipe
package --choices``): one dimension ``presentation`` (a trial), the choice as the value, the trial's metadata as
coordinates with Brain-Score's names (brain-score/vision brainscore_vision/benchmarks/geirhos2021 and
rajalingham2018 data: ``stimulus_id``, ``subject``, ``truth``, ``condition``, ``sample_obj``/``dist_obj``;
hebart2023: ``image_1``..``image_3`` with the odd one out as ``image_3``).

Columns (``coords`` maps these names to yours, e.g. ``{"subject": "participant", "choice": "response"}``):

* every task: ``subject``, ``choice``;
* label / probabilities: ``stimulus_id``, optional ``truth`` (the correct answer), ``condition`` and
  ``distractor`` (the other object a 2AFC trial offered; with it the task is ``probabilities`` and the metrics i2n/i1);
* odd_one_out: ``image_1``, ``image_2``, ``image_3`` (the triplet, any order) and ``choice`` (one of the three).

Any other column is kept as a coordinate (e.g. a value-delta experiment's ``block``, ``participant_id``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .package_tables import PackagingError, _line_numbers, _no_blanks, _read_csv, _require_columns, _some, _unknown_stimuli

TASKS = ("label", "probabilities", "odd_one_out")
#: a condition for data without one: error consistency is computed per condition (upstream's aggregate)
NO_CONDITION = "all"
_TRIPLET = ("image_1", "image_2", "image_3")


def _renamed(rows: pd.DataFrame, path: Path, coords: dict) -> pd.DataFrame:
    """Your column names → brainpipe's (``coords``: brainpipe name → your column)."""
    for ours, theirs in coords.items():
        if theirs not in rows.columns:
            continue  # a mapping for another file (the stimulus CSV, the responses)
        if ours in rows.columns and ours != theirs:
            raise PackagingError(f"{path}: has both {ours!r} and {theirs!r} (mapped to {ours!r} by --coords); "
                                 "drop one")
        rows = rows.rename(columns={theirs: ours})
    return rows


def infer_task(rows: pd.DataFrame) -> str:
    if set(_TRIPLET) <= set(rows.columns):
        return "odd_one_out"
    return "probabilities" if "distractor" in rows.columns else "label"


def read_choices(path, table: pd.DataFrame, coords: dict | None = None, task: str | None = None) -> tuple:
    """(assembly, task) of a choices CSV, checked against the stimulus table; PackagingError naming the file, the
    line and the value otherwise."""
    path = Path(path)
    rows = _renamed(_read_csv(path, "human choices, --choices", raw=True), path, coords or {})
    if rows.empty:
        raise PackagingError(f"{path}: no rows; one row per trial is needed")
    task = task or infer_task(rows)
    if task not in TASKS:
        raise PackagingError(f"--task {task!r}: expected one of {', '.join(TASKS)}")
    needed = ["subject", "choice"] + (list(_TRIPLET) if task == "odd_one_out" else ["stimulus_id"])
    if task == "probabilities":
        needed += ["truth", "distractor"]
    _require_columns(rows, path, needed, " (one row per trial; map your column names with --coords, e.g. "
                                         "--coords subject=participant,choice=response)")
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
    if task == "label":
        entry["labels"] = list(labels) if labels else sorted(set(map(str, assembly["truth"].values))) \
            if "truth" in assembly.coords else None
        if entry["labels"] is None:
            raise PackagingError("the label task needs a label set: a truth column in the choices, or --labels")
        entry["metrics"] = ["error_consistency", "accuracy", "accuracy_distance"] if "truth" in assembly.coords \
            else []
        if not entry["metrics"]:
            raise PackagingError("the choices have no truth column: no behavioural metric of the label task can "
                                 "compare them (error consistency, accuracy and accuracy distance need it)")
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
