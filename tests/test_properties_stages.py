"""brainpipe.properties.stages, sets and demo: the stage functions the properties rules call, their bad input,
and the SyntheticGratings demo generator (fast; the workflow run is tests/test_properties_workflow.py)."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from brainpipe.properties import demo, stages
from brainpipe.properties.ks_similarity import bootstrap_similarity
from brainpipe.properties.orientation import ringach2002_properties
from brainpipe.properties.sets import PropertyFunctionError, property_function


def activations(values, stimulus_ids):
    """A (presentation × neuroid) activations array as the activations stage writes it."""
    values = np.asarray(values, dtype=np.float32)
    return xr.DataArray(values, dims=("presentation", "neuroid"),
                        coords={"stimulus_id": ("presentation", list(stimulus_ids)),
                                "neuroid_id": ("neuroid", [f"u{i}" for i in range(values.shape[1])])})


def tuned_population(n_units=40, seed=0):
    """Model units tuned to orientation at the demo's orientation stimuli, RFs at the centre for most of them."""
    rng = np.random.RandomState(seed)
    tables = demo.stimulus_tables()
    rf, orientation = tables["receptive_field"], tables["orientation"]
    centres = rng.uniform(-0.3, 0.3, size=(n_units, 2))
    rf_responses = np.exp(-((rf.position_y.values[None] - centres[:, :1]) ** 2 +
                            (rf.position_x.values[None] - centres[:, 1:]) ** 2) / 0.05)
    preferred = rng.uniform(0, 180, n_units)
    width = rng.uniform(0.5, 4, n_units)
    angle = np.deg2rad(orientation.orientation.values[None] - preferred[:, None])
    phase = np.deg2rad(orientation.phase.values)[None]
    tuning = np.exp(width[:, None] * (np.cos(2 * angle) - 1)) * (1 + 0.5 * np.cos(phase))
    tuning[:3] = 1.0  # flat tuning curves
    blank = rng.uniform(0, 0.05, n_units)
    return rf, orientation, rf_responses, tuning + blank[:, None], blank


def test_responses_follow_the_stimulus_table_not_the_file_order():
    stimuli = pd.DataFrame({"stimulus_id": ["b", "a", "c"]})
    array = activations([[1, 10], [2, 20], [3, 30]], ["a", "b", "c"])
    np.testing.assert_array_equal(stimuli_responses := stages.responses_on(array, stimuli, "x.nc"),
                                  [[2, 1, 3], [20, 10, 30]])
    assert stimuli_responses.dtype == np.float32
    with pytest.raises(ValueError, match=r"x\.nc: no activations for 1 stimulus_id.*'d'"):
        stages.responses_on(array, pd.DataFrame({"stimulus_id": ["a", "d"]}), "x.nc")


def test_the_chain_equals_the_library_functions_composed():
    rf, orientation, rf_responses, responses, blank = tuned_population()
    positions = stages.receptive_field_positions(rf_responses, blank, rf, [f"u{i}" for i in range(len(blank))])
    assert positions.dims == ("neuroid", "axis") and positions.shape == (len(blank), 2)
    affine = stages.firing_rate_map(positions, responses, blank, orientation)
    assert affine["n_in_receptive_field"] > 0 and np.isfinite(affine["slope"])
    table = stages.model_properties(ringach2002_properties, responses, blank, orientation, positions, affine,
                                    "ringach2002")
    in_rf = np.flatnonzero(np.linalg.norm(positions.values, axis=1) <= 0.15)
    assert table["neuroid_id"].values.tolist() == [f"u{i}" for i in in_rf]
    # the same numbers as the library functions composed by hand (Brain-Score's order: rates, then properties)
    from brainpipe.properties.neurons import firing_rates
    rates = firing_rates(responses, in_rf, (affine["slope"], affine["offset"]))
    base = firing_rates(blank.reshape(-1, 1), in_rf, (affine["slope"], affine["offset"]))
    expected = ringach2002_properties(rates, base, orientation)
    np.testing.assert_array_equal(table.values, expected.values)
    np.testing.assert_array_equal(table["responsive"].values, expected.responsive)
    values = stages.model_property_values(table, "circular_variance", "m.nc")
    assert len(values) == expected.responsive.sum()


