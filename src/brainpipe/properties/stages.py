"""The stages of a properties benchmark as functions of files' contents (the workflow's scripts are glue around these).

1. :func:`receptive_field_positions`: a layer's activations on the receptive-field and blank stimuli → each unit's
   RF centre (once per model × layer × neurons definition);
2. :func:`firing_rate_map`: the RF centres + the orientation stimuli's activations → the units in the RF and the
   affine map to firing rates (once per model × layer);
3. :func:`model_properties`: a property set's stimuli (and the blank) as firing rates → one PropertyTable per
   model × layer × property set, stored as a NetCDF (neuroid × neuronal_property, with ``responsive``);
4. :func:`property_ceiling` and :func:`property_score`: the neural property table's ceiling (once per benchmark)
   and the bootstrapped ks_similarity of the model's property with it.

Source of the chain: brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py
(``PropertiesBenchmark.__call__``). Its in-RF filter and firing rates are recomputed for each benchmark there; here
they are files shared by every benchmark of the model (same numbers: they depend only on the model and the stimuli).

Randomness: Brain-Score's benchmark scores the model and then the ceiling from numpy's unseeded global RNG. Here
the ceiling is its own stage, drawn from ``RandomState(seed)`` as Brain-Score's ``benchmark.ceiling`` is after
``np.random.seed(seed)``, and the raw score from another ``RandomState(seed)`` as ``benchmark(model)``'s raw score
is after ``np.random.seed(seed)``; the ceiled score is raw / ceiling of the two (Brain-Score's ``ceil_score``).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .ceiling import neuronal_property_ceiling
from .ks_similarity import DEFAULT_SEED, bootstrap_similarity
from .neurons import (firing_rate_affine, firing_rates, in_receptive_field, map_receptive_fields,
                      stimulus_position)
from .table import PropertyTable


def responses_on(activations: xr.DataArray, stimuli, where: str) -> np.ndarray:
    """(units × stimuli) in the stimulus table's order, from a (presentation × neuroid) activations array."""
    ids = np.asarray(activations["stimulus_id"].values).astype(str)
    wanted = np.asarray(stimuli["stimulus_id"]).astype(str)
    position = {stimulus: index for index, stimulus in enumerate(ids)}
    missing = [s for s in wanted if s not in position]
    if missing:
        raise ValueError(f"{where}: no activations for {len(missing)} stimulus_id(s) of the stimulus set, e.g. "
                         f"{missing[:3]}")
    values = activations.transpose("presentation", "neuroid").values
    return np.ascontiguousarray(values[[position[s] for s in wanted]].T)


def blank_response(activations: xr.DataArray, where: str) -> np.ndarray:
    """One value per unit: the blank set's one image (several images: their mean, as Brain-Score's look_at of
    repeated presentations)."""
    values = activations.transpose("presentation", "neuroid").values
    if values.shape[0] < 1:
        raise ValueError(f"{where}: the blank stimulus set has no image")
    return values.mean(axis=0) if values.shape[0] > 1 else values[0]


def receptive_field_positions(rf_responses, blank, rf_stimuli, neuroid_id) -> xr.DataArray:
    """Stage 1: (neuroid, axis) RF centres in degrees (axis = y, x), NaN for a unit with no positive response."""
    fields = map_receptive_fields(rf_responses, blank, rf_stimuli)
    return xr.DataArray(fields.positions, dims=("neuroid", "axis"),
                        coords={"neuroid_id": ("neuroid", np.asarray(neuroid_id).astype(str)),
                                "axis": ["y", "x"]}, name="receptive_field_position")


def firing_rate_map(positions: xr.DataArray, orientation_responses, blank, orientation_stimuli,
                    region: str = "V1") -> dict:
    """Stage 2: the affine map from activations to firing rates and the units it was fitted on."""
    n_stimuli = orientation_responses.shape[1]
    position = stimulus_position(orientation_stimuli, n_stimuli)
    in_rf = in_receptive_field(positions.values, position)
    slope, offset = firing_rate_affine(orientation_responses, blank, orientation_stimuli, in_rf, region)
    return {"slope": slope, "offset": offset, "stimulus_position": position.tolist(), "n_units": int(len(positions)),
            "n_in_receptive_field": int(len(in_rf)), "region": region}


