"""Hebart2023-match: Brain-Score selects the triplet images by the stimulus set's row position
(brain-score/vision brainscore_vision/benchmarks/hebart2023/benchmark.py ``stimulus_set.loc[triplets]``), brainpipe
by ``stimulus_id``. They agree only where row i is image i; where it is not, the task refuses the data, naming the
stimulus set and the first row the triplets use that differs (Brain-Score scored such a table 0.0, brainpipe 0.216).
"""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import behaviour_fixtures as bf
from brainpipe import benchmarks
from brainpipe.behaviour import stages

HEBART = "Hebart2023-match"
TABLE = "resources/stimuli/Hebart2023/stimuli.csv"


def features(ids, seed=0):
    rng = np.random.default_rng(seed)
    return xr.DataArray(rng.normal(size=(len(ids), 5)), dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", np.array(ids, dtype=object))})


def data(order=None):
    human, stimuli, _ = bf.hebart2023(n_images=8, n_triplets=12)
    human.attrs["source"] = "results/assemblies/Hebart2023/behaviour.nc"
    table = stimuli if order is None else stimuli.iloc[order].reset_index(drop=True)
    table = table.assign(stimulus_id=table["stimulus_id"].astype(str))
    table.attrs["source"] = TABLE
    return human, table


def test_rows_in_image_order_are_scored():
    human, table = data()
    choices = stages.run_task(benchmarks.parse(HEBART), features(list(table["stimulus_id"])), human=human,
                              test_table=table)
    assert choices.sizes["presentation"] == human.sizes["presentation"]


def test_rows_out_of_image_order_are_refused_naming_the_file_and_row():
    human, table = data(order=[0, 1, 2, 4, 3, 5, 6, 7])  # rows 3 and 4 swapped
    with pytest.raises(ValueError) as error:
        stages.run_task(benchmarks.parse(HEBART), features(list(table["stimulus_id"])), human=human,
                        test_table=table)
    message = str(error.value)
    assert message.startswith(f"{TABLE}: row 3 has stimulus_id '4', not '3'")
    assert "stimulus_set.loc[triplets]" in message and "results/assemblies/Hebart2023/behaviour.nc" in message


def test_ids_that_are_not_row_numbers_are_refused():
    human, table = data()
    names = {str(i): f"img{i}" for i in range(8)}
    table = table.assign(stimulus_id=table["stimulus_id"].map(names))
    human = human.assign_coords({f"image_{k}": ("presentation", [names[str(v)] for v in human[f"image_{k}"].values])
                                 for k in (1, 2, 3)})
    with pytest.raises(ValueError, match=rf"^{TABLE}: triplet image 'img\d' .* is not a row number"):
        stages.run_task(benchmarks.parse(HEBART), features(list(table["stimulus_id"])), human=human,
                        test_table=table)


def test_the_task_needs_the_stimulus_table():
    human, table = data()
    with pytest.raises(ValueError, match="needs the test stimulus set's table"):
        stages.run_task(benchmarks.parse(HEBART), features(list(table["stimulus_id"])), human=human)


def test_only_brainscores_benchmark_is_indexed_by_row():
    """A lab's declared odd-one-out data are looked up by stimulus_id alone (no Brain-Score indexing to match)."""
    assert stages.task_spec(benchmarks.parse(HEBART))["triplet_images"] == "by_row"
    human, table = data(order=[0, 1, 2, 4, 3, 5, 6, 7])
    spec = {"task": "odd_one_out", "similarity": "dot"}  # a declared benchmark's spec
    choices = stages.run_task(spec, features(list(table["stimulus_id"])), human=human, test_table=table)
    assert choices.sizes["presentation"] == human.sizes["presentation"]
