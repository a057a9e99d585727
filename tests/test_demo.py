"""brainpipe.data.demo (SyntheticShapes): determinism, counts, assembly layout, and a sensible IT ceiling."""

import numpy as np
import pytest

from brainpipe.data import demo
from brainpipe.data.assembly import prepare
from brainpipe.neural.ceiling import internal_consistency

SMALL = dict(categories=3, objects_per_category=2, images_per_object=5, image_size=48)


@pytest.fixture(scope="module")
def small():
    return demo.generate_stimuli(**SMALL, seed=3)


def test_counts_and_columns(small):
    table, images = small
    assert len(table) == len(images) == 3 * 2 * 5
    assert table["category_name"].nunique() == 3 and table["object_name"].nunique() == 6
    assert (table.groupby("object_name").size() == 5).all()
    assert table["stimulus_id"].is_unique
    assert set(table["split"]) == {"train", "test"} and set(table["variation"]) == {0, 1}
    assert (table["filename"] == "images/" + table["stimulus_id"] + ".png").all()
    assert all(image.size == (48, 48) and image.mode == "RGB" for image in images)


def test_deterministic(small):
    table, images = small
    again, images_again = demo.generate_stimuli(**SMALL, seed=3)
    assert table.equals(again)
    assert all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(images, images_again))
    other, _ = demo.generate_stimuli(**SMALL, seed=4)
    assert set(other["stimulus_id"]).isdisjoint(table["stimulus_id"])
    a = demo.simulate_assembly(table, images, neuroids={"V4": 4, "IT": 5}, repetitions=3, seed=3)
    b = demo.simulate_assembly(table, images, neuroids={"V4": 4, "IT": 5}, repetitions=3, seed=3)
    np.testing.assert_array_equal(a.values, b.values)
    c = demo.simulate_assembly(table, images, neuroids={"V4": 4, "IT": 5}, repetitions=3, seed=4)
    assert not np.array_equal(a.values, c.values)


def test_assembly_layout(small):
    table, images = small
    assembly = demo.simulate_assembly(table, images, neuroids={"V4": 4, "IT": 5}, repetitions=3)
    assert assembly.dims == ("neuroid", "presentation", "time_bin")
    assert assembly.shape[:2] == (9, 90)
    assert assembly.dtype == np.float32
    # time-resolved: contiguous bins covering the static benchmarks' 70–170 ms window
    starts, ends = assembly["time_bin_start"].values, assembly["time_bin_end"].values
    assert starts[0] == 70 and ends[-1] >= 170 and (starts[1:] == ends[:-1]).all()
    target, repetitions = prepare(assembly, "IT")
    assert "time_bin" not in target.dims and repetitions.shape == (90, 5)
    inside = (starts >= 70) & (ends <= 170)
    np.testing.assert_allclose(repetitions.values, assembly.values[4:, :, inside].mean(axis=2).T, rtol=1e-5, atol=1e-6)
    assert sorted(np.unique(assembly["repetition"].values)) == [0, 1, 2]
    counts = np.unique(assembly["stimulus_id"].values, return_counts=True)[1]
    assert (counts == 3).all()
    assert assembly["region"].values.tolist() == ["V4"] * 4 + ["IT"] * 5
    # per-stimulus coordinates agree with the table
    lookup = dict(zip(table["stimulus_id"], table["object_name"]))
    assert all(lookup[s] == o for s, o in zip(assembly["stimulus_id"].values, assembly["object_name"].values))


def test_bad_arguments(small):
    with pytest.raises(ValueError, match="categories"):
        demo.generate_stimuli(categories=9)
    table, images = small
    with pytest.raises(ValueError, match="V1"):
        demo.simulate_assembly(table, images, neuroids={"V1": 3})


def test_default_simulation_ceiling():
    table, images = demo.generate_stimuli()
    assert len(table) == 8 * 4 * 10
    assembly = demo.simulate_assembly(table, images)
    _, repetitions = prepare(assembly, "IT")
    ceiling = internal_consistency(repetitions)["ceiling"]
    assert 0.5 < ceiling < 0.95
