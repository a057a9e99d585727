"""Marques2020_DeValois1982-pref_or and -peak_sf: V1 preferred orientation (De Valois, Yund & Hepler 1982) and peak
spatial frequency (De Valois, Albrecht & Thorell 1982).

Sources: brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/devalois1982a_benchmark.py and
devalois1982b_benchmark.py (version 1 each; parents V1-orientation and V1-spatial_frequency; the 1982b bibtex
is the one Brain-Score's family-level listing shows for both); data: data/marques2020/__init__.py
(devalois.DeValois1982a on Marques2020_orientation, devalois.DeValois1982b on Marques2020_spatial_frequency).
"""

from dataclasses import replace

from . import _marques2020 as m
from ..base import PropertyMeasure

BIBTEX_A = """@article{DeValois1982,
  author = {{De Valois}, Russell L. and Yund, E. W. and Hepler, Norva}, journal = {Vision Research},
  pages = {531--544}, title = {{The orientation and direction selectivity of cells in macaque visual cortex}},
  volume = {22}, year = {1982}}"""
BIBTEX_B = """@article{DeValois1982,
  author = {{De Valois}, Russell L. and Albrecht, Duane G. and Thorell, Lisa G.}, journal = {Vision Research},
  pages = {545--559}, title = {{Spatial Frequency Selectivity of Cells in Macaque Visual Cortex}},
  volume = {22}, year = {1982}}"""

ASSEMBLIES = m.assemblies("DeValois1982a", "DeValois1982b")
STIMULUS_SETS = m.stimulus_sets("Marques2020_orientation", "Marques2020_spatial_frequency")
_a = m.family("Marques2020_DeValois1982", (("pref_or", "preferred_orientation", "V1-orientation"),),
              "devalois1982a", "DeValois1982a", bibtex=BIBTEX_A,
              sources=("brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/devalois1982a_benchmark.py",
                       "brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/devalois1982b_benchmark.py"))
# one family, two measures on two data sets and two stimulus sets (each measure names its own)
FAMILIES = [replace(_a, properties=_a.properties + (
    PropertyMeasure("peak_sf", "peak_spatial_frequency", "devalois1982b", "Marques2020_spatial_frequency",
                    "DeValois1982b", "V1-spatial_frequency"),))]
