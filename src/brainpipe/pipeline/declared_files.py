"""The sha1s written in the config's ``benchmark_zoo`` entries, checked against the local files when the workflow
starts: a file edited after its entry was written stops the run before any job, naming the entry's own sha1 key
(not the advice for Brain-Score's published files), and nothing is fetched or deleted.

Declared behavioural files are checked against their entry the same way (:func:`check_declared_behaviour`):
trials naming stimuli the stimulus set lacks, or answers outside the declared labels, stop the run before any job.

Reading every declared file at every start would cost seconds for large assemblies, so a file's sha1 is kept in a
small cache keyed by its path, size and modification time; a file that changed in any of them is read again.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from brainpipe.benchmarks.declared import local_files
from brainpipe.data.download import sha1_of


class StaleSha1(ValueError):
    """A declared file whose content no longer matches the sha1 in its benchmark_zoo entry."""


def _sha1(path: Path, cache: dict) -> str:
    stat = path.stat()
    stamp = [stat.st_size, stat.st_mtime_ns]
    key = str(path.resolve())
    if key in cache and cache[key][:2] == stamp:
        return cache[key][2]
    cache[key] = stamp + [sha1_of(path)]
    return cache[key][2]


def check_declared_sha1s(config: dict, cache_path: str | os.PathLike | None = None) -> None:
    """StaleSha1 for the first declared local file whose sha1 differs from its entry's; missing files are left to
    the fetch job, which names them."""
    cache_path = Path(cache_path) if cache_path else None
    cache = load_cache(cache_path)
    try:
        for name, entry in (config.get("benchmark_zoo") or {}).items():
            for location, declared, key in local_files(entry):
                path = Path(location)
                if not path.is_file():
                    continue
                actual = _sha1(path, cache)
                if actual != declared:
                    raise StaleSha1(
                        f"config benchmark_zoo.{name}.{key}: {location} has sha1 {actual}, but the entry says "
                        f"{declared}: the file changed after the entry was written. If you changed it on purpose, "
                        f"put the new sha1 there (`sha1sum {location}` prints it; running your `brainpipe package` "
                        "command again reprints the whole entry); otherwise restore the file you declared")
    finally:
        save_cache(cache_path, cache)


class DeclaredDataError(ValueError):
    """A declared behavioural file whose trials the run would refuse (or misread) in a job: named at the start."""


#: a choice that is no answer (brainpipe.behaviour.stages.NO_RESPONSE: kept, and counted as an error)
_NO_RESPONSE = "na"


def load_cache(cache_path):
    """A start-of-run check's JSON cache (sha1s, verdicts; declared_regions.py's regions too): {} when absent or
    unreadable."""
    try:
        return json.loads(cache_path.read_text()) if cache_path and cache_path.is_file() else {}
    except (OSError, ValueError):
        return {}  # a damaged cache is only a cache


def save_cache(cache_path, cache) -> None:
    """Write the cache atomically (another snakemake may start at the same time)."""
    if cache_path and cache:
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=cache_path.parent, delete=False, suffix=".tmp") as handle:
            json.dump(cache, handle)
        os.replace(handle.name, cache_path)


def check_declared_behaviour(config: dict, cache_path: str | os.PathLike | None = None) -> None:
    """DeclaredDataError for the first declared behavioural entry whose local trials (``behaviour.file``) name
    stimuli its local stimulus CSV does not hold, or (label task) truths or choices outside its ``labels``.

    Jobs find both, but late and misleadingly: a trial of an unknown stimulus reads, in the ceiling, as subjects
    who saw different stimuli; a choice outside the labels fails the ceiling job, which Snakemake has emptied of its
    previous good output before running it. Checked here, the run stops before any job and nothing is deleted.
    (Snakemake's own keep-and-restore, an output flagged ``update()``, is no remedy: snakemake 9.27.1 restores the
    old file after a failure but records the failed job's params for it, so the next run takes the old ceiling as
    the new definition's, up to date.)
    A verdict is cached by the two files' sha1s and the entry's task, labels and coords; remote files are left to
    the jobs."""
    cache_path = Path(cache_path) if cache_path else None
    cache = load_cache(cache_path)
    try:
        for name, entry in (config.get("benchmark_zoo") or {}).items():
            if not isinstance(entry, dict) or not isinstance(entry.get("behaviour"), dict):
                continue
            nc, csv = entry["behaviour"].get("file"), (entry.get("stimuli") or {}).get("csv")
            if not all(isinstance(p, str) and "://" not in p and Path(p).is_file() for p in (nc, csv)):
                continue
            # (the name and the paths too: the message names them)
            settings = json.dumps([name, nc, csv, entry.get("task"), entry.get("labels"),
                                   entry["behaviour"].get("coords")], sort_keys=True, default=str)
            key = "behaviour:" + json.dumps([_sha1(Path(nc), cache), _sha1(Path(csv), cache), settings])
            if key not in cache:
                cache[key] = _behaviour_problem(name, entry, Path(nc), Path(csv))
            if cache[key]:
                raise DeclaredDataError(cache[key])
    finally:
        save_cache(cache_path, cache)


def _behaviour_problem(name: str, entry: dict, nc: Path, csv: Path) -> str:
    """The message for what a job would refuse in this entry's files, '' when nothing."""
    import numpy as np
    import pandas as pd
    import xarray as xr

    try:
        with xr.open_dataarray(nc) as opened:
            trials = opened.load()
        table = pd.read_csv(csv, dtype=str)
    except Exception:  # noqa: BLE001  unreadable files: the fetch job names them with its own advice
        return ""
    coords = {ours: theirs for ours, theirs in (entry["behaviour"].get("coords") or {}).items()}

    def values(ours):
        theirs = coords.get(ours, ours)
        return [str(v) for v in trials[theirs].values] if theirs in trials.coords else None

    known = set(table["stimulus_id"] if "stimulus_id" in table else table.get("image_id", []))
    ids = values("stimulus_id") or values("image_id") or []
    named = ids + sum((values(c) or [] for c in ("image_1", "image_2", "image_3")), [])
    unknown = pd.Series([i for i in named if i not in known])
    if known and len(unknown):
        counts = unknown.value_counts(sort=False)
        listed = ", ".join(f"{i!r} ({n} time(s))" for i, n in list(counts.items())[:5])
        more = f" … and {len(counts) - 5} more" if len(counts) > 5 else ""
        return (f"config benchmark_zoo.{name}.behaviour.file: {nc}: {len(counts)} stimulus id(s) of the trials are "
                f"not in the stimulus set {csv}: {listed}{more}. No image shows them: the jobs would read those "
                f"trials as subjects who saw different stimuli. Fix the ids in the trials, or add the stimuli to the "
                f"stimulus set (`brainpipe package` rewrites both and reprints the entry)")
    if entry.get("task") != "label" or entry.get("labels") in (None, "imagenet"):
        return ""
    from brainpipe.behaviour.label_sets import LabelSetError, label_set
    from brainpipe.behaviour.tasks import label_name

    try:
        labels = {label_name(e) for e in label_set(entry["labels"])}
    except LabelSetError:
        return ""  # the entry itself is refused when the config is read, with its own message
    choices = np.array([str(v) for v in trials.values], dtype=object)
    for what, found, allowed in (("truth", values("truth"), labels), ("choice", list(choices),
                                                                       labels | {_NO_RESPONSE})):
        outside = pd.Series([v for v in found or () if v not in allowed])
        if len(outside):
            counts = outside.value_counts(sort=False)
            listed = ", ".join(f"{v!r} ({n} trial(s))" for v, n in counts.items())
            return (f"config benchmark_zoo.{name}.labels: {nc}: {len(outside)} trial(s) have a {what} that is not "
                    f"among the {len(labels)} labels {sorted(labels)}: {listed}. The ceiling and score jobs would "
                    f"refuse them: add them to labels (mapped to ImageNet classes), or fix the trials")
    return ""