def test_property_score_and_ceiling_are_the_seeded_bootstraps():
    data = xr.DataArray(np.array([[0.1, 10.0], [0.5, np.nan], [0.9, 40.0], [0.3, 20.0]]),
                        dims=("neuroid", "neuronal_property"),
                        coords={"neuronal_property": ["circular_variance", "bandwidth"]},
                        attrs={"circular_variance_bins": np.linspace(0, 1, 14), "bandwidth_bins": np.linspace(0, 90, 18)})
    values, bins = stages.neural_property(data, "bandwidth", "d.nc")
    assert np.isnan(values[1]) and len(bins) == 18
    ceiling = stages.property_ceiling(values, bins, 0, "bandwidth")
    again = bootstrap_similarity(values, values, bins, rng=0)
    assert (ceiling["ceiling"], ceiling["error"]) == (again.score, again.error)
    model = np.array([5.0, 12.0, 33.0, 80.0, np.nan])
    result = stages.property_score(model, values, bins, ceiling, 0, "bandwidth")
    raw = bootstrap_similarity(model, values, bins, rng=0)
    assert result["raw"] == raw.score and result["error"] == raw.error
    assert result["score"] == raw.score / ceiling["ceiling"]
    assert {"score", "raw", "ceiling", "error", "ceiling_error", "per_fold", "n_folds"} <= set(result)
    # a ceiling of 0 (more than 100 NaN samples) gives NaN / inf, as Brain-Score's raw / ceiling
    assert np.isnan(stages.property_score(model, values, bins, {"ceiling": 0.0, "error": 0.0}, 0, "b")["score"]) \
        or np.isinf(stages.property_score(model, values, bins, {"ceiling": 0.0, "error": 0.0}, 0, "b")["score"])


def test_bad_input_names_the_file_and_the_property():
    data = xr.DataArray(np.zeros((3, 1)), dims=("neuroid", "neuronal_property"),
                        coords={"neuronal_property": ["bandwidth"]}, attrs={})
    with pytest.raises(ValueError, match=r"d\.nc: has no property 'circular_variance'; it has bandwidth"):
        stages.neural_property(data, "circular_variance", "d.nc")
    with pytest.raises(ValueError, match=r"d\.nc: no bins for property 'bandwidth' \(attribute 'bandwidth_bins'\)"):
        stages.neural_property(data, "bandwidth", "d.nc")
    table = xr.DataArray(np.ones((2, 1)), dims=("neuroid", "neuronal_property"),
                         coords={"neuronal_property": ["bandwidth"], "responsive": ("neuroid", [False, False])},
                         attrs={"property_set": "ringach2002", "threshold_rule": "max DC response > baseline + 5"})
    with pytest.raises(ValueError, match=r"m\.nc: no model unit passes the response threshold \(max DC"):
        stages.model_property_values(table, "bandwidth", "m.nc")
    with pytest.raises(ValueError, match=r"m\.nc: property 'peak' is not computed by property set ringach2002"):
        stages.model_property_values(table, "peak", "m.nc")


def test_a_layer_with_no_responsive_unit_has_a_null_score_that_says_why():
    """The workflow's properties_score_layer writes this instead of failing (pixels on Marques2020's gratings):
    the headline carries the reason, as a static model's on object solution times."""
    from brainpipe.pipeline.headline import headline

    table = xr.DataArray(np.ones((2, 1)), dims=("neuroid", "neuronal_property"),
                         coords={"neuronal_property": ["bandwidth"], "responsive": ("neuroid", [False, False])},
                         attrs={"property_set": "ringach2002", "threshold_rule": "max DC response > baseline + 5"})
    reason = stages.unresponsive_reason(table)
    assert reason.startswith("no model unit passes the response threshold (max DC response > baseline + 5)")
    assert stages.unresponsive_reason(table.assign_coords(responsive=("neuroid", [False, True]))) is None
    layer = stages.unscored_property(reason, {"ceiling": 0.8, "error": 0.01}, "bandwidth", 40)
    assert (layer["score"], layer["raw"], layer["ceiling"], layer["n_units"]) == (None, None, 0.8, 0)
    result = headline({"pixels": layer}, "pixels", {}, {}, {}, {})
    assert result["score"] is None and result["reason"] == reason


def test_stimuli_missing_a_grating_parameter_and_no_unit_in_the_rf():
    rf, orientation, rf_responses, responses, blank = tuned_population()
    positions = stages.receptive_field_positions(rf_responses, blank, rf, range(len(blank)))
    affine = stages.firing_rate_map(positions, responses, blank, orientation)
    with pytest.raises(ValueError, match="lack the parameter 'phase'"):
        stages.model_properties(ringach2002_properties, responses, blank, orientation.drop(columns="phase"),
                                positions, affine, "ringach2002")
    far = orientation.assign(position_x=2.0)
    with pytest.raises(ValueError, match="no model unit has its receptive field at the stimuli's position"):
        stages.model_properties(ringach2002_properties, responses, blank, far, positions, affine, "ringach2002")


