#!/usr/bin/env python
"""Brain-Score 2.4.2's own property, metric and ceiling code run on generated arrays: the fixtures of
tests/test_properties_reference.py.

Runs in the reference venv that has brainscore-vision 2.4.2 (never in brainpipe's .venv):

    make reference-venv
    BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1 .venv-reference/bin/python \
        tests/reference/make_properties_reference.py tests/data/properties

It generates (numpy RandomState 2020) model responses to the grating and texture grids of the Marques2020
experiments (tuned units, untuned and flat units, all-zero units, units below the response threshold, a shuffled
texture order, a second "cycle" of orientation gratings), calls Brain-Score's functions on them
(brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py: map_receptive_field_locations,
filter_receptive_fields, firing_rates_affine, get_firing_rates and the calc_* functions;
benchmarks/marques2020/benchmarks/*.py: the six *_properties functions;
metrics/distribution_similarity/metric.py: ks_similarity, BootstrapDistributionSimilarity,
NeuronalPropertyCeiling; benchmarks/__init__.py: ceil_score) and writes inputs and outputs to
``<out>/inputs.npz``, ``<out>/brainscore.npz`` and ``<out>/brainscore.json`` (scalars, versions, the seed).

The models' recordings are served to properties_common by replacing its ``record_from_model`` (the one function
that asks a model for activations); everything else is Brain-Score's code. Its bootstrap draws from numpy's global
RNG: every metric call here is preceded by ``np.random.seed(SEED)`` (brainpipe's documented default seed), and a
ceiled score seeds once and draws the raw score, then the ceiling, as its PropertiesBenchmark does.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("BS_INSTALL_DEPENDENCIES", "no")
os.environ.setdefault("RESULTCACHING_DISABLE", "1")

import numpy as np  # noqa: E402

SEED = 0  # brainpipe.properties.ks_similarity.DEFAULT_SEED
GENERATOR_SEED = 2020

# ---------------------------------------------------------------- generated grids and responses


def grating_stimuli(**levels):
    """Columns of a nested grid, first argument slowest (as the Marques2020 stimulus sets are ordered)."""
    names = list(levels)
    grids = np.meshgrid(*[np.asarray(levels[n], dtype=float) for n in names], indexing="ij")
    return {n: g.reshape(-1) for n, g in zip(names, grids)}


def von_mises(theta_deg, preferred, kappa):
    return np.exp(kappa * (np.cos(np.deg2rad(2 * (theta_deg - preferred))) - 1))


def make_inputs(rng):
    inputs = {}
    # -- orientation gratings: 2 cycles (radius) × 3 sf × 12 orientations × 8 phases
    ori = grating_stimuli(position_y=[0.], position_x=[0.], contrast=[1.], radius=[0.5, 1.0],
                          spatial_frequency=[1., 2., 4.], orientation=np.arange(0, 180, 15), phase=np.arange(0, 360, 45))
    n_units = 70
    preferred = rng.uniform(0, 180, n_units)
    kappa = rng.choice([0.05, 0.5, 1.5, 4., 10.], n_units)
    amplitude = rng.uniform(2, 60, n_units)
    baseline = rng.uniform(0, 3, n_units)
    modulation = rng.uniform(0, 1.2, n_units)
    sf_pref = rng.choice([1., 2., 4.], n_units)
    responses = (baseline[:, None]
                 + amplitude[:, None] * von_mises(ori["orientation"][None], preferred[:, None], kappa[:, None])
                 * np.exp(-np.log2(ori["spatial_frequency"][None] / sf_pref[:, None]) ** 2)
                 * (1 + modulation[:, None] * np.cos(np.deg2rad(ori["phase"][None] - 90 * rng.uniform(0, 4, (n_units, 1)))))
                 * (1 + 0.2 * (ori["radius"][None] - 0.75)))
    responses = np.maximum(responses + rng.normal(0, 0.5, responses.shape), 0)
    responses[0] = 20.0         # flat, above threshold
    responses[1] = 0.0          # all zero
    responses[2] = baseline[2] + 1.0  # flat, below threshold
    responses[3, :] = 3.0; responses[3, ::8] = 30.  # one phase only
    responses[4] = baseline[4] + 0.3 * responses[4] / responses[4].max()  # tuned but weak (below threshold)
    inputs["orientation_stimuli"] = ori
    inputs["orientation_responses"] = responses
    inputs["orientation_baseline"] = baseline.copy()

    # -- spatial frequency gratings: 2 radii × 8 sf × 4 orientations × 4 phases
    sf = grating_stimuli(position_y=[0.], position_x=[0.], contrast=[1.], radius=[0.75, 1.5],
                         spatial_frequency=np.geomspace(0.5, 11.3, 8), orientation=[0., 45., 90., 135.],
                         phase=[0., 90., 180., 270.])
    n_units = 60
    peak = np.exp(rng.uniform(np.log(0.5), np.log(11.3), n_units))
    width = rng.choice([0.4, 0.8, 1.5, 3.0, 30.0], n_units)
    amplitude = rng.uniform(1, 50, n_units)
    baseline = rng.uniform(0, 3, n_units)
    pref_or = rng.choice([0., 45., 90., 135.], n_units)
    modulation = rng.uniform(0, 1.5, n_units)
    responses = (baseline[:, None] + amplitude[:, None]
                 * np.exp(-np.log2(sf["spatial_frequency"][None] / peak[:, None]) ** 2 / (2 * width[:, None] ** 2))
                 * von_mises(sf["orientation"][None], pref_or[:, None], 1.0)
                 * (1 + modulation[:, None] * np.cos(np.deg2rad(sf["phase"][None])))
                 * (0.8 + 0.4 * (sf["radius"][None] > 1)))
    responses = np.maximum(responses + rng.normal(0, 0.5, responses.shape), 0)
    responses[0] = 12.0
    responses[1] = 0.0
    responses[2] = baseline[2] + 2.0
    inputs["sf_stimuli"] = sf
    inputs["sf_responses"] = responses
    inputs["sf_baseline"] = baseline.copy()

    # -- size gratings: 9 radii × 2 sf × 4 orientations × 4 phases
    size = grating_stimuli(position_y=[0.], position_x=[0.], contrast=[1.],
                           radius=[0.125, 0.25, 0.5, 0.75, 1., 1.5, 2., 3., 4.], spatial_frequency=[1., 3.],
                           orientation=[0., 45., 90., 135.], phase=[0., 90., 180., 270.])
    n_units = 60
    centre = rng.uniform(0.2, 1.5, n_units)
    surround = centre * rng.uniform(1.5, 4, n_units)
    suppression = rng.choice([0., 0.05, 0.3, 0.7, 1.2], n_units)
    amplitude = rng.uniform(1, 60, n_units)
    baseline = rng.uniform(0, 3, n_units)
    modulation = rng.uniform(0, 1.5, n_units)
    r = size["radius"][None]
    curve = np.tanh(r / centre[:, None]) - suppression[:, None] * np.tanh(r / surround[:, None])
    responses = (baseline[:, None] + amplitude[:, None] * curve
                 * (1 + modulation[:, None] * np.cos(np.deg2rad(size["phase"][None])))
                 * (1 + 0.3 * np.cos(np.deg2rad(2 * size["orientation"][None]))) * (size["spatial_frequency"][None] / 2))
    responses = np.maximum(responses + rng.normal(0, 0.3, responses.shape), 0)
    responses[0] = 9.0
    responses[1] = 0.0
    responses[2] = baseline[2] + 1.0
    responses[3] = np.tile(np.repeat([20., 20., 20., 20., 20., 20., 20., 20., 5.], 32), 1)  # plateau drop at the end
    inputs["size_stimuli"] = size
    inputs["size_responses"] = responses
    inputs["size_baseline"] = baseline.copy()

    # -- textures: 2 types × 5 families × 6 samples, shuffled
    tex = grating_stimuli(type=[0., 1.], family=[13., 18., 327., 336., 402.], sample=np.arange(1., 7.))
    order = rng.permutation(len(tex["type"]))
    tex = {k: v[order] for k, v in tex.items()}
    n_units = 50
    baseline = rng.uniform(0, 5, n_units)
    gain = rng.uniform(0.5, 2.5, n_units)
    family_effect = rng.gamma(2, 5, (n_units, 5))
    fam_index = np.searchsorted([13., 18., 327., 336., 402.], tex["family"])
    responses = (baseline[:, None] + family_effect[:, fam_index] * (1 + (gain[:, None] - 1) * tex["type"][None])
                 + rng.gamma(1, 2, (n_units, len(order))))
    responses[0] = 10.0
    responses[1] = 0.0
    responses[2] = baseline[2] + 2.0
    responses[3] = baseline[3]  # texture = noise = baseline: 0/0 modulation
    inputs["texture_stimuli"] = tex
    inputs["texture_responses"] = responses
    inputs["texture_baseline"] = baseline.copy()

    # -- receptive-field mapping: 7 × 7 positions × 2 orientations × 2 phases; raw activations (may be negative)
    rf = grating_stimuli(position_y=np.linspace(-0.6, 0.6, 7), position_x=np.linspace(-0.6, 0.6, 7), contrast=[1.],
                         radius=[0.1], spatial_frequency=[3.], orientation=[0., 90.], phase=[0., 180.])
    n_units = 80
    cy, cx = rng.normal(0, 0.15, (2, n_units))
    sigma = rng.uniform(0.1, 0.3, n_units)
    gain = rng.uniform(0.5, 5, n_units)
    blank = rng.normal(0.3, 0.3, n_units)
    g = np.exp(-((rf["position_y"][None] - cy[:, None]) ** 2 + (rf["position_x"][None] - cx[:, None]) ** 2)
               / (2 * sigma[:, None] ** 2))
    rf_act = blank[:, None] + gain[:, None] * g * (1 + 0.5 * np.cos(np.deg2rad(rf["orientation"][None])))
    rf_act += rng.normal(0, 0.05, rf_act.shape)
    rf_act[0] = -1.0  # never responds: no RF
    rf_act[1] = blank[1]  # equals blank
    inputs["rf_stimuli"] = rf
    inputs["rf_activations"] = rf_act
    inputs["blank_activations"] = blank.copy()
    # the orientation gratings (at position 0, 0) as raw activations of the same units, for the affine fit
    ori_act = (blank[:, None] + gain[:, None] * np.exp(-(cy ** 2 + cx ** 2) / (2 * sigma ** 2))[:, None]
               * von_mises(ori["orientation"][None], rng.uniform(0, 180, (n_units, 1)), 2.0)
               * (1 + 0.5 * np.cos(np.deg2rad(ori["phase"][None]))))
    inputs["orientation_activations"] = ori_act + rng.normal(0, 0.05, ori_act.shape)
    return inputs


# ---------------------------------------------------------------- property distributions for the metric

#: benchmark → (property, bins); bins as plausible edges (the real ones are attributes of the data files)
METRIC_CASES = {
    "Marques2020_Ringach2002-circular_variance": ("ringach2002", "circular_variance", np.linspace(0, 1, 11)),
    "Marques2020_Ringach2002-or_bandwidth": ("ringach2002", "bandwidth", np.array([0, 5, 10, 15, 20, 30, 45, 60, 90.])),
    "Marques2020_Ringach2002-orth_pref_ratio": ("ringach2002", "orthogonal_preferred_ratio", np.linspace(0, 1, 11)),
    "Marques2020_Ringach2002-or_selective": ("ringach2002", "orientation_selective", np.array([-0.5, 0.5, 1.5])),
    "Marques2020_Ringach2002-cv_bandwidth_ratio": ("ringach2002", "circular_variance_bandwidth_ratio", np.linspace(0, 0.1, 11)),
    "Marques2020_Ringach2002-opr_cv_diff": ("ringach2002", "orthogonal_preferred_ratio_circular_variance_difference", np.linspace(-1, 1, 21)),
    "Marques2020_Ringach2002-max_dc": ("ringach2002", "max_dc", np.geomspace(1, 200, 12)),
    "Marques2020_Ringach2002-modulation_ratio": ("ringach2002", "modulation_ratio", np.linspace(0, 2, 11)),
    "Marques2020_DeValois1982-pref_or": ("devalois1982a", "preferred_orientation", np.linspace(-22.5, 157.5, 9)),
    "Marques2020_DeValois1982-peak_sf": ("devalois1982b", "peak_spatial_frequency", np.geomspace(0.35, 16, 12)),
    "Marques2020_Schiller1976-sf_selective": ("schiller1976", "spatial_frequency_selective", np.array([-0.5, 0.5, 1.5])),
    "Marques2020_Schiller1976-sf_bandwidth": ("schiller1976", "spatial_frequency_bandwidth", np.linspace(0, 100, 11)),
    "Marques2020_Cavanaugh2002-surround_suppression_index": ("cavanaugh2002", "surround_suppression_index", np.linspace(0, 1.1, 12)),
    "Marques2020_Cavanaugh2002-grating_summation_field": ("cavanaugh2002", "grating_summation_field", np.geomspace(0.125, 8, 10)),
    "Marques2020_Cavanaugh2002-surround_diameter": ("cavanaugh2002", "surround_diameter", np.geomspace(0.25, 16, 10)),
    "Marques2020_FreemanZiemba2013-texture_modulation_index": ("freemanziemba2013", "texture_modulation_index", np.linspace(-0.5, 0.5, 11)),
    "Marques2020_FreemanZiemba2013-abs_texture_modulation_index": ("freemanziemba2013", "absolute_texture_modulation_index", np.linspace(0, 0.5, 11)),
    "Marques2020_FreemanZiemba2013-texture_selectivity": ("freemanziemba2013", "texture_selectivity", np.linspace(0, 1, 11)),
    "Marques2020_FreemanZiemba2013-texture_sparseness": ("freemanziemba2013", "texture_sparseness", np.linspace(0, 1, 11)),
    "Marques2020_FreemanZiemba2013-texture_variance_ratio": ("freemanziemba2013", "variance_ratio", np.geomspace(0.1, 50, 12)),
    "Marques2020_FreemanZiemba2013-max_texture": ("freemanziemba2013", "max_texture", np.geomspace(1, 200, 12)),
    "Marques2020_FreemanZiemba2013-max_noise": ("freemanziemba2013", "max_noise", np.geomspace(1, 200, 12)),
}


def data_values(rng, model_values, bins):
    """A 'recorded' distribution: a jittered resample of the model's finite values spread over the bins, plus NaN."""
    finite = model_values[np.isfinite(model_values)]
    n = 80
    base = rng.choice(finite, n) if len(finite) else np.full(n, bins[0])
    spread = rng.uniform(bins[0], bins[-1], n)
    values = np.where(rng.uniform(size=n) < 0.5, base, spread) * rng.uniform(0.8, 1.2, n)
    values[:3] = np.nan
    values[3] = bins[-1] + 10  # clipped
    return values


