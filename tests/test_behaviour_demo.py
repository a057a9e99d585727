"""Simulated behaviour on SyntheticShapes: layouts, determinism, and that the metrics run on it end to end."""

import numpy as np
import pytest
import xarray as xr

from brainpipe.behaviour import demo, metrics, tasks
from brainpipe.data.demo import generate_stimuli
from brainpipe.io import read_netcdf, write_netcdf


@pytest.fixture(scope="module")
def table():
    return generate_stimuli(categories=8, objects_per_category=2, images_per_object=6, image_size=64)[0]


def test_labelling_layout_and_ceiling(table, tmp_path):
    labelling = demo.simulate_labelling(table, subjects=4, seed=1)
    assert labelling.dims == ("presentation",) and labelling.sizes["presentation"] == 4 * len(table)
    for name in ("stimulus_id", "image_id", "truth", "choice", "category", "condition", "subject", "session",
                 "trial", "response_time"):
        assert name in labelling.coords
    assert set(labelling.values) <= set(table["category_name"])
    write_netcdf(labelling, tmp_path / "labelling.nc")
    again = read_netcdf(tmp_path / "labelling.nc")
    assert (again.values == labelling.values).all()
    ceiling = metrics.error_consistency_ceiling(again)
    assert 0.1 < ceiling.score < 0.9
    xr.testing.assert_identical(labelling, demo.simulate_labelling(table, subjects=4, seed=1))


def test_match_to_sample_i2n_end_to_end(table):
    trials = demo.simulate_match_to_sample(table, subjects=6, seed=2)
    assert {"sample_obj", "dist_obj", "truth", "choice", "stimulus_id"} <= set(trials.coords)
    assert (trials["sample_obj"].values != trials["dist_obj"].values).all()
    ceiling = metrics.i2n_ceiling(trials, skipna=True)
    assert 0.1 < ceiling.score < 1
    # a readout of noisy category features through the probabilities task
    rng = np.random.default_rng(0)
    categories = sorted(table["category_name"].unique())
    onehot = np.eye(len(categories))[[categories.index(c) for c in table["category_name"]]]
    features = xr.DataArray(onehot * 2 + rng.normal(size=onehot.shape), dims=("presentation", "neuroid"),
                            coords={"stimulus_id": ("presentation", table["stimulus_id"].to_numpy(object)),
                                    "image_label": ("presentation", table["category_name"].to_numpy(object))})
    with pytest.warns(UserWarning, match="same images"):
        probabilities = tasks.probabilities(features, features)
    score = metrics.i2n(probabilities, trials)
    assert -1 < score.score < 1 and np.isfinite(score.error)
    ceiled = metrics.normalise(score, ceiling, "raw_over_sqrt_ceiling_per_split", clip=False)
    assert np.isfinite(ceiled.score)


def test_bad_table():
    with pytest.raises(ValueError, match=r"lacks column\(s\) \['category_name'\]"):
        demo.simulate_labelling(__import__("pandas").DataFrame({"stimulus_id": ["a"]}))
