"""Maniquet2024: human categorisation of objects under clutter, occlusion (blobs, deletion, partial viewing) and
phase scrambling, compared with a probabilities readout of the model (fitted on training images, tested on other
images of the same 8 classes and manipulations) by the similarity of the two confusion matrices and by the
correlation of the accuracy profiles over the experiment's tasks (2 benchmarks). The two metrics are this family's
own: it registers them here (brainpipe.behaviour.metric_registry), their computation is brainpipe.behaviour.confusion.

Constants: brain-score/vision brainscore_vision/benchmarks/maniquet2024/benchmark.py and __init__.py (identifiers
``Maniquet2024-confusion_similarity`` / ``-tasks_consistency``, version 1, parent 'Maniquet2024', 8 visual degrees,
placed on screen, 1 trial; probabilities task fitted on ``Maniquet2024-train`` (its ``image_label``), tested on
``Maniquet2024-test``; precomputed ceilings 0.53526 and 0.99810; score = raw / ceiling, not bounded). Metrics:
brainscore_vision/metrics/maniquet2024_metrics/metric.py (brainpipe.behaviour.confusion; the human-task → test-image
condition tables below are its ``_map_human_to_dnn_categories``).

Data: brainscore_vision/data/maniquet2024/__init__.py (bucket brainscore-storage/brainio-brainscore, version ids
'null') and data_packaging.py: stimuli with ``stimulus_id`` (``<exemplar>_<manipulation>_<details>_<category>``),
``manipulation``, ``manipulation_details``, ``image_label``, ``exemplar_number``; human trials (value ``acc``) with
``stimulus_id``, ``manipulation``, ``manipulation_details``, ``mask``, ``image_label``, ``prediction``, ``response``,
``reaction_time``, ``subject_id``, ``task``. Upstream loads the trials without their stimulus set (the humans saw
images of their own, stimulus set ``Maniquet2024``, which no benchmark reads); brainpipe's catalog links them to the
test set, the stimuli the benchmark shows (merging its columns adds only ``exemplar_number``, empty for the human
images).
"""

from ..base import Behaviour, Family, Readout
from brainpipe.behaviour.metric_registry import register_metric
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/maniquet2024/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/maniquet2024/__init__.py",
           "brain-score/vision brainscore_vision/data/maniquet2024/__init__.py",
           "brain-score/vision brainscore_vision/data/maniquet2024/data_packaging.py",
           "brain-score/vision brainscore_vision/metrics/maniquet2024_metrics/metric.py")

BIBTEX = """@article {Maniquet2024.04.02.587669,
	author = {Maniquet, Tim and de Beeck, Hans Op and Costantino, Andrea Ivan},
	title = {Recurrent issues with deep neural network models of visual recognition},
	elocation-id = {2024.04.02.587669},
	year = {2024},
	doi = {10.1101/2024.04.02.587669},
	publisher = {Cold Spring Harbor Laboratory},
	URL = {https://www.biorxiv.org/content/early/2024/04/10/2024.04.02.587669},
	eprint = {https://www.biorxiv.org/content/early/2024/04/10/2024.04.02.587669.full.pdf},
	journal = {bioRxiv}
}"""

VISUAL_DEGREES = 8
ASSEMBLY_SHA1 = "39b8b7b29fad080ebba6df8a46ac4426261342d5"
#: stimulus set -> (csv sha1, zip sha1)
STIMULI = {
    "Maniquet2024": ("ec61e1d7776a6c3b467fee862302edac8d4a156e", "bbdaf09528974c4ca3ee4cddbc91e0e03351291f"),
    "Maniquet2024-test": ("993089ba4aaeffbc61303acb2a5171a5fa271ea5", "39f9aaf13fdd66d284bcea99f187bb0c065144e4"),
    "Maniquet2024-train": ("da965af3ae5ab6e49d46c28f682ef4b75d0a2045", "6685effb52f6870175988c47892b3f9a916a0375"),
}
#: precomputed ceilings (upstream: "use pre-computed from `self._metric._ceiling(self._human_assembly)`")
CEILINGS = {"confusion_similarity": 0.53526, "tasks_consistency": 0.99810}

