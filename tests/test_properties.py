"""brainpipe.properties on its own: the seeded bootstrap, the grid checks and the errors for bad input.

(Agreement with Brain-Score's numbers is tests/test_properties_reference.py.)
"""

import numpy as np
import pytest

from brainpipe.properties import ceiling, ks_similarity, neurons, orientation, spatial_frequency, surround, texture
from brainpipe.properties.stimulus_grid import grating_grid
from brainpipe.properties.table import PropertyTable


def grid(**levels):
    names = list(levels)
    mesh = np.meshgrid(*[np.asarray(levels[n], dtype=float) for n in names], indexing="ij")
    return {n: m.reshape(-1) for n, m in zip(names, mesh)}


ORIENTATION = grid(spatial_frequency=[1., 2.], orientation=np.arange(0, 180, 30), phase=[0., 90., 180., 270.])


def test_the_bootstrap_draws_as_numpy_random_choice_after_seeding():
    """brainpipe's draws are those of Brain-Score's np.random.choice loop after np.random.seed(seed)."""
    rng = np.random.RandomState(7)
    model, data = rng.uniform(0, 1, 23), rng.uniform(0, 1, 17)
    bins = np.linspace(0, 1, 6)
    np.random.seed(3)
    expected = []
    for _ in range(40):
        sample = np.random.choice(model, len(data))
        counts = np.histogram(sample, bins=bins)[0]
        expected.append(ks_similarity.ks_similarity(counts / counts.sum(), np.histogram(data, bins)[0] / len(data)))
    result = ks_similarity.bootstrap_similarity(model, data, bins, n_samples=40, rng=3)
    np.testing.assert_array_equal(result.values, expected)


def test_default_seed_and_shared_stream():
    model, data, bins = np.linspace(0, 1, 30), np.linspace(0.2, 0.9, 20), np.linspace(0, 1, 5)
    first = ks_similarity.bootstrap_similarity(model, data, bins)
    assert ks_similarity.DEFAULT_SEED == 0
    np.testing.assert_array_equal(first.values, ks_similarity.bootstrap_similarity(model, data, bins, rng=0).values)
    state = np.random.RandomState(0)
    ceiled = ceiling.ceiled_property_score(model, data, bins, rng=state)
    again = np.random.RandomState(0)
    raw = ks_similarity.bootstrap_similarity(model, data, bins, rng=again)
    top = ceiling.neuronal_property_ceiling(data, bins, rng=again)  # drawn after the raw score, from one stream
    assert ceiled.score == raw.score / top.score and ceiled.error == raw.error
    with pytest.raises(TypeError, match="rng"):
        ks_similarity.bootstrap_similarity(model, data, bins, rng="seed")


def test_identical_distributions_score_near_one_and_a_ceiling_of_itself():
    values = np.random.RandomState(1).uniform(0, 1, 500)
    top = ceiling.neuronal_property_ceiling(values, np.linspace(0, 1, 11))
    assert 0.9 < top.score < 1 and top.error > 0


@pytest.mark.parametrize("bins", [[1.0], [0, 0, 1], [0, np.nan, 1], [[0, 1], [1, 2]]])
def test_bad_bins(bins):
    with pytest.raises(ValueError, match="bins"):
        ks_similarity.bootstrap_similarity([0.5], [0.5], bins)


def test_no_model_unit_after_the_threshold_is_one_clear_error():
    with pytest.raises(ValueError, match="no model unit .*'circular_variance'.*threshold"):
        ks_similarity.bootstrap_similarity([], [0.1, 0.2], [0, 1], property_name="circular_variance")


def test_a_property_the_set_does_not_compute():
    responses = np.random.RandomState(0).uniform(0, 50, (3, len(ORIENTATION["phase"])))
    result = orientation.ringach2002_properties(responses, np.zeros(3), ORIENTATION)
    with pytest.raises(KeyError, match="'peak_spatial_frequency' is not computed.*circular_variance"):
        result.column("peak_spatial_frequency")
    assert isinstance(result, PropertyTable) and result.names == orientation.RINGACH2002_PROPERTIES
    assert result.column("max_dc", responsive_only=False).shape == (3,)


def test_a_missing_grating_parameter_is_named():
    stimuli = {k: v for k, v in ORIENTATION.items() if k != "phase"}
    with pytest.raises(ValueError, match="lack the parameter 'phase'"):
        orientation.ringach2002_properties(np.zeros((2, 48)), np.zeros(2), stimuli)