def model_properties(function, responses, blank, stimuli, positions: xr.DataArray, affine: dict,
                     property_set: str) -> xr.DataArray:
    """Stage 3: the property set of the units in the RF of the stimuli's position, as firing rates."""
    n_stimuli = responses.shape[1]
    in_rf = in_receptive_field(positions.values, stimulus_position(stimuli, n_stimuli))
    if len(in_rf) == 0:
        raise ValueError(f"property set {property_set}: no model unit has its receptive field at the stimuli's "
                         f"position (within 0.15°)")
    rates = firing_rates(responses, in_rf, (affine["slope"], affine["offset"]))
    baseline = firing_rates(np.asarray(blank).reshape(-1, 1), in_rf, (affine["slope"], affine["offset"]))
    result = function(rates, baseline, stimuli)
    return property_table_array(result, positions["neuroid_id"].values[in_rf], property_set)


def property_table_array(result: PropertyTable, neuroid_id, property_set: str) -> xr.DataArray:
    return xr.DataArray(result.values, dims=("neuroid", "neuronal_property"),
                        coords={"neuroid_id": ("neuroid", np.asarray(neuroid_id).astype(str)),
                                "responsive": ("neuroid", result.responsive),
                                "neuronal_property": list(result.names)},
                        attrs={"property_set": property_set, "threshold_rule": result.threshold_rule},
                        name="model_properties")


def unresponsive_reason(table: xr.DataArray) -> str | None:
    """Why a model's property table cannot be compared with the data, where no unit passes the response threshold
    (a layer that does not respond to gratings, e.g. ``pixels`` on blank-screen baselines): a null score with this
    reason, as a static model's on object solution times; None where some unit responds."""
    if np.asarray(table["responsive"].values, dtype=bool).any():
        return None
    return (f"no model unit passes the response threshold ({table.attrs.get('threshold_rule', '?')}): nothing to "
            f"compare with the data")


def unscored_property(reason: str, ceiling: dict, property_name: str, n_neurons: int) -> dict:
    """The layer score JSON of :func:`property_score` without a number: score and raw null with ``reason``."""
    return {"score": None, "raw": None, "ceiling": float(ceiling["ceiling"]), "error": None,
            "ceiling_error": float(ceiling["error"]), "per_fold": [], "n_folds": 0, "formula": "raw / ceiling",
            "metric": "ks_similarity", "property": property_name, "n_units": 0, "n_neurons": int(n_neurons),
            "reason": reason}


def model_property_values(table: xr.DataArray, name: str, where: str) -> np.ndarray:
    """One property over the units that pass the response threshold (Brain-Score's property assembly rows)."""
    names = [str(n) for n in table["neuronal_property"].values]
    if name not in names:
        raise ValueError(f"{where}: property {name!r} is not computed by property set "
                         f"{table.attrs.get('property_set', '?')}; it computes {', '.join(names)}")
    responsive = np.asarray(table["responsive"].values, dtype=bool)
    if not responsive.any():
        raise ValueError(f"{where}: no model unit passes the response threshold "
                         f"({table.attrs.get('threshold_rule', '?')}): nothing to compare with the data")
    return table.sel(neuronal_property=name).values[responsive]


def neural_property(data: xr.DataArray, name: str, where: str):
    """(values, bins) of one property of a neural property table (Brain-Score's PropertyAssembly: neuroid ×
    neuronal_property, the bins in the attribute ``<property>_bins``). NaN values are kept: they count in the
    number of neurons drawn (Brain-Score's)."""
    if "neuronal_property" not in data.dims:
        raise ValueError(f"{where}: expected dims (neuroid, neuronal_property), got {list(data.dims)}")
    names = [str(n) for n in data["neuronal_property"].values]
    if name not in names:
        raise ValueError(f"{where}: has no property {name!r}; it has {', '.join(names)}")
    key = f"{name}_bins"
    if key not in data.attrs:
        raise ValueError(f"{where}: no bins for property {name!r} (attribute {key!r})")
    values = data.sel(neuronal_property=name).values.astype(np.float64).reshape(-1)
    return values, np.asarray(data.attrs[key], dtype=np.float64).reshape(-1)


