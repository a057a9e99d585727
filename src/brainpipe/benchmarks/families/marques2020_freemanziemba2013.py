"""Marques2020_FreemanZiemba2013-*: 7 V1 texture-modulation, selectivity and magnitude properties (Freeman, Ziemba et
al. 2013).

Source: brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/freemanZiemba2013_benchmark.py (version
1; parents V1-texture_modulation, V1-response_selectivity, V1-response_magnitude; the bibtex of
data/freemanziemba2013/__init__.py); data: data/marques2020/__init__.py (movshon.FreemanZiemba2013_V1_properties on
FreemanZiemba2013_properties, a texture set of 8°; units are still mapped on the 12° grating sets).
"""

from . import _marques2020 as m
from .freemanziemba2013 import BIBTEX

MODULATION, SELECTIVITY, MAGNITUDE = "V1-texture_modulation", "V1-response_selectivity", "V1-response_magnitude"
MEASURES = (("texture_modulation_index", "texture_modulation_index", MODULATION),
            ("abs_texture_modulation_index", "absolute_texture_modulation_index", MODULATION),
            ("texture_selectivity", "texture_selectivity", SELECTIVITY),
            ("texture_sparseness", "texture_sparseness", SELECTIVITY),
            ("texture_variance_ratio", "variance_ratio", SELECTIVITY),
            ("max_texture", "max_texture", MAGNITUDE),
            ("max_noise", "max_noise", MAGNITUDE))
ASSEMBLIES = m.assemblies("FreemanZiemba2013_V1_properties")
STIMULUS_SETS = m.stimulus_sets("FreemanZiemba2013_properties")
FAMILIES = [m.family("Marques2020_FreemanZiemba2013", MEASURES, "freemanziemba2013",
                     "FreemanZiemba2013_V1_properties", bibtex=BIBTEX, degrees=m.TEXTURE_DEGREES,
                     sources=("brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/"
                              "freemanZiemba2013_benchmark.py",))]
