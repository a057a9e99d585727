"""Marques2020_Schiller1976-sf_selective and -sf_bandwidth: V1 spatial-frequency selectivity and bandwidth (Schiller,
Finlay & Volman 1976).

Source: brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/schiller1976_benchmark.py (version 1,
parent V1-spatial_frequency); data: data/marques2020/__init__.py (schiller.Schiller1976c on
Marques2020_spatial_frequency).
"""

from . import _marques2020 as m

BIBTEX = """@article{Schiller1976,
  author = {Schiller, P. H. and Finlay, B. L. and Volman, S. F.}, doi = {10.1152/jn.1976.39.6.1352},
  issn = {0022-3077}, journal = {Journal of neurophysiology}, number = {6}, pages = {1334--1351}, pmid = {825624},
  title = {{Quantitative studies of single-cell properties in monkey striate cortex. III. Spatial Frequency}},
  url = {http://www.ncbi.nlm.nih.gov/pubmed/825624}, volume = {39}, year = {1976}}"""

MEASURES = (("sf_selective", "spatial_frequency_selective", "V1-spatial_frequency"),
            ("sf_bandwidth", "spatial_frequency_bandwidth", "V1-spatial_frequency"))
ASSEMBLIES = m.assemblies("Schiller1976c")
STIMULUS_SETS = m.stimulus_sets("Marques2020_spatial_frequency")
FAMILIES = [m.family("Marques2020_Schiller1976", MEASURES, "schiller1976", "Schiller1976c", bibtex=BIBTEX,
                     sources=("brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/"
                              "schiller1976_benchmark.py",))]