def property_ceiling(data_values, bins, seed: int = DEFAULT_SEED, property_name: str = "property") -> dict:
    """Stage 4a: NeuronalPropertyCeiling, drawn from RandomState(seed)."""
    ceiling = neuronal_property_ceiling(data_values, bins, rng=int(seed), property_name=property_name)
    return {"ceiling": ceiling.score, "error": ceiling.error, "method": "NeuronalPropertyCeiling (bootstrap of the "
            "data's ks_similarity with itself)", "seed": int(seed), "n_neurons": int(len(data_values))}


def property_score(model_values, data_values, bins, ceiling: dict, seed: int = DEFAULT_SEED,
                   property_name: str = "property") -> dict:
    """Stage 4b: ks_similarity (raw) and raw / ceiling, with the fields of every layer score."""
    raw = bootstrap_similarity(model_values, data_values, bins, rng=int(seed), property_name=property_name)
    with np.errstate(invalid="ignore", divide="ignore"):  # a ceiling of 0 gives inf / NaN, as Brain-Score's
        score = np.float64(raw.score) / np.float64(ceiling["ceiling"])
    return {"score": float(score), "raw": raw.score, "ceiling": float(ceiling["ceiling"]), "error": raw.error,
            "ceiling_error": float(ceiling["error"]), "per_fold": [raw.score], "n_folds": 1,
            "formula": "raw / ceiling", "above_ceiling": bool(score > 1), "metric": "ks_similarity",
            "property": property_name, "n_units": int(len(model_values)), "n_neurons": int(len(data_values)),
            "seed": int(seed)}


def checked_property_data(data: xr.DataArray, where: str, needed=()) -> xr.DataArray:
    """A neural property table as fetched or packaged, checked: dims (neuroid, neuronal_property), a bins attribute
    per property in ``needed`` and not NaN for every neuron, no row that is NaN in every property (a neuron with no
    value is a broken row: Brain-Score's data hold none). The array is returned with only what the stages read."""
    if set(data.dims) != {"neuroid", "neuronal_property"}:
        raise ValueError(f"{where}: a property table has dims (neuroid, neuronal_property), this one {list(data.dims)}")
    data = data.transpose("neuroid", "neuronal_property")
    names = [str(n) for n in data["neuronal_property"].values]
    for name in needed:
        if name not in names:
            raise ValueError(f"{where}: has no property {name!r}; it has {', '.join(names)}")
        if f"{name}_bins" not in data.attrs:
            raise ValueError(f"{where}: no bins for property {name!r} (attribute '{name}_bins')")
        if np.isnan(data.values[:, names.index(name)].astype(np.float64)).all():
            # no histogram to compare with: ks_similarity and the ceiling would be 0 or NaN, a score of nothing
            raise ValueError(f"{where}: property {name!r} is NaN for every one of the {data.sizes['neuroid']} "
                             f"neurons; a benchmark reads it (fill in its values, or remove the benchmark)")
    empty = np.flatnonzero(np.isnan(data.values.astype(np.float64)).all(axis=1))
    if len(empty):
        raise ValueError(f"{where}: {len(empty)} neuron row(s) are NaN in every property (rows {empty[:5].tolist()})")
    attrs = {key: np.asarray(value, dtype=np.float64) for key, value in data.attrs.items() if key.endswith("_bins")}
    clean = xr.DataArray(data.values.astype(np.float64), dims=("neuroid", "neuronal_property"),
                         coords={"neuronal_property": names,
                                 "neuroid_id": ("neuroid", np.asarray(data["neuroid_id"].values if "neuroid_id"
                                                                      in data.coords else np.arange(data.sizes["neuroid"])))},
                         attrs=attrs, name=data.name or "properties")
    return clean
