"""Baker2022: configural shape perception (Baker & Elder 2022): the drop in a model's 9-way animal-silhouette
accuracy from whole to frankenstein or fragmented silhouettes, compared with the drop of human subjects.

Constants: brain-score/vision brainscore_vision/benchmarks/baker2022/benchmark.py (``Baker2022frankenstein-``,
``Baker2022fragmented-`` and ``Baker2022inverted-accuracy_delta``: data sets 'normal', 'normal', 'inverted'; image
types (w, f), (w, o), (w, f); visual degrees 8.8; 1 trial; version 1; parent 'Baker2022'; label task over
``sorted(set(truth))``; ceiling SplitHalvesConsistencyBaker(100 splits); ceiled = raw / ceiling bounded to [0, 1] by
``bound_score``), brainscore_vision/benchmarks/baker2022/__init__.py (registry keys) and
brainscore_vision/data/baker2022/__init__.py (object names, sha1s; bucket brainscore-storage/brainio-brainscore).
Metric: brainpipe.behaviour.accuracy_delta (metrics/baker_accuracy_delta/metric.py).
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/baker2022/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/baker2022/__init__.py",
           "brain-score/vision brainscore_vision/data/baker2022/__init__.py",
           "brain-score/vision brainscore_vision/metrics/baker_accuracy_delta/metric.py")

BIBTEX = """@article{BAKER2022104913,
  title = {Deep learning models fail to capture the configural nature of human shape perception},
  journal = {iScience}, volume = {25}, number = {9}, pages = {104913}, year = {2022}, issn = {2589-0042},
  doi = {https://doi.org/10.1016/j.isci.2022.104913},
  url = {https://www.sciencedirect.com/science/article/pii/S2589004222011853},
  author = {Nicholas Baker and James H. Elder}}"""

VISUAL_DEGREES = 8.8
#: the 9 animals (data/baker2022 packaging); every data set's ``truth``, so upstream's sorted(set(truth))
LABELS = ("bear", "bunny", "cat", "elephant", "frog", "lizard", "tiger", "turtle", "wolf")
#: stimulus-set columns the metric reads of every image the model labels (task stage ``stimulus_columns``)
STIMULUS_COLUMNS = ("animal", "image_type", "orientation")

#: data/baker2022/__init__.py: dataset -> (assembly sha1, csv sha1, zip sha1)
DATA = {
    "normal": ("46c79a48bf2dbd995a9305d8fbc03a134a852e17", "17d4db7458a29a787d12bb29c34e91daef1872bf",
               "2c726abaf081c8a9828269a559222f8c6eea0e4f"),
    "inverted": ("b76fb57b25a58ca68db78d188fd0a783e1dcaf73", "91e452e4651024c2b382694edfcbc7bdc6c3189b",
                 "4740a096af994c2232350469c664e53796f17a05"),
}
#: identifier suffix -> (data set, image types)
BENCHMARKS = {"frankenstein": ("normal", ("w", "f")), "fragmented": ("normal", ("w", "o")),
              "inverted": ("inverted", ("w", "f"))}


def key(dataset: str) -> str:
    return f"Baker2022_{dataset}_distortion"


ASSEMBLIES = {key(d): brainio_assembly(key(d), a, key(d)) for d, (a, _, _) in DATA.items()}
STIMULUS_SETS = {key(d): brainio_stimuli(key(d), c, z) for d, (_, c, z) in DATA.items()}
FAMILIES = [Family(
    name=f"Baker2022{suffix}", dataset=key(dataset), stimulus_set=key(dataset), regions=(),
    visual_degrees=VISUAL_DEGREES, stratification=None,
    behaviours=(Behaviour("accuracy_delta", task="label", metric="accuracy_delta", normalisation="raw_over_ceiling",
                          clip=True, visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Baker2022",
                          version=1, choice_labels=LABELS,
                          options=(("image_types", image_types), ("orientation", dataset),
                                   ("stimulus_columns", STIMULUS_COLUMNS))),),
    notes=f"{dataset} silhouettes: whole vs {'fragmented' if 'o' in image_types else 'frankenstein'}",
    bibtex=BIBTEX, sources=SOURCES) for suffix, (dataset, image_types) in BENCHMARKS.items()]
