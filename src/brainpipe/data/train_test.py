"""Recordings published as separate train and test files, joined into one assembly and one stimulus set.

Brain-Score's ``TrainTestNeuralBenchmark`` (brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py)
reads a train and a test assembly, each with its own stimulus set (Allen2022: the train file holds one response per
image and no ``repetition`` coordinate, the test file three repetitions per image). brainpipe joins them once, so
that the usual stages (prepare, activations, folds, ceiling) run on one file and the model sees every image once:

* the assembly: the parts' presentations one after the other, a presentation coordinate ``split`` naming each
  one's part, ``repetition`` 0 where a part has none; the neuroids must be the same, in the same order, in every
  part (Brain-Score scores the train and test responses of the same voxels);
* the stimuli: one folder, each part's images under ``<split>/``, the tables one after the other.

The joined assembly is filled part by part into one preallocated array: each file is read once and a part's
array is freed before the next is read.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .stimuli import read_stimulus_set, write_stimulus_table

#: the presentation coordinate saying which part (train or test) each presentation of a joined data set is in; the
#: *_split metrics read the same coordinate from their stimuli (brainpipe.neural.metrics.TRAIN_TEST_COORD)
TRAIN_TEST_COORD = "split"


def _presentation_coords(assembly):
    return {name: coord for name, coord in assembly.coords.items() if coord.dims == ("presentation",)}


def join_assemblies(parts, read, presentations=None) -> xr.DataArray:
    """Join ``parts`` ((split name, path), ...) read with ``read(path) -> DataArray`` along the presentations.

    Presentation coordinates every part has are kept (``repetition`` is 0 where a part lacks it, as a file of one
    response per image); the neuroid and time-bin coordinates are the first part's, after checking that every part
    has the same ``neuroid_id`` values in the same order. Values keep the parts' dtype (float32 in Allen2022).
    ``presentations``: each part's number of presentations, read from the files' headers, so that the joined array
    is allocated once and each part copied into it (peak: the joined array and one part); None: grown part by part.
    """
    if len(parts) < 2:
        raise ValueError(f"joining train/test files needs at least two parts, got {len(parts)}")
    layout, coords, sizes, values = None, [], [], None
    for index, (split, path) in enumerate(parts):
        part = read(path)
        part = part.transpose("presentation", "neuroid", *[d for d in part.dims if d not in ("presentation", "neuroid")])
        if layout is None:
            layout = part.isel(presentation=slice(0, 0))  # the coordinates beyond the presentations, no values
        elif not np.array_equal(part["neuroid_id"].values, layout["neuroid_id"].values):
            raise ValueError(f"{path}: its neuroids differ from {parts[0][1]}'s (neuroid_id values or order); "
                             f"train and test files must hold the same neuroids")
        elif part.shape[1:] != layout.shape[1:]:
            raise ValueError(f"{path}: shape {part.shape[1:]} beyond the presentations, {parts[0][1]} has "
                             f"{layout.shape[1:]}")
        n = part.sizes["presentation"]
        start = sum(sizes)
        sizes.append(n)
        coords.append({name: coord.values for name, coord in _presentation_coords(part).items()})
        if presentations is not None:
            if presentations[index] != n:
                raise ValueError(f"{path}: {n} presentations, its header said {presentations[index]}")
            if values is None:
                values = np.empty((sum(presentations),) + layout.shape[1:], dtype=part.dtype)
            values[start:start + n] = part.values
        elif values is None:
            values = part.values
        else:  # grow the joined array by this part
            values = np.concatenate([values, part.values.astype(values.dtype, copy=False)])
        del part
    names = [name for name in coords[0] if all(name in c for c in coords[1:])]
    joined_coords = {name: ("presentation", np.concatenate([c[name] for c in coords])) for name in names}
    if "repetition" not in names:
        joined_coords["repetition"] = ("presentation", np.concatenate(
            [c["repetition"] if "repetition" in c else np.zeros(n, dtype=np.int64) for c, n in zip(coords, sizes)]))
    joined_coords[TRAIN_TEST_COORD] = ("presentation", np.concatenate([[split] * n for (split, _), n in zip(parts, sizes)]))
    for name, coord in layout.coords.items():
        if coord.dims != ("presentation",):
            joined_coords[name] = (coord.dims, coord.values)
    return xr.DataArray(values, dims=layout.dims, coords=joined_coords, name=layout.name, attrs=dict(layout.attrs))


def _link_or_copy(source: Path, target: Path):
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:  # another file system, or links not allowed
        shutil.copy2(source, target)


def join_stimulus_sets(parts, out_dir) -> pd.DataFrame:
    """Write one stimulus-set folder from ``parts`` ((split name, folder), ...): each part's images under
    ``<split>/`` (hard links where possible), the tables one after the other with a ``split`` column.
    Raises ValueError if a stimulus id appears in two parts."""
    out_dir = Path(out_dir)
    tables = []
    for split, folder in parts:
        table = read_stimulus_set(folder)
        for path, name in zip(table["path"], table["filename"]):
            _link_or_copy(Path(path), out_dir / split / name)
        tables.append(table.assign(filename=[f"{split}/{name}" for name in table["filename"]], split=split))
    joined = pd.concat(tables, ignore_index=True)
    repeated = joined["stimulus_id"][joined["stimulus_id"].duplicated()].unique()
    if len(repeated):
        raise ValueError(f"stimulus ids in more than one of {[f for _, f in parts]}: e.g. {list(repeated[:3])}")
    write_stimulus_table(joined, out_dir)
    return joined


def held_out_trials(trials: xr.DataArray) -> xr.DataArray:
    """The test part's trials of a joined assembly (Brain-Score ceils on the test repetitions only)."""
    if TRAIN_TEST_COORD not in trials.coords:
        raise ValueError("the trials have no 'split' coordinate: not a joined train/test assembly")
    return trials.isel(presentation=np.flatnonzero(trials[TRAIN_TEST_COORD].values.astype(str) == "test"))
