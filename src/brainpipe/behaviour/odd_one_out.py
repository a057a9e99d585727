"""Odd-one-out match: share of triplets where the model picks the human odd one out.

Upstream: brain-score/vision brainscore_vision/benchmarks/hebart2023/benchmark.py. raw = mean(choice == image_3)
(the human odd one out is stored as ``image_3``); no error estimate. The ceiling is not computed from the data: a
benchmark declares it (upstream fixes it from the paper), and normalises chance-corrected,
(raw − 1/3) / (ceiling − 1/3), bounded to [0, 1].
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ._common import Result, as_text, coord, require_coords, responses, source_name, where

CHANCE = 1 / 3  # three images per triplet


def odd_one_out_match(choices: xr.DataArray, target: xr.DataArray) -> Result:
    """raw share of matching choices; ``choices``: the ``odd_one_out`` task output (one stimulus id per triplet,
    same triplet order as ``target``); ``target``: odd-one-out data (one triplet per presentation) with ``image_1``, ``image_2``, ``image_3``.

    Ids are compared as text: the assembly stores image numbers as integers while stimulus ids read from the
    stimulus CSV are strings here (upstream both sides are integers, so the comparison is the same).
    """
    name = source_name(target)
    require_coords(target, ["image_1", "image_2", "image_3"], "odd-one-out data", name)
    model = as_text(responses(choices))
    human = as_text(coord(target, "image_3"))
    if model.shape != human.shape:
        raise ValueError(f"{where(name)}{model.size} model choices for {human.size} triplets; one per triplet")
    if "stimulus_id" in choices.coords:  # the task writes "i|j|k" per triplet: check the order matches
        expected = np.array(["|".join(t) for t in zip(*(as_text(coord(target, f"image_{k}")) for k in (1, 2, 3)))])
        if not (as_text(coord(choices, "stimulus_id")) == expected).all():
            raise ValueError(f"{where(name)}model choices are not in the triplet order of the data (coordinate "
                             f"'stimulus_id' vs 'image_1|image_2|image_3')")
    values = model == human
    return Result(float(values.sum() / len(values)), float("nan"), xr.DataArray(values, dims=("presentation",)))


def check_row_positions(triplets, stimulus_ids, table_name: str, data_name: str | None = None) -> None:
    """Brain-Score selects the triplet images by row position (brain-score/vision benchmarks/hebart2023/
    benchmark.py ``stimulus_set.loc[triplets]`` on the CSV's RangeIndex), brainpipe by ``stimulus_id``: the two
    agree only where row i of the stimulus set is image i. ValueError naming the stimulus set and the first
    row the triplets use where that fails (Brain-Score would compare other images than brainpipe: on a table
    whose row i is not image i it scores 0 where brainpipe would score the images the ids name).

    ``triplets``: the image ids of the human data (any shape); ``stimulus_ids``: the stimulus set's column
    ``stimulus_id`` in its row order; ``table_name``/``data_name``: the files, for the message."""
    ids = as_text(stimulus_ids)
    used = sorted(set(as_text(triplets).ravel()), key=lambda t: (len(t), t))
    data = f" (triplets of {data_name})" if data_name else ""
    for triplet_id in used:
        if not (triplet_id.isascii() and triplet_id.isdigit()):
            raise ValueError(f"{table_name}: triplet image {triplet_id!r}{data} is not a row number; Brain-Score "
                             f"selects the triplet images by row position (stimulus_set.loc[triplets]), so the "
                             f"ids must be the row numbers 0..{len(ids) - 1} of the stimulus set")
    positions = sorted(int(t) for t in used)
    beyond = [p for p in positions if p >= len(ids)]
    if beyond:
        raise ValueError(f"{table_name}: triplet image {beyond[0]}{data} is beyond the stimulus set's {len(ids)} "
                         f"rows; Brain-Score selects the triplet images by row position (stimulus_set.loc[triplets])")
    wrong = [p for p in positions if ids[p] != str(p)]
    if wrong:
        first = wrong[0]
        raise ValueError(f"{table_name}: row {first} has stimulus_id {ids[first]!r}, not {str(first)!r}; Brain-Score "
                         f"selects the triplet images by row position (stimulus_set.loc[triplets]) and brainpipe by "
                         f"stimulus_id, which agree only where row i is image i ({len(wrong)} of the {len(positions)} "
                         f"rows the triplets{data} use differ): sort the stimulus set by image number")


def odd_one_out_ceiling(*_, **__) -> Result:
    """There is none to compute: one choice per triplet gives no split of the human data to compare. Upstream fixes
    the ceiling per data set from the paper; a benchmark declares it as a number."""
    raise ValueError("metric 'odd_one_out_match' has no ceiling computed from the human data: declare the "
                     "benchmark's ceiling as a number (Brain-Score takes it from the paper)")
