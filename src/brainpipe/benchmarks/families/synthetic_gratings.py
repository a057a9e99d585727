"""SyntheticGratings: brainpipe's offline properties demo (SIMULATED, src/brainpipe/properties/demo.py).

Generated gratings (receptive-field positions, a blank, orientation × spatial frequency × phase) and a simulated
V1 population with known Ringach2002-property distributions, scored as Brain-Score's Marques2020_Ringach2002-*
benchmarks are: units → neurons (RF mapping, affine map to firing rates, rectification), the Ringach2002 property
set, ks_similarity against the population, NeuronalPropertyCeiling.
"""

from ..base import Family, Neurons, PropertyMeasure

_SETS = dict(property_set="ringach2002", stimulus_set="SyntheticGratings_orientation",
             dataset="SyntheticGratings_V1_properties")
FAMILIES = [
    Family(name="SyntheticGratings", dataset="SyntheticGratings_V1_properties",
           stimulus_set="SyntheticGratings_orientation", regions=("V1",), visual_degrees=8, stratification=None,
           source="demo", ceiling="computed",
           properties=(PropertyMeasure("circular_variance", "circular_variance", parent="V1-orientation", **_SETS),
                       PropertyMeasure("or_bandwidth", "bandwidth", parent="V1-orientation", **_SETS),
                       PropertyMeasure("orth_pref_ratio", "orthogonal_preferred_ratio", parent="V1-orientation",
                                       **_SETS)),
           neurons=Neurons("SyntheticGratings", receptive_field_stimulus_set="SyntheticGratings_receptive_field",
                           blank_stimulus_set="SyntheticGratings_blank",
                           orientation_stimulus_set="SyntheticGratings_orientation"),
           notes="SIMULATED V1 property distributions and generated gratings (offline properties demo)",
           bibtex="@misc{brainpipe_synthetic_gratings, title={SyntheticGratings: simulated properties demo of "
                  "brainpipe}}",
           sources=("src/brainpipe/properties/demo.py (this repository)",)),
]
