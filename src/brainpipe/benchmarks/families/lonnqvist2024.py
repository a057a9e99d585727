"""Lonnqvist2024: do two curves cross? Human same/different judgements in three experiments (in the lab with and
without instructions, online without), scored by the accuracy distance of a readout fitted on 185 example images,
plus an engineering accuracy of that readout.

Constants: brain-score/vision brainscore_vision/benchmarks/lonnqvist2024/benchmark.py and __init__.py (registry keys
``Lonnqvist2024_<Experiment>BehavioralAccuracyDistance`` and ``Lonnqvist2024_EngineeringAccuracy``, kept verbatim;
version 1, parent 'Lonnqvist2024'; visual degrees 17.70753 for the test and the fitting images; probabilities task
fitted on ``Lonnqvist2024_train`` (its ``image_label``), 1 trial; choices = the argmax of the probabilities
(``convert_proba_to_choices``); accuracy_distance against the experiment's trials, ceiling = its ceiling on them,
ceiled raw / ceiling capped at 1; engineering: accuracy against the test stimulus set's ``truth``, ceiling Score(1),
not capped; no bibtex, "to appear in a future article") and brainscore_vision/data/lonnqvist2024/__init__.py (object
names, sha1s; every experiment's stimuli are ``Lonnqvist2024_test``).
"""

from ..base import Behaviour, Family, Readout
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/lonnqvist2024/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/lonnqvist2024/__init__.py",
           "brain-score/vision brainscore_vision/data/lonnqvist2024/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy_distance/metric.py")

VISUAL_DEGREES = 17.70753
TEST, TRAIN = "Lonnqvist2024_test", "Lonnqvist2024_train"
STIMULUS_SETS = {TEST: brainio_stimuli(TEST, "8bc98dfc9f334e5c21b68f6787b3255da0d8644a",
                                       "cf94b5341d956d250e7f7798044cf71bbd100721"),
                 TRAIN: brainio_stimuli(TRAIN, "2d6a95a8239aa647ddc6aedd449eabcebdf882cf",
                                        "8adbf4de94524892042d3e43629a4be2beeedcaf")}
#: experiment (data set suffix) -> (assembly sha1, identifier infix)
EXPERIMENTS = {"inlab-instructions": ("64ec603ebc852d193e7437980eaabe8fc482d88b", "InlabInstructions"),
               "inlab-no-instructions": ("ff248ca2058d4e36eee44dbc6f8ea6a79c70b715", "InlabNoInstructions"),
               "online-no-instructions": ("04240330eaf371d160ab418fd5560a72ed42cecb", "OnlineNoInstructions")}
ASSEMBLIES = {f"Lonnqvist2024_{e}": brainio_assembly(f"Lonnqvist2024_{e}", sha1, TEST)
              for e, (sha1, _) in EXPERIMENTS.items()}


def _family(name, dataset, behaviour, source="brainio", notes=""):
    return Family(name=name, dataset=dataset, stimulus_set=TEST, regions=(), visual_degrees=VISUAL_DEGREES,
                  stratification=None, source=source, readout=Readout(TRAIN, label_column="image_label"),
                  behaviours=(behaviour,), notes=notes, bibtex="", sources=SOURCES)


FAMILIES = [_family(
    f"Lonnqvist2024{infix}", f"Lonnqvist2024_{experiment}",
    Behaviour("accuracy_distance", task="probabilities", metric="accuracy_distance", normalisation="raw_over_ceiling",
              clip=True, visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Lonnqvist2024", version=1,
              identifier=f"Lonnqvist2024_{infix}BehavioralAccuracyDistance"),
    notes=f"{experiment}: 380 test images, readout fitted on 185") for experiment, (_, infix) in EXPERIMENTS.items()]
FAMILIES.append(_family(
    "Lonnqvist2024Engineering", "Lonnqvist2024engineering",
    Behaviour("engineering_accuracy", task="probabilities", metric="accuracy", normalisation="raw_over_ceiling",
              clip=False, ceiling=1.0, visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Lonnqvist2024",
              version=1, identifier="Lonnqvist2024_EngineeringAccuracy"),
    source="stimuli",  # accuracy against the test stimulus set's truth (rule stimulus_target), no human data
    notes="the readout's accuracy on the 380 test images"))
