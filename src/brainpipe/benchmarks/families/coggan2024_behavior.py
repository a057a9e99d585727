"""Coggan2024_behavior: human recognition of occluded objects (8 classes; occluders of several types and colours
at several visibilities; every subject saw unique images), compared with a probabilities readout of the model by
the per-subject correlation of accuracies over the occlusion conditions (1 benchmark).

Constants: brain-score/vision brainscore_vision/benchmarks/coggan2024_behavior/benchmark.py and __init__.py
(identifier ``tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity``, kept verbatim; version 1, parent
'behavior', 10 visual degrees, placed on screen, 1 trial; probabilities task fitted on
``Coggan2024_behavior_fitting`` (its ``image_label``), tested on the trials' own stimulus set; raw = mean over
subjects of r(human, model accuracy per occluder type × colour, visibility < 1); ceiling = leave-one-subject-out
r (``get_noise_ceiling``); ceiled = (raw / ceiling)², not bounded (``ceiler``)). Metric:
brainpipe.behaviour.condition_accuracy.

Data: brainscore_vision/data/coggan2024_behavior/__init__.py (identifiers ``tong.Coggan2024_behavior`` and
``tong.Coggan2024_behavior_fitting``, bucket brainscore-storage/brainio-brainscore, version ids 'null') and
data_packaging.py: one stimulus per trial (``stimulus_id``, ``subject``, ``trial``, ``object_class``,
``imagenet_class_*``, ``occluder_type``, ``occluder_color``, ``visibility``, ``repetition``); trials with value =
the human's prediction and ``human_accuracy``. Upstream pairs the model's predictions (stimulus set order) with the
trials by position; brainpipe pairs them by ``stimulus_id`` (one image per trial), the same pairing where the
stimulus set lists the trials' images in the trials' order, as the packaging writes both.
"""

from ..base import Behaviour, Family, Readout
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/coggan2024_behavior/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/coggan2024_behavior/__init__.py",
           "brain-score/vision brainscore_vision/data/coggan2024_behavior/__init__.py",
           "brain-score/vision brainscore_vision/data/coggan2024_behavior/data_packaging.py")

BIBTEX = """@article {
    Tong.Coggan2024.behavior,
    author = {David D. Coggan and Frank Tong},
    title = {Modeling human visual recognition of occluded objects}},
    year = {2024},
    url = {},
    journal = {in prep}}"""

IDENTIFIER = "tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"
DATASET = "tong.Coggan2024_behavior"
FITTING = "tong.Coggan2024_behavior_fitting"
VISUAL_DEGREES = 10

ASSEMBLIES = {DATASET: brainio_assembly(DATASET, "c1ac4a268476c35bbe40081358667a03d3544631", DATASET)}
STIMULUS_SETS = {
    DATASET: brainio_stimuli(DATASET, "01c312c4c16f7acc5afddaafcf826e5af58b13e2",
                             "1c070b88fa45e9e69d58f95466cb6406a45a4873"),
    FITTING: brainio_stimuli(FITTING, "136e48992305ea78a4fb77e9dfc75dcf01e885d0",
                             "24e68f5ba2f8f2105daf706307642637118e7d36"),
}

FAMILIES = [Family(
    name="Coggan2024_behavior", dataset=DATASET, stimulus_set=DATASET, regions=(), visual_degrees=VISUAL_DEGREES,
    stratification=None, readout=Readout(FITTING, label_column="image_label"),
    behaviours=(Behaviour("condition_wise_accuracy", task="probabilities", metric="condition_wise_accuracy",
                          normalisation="raw_over_ceiling_squared", clip=False, visual_degrees=VISUAL_DEGREES,
                          number_of_trials=1, parent="behavior", version=1, identifier=IDENTIFIER),),
    bibtex=BIBTEX, sources=SOURCES,
    notes="22560 occluded images (one per trial, 30 subjects), readout fitted on 2048 ImageNet images")]
