"""ObjectNet-top1: top-1 ImageNet accuracy on ObjectNet (Barbu, Mayo et al. 2019), an engineering benchmark (ground
truth, no human data).

Constants: brain-score/vision brainscore_vision/benchmarks/objectnet/benchmark.py (registry key ``ObjectNet-top1``,
version 1, parent 'engineering', ceiling Score(1) never applied, 10 trials, label task 'imagenet' (WordNet ids),
accuracy of the predicted synset against the stimulus set's ``synset`` column, no place_on_screen: the model's own
degrees, 8° in brainpipe's zoo as for Geirhos2021's top1) and brainscore_vision/data/barbumayo2019/__init__.py
(stimulus set ``BarbuMayo2019``: object names, sha1s; 17,261 images, 104 synsets per data/barbumayo2019/test.py).
The stimuli are large: extraction streams them and the label task reads the logits layer only.
"""

from ..base import Behaviour, Family
from .geirhos2021 import TOP1_DEGREES
from brainpipe.data.catalog import brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/objectnet/benchmark.py",
           "brain-score/vision brainscore_vision/data/barbumayo2019/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy/metric.py")

BIBTEX = """@inproceedings{DBLP:conf/nips/BarbuMALWGTK19,
  author = {Andrei Barbu and David Mayo and Julian Alverio and William Luo and Christopher Wang and Dan Gutfreund and Josh Tenenbaum and Boris Katz},
  title = {ObjectNet: {A} large-scale bias-controlled dataset for pushing the limits of object recognition models},
  booktitle = {NeurIPS 2019}, pages = {9448--9458}, year = {2019},
  url = {https://proceedings.neurips.cc/paper/2019/hash/97af07a14cacba681feacf3012730892-Abstract.html}}"""

STIMULUS_SET = "BarbuMayo2019"
STIMULUS_SETS = {STIMULUS_SET: brainio_stimuli(STIMULUS_SET, "e4d8888ccb6beca28636e6698e7beb130e278e12",
                                               "1365eb2a7231516806127a7d2a908343a7ac9464")}

FAMILIES = [Family(
    name="ObjectNet", dataset="ObjectNet", stimulus_set=STIMULUS_SET, regions=(), visual_degrees=TOP1_DEGREES,
    stratification=None,
    source="stimuli",  # the target is the stimulus set's synset column (rule stimulus_target)
    # ceiling "none": Brain-Score's ObjectNet-top1 score is the accuracy and carries no ceiling attribute
    behaviours=(Behaviour("top1", task="label", metric="accuracy", normalisation="raw_over_ceiling", clip=False,
                          ceiling="none", visual_degrees=TOP1_DEGREES, number_of_trials=10, parent="engineering",
                          version=1, choice_labels="imagenet", options=(("truth_column", "synset"),)),),
    extract_per_stimulus_set=True,  # too many images to share one extraction job with other sets
    notes="17,261 ObjectNet images, 104 ImageNet synsets; ground truth, no human data", bibtex=BIBTEX,
    sources=SOURCES)]
