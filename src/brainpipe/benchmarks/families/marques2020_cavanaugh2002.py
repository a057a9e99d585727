"""Marques2020_Cavanaugh2002-*: V1 surround suppression and receptive-field size (Cavanaugh, Bair & Movshon 2002).

Source: brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/cavanaugh2002a_benchmark.py (version 1;
parents V1-surround_modulation for the suppression index, V1-receptive_field_size for the two sizes); data:
data/marques2020/__init__.py (movshon.Cavanaugh2002a on Marques2020_size).
"""

from . import _marques2020 as m

BIBTEX = """@article{Cavanaugh2002,
  author = {Cavanaugh, James R. and Bair, Wyeth and Movshon, J. A.}, doi = {10.1152/jn.00692.2001},
  issn = {0022-3077}, journal = {Journal of Neurophysiology}, number = {5}, pages = {2530--2546}, pmid = {12424292},
  title = {{Nature and Interaction of Signals From the Receptive Field Center and Surround in Macaque V1 Neurons}},
  url = {http://www.physiology.org/doi/10.1152/jn.00692.2001}, volume = {88}, year = {2002}}"""

MEASURES = (("surround_suppression_index", "surround_suppression_index", "V1-surround_modulation"),
            ("grating_summation_field", "grating_summation_field", "V1-receptive_field_size"),
            ("surround_diameter", "surround_diameter", "V1-receptive_field_size"))
ASSEMBLIES = m.assemblies("Cavanaugh2002a")
STIMULUS_SETS = m.stimulus_sets("Marques2020_size")
FAMILIES = [m.family("Marques2020_Cavanaugh2002", MEASURES, "cavanaugh2002", "Cavanaugh2002a", bibtex=BIBTEX,
                     sources=("brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/"
                              "cavanaugh2002a_benchmark.py",))]
