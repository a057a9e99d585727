"""Hermann2020: shape bias and shape match of a model's labels on Geirhos et al.'s cue-conflict images (no human
data: the target is the stimulus set's shape and texture categories).

Constants: brain-score/vision brainscore_vision/benchmarks/hermann2020/benchmark.py (identifiers
``Hermann2020cueconflict-shape_bias`` / ``-shape_match``, version 1, parent 'Hermann2020', ceiling Score(1) never
applied, 1 trial, label task over ``sorted(set(truth))`` of stimulus set ``Geirhos2021_cue-conflict``, no
place_on_screen: the model sees the images at its own degrees, which brainpipe's zoo sets to 8° as for Geirhos2021's
top1) and brainscore_vision/benchmarks/hermann2020/__init__.py (registry keys). Data: the stimulus set declared by
brainpipe.benchmarks.families.geirhos2021 (brainscore_vision/data/geirhos2021/__init__.py). Metric: brainpipe.behaviour.shape_bias.
"""

from ..base import Behaviour, Family
from .geirhos2021 import GEIRHOS2021_LABELS, TOP1_DEGREES

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/hermann2020/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/hermann2020/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy/metric.py")

BIBTEX = """@article{hermann2020origins,
  title={The origins and prevalence of texture bias in convolutional neural networks},
  author={Hermann, Katherine and Chen, Ting and Kornblith, Simon},
  journal={Advances in Neural Information Processing Systems}, volume={33}, pages={19000--19015}, year={2020},
  url={https://proceedings.neurips.cc/paper/2020/hash/db5f9f42a7157abe65bb145000b5871a-Abstract.html}}"""

STIMULUS_SET = "Geirhos2021_cue-conflict"

#: benchmarks/hermann2020/test.py (abs .001): resnet-50-pytorch on its precomputed 3° labels
REFERENCE_RESNET50 = {"shape_bias": 0.21392405, "shape_match": 0.14083333}


def _behaviour(name):
    # ceiling "none": Brain-Score's Hermann2020 score is the metric's value and carries no ceiling (its score has no
    # ceiling attribute; brain-score/vision .../benchmarks/hermann2020/benchmark.py), so none is recorded
    return Behaviour(name, task="label", metric=name, normalisation="raw_over_ceiling", clip=False, ceiling="none",
                     visual_degrees=TOP1_DEGREES, number_of_trials=1, parent="Hermann2020", version=1,
                     choice_labels=GEIRHOS2021_LABELS)


FAMILIES = [Family(
    name="Hermann2020cueconflict", dataset="Hermann2020cueconflict", stimulus_set=STIMULUS_SET, regions=(),
    visual_degrees=TOP1_DEGREES, stratification=None,
    # the target is built from the stimulus set's columns (rule stimulus_target), not downloaded human data
    source="stimuli",
    behaviours=(_behaviour("shape_bias"), _behaviour("shape_match")),
    notes="1280 cue-conflict images (shape of one category, texture of another); no human data",
    bibtex=BIBTEX, sources=SOURCES)]
