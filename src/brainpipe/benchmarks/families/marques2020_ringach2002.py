"""Marques2020_Ringach2002-*: 8 V1 orientation-tuning properties (Ringach, Shapley & Hawken 2002).

Source: brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/ringach2002_benchmark.py (identifiers,
property names, parents, version 1, bibtex); data: data/marques2020/__init__.py (shapley.Ringach2002 on
Marques2020_orientation). Property set: brainpipe.properties.orientation.ringach2002_properties.
"""

from . import _marques2020 as m

BIBTEX = """@article{Ringach2002,
  author = {Ringach, Dario L and Shapley, Robert M and Hawken, Michael J},
  doi = {20026567}, issn = {1529-2401}, journal = {The Journal of Neuroscience}, number = {13},
  pages = {5639--5651}, pmid = {12097515},
  title = {{Orientation selectivity in macaque V1: diversity and laminar dependence.}}, volume = {22}, year = {2002}}"""

ORIENTATION, MAGNITUDE, SELECTIVITY = "V1-orientation", "V1-response_magnitude", "V1-response_selectivity"
MEASURES = (
    ("circular_variance", "circular_variance", ORIENTATION),
    ("or_bandwidth", "bandwidth", ORIENTATION),
    ("orth_pref_ratio", "orthogonal_preferred_ratio", ORIENTATION),
    ("or_selective", "orientation_selective", ORIENTATION),
    ("cv_bandwidth_ratio", "circular_variance_bandwidth_ratio", ORIENTATION),
    ("opr_cv_diff", "orthogonal_preferred_ratio_circular_variance_difference", ORIENTATION),
    ("max_dc", "max_dc", MAGNITUDE),
    ("modulation_ratio", "modulation_ratio", SELECTIVITY),
)
ASSEMBLIES = m.assemblies("Ringach2002")
STIMULUS_SETS = m.stimulus_sets("Marques2020_orientation")
FAMILIES = [m.family("Marques2020_Ringach2002", MEASURES, "ringach2002", "Ringach2002", bibtex=BIBTEX,
                     sources=("brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/"
                              "ringach2002_benchmark.py",))]