def test_a_users_property_function_that_raises_or_returns_garbage_is_named(tmp_path):
    good = tmp_path / "mine.py"
    good.write_text("import numpy as np\n"
                    "def properties(responses, baseline, stimuli):\n"
                    "    peak = responses.max(axis=1)\n"
                    "    return {'peak': peak, 'responsive': peak > baseline[:, 0] + 5}\n")
    function = property_function(f"plugin:{good}")
    result = function(np.array([[1.0, 20.0], [1.0, 2.0]]), np.zeros((2, 1)), {})
    assert result.names == ("peak",) and result.responsive.tolist() == [True, False]
    bad = tmp_path / "bad.py"
    bad.write_text("def properties(responses, baseline, stimuli):\n    raise RuntimeError('boom')\n")
    with pytest.raises(PropertyFunctionError, match=r"bad\.py:properties raised RuntimeError: boom"):
        property_function(f"plugin:{bad}")(np.ones((2, 2)), np.zeros((2, 1)), {})
    short = tmp_path / "short.py"
    short.write_text("def properties(responses, baseline, stimuli):\n    return {'x': [1], 'responsive': [True]}\n")
    with pytest.raises(PropertyFunctionError, match=r"short\.py:properties: 'x' has shape \(1,\), expected \(2,\)"):
        property_function(f"plugin:{short}")(np.ones((2, 2)), np.zeros((2, 1)), {})
    with pytest.raises(PropertyFunctionError, match="not found"):
        property_function(f"plugin:{tmp_path / 'absent.py'}")
    with pytest.raises(ValueError, match="unknown property set 'ringach'"):
        property_function("ringach")


def test_demo_stimuli_and_population_are_deterministic_grids_with_known_distributions():
    table, images = demo.generate_stimuli("orientation", image_size=32)
    assert len(table) == len(images) == 3 * 12 * 8 and table.stimulus_id.is_unique
    assert (table.degrees == demo.DEGREES).all()
    again, images_again = demo.generate_stimuli("orientation", image_size=32)
    assert table.equals(again) and all(np.array_equal(np.asarray(a), np.asarray(b))
                                       for a, b in zip(images, images_again))
    blank, (image,) = demo.generate_stimuli("blank", image_size=16)
    assert (np.asarray(image) == 128).all()
    population = demo.simulate_population(2000, seed=0)
    assert population.dims == ("neuroid", "neuronal_property")
    cv = population.sel(neuronal_property="circular_variance").values
    assert abs(cv.mean() - 2.0 / 4.5) < 0.02  # beta(2, 2.5)
    selective = population.sel(neuronal_property="orientation_selective").values
    bandwidth = population.sel(neuronal_property="bandwidth").values
    assert abs(selective.mean() - 0.85) < 0.03 and np.isnan(bandwidth[selective == 0]).all()
    for name in population["neuronal_property"].values:
        assert f"{name}_bins" in population.attrs


def test_a_fetched_property_table_is_checked_naming_the_file():
    good = xr.DataArray(np.array([[0.1, 10.0], [np.nan, 20.0]]), dims=("neuroid", "neuronal_property"),
                        coords={"neuronal_property": ["circular_variance", "bandwidth"], "neuroid_id": ("neuroid", [7, 8])},
                        attrs={"circular_variance_bins": [0, 0.5, 1], "bandwidth_bins": [0, 45, 90],
                               "stimulus_set_identifier": "x"})
    checked = stages.checked_property_data(good, "t.nc", ("bandwidth",))
    assert set(checked.attrs) == {"circular_variance_bins", "bandwidth_bins"}
    np.testing.assert_array_equal(checked.values, good.values)
    empty = good.copy(data=np.array([[0.1, 10.0], [np.nan, np.nan]]))
    with pytest.raises(ValueError, match=r"t\.nc: 1 neuron row\(s\) are NaN in every property \(rows \[1\]\)"):
        stages.checked_property_data(empty, "t.nc")
    with pytest.raises(ValueError, match=r"t\.nc: no bins for property 'bandwidth'"):
        stages.checked_property_data(good.assign_attrs(bandwidth_bins=None).drop_attrs()
                                     if hasattr(good, "drop_attrs") else xr.DataArray(good.values, dims=good.dims,
                                     coords=good.coords), "t.nc", ("bandwidth",))


def test_brainpipe_list_shows_the_22_marques2020_benchmarks_with_their_parents(capsys):
    from brainpipe import cli
    cli.list_benchmarks({})
    out = capsys.readouterr().out
    listed = [line.split(":")[0].strip() for line in out.splitlines() if line.strip().startswith("Marques2020_")
              and ": property " in line]
    assert len(listed) == 22
    assert "Marques2020_Cavanaugh2002-surround_diameter: property surround_diameter (cavanaugh2002 on " \
           "Marques2020_size), ks_similarity, ceiling NeuronalPropertyCeiling; version 1, parent " \
           "V1-receptive_field_size" in out
    for parent in ("V1-orientation", "V1-response_magnitude", "V1-response_selectivity", "V1-spatial_frequency",
                   "V1-surround_modulation", "V1-texture_modulation"):
        assert f"parent {parent}" in out
