"""Pattern "declared", properties: a properties benchmark family from a ``benchmark_zoo:`` entry, no code (or one
Python file holding the property function).

Example (README, "Your own benchmark → properties")::

    benchmark_zoo:
      MyTuning2025:
        properties:
          file: data/my/properties.nc      # neuron × property table (`brainpipe package --properties`), or URL + sha1
          sha1: ...                        # optional for a local file
          property_set: ringach2002        # a built-in set, or my_properties.py (def properties(responses,
                                           #   baseline, stimuli) -> {name: values per unit, 'responsive': bools})
          measures: {or_bandwidth: bandwidth, circular_variance: circular_variance}   # identifier suffix -> property
        stimuli: {csv: data/my/stimuli.csv, zip: data/my/stimuli.zip}   # the gratings the property is measured on
        visual_degrees: 12
        neurons: Marques2020               # how units become neurons: Marques2020 (default) or SyntheticGratings
        parent: V1-orientation

Scored as Brain-Score's PropertiesBenchmark (workflow/rules/properties.smk): the model's committed V1 layer, units
mapped to neurons on the named neurons definition's sets, the property set on the declared stimuli, ks_similarity
and NeuronalPropertyCeiling with the bins stored in the table (attribute ``<property>_bins``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

from brainpipe.data.catalog import AssemblyEntry, StimulusSetEntry

from .base import Family, PropertyMeasure, closest
from .declared import _fail, _remote, _unknown_keys

KEYS = {"properties", "stimuli", "visual_degrees", "neurons", "parent", "version", "bibtex", "notes"}
PROPERTIES_KEYS = {"file", "sha1", "property_set", "measures"}
STIMULI_KEYS = {"csv", "zip", "csv_sha1", "zip_sha1"}


def is_properties(entry) -> bool:
    return isinstance(entry, dict) and "properties" in entry


def neurons_definitions(families) -> dict:
    """name -> Neurons of the families that define one (degrees made explicit: the defining family's if unset)."""
    known = {}
    for family in families.values():
        if family.neurons is not None and family.neurons.name not in known:
            neurons = family.neurons
            if neurons.visual_degrees is None:
                neurons = replace(neurons, visual_degrees=family.visual_degrees)
            known[neurons.name] = neurons
    return known


def declared_properties_family(name: str, entry: dict, known_neurons: dict, base_dir=".") -> tuple[Family, dict, dict]:
    """(family, {dataset: AssemblyEntry}, {stimulus set: StimulusSetEntry}); ValueError naming the key.
    ``known_neurons``: :func:`neurons_definitions` of the built-in families (Marques2020, SyntheticGratings)."""
    if not name.isalnum():
        _fail(name, "", "a family name is letters and digits only (it becomes '<name>-<measure>')")
    _unknown_keys(name, "", entry, KEYS)
    for key in ("properties", "stimuli", "visual_degrees"):
        if key not in entry:
            _fail(name, key, "missing (required: properties, stimuli, visual_degrees)")
    block, stimuli = entry["properties"], entry["stimuli"]
    if not isinstance(block, dict):
        _fail(name, "properties", "expected {file: <NetCDF path or URL>, property_set: ..., measures: {...}}")
    _unknown_keys(name, "properties", block, PROPERTIES_KEYS)
    for key in ("file", "property_set", "measures"):
        if key not in block:
            _fail(name, f"properties.{key}", "missing (required: file, property_set, measures)")
    if not isinstance(stimuli, dict) or "csv" not in stimuli or "zip" not in stimuli:
        _fail(name, "stimuli", "expected {csv: <path or URL>, zip: <path or URL>} (`brainpipe package` makes them)")
    _unknown_keys(name, "stimuli", stimuli, STIMULI_KEYS)

    from brainpipe.properties.sets import PLUGIN_PREFIX, PROPERTY_SETS

    property_set = block["property_set"]
    if not isinstance(property_set, str) or not property_set:
        _fail(name, "properties.property_set", f"expected a built-in set or a .py file, got {property_set!r}")
    if property_set.endswith(".py"):
        path = Path(property_set) if Path(property_set).is_absolute() else Path(base_dir) / property_set
        if not path.is_file():
            _fail(name, "properties.property_set", f"the property function file {path} does not exist")
        property_set = PLUGIN_PREFIX + str(path)
    elif property_set not in PROPERTY_SETS:
        _fail(name, "properties.property_set", f"unknown property set {property_set!r}"
                                               f"{closest(property_set, PROPERTY_SETS)}; known: {sorted(PROPERTY_SETS)} "
                                               "or a .py file")
    measures = block["measures"]
    if not isinstance(measures, dict) or not measures:
        _fail(name, "properties.measures", f"expected a mapping identifier suffix -> property name, got {measures!r}")
    for suffix, prop in measures.items():
        if not (isinstance(suffix, str) and suffix and all(c.islower() or c.isdigit() or c == "_" for c in suffix)):
            _fail(name, "properties.measures", f"identifier suffix {suffix!r}: lowercase letters, digits and _ only")
        if not isinstance(prop, str) or not prop:
            _fail(name, f"properties.measures.{suffix}", f"expected a property name, got {prop!r}")
    neurons = entry.get("neurons", "Marques2020")
    if neurons not in known_neurons:
        _fail(name, "neurons", f"unknown neurons definition {neurons!r}{closest(neurons, known_neurons)}; known: "
                               f"{sorted(known_neurons)}")
    neurons = known_neurons[neurons]
    parent = entry.get("parent")
    version = entry.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        _fail(name, "version", f"expected an integer, got {version!r}")
    try:
        degrees = float(entry["visual_degrees"])
    except (TypeError, ValueError):
        _fail(name, "visual_degrees", f"expected a number, got {entry['visual_degrees']!r}")

    dataset, stimulus_set = f"{name}_properties", name
    table = _remote(name, "properties.file", block["file"], block.get("sha1"), f"assy_{dataset}.nc")
    csv = _remote(name, "stimuli.csv", stimuli["csv"], stimuli.get("csv_sha1"), f"stimulus_{name}.csv")
    zip_ = _remote(name, "stimuli.zip", stimuli["zip"], stimuli.get("zip_sha1"), f"stimulus_{name}.zip")
    fingerprint = hashlib.sha1(json.dumps(entry, sort_keys=True, default=str).encode()).hexdigest()[:12]
    family = Family(
        name=name, dataset=dataset, stimulus_set=stimulus_set, regions=("V1",), visual_degrees=degrees,
        stratification=None, source="brainio", ceiling="computed", version=version, parent=parent,
        properties=tuple(PropertyMeasure(suffix, prop, property_set, stimulus_set, dataset, parent, version)
                         for suffix, prop in measures.items()),
        neurons=neurons, bibtex=str(entry.get("bibtex", "")), notes=str(entry.get("notes", "")),
        origin=f"config benchmark_zoo.{name}", fingerprint=fingerprint)
    return family, {dataset: AssemblyEntry(dataset, table, stimulus_set)}, {stimulus_set: StimulusSetEntry(
        stimulus_set, csv, zip_)}
