#!/usr/bin/env python
"""Brain-Score 2.4.2's PropertiesBenchmark run end to end on the arrays a brainpipe workflow wrote: the fixture of
tests/test_properties_workflow.py (the SyntheticGratings demo, Ringach2002's property set).

Runs in the reference venv (never in brainpipe's .venv), after the workflow has run in WORKDIR:

    BS_INSTALL_DEPENDENCIES=no RESULTCACHING_DISABLE=1 .venv-reference/bin/python \\
        tests/reference/make_properties_chain_reference.py WORKDIR tests/data/properties_chain/demo.json

For each model it serves brainpipe's activation files (results/activations/<model>/<set>/<layer>.nc, with the
stimulus columns of resources/stimuli/<set>/stimuli.csv as presentation coordinates) to Brain-Score's
benchmark_helpers/properties_common.py by replacing ``record_from_model`` (the one function asking a model for
activations; the demo's receptive-field, blank and orientation sets stand in for Marques2020_receptive_field,
Marques2020_blank and Marques2020_orientation), then calls Brain-Score's ``PropertiesBenchmark`` with its
``ringach2002_properties``, ``BootstrapDistributionSimilarity`` and ``NeuronalPropertyCeiling``: the in-RF filter,
the affine map, the firing rates, the property assembly, and

* the raw score: ``np.random.seed(SEED)`` then ``benchmark(model)`` (its raw score is drawn first);
* the ceiling: ``np.random.seed(SEED)`` then ``benchmark.ceiling`` (what brainpipe's once-per-benchmark ceiling
  stage computes); the ceiled score is raw / that ceiling.
"""
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("BS_INSTALL_DEPENDENCIES", "no")
os.environ.setdefault("RESULTCACHING_DISABLE", "1")

import numpy as np  # noqa: E402

SEED = 0  # brainpipe.properties.ks_similarity.DEFAULT_SEED
MODELS = {"pixels": "pixels", "alexnet_untrained": "features.2"}
SETS = {"Marques2020_receptive_field": "SyntheticGratings_receptive_field", "Marques2020_blank": "SyntheticGratings_blank",
        "Marques2020_orientation": "SyntheticGratings_orientation"}
MEASURES = {"circular_variance": "circular_variance", "or_bandwidth": "bandwidth",
            "orth_pref_ratio": "orthogonal_preferred_ratio"}
GRATING = ("position_y", "position_x", "contrast", "radius", "spatial_frequency", "orientation", "phase")


def main(workdir: Path, out: Path):
    import pandas as pd
    import xarray as xr
    from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly, PropertyAssembly
    from brainscore_core.supported_data_standards.brainio.stimuli import StimulusSet
    from brainscore_vision.benchmark_helpers import properties_common as pc
    from brainscore_vision.benchmarks.marques2020.benchmarks import ringach2002_benchmark as ringach
    from brainscore_vision.metrics.distribution_similarity.metric import (BootstrapDistributionSimilarity,
                                                                          NeuronalPropertyCeiling)

    def stimuli(name):
        return pd.read_csv(workdir / "resources" / "stimuli" / name / "stimuli.csv", dtype={"stimulus_id": str})

    def served(model_name, layer):
        def record_from_model(model, stimulus_identifier, number_of_trials):
            name = SETS[stimulus_identifier]
            table = stimuli(name)
            with xr.open_dataarray(workdir / "results" / "activations" / model_name / name / f"{layer}.nc") as a:
                a = a.load()
            order = {s: i for i, s in enumerate(a["stimulus_id"].values.astype(str))}
            values = a.transpose("presentation", "neuroid").values[[order[s] for s in table.stimulus_id]]
            coords = {"stimulus_id": ("presentation", table.stimulus_id.values)}
            coords.update({c: ("presentation", table[c].values) for c in GRATING if c in table})
            coords.update({"neuroid_id": ("neuroid", a["neuroid_id"].values.astype(str))})
            return NeuroidAssembly(values.copy(), coords=coords, dims=["presentation", "neuroid"])
        return record_from_model

    class Model:
        def __init__(self, identifier):
            self.identifier = identifier

        def start_recording(self, region, time_bins):
            pass

    with xr.open_dataarray(workdir / "resources" / "properties" / "SyntheticGratings_V1_properties.nc") as d:
        data = d.load()
    orientation_set = StimulusSet(stimuli(SETS["Marques2020_orientation"]))
    orientation_set.identifier = "Marques2020_orientation"

    def assembly():
        a = PropertyAssembly(data.values.copy(), coords={
            "neuroid_id": ("neuroid", data["neuroid_id"].values), "region": ("neuroid", data["region"].values),
            "neuronal_property": data["neuronal_property"].values}, dims=["neuroid", "neuronal_property"])
        a.attrs = dict(data.attrs)
        a.attrs["stimulus_set"] = orientation_set
        return a

    result = {"seed": SEED, "models": {}, "ceilings": {}}
    for measure, name in MEASURES.items():
        metric = BootstrapDistributionSimilarity(property_name=name)
        benchmark = pc.PropertiesBenchmark(identifier=f"SyntheticGratings-{measure}", assembly=assembly(),
                                           neuronal_property=ringach.ringach2002_properties, similarity_metric=metric,
                                           timebins=[(70, 170)], parent="V1-orientation",
                                           ceiling_func=NeuronalPropertyCeiling(metric), bibtex="", version=1)
        np.random.seed(SEED)
        ceiling = benchmark.ceiling
        result["ceilings"][measure] = {"ceiling": float(ceiling.values), "error": float(ceiling.attrs["error"])}
        for model_name, layer in MODELS.items():
            pc.record_from_model = served(model_name, layer)
            np.random.seed(SEED)
            score = benchmark(Model(model_name))
            raw = score.attrs["raw"]
            entry = result["models"].setdefault(model_name, {"layer": layer, "scores": {}})
            entry["scores"][measure] = {"raw": float(raw.values), "error": float(raw.attrs["error"]),
                                        "score": float(raw.values) / result["ceilings"][measure]["ceiling"]}
            if "affine" not in entry:
                affine = pc.firing_rates_affine(model_identifier=model_name, model=Model(model_name), region="V1")
                stim_pos = pc.get_stimulus_position(orientation_set)
                in_rf = pc.filter_receptive_fields(model_identifier=model_name, model=Model(model_name), region="V1",
                                                   pos=stim_pos)
                responses = pc.get_firing_rates(model_identifier=model_name, model=Model(model_name), region="V1",
                                                stimulus_identifier="Marques2020_orientation", number_of_trials=1,
                                                in_rf=in_rf)
                baseline = pc.get_firing_rates(model_identifier=model_name, model=Model(model_name), region="V1",
                                               stimulus_identifier="Marques2020_blank", number_of_trials=1,
                                               in_rf=in_rf)
                properties = ringach.ringach2002_properties(model_identifier=model_name, responses=responses,
                                                            baseline=baseline)
                entry["affine"] = [float(v) for v in affine.values]
                entry["in_rf"] = np.atleast_1d(in_rf).tolist()
                entry["property_names"] = [str(p) for p in properties["neuronal_property"].values]
                entry["properties"] = np.where(np.isnan(properties.values), None, properties.values).tolist()
    from importlib.metadata import version
    result["versions"] = {p: version(p) for p in ("brainscore-vision", "numpy", "scipy")}
    result["command"] = " ".join(["tests/reference/make_properties_chain_reference.py", *sys.argv[1:]])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    print(json.dumps({m: e["scores"] for m, e in result["models"].items()}, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
