"""FreemanZiemba2013: single-unit V1 and V2 responses to naturalistic textures and spectrally matched noise.

Constants: brain-score/vision brainscore_vision/benchmarks/freemanziemba2013/benchmarks/benchmark.py (VISUAL_DEGREES 4,
NUMBER_OF_TRIALS 20, mean of the 1-ms bins 50–200 ms, stratification texture_type, internal-consistency ceiling;
version 3 for the private recordings, 1 for the public one). Data: brain-score/vision
brainscore_vision/data/freemanziemba2013/__init__.py.
"""

from dataclasses import replace

from ..base import Family, PrivateRecordings
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/freemanziemba2013/benchmarks/benchmark.py",
           "brain-score/vision brainscore_vision/data/freemanziemba2013/__init__.py")

BIBTEX = """@article{freeman2013functional,
  title={A functional and perceptual signature of the second visual area in primates},
  author={Freeman, Jeremy and Ziemba, Corey M and Heeger, David J and Simoncelli, Eero P and Movshon, J Anthony},
  journal={Nature Neuroscience}, volume={16}, number={7}, pages={974--981}, year={2013}}"""

ASSEMBLIES = {
    "FreemanZiemba2013.public": brainio_assembly(
        "movshon.FreemanZiemba2013.public", "761c08f796db4e342555cdb60eef23a4f19ead43",
        "FreemanZiemba2013.aperture-public"),
    "FreemanZiemba2013.private": brainio_assembly(
        "movshon.FreemanZiemba2013.private", "63f636fa2e2b51b47a676768a69b06ce95efdd8f",
        "FreemanZiemba2013.aperture-private"),
}
STIMULUS_SETS = {
    "FreemanZiemba2013.aperture-public": brainio_stimuli(
        "FreemanZiemba2013.aperture-public",
        "194c9b301a4e3e9cff02481d4c19b39331d52660", "3a6fec1fc28c212882d6833e267ea8654d289611"),
    "FreemanZiemba2013.aperture-private": brainio_stimuli(
        "FreemanZiemba2013.aperture-private",
        "65bee31483dd743ae2a19c6af03b9abe5f4d5a41", "daa724a4797b23929df59c18744923790edf71cb"),
}

_FAMILY = Family(
    name="FreemanZiemba2013", dataset="FreemanZiemba2013.public",
    stimulus_set="FreemanZiemba2013.aperture-public", regions=("V1", "V2"), visual_degrees=4,
    stratification="texture_type", time_window=(50, 200), number_of_trials=20,
    notes="public aperture split: 135 images",
    private=PrivateRecordings("FreemanZiemba2013.private", "FreemanZiemba2013.aperture-private"),
    version=3, bibtex=BIBTEX, sources=SOURCES)

FAMILIES = [
    _FAMILY,
    # Brain-Score gives the public variant version 1 and no leaderboard parent; brainpipe groups it under its region.
    replace(_FAMILY, name="FreemanZiemba2013public", private=None, version=1),
]