# ---------------------------------------------------------------- Brain-Score calls


def main(out: Path):
    import brainscore_vision
    import scipy
    import xarray
    from brainscore_core.metrics import Score
    from brainscore_core.supported_data_standards.brainio.assemblies import (DataAssembly, NeuroidAssembly,
                                                                             PropertyAssembly)
    from brainscore_vision.benchmark_helpers import properties_common as pc
    from brainscore_vision.benchmarks import ceil_score
    from brainscore_vision.benchmarks.marques2020.benchmarks import (cavanaugh2002a_benchmark, devalois1982a_benchmark,
                                                                     devalois1982b_benchmark, freemanZiemba2013_benchmark,
                                                                     ringach2002_benchmark, schiller1976_benchmark)
    from brainscore_vision.metrics.distribution_similarity.metric import (BootstrapDistributionSimilarity,
                                                                          NeuronalPropertyCeiling, ks_similarity)

    rng = np.random.RandomState(GENERATOR_SEED)
    inputs = make_inputs(rng)
    results, scalars = {}, {}

    def assembly(values, stimuli, dims=("neuroid", "presentation")):
        coords = {name: ("presentation", np.asarray(v)) for name, v in stimuli.items()}
        coords["stimulus_id"] = ("presentation", [f"s{i}" for i in range(values.shape[1])])
        coords["neuroid_id"] = ("neuroid", [f"n{i}" for i in range(values.shape[0])])
        a = NeuroidAssembly(values.copy(), coords=coords, dims=["neuroid", "presentation"])
        return a.transpose(*dims)

    def baseline_assembly(values):
        return assembly(values.reshape(-1, 1).copy(), {"blank": np.array([0.])})

    # -- property sets
    sets = {
        "ringach2002": (ringach2002_benchmark.ringach2002_properties, "orientation"),
        "devalois1982a": (devalois1982a_benchmark.devalois1982a_properties, "orientation"),
        "devalois1982b": (devalois1982b_benchmark.devalois1982b_properties, "sf"),
        "schiller1976": (schiller1976_benchmark.schiller1976_properties, "sf"),
        "cavanaugh2002": (cavanaugh2002a_benchmark.cavanaugh2002_properties, "size"),
        "freemanziemba2013": (freemanZiemba2013_benchmark.freemanziemba2013_properties, "texture"),
    }
    property_tables = {}
    for name, (function, kind) in sets.items():
        table = function(model_identifier="reference", responses=assembly(inputs[f"{kind}_responses"],
                                                                        inputs[f"{kind}_stimuli"]),
                         baseline=baseline_assembly(inputs[f"{kind}_baseline"]))
        property_tables[name] = table
        results[f"{name}/values"] = np.asarray(table.values, dtype=float)
        scalars[f"{name}/names"] = [str(n) for n in table["neuronal_property"].values]
        print(f"{name}: {table.shape[0]} of {inputs[f'{kind}_responses'].shape[0]} units kept")
        # the same on float32 firing rates (what Brain-Score's get_firing_rates returns for float32 activations)
        table32 = function(model_identifier="reference",
                           responses=assembly(inputs[f"{kind}_responses"].astype(np.float32), inputs[f"{kind}_stimuli"]),
                           baseline=baseline_assembly(inputs[f"{kind}_baseline"].astype(np.float32)))
        results[f"{name}/values_float32"] = np.asarray(table32.values, dtype=float)

    # -- the calc_* helpers on single curves (flat, zero and tuned)
    orientation = np.arange(0, 180, 15.)
    curves = {"tuned": von_mises(orientation, 37.0, 2.0) * 20 + 1, "flat": np.full(12, 7.0), "zero": np.zeros(12),
              "broad": von_mises(orientation, 100.0, 0.2) * 5 + 3}
    for label, curve in curves.items():
        inputs[f"orientation_curve/{label}"] = curve
        for filt, thrsh, mode in (("hanning", 0.707, "half"), ("smooth", 0.5, "full"), ("flat", 0.5, "full"),
                                  (None, 0.707, "full")):
            bw, pref, _, fitted = pc.calc_bandwidth(curve, orientation, filt_type=filt, thrsh=thrsh, mode=mode)
            results[f"calc_bandwidth/{label}/{filt}/{thrsh}/{mode}"] = np.array([bw, pref])
            results[f"calc_bandwidth_fit/{label}/{filt}/{thrsh}/{mode}"] = np.asarray(fitted)
        results[f"calc_circular_variance/{label}"] = np.array([pc.calc_circular_variance(curve, orientation)])
        results[f"calc_orthogonal_preferred_ratio/{label}"] = np.array(
            [pc.calc_orthogonal_preferred_ratio(curve, orientation)])
    frequency = np.geomspace(0.5, 11.3, 8)
    sf_curves = {"tuned": 30 * np.exp(-np.log2(frequency / 2.5) ** 2 / 2) + 1, "flat": np.full(8, 4.0),
                 "low_pass": np.linspace(20, 1, 8), "zero": np.zeros(8)}
    for label, curve in sf_curves.items():
        inputs[f"sf_curve/{label}"] = curve
        for filt, mode in (("triangle", "ratio"), ("smooth", "ratio"), ("smooth", "oct"), ("hanning", "oct")):
            bw, peak, r2, _, fitted = pc.calc_spatial_frequency_tuning(curve, frequency, filt_type=filt, thrsh=0.707,
                                                                       mode=mode)
            results[f"calc_spatial_frequency_tuning/{label}/{filt}/{mode}"] = np.array([bw, peak, r2])
            results[f"calc_spatial_frequency_tuning_fit/{label}/{filt}/{mode}"] = np.asarray(fitted)
    radius = np.array([0.125, 0.25, 0.5, 1., 2., 4.])
    for label, curve in {"suppressed": np.array([2., 8., 10., 6., 4., 4.]), "flat": np.full(6, 3.),
                         "growing": np.array([1., 2., 3., 4., 5., 6.]), "zero": np.zeros(6),
                         "negative": np.array([-1., -2., -3., -2., -2., -2.])}.items():
        inputs[f"size_curve/{label}"] = curve
        results[f"calc_size_tuning/{label}"] = np.array(pc.calc_size_tuning(curve, radius), dtype=float)
    texture = np.abs(rng.normal(5, 3, (2, 5, 6)))
    texture_cases = {"random": texture, "zero": np.zeros((2, 5, 6))}
    for label, response in texture_cases.items():
        results[f"calc_texture_modulation/{label}"] = np.array([pc.calc_texture_modulation(response.mean(axis=2))[0]])
        results[f"calc_sparseness/{label}"] = np.array([pc.calc_sparseness(response[1])])
        results[f"calc_variance_ratio2/{label}"] = np.array(pc.calc_variance_ratio(response[1]), dtype=float)
        trials = response[1][..., None] + np.abs(rng.normal(0, 1, (5, 6, 4)))
        inputs[f"variance_trials_{label}"] = trials
        results[f"calc_variance_ratio3/{label}"] = np.array(pc.calc_variance_ratio(trials), dtype=float)
        results[f"calc_variance3/{label}"] = np.array(pc.calc_variance(trials), dtype=float)
    inputs["texture_single"] = texture
    inputs["orientation_levels"], inputs["sf_levels"], inputs["size_levels"] = orientation, frequency, radius

    # -- units → neurons: receptive fields, affine map, firing rates (properties_common's own functions; the
    #    recordings served by replacing record_from_model)
    recordings = {
        pc.BLANK_STIM_NAME: assembly(inputs["blank_activations"].reshape(-1, 1), {
            "position_y": np.array([0.]), "position_x": np.array([0.])}, dims=("presentation", "neuroid")),
        pc.RF_STIM_NAME: assembly(inputs["rf_activations"], inputs["rf_stimuli"], dims=("presentation", "neuroid")),
        pc.ORIENTATION_STIM_NAME: assembly(inputs["orientation_activations"], inputs["orientation_stimuli"],
                                           dims=("presentation", "neuroid")),
    }

    def record_from_model(model, stimulus_identifier, number_of_trials):
        return recordings[stimulus_identifier].copy(deep=True)

    pc.record_from_model = record_from_model
    rf_pos, rf_map = pc.map_receptive_field_locations(model_identifier="reference", model=None, region="V1")
    results["rf_positions"] = np.asarray(rf_pos.values, dtype=float)
    results["rf_maps"] = np.asarray(rf_map.values, dtype=float)
    in_rf = pc.filter_receptive_fields(model_identifier="reference", model=None, region="V1", pos=np.array([0., 0.]))
    results["in_rf"] = np.atleast_1d(in_rf).astype(np.int64)
    affine = pc.firing_rates_affine(model_identifier="reference", model=None, region="V1")
    results["affine"] = np.asarray(affine.values, dtype=float)
    rates = pc.get_firing_rates(model_identifier="reference", model=None, region="V1",
                                stimulus_identifier=pc.ORIENTATION_STIM_NAME, number_of_trials=20, in_rf=in_rf)
    results["firing_rates"] = np.asarray(rates.transpose("neuroid", "presentation").values, dtype=float)
    print(f"receptive fields: {len(np.atleast_1d(in_rf))} of {rf_pos.shape[0]} units within {pc.RF_DELTA} deg; "
          f"affine {affine.values}")

    # -- ks_similarity on histograms
    p = rng.dirichlet(np.ones(10), 5)
    q = rng.dirichlet(np.ones(10))
    inputs["ks_p"], inputs["ks_q"] = p, q
    results["ks_similarity"] = np.array([ks_similarity(row, q) for row in p])

    # -- the metric, ceiling and ceiled score of every benchmark's property
    scores = {}
    for benchmark, (set_name, prop, bins) in METRIC_CASES.items():
        model_table = property_tables[set_name]
        model_values = np.asarray(model_table.sel(neuronal_property=prop).values, dtype=float)
        data = data_values(rng, model_values, bins)
        inputs[f"data/{benchmark}"] = data
        inputs[f"bins/{benchmark}"] = bins

        def data_assembly():
            a = PropertyAssembly(data.reshape(-1, 1).copy(),
                                 coords={"neuroid_id": ("neuroid", np.arange(len(data))),
                                         "region": ("neuroid", ["V1"] * len(data)),
                                         "neuronal_property": [prop]},
                                 dims=["neuroid", "neuronal_property"])
            a.attrs[f"{prop}_bins"] = bins
            return a

        metric = BootstrapDistributionSimilarity(property_name=prop)
        np.random.seed(SEED)
        raw = metric(model_table.copy(deep=True), data_assembly())
        np.random.seed(SEED)
        ceiling = NeuronalPropertyCeiling(BootstrapDistributionSimilarity(property_name=prop))(data_assembly())
        np.random.seed(SEED)  # one stream, raw then ceiling: PropertiesBenchmark.__call__
        ceiled = ceil_score(metric(model_table.copy(deep=True), data_assembly()),
                            NeuronalPropertyCeiling(metric)(data_assembly()))
        results[f"raw_values/{benchmark}"] = np.asarray(raw.attrs[Score.RAW_VALUES_KEY], dtype=float)
        scores[benchmark] = {
            "property": prop, "property_set": set_name, "n_model_units": int(model_values.size),
            "raw": float(raw.values), "raw_error": float(raw.attrs["error"]),
            "ceiling": float(ceiling.values), "ceiling_error": float(ceiling.attrs["error"]),
            "ceiled": float(ceiled.values), "ceiled_error": float(ceiled.attrs["error"]),
        }
        print(f"{benchmark}: raw {float(raw.values):.6f} ceiling {float(ceiling.values):.6f} "
              f"ceiled {float(ceiled.values):.6f}")

    # -- degenerate metric cases: an all-NaN model (NaN samples → 0), data all in the first bin (KS_max = 0 →
    #    NaN → 0), 50 samples (the NaN rule still compares with 1000 / 10)
    edge = {}
    bins = np.linspace(0, 1, 6)
    cases = {
        "all_nan_model": (np.full(20, np.nan), rng.uniform(0, 1, 30), 1000),
        "data_in_first_bin": (rng.uniform(0, 1, 20), np.zeros(30), 1000),
        "few_samples_some_nan": (np.r_[np.full(18, np.nan), rng.uniform(0, 1, 2)], rng.uniform(0, 1, 3), 50),
        "one_unit": (np.array([0.5]), rng.uniform(0, 1, 30), 1000),
    }
    for label, (model_values, data, ns) in cases.items():
        inputs[f"edge_model/{label}"], inputs[f"edge_data/{label}"] = model_values, data
        model_a = DataAssembly(model_values.reshape(-1, 1).copy(), coords={"neuroid_id": ("neuroid", np.arange(len(model_values))),
                                                                           "neuronal_property": ["p"]},
                               dims=["neuroid", "neuronal_property"])
        data_a = PropertyAssembly(data.reshape(-1, 1).copy(), coords={"neuroid_id": ("neuroid", np.arange(len(data))),
                                                                      "neuronal_property": ["p"]},
                                  dims=["neuroid", "neuronal_property"])
        data_a.attrs["p_bins"] = bins
        np.random.seed(SEED)
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            score = BootstrapDistributionSimilarity(property_name="p", ns=ns)(model_a, data_a)
        edge[label] = {"score": float(score.values), "error": float(score.attrs["error"]), "n_samples": ns}
        results[f"edge_values/{label}"] = np.asarray(score.attrs[Score.RAW_VALUES_KEY], dtype=float)
    inputs["edge_bins"] = bins

    out.mkdir(parents=True, exist_ok=True)
    flat_inputs = {}
    for key, value in inputs.items():
        if isinstance(value, dict):
            for column, array in value.items():
                flat_inputs[f"{key}/{column}"] = np.asarray(array)
        else:
            flat_inputs[key] = np.asarray(value)
    np.savez_compressed(out / "inputs.npz", **flat_inputs)
    np.savez_compressed(out / "brainscore.npz", **results)
    from importlib.metadata import version
    meta = {
        "made_by": "tests/reference/make_properties_reference.py",
        "command": "BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1 .venv-reference/bin/python "
                   "tests/reference/make_properties_reference.py tests/data/properties",
        "bootstrap_seed": SEED, "generator_seed": GENERATOR_SEED,
        "versions": {"brainscore_vision": version("brainscore_vision"), "brainscore_core": version("brainscore_core"),
                     "numpy": np.__version__, "scipy": scipy.__version__, "xarray": xarray.__version__,
                     "python": sys.version.split()[0]},
        "property_names": {k.split("/")[0]: v for k, v in scalars.items()},
        "scores": scores, "edge_cases": edge,
    }
    (out / "brainscore.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n")
    print(f"wrote {out}/inputs.npz, brainscore.npz, brainscore.json")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR")
    main(Path(sys.argv[1]))
