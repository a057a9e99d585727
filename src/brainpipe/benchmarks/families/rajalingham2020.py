"""Rajalingham2020: IT multi-unit responses to letters, words and letter strings (orthographic processing in
untrained monkeys), scored with PLS regression.

Constants: brain-score/vision brainscore_vision/benchmarks/rajalingham2020/benchmark.py (VISUAL_DEGREES 8,
NUMBER_OF_TRIALS 33, version 2, parent IT, PLS with unstratified cross-validation, internal-consistency ceiling;
its BIBTEX). Data: brain-score/vision brainscore_vision/data/rajalingham2020/__init__.py (object names, sha1s).
The file holds the one 70–170 ms bin, whose end is called ``time_bin_stop``
(data/rajalingham2020/rajalingham2020orthographic_IT.py); a copy calling it ``time_bin_end`` is read too.

Brain-Score marks the recordings as not publicly available (benchmarks/rajalingham2020/metadata.yaml): with access,
point ``data.local_files`` at the files.
"""

from ..base import Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/rajalingham2020/benchmark.py",
           "brain-score/vision brainscore_vision/data/rajalingham2020/__init__.py")

# The benchmark's BIBTEX (benchmark.py; its abstract left out).
BIBTEX = """@article{Rajalingham2020,
  author = {Rajalingham, Rishi and Kar, Kohitij and Sanghavi, Sachi and Dehaene, Stanislas and DiCarlo, James J.},
  title = {The inferior temporal cortex is a potential cortical precursor of orthographic processing in untrained monkeys},
  journal = {Nature Communications}, year = {2020}, month = {Aug}, day = {04}, volume = {11}, number = {1},
  pages = {3886}, issn = {2041-1723}, doi = {10.1038/s41467-020-17714-3},
  url = {https://doi.org/10.1038/s41467-020-17714-3}}"""

ASSEMBLIES = {
    "Rajalingham2020": brainio_assembly(
        "dicarlo.Rajalingham2020", "ab95ae6c9907438f87b9b13b238244049f588680", "Rajalingham2020"),
}
STIMULUS_SETS = {
    "Rajalingham2020": brainio_stimuli(
        "Rajalingham2020", "9a9a6b3115d2d8ce5d54ec2522093d8a87ed13a0", "6097086901032e20f8ae764e9cc06e0a891a3e18"),
}

FAMILIES = [
    Family(name="Rajalingham2020", dataset="Rajalingham2020", stimulus_set="Rajalingham2020", regions=("IT",),
           visual_degrees=8, stratification=None, time_window=(70, 170), number_of_trials=33,
           notes="616 letter/word images, time bin 70–170 ms; not publicly available (Brain-Score's metadata): "
                 "use data.local_files",
           coords=(("time_bin_end", "time_bin_stop"),), version=2, bibtex=BIBTEX, sources=SOURCES),
]