#: upstream TasksConsistency._map_human_to_dnn_categories: task-name keyword -> the test images' manipulation
MANIPULATIONS = (("clutter", "clutter"), ("control", "control"), ("occlusion", "occluder"),
                 ("scrambling", "phasescrambling"))
#: ... and the rest of the task name -> manipulation_details ('control' when absent)
DETAILS = (("heavy", "heavy"), ("light", "light"), ("highpass", "highpass"), ("lowpass", "lowpass"),
           ("few_large_blobs_high", "fewlarge-high"), ("few_large_blobs_low", "fewlarge-low"),
           ("few_large_deletion_high", "fewlarge-high"), ("few_large_deletion_low", "fewlarge-low"),
           ("many_small_blobs_high", "manysmall-high"), ("many_small_blobs_low", "manysmall-low"),
           ("many_small_deletion_high", "manysmall-high"), ("many_small_deletion_low", "manysmall-low"),
           ("few_large_partial_viewing_high", "fewlarge-high"), ("few_large_partial_viewing_low", "fewlarge-low"),
           ("many_small_partial_viewing_high", "manysmall-high"),
           ("many_small_partial_viewing_low", "manysmall-low"))
#: the test stimulus-set columns the metrics read from the model's output (upstream: the activations carry them)
TEST_COLUMNS = ("image_label", "manipulation", "manipulation_details")

# the trials' stimulus set here is the test set (see the docstring)
ASSEMBLIES = {"Maniquet2024": brainio_assembly("Maniquet2024", ASSEMBLY_SHA1, "Maniquet2024-test")}
STIMULUS_SETS = {name: brainio_stimuli(name, csv, zip_) for name, (csv, zip_) in STIMULI.items()}


def confusion_similarity(benchmark, model, human):
    """The raw score of ``Maniquet2024-confusion_similarity``: the model's and the humans' confusion matrices (the
    model and the humans saw different images of the same classes)."""
    from brainpipe.behaviour import confusion
    return confusion.confusion_similarity(model, human)


def tasks_consistency(benchmark, model, human):
    """The raw score of ``Maniquet2024-tasks_consistency``: the accuracy profiles over the human tasks, each task
    read as the test images' condition through the benchmark's ``manipulations`` and ``details`` tables."""
    from brainpipe.behaviour import confusion
    options = dict(benchmark.behaviour.options)
    return confusion.tasks_consistency(model, human, dict(options["manipulations"]), dict(options["details"]))


# no ceiling function: both benchmarks declare their precomputed ceilings (CEILINGS)
register_metric("confusion_similarity", confusion_similarity)
register_metric("tasks_consistency", tasks_consistency)


def _behaviour(metric):
    options = (("stimulus_columns", TEST_COLUMNS),)
    if metric == "tasks_consistency":
        options += (("manipulations", MANIPULATIONS), ("details", DETAILS))
    return Behaviour(metric, task="probabilities", metric=metric, normalisation="raw_over_ceiling", clip=False,
                     ceiling=CEILINGS[metric], visual_degrees=VISUAL_DEGREES, number_of_trials=1,
                     parent="Maniquet2024", version=1, options=options)


FAMILIES = [Family(
    name="Maniquet2024", dataset="Maniquet2024", stimulus_set="Maniquet2024-test", regions=(),
    visual_degrees=VISUAL_DEGREES, stratification=None, readout=Readout("Maniquet2024-train", label_column="image_label"),
    behaviours=(_behaviour("confusion_similarity"), _behaviour("tasks_consistency")),
    bibtex=BIBTEX, sources=SOURCES,
    notes="probabilities readout fitted on Maniquet2024-train, tested on Maniquet2024-test; humans saw other images")]