def test_stimuli_out_of_grid_order_are_named():
    stimuli = dict(ORIENTATION)
    order = np.argsort(stimuli["phase"], kind="stable")  # phase slowest: wrong
    stimuli = {k: v[order] for k, v in stimuli.items()}
    with pytest.raises(ValueError, match="not ordered as a grid: 'phase' must vary fastest"):
        orientation.devalois1982a_properties(np.zeros((2, 48)), np.zeros(2), stimuli)
    with pytest.raises(ValueError, match="not a grid"):
        grating_grid({"orientation": np.array([0., 1., 0., 1., 0.]), "phase": np.zeros(5)}, ("orientation", "phase"), 5, cycles=False)


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="one value per unit"):
        orientation.ringach2002_properties(np.zeros((2, 48)), np.zeros(3), ORIENTATION)
    with pytest.raises(ValueError, match="one value per stimulus"):
        orientation.ringach2002_properties(np.zeros((2, 40)), np.zeros(2), ORIENTATION)
    with pytest.raises(ValueError, match="at least 2 phases"):
        orientation.ringach2002_properties(np.zeros((1, 6)), np.zeros(1),
                                           grid(spatial_frequency=[1.], orientation=np.arange(0, 180, 30), phase=[0.]))


def test_cycles_are_repeats_of_the_grid():
    stimuli = grid(radius=[1., 2.], spatial_frequency=[1., 2.], orientation=np.arange(0, 180, 30),
                   phase=[0., 90., 180., 270.])
    stimuli.pop("radius")
    responses = np.random.RandomState(2).uniform(0, 40, (4, 96))
    result = orientation.ringach2002_properties(responses, np.zeros(4), stimuli)
    assert result.values.shape == (4, 12)
    np.testing.assert_allclose(result.column("max_dc", responsive_only=False),
                               responses.reshape(4, 2, 2, 6, 4).mean(axis=4).reshape(4, -1).max(axis=1))
    with pytest.raises(ValueError, match="not a grid"):  # the size experiments need the exact grid
        spatial_frequency.schiller1976_properties(responses, np.zeros(4), {**stimuli, "radius": np.ones(96)})


def test_thresholds_as_brainscore_states_them():
    """Ringach: max DC > baseline + 5; Cavanaugh: max(DC − baseline, AC) > 5 (no baseline added)."""
    flat = np.full((2, 48), 10.0)
    result = orientation.ringach2002_properties(flat, np.array([4.0, 5.0]), ORIENTATION)
    assert result.responsive.tolist() == [True, False]
    assert result.kept().shape == (1, 12)
    assert result.column("orientation_selective").tolist() == [0.0]  # flat: no bandwidth
    size = grid(radius=[0.25, 0.5, 1., 2.], spatial_frequency=[1., 2.], orientation=[0., 90.], phase=[0., 180.])
    table = surround.cavanaugh2002_properties(np.full((2, 32), 10.0), np.array([4.0, 5.5]), size)
    assert table.responsive.tolist() == [True, False]


def test_texture_stimuli_are_sorted_and_need_two_types():
    stimuli = grid(type=[0., 1.], family=[1., 2., 3.], sample=[1., 2.])
    responses = np.random.RandomState(3).uniform(0, 30, (3, 12))
    reference = texture.freemanziemba2013_properties(responses, np.ones(3), stimuli)
    order = np.random.RandomState(4).permutation(12)
    shuffled = texture.freemanziemba2013_properties(responses[:, order], np.ones(3),
                                                    {k: v[order] for k, v in stimuli.items()})
    np.testing.assert_array_equal(reference.values, shuffled.values)
    with pytest.raises(ValueError, match="exactly 2 types"):
        texture.freemanziemba2013_properties(np.zeros((1, 9)), np.zeros(1),
                                             grid(type=[0., 1., 2.], family=[1., 2., 3.], sample=[1.]))
    with pytest.raises(ValueError, match="'family'"):
        texture.freemanziemba2013_properties(np.zeros((1, 4)), np.zeros(1), {"type": np.zeros(4), "sample": np.ones(4)})


def test_size_tuning_of_a_suppressed_unit():
    gsf, diameter, ratio, index = surround.size_tuning(np.array([2., 8., 10., 6., 4., 4.]),
                                                       np.array([0.125, 0.25, 0.5, 1., 2., 4.]))
    assert (gsf, diameter, ratio, index) == (1.0, 4.0, 4.0, 0.6)


def test_receptive_field_errors():
    stimuli = grid(position_y=[-1., 0., 1.], position_x=[-1., 0., 1.], phase=[0., 180.])
    with pytest.raises(ValueError, match="one value per unit"):
        neurons.map_receptive_fields(np.zeros((2, 18)), np.zeros((2, 3)), stimuli)
    with pytest.raises(ValueError, match="share one position"):
        neurons.stimulus_position(stimuli, 18)
    with pytest.raises(ValueError, match="no model unit has its receptive field"):
        neurons.firing_rate_affine(np.zeros((2, 48)), np.zeros(2), ORIENTATION, [])
    fields = neurons.map_receptive_fields(np.r_[[np.repeat([0, 0, 0, 0, 9, 0, 0, 0, 0.], 2)]], [0.], stimuli)
    np.testing.assert_array_equal(fields.positions, [[0., 0.]])
    np.testing.assert_array_equal(neurons.in_receptive_field(fields.positions, [0., 0.1]), [0])
