"""Kato2026: human recognition of ImageNet photographs (48 categories) under 8 perturbations (filtered, line
drawings, silhouettes, textures, sparse/dense contour fragments), compared with a model's labels by error
consistency and accuracy distance, each per data set (9 data sets × 2 metrics = 18 benchmarks).

Constants: brain-score/vision brainscore_vision/benchmarks/kato2026/benchmark.py and __init__.py (identifiers
``Kato2026<dataset>-error_consistency`` / ``-accuracy_distance``, version 1, parent 'Kato2026', 10 visual degrees,
placed on screen, 1 trial, ceiled raw / ceiling bounded to [0, 1] by ``bound_score``):

* label task over ``sorted(set(assembly['truth'])) + ['kato2026_others']`` with ``aggregation='max'`` (a label's
  probability is the largest of its ImageNet classes'); the class lists are LabelToImagenetIndices' ``kato2026_*``
  (brainscore_vision/model_helpers/brain_transformation/behavior.py, in brainpipe.behaviour.tasks);
* every data set but ``Ori`` is scored only on the photographs whose base image the model labels correctly: the base
  condition is ``Ori`` (``Sil`` for ``Sparse`` and ``Dense``); the other choices become ``'NaN'``
  (brainpipe.behaviour.base_condition);
* metrics kato_error_consistency / kato_accuracy_distance (brainscore_vision/metrics/kato_*/metric.py): Brain-Score's
  error consistency (per subject × condition, |mean|) and accuracy distance (per subject, whole data set), both over
  the stimuli where neither side's choice is ``''`` or ``'NaN'`` (option ``invalid_responses``); ceilings: the same
  comparison between every pair of subjects.

Data: brainscore_vision/data/kato2026/__init__.py (identifiers ``Kato2026.<dataset>``, bucket
brainscore-storage/brainio-brainscore, sha1s below; packaging in data_packaging/: trials with ``stimulus_id``,
``subject``, ``correct``, ``condition``, ``response``, ``truth``; stimuli with ``stimulus_id``
(``<category>_ILSVRC2012_val_<n>_<condition code>``), ``truth`` (``kato2026_<category>``), ``condition``).
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/kato2026/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/kato2026/__init__.py",
           "brain-score/vision brainscore_vision/data/kato2026/__init__.py",
           "brain-score/vision brainscore_vision/metrics/kato_error_consistency/metric.py",
           "brain-score/vision brainscore_vision/metrics/kato_accuracy_distance/metric.py",
           "brain-score/vision brainscore_vision/model_helpers/brain_transformation/behavior.py")

BIBTEX = """@article{Kato2026,
    title = {Systematic image perturbations reveal persistent gaps between human and machine vision},
    volume = {},
    doi = {10.1016/j.isci.2026.117370},
    journal = {iScience},
    author = {Kato, Mugihiko, and He, Biyu},
    year = {2026},
    }"""

DATASETS = ("Ori", "Fil", "Lin", "SilTex", "Sil", "Tex", "LinFil", "Sparse", "Dense")
VISUAL_DEGREES = 10
#: the label every ImageNet class outside the 48 categories maps to (appended to the data set's truth labels)
OTHERS = "kato2026_others"
#: choices that are no answer: dropped by both metrics, on either side (a masked model choice reads 'NaN')
INVALID_RESPONSES = ("", "NaN")

#: data set -> (assembly sha1, stimulus csv sha1, zip sha1)
DATA = {
    "Ori": ("d5a22c25835da413b629d87ec77d6af834a43732", "8e3eee196d5b1bca058c8dad54234fa5340eeaca",
            "75b5720f107eadaa9689e80bf812a173f1f099e9"),
    "Fil": ("954498ac9cd106fb17443bc77ac2c00d1fe03f00", "469b6af5259450cda4eec7586ccbbcc5174aa0c4",
            "9b7a45311b1caa9b2f16bc97bc4ee24eb197265b"),
    "Lin": ("ce681e8afca2d39166ae2f19ba665638f794b9d1", "36b8045876aa47151a65f16ddee645cf9473f4fb",
            "2b786b9901a05d1fd980ae34153536cf906a8aa1"),
    "SilTex": ("ce1474dea31dd0b7469ec634e5e61da55e414502", "ff982583d8d815247cc1a009255857772e07cd94",
               "6cdc21439438e126f3ab401bb05af84300a4fe1e"),
    "Sil": ("4a21ce43ca5f7dc0b8d9c3d048ea2dda2ca7f47a", "13a42a068aa79fd533fd7b5f00a09f67053b4425",
            "0d02bea9d282d020d9b20ceb7daa50d185cdefe3"),
    "Tex": ("cb4d428412d4334f57e9b7b14c7e7d888bf838db", "cd533001022f56bef5b39ce43b00a4a4293a81d1",
            "fb6564cae35ca18172025b46cd653f4721015b3d"),
    "LinFil": ("87f0227c3507e8cf1172ddf5398036f098a40c96", "9fbeb46e9a2a5ac0573ebf4ce6bb20fb9ddf3a33",
               "2ac934e65c3645b960c3e1126921cea783da6479"),
    "Sparse": ("e933f23d2c09a2107b292657063a99d0a931119e", "990d317b8d526590257d4acc0abf70e89a4f6661",
               "67569fca4b89b9ae4e893f4eeb71e3b2c2c67808"),
    "Dense": ("49b2d952c314b51181f4b8262ac9bf2a49898bd6", "4e1b9387371d416a0c5758cd78ee683c23c7e191",
              "7557f8e1542cd14edd1f4cf79264ea4851861651"),
}

#: upstream's data tests: subjects and images per data set (every subject names every image once)
SUBJECTS = {"Ori": 60, **{d: 10 for d in DATASETS if d != "Ori"}}
IMAGES = {**{d: 240 for d in DATASETS if d not in ("Sparse", "Dense")}, "Sparse": 171, "Dense": 171}


def key(dataset: str) -> str:
    """Data set and stimulus set identifier (also the catalog key)."""
    return f"Kato2026.{dataset}"


def base_condition(dataset: str) -> str | None:
    """The data set whose images the model must recognise for a photograph to be scored (None for Ori)."""
    return None if dataset == "Ori" else ("Sil" if dataset in ("Sparse", "Dense") else "Ori")


ASSEMBLIES = {key(d): brainio_assembly(key(d), a, key(d)) for d, (a, _, _) in DATA.items()}
STIMULUS_SETS = {key(d): brainio_stimuli(key(d), c, z) for d, (_, c, z) in DATA.items()}


def _behaviour(dataset, metric):
    base = base_condition(dataset)
    options = (("labels_from_truth", True), ("aggregation", "max"), ("invalid_responses", INVALID_RESPONSES))
    if base:
        options += (("base_stimulus_set", key(base)),)
    return Behaviour(metric, task="label", metric=metric, normalisation="raw_over_ceiling", clip=True,
                     visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Kato2026", version=1,
                     choice_labels=(OTHERS,), options=options)


FAMILIES = [Family(
    name=f"Kato2026{dataset}", dataset=key(dataset), stimulus_set=key(dataset), regions=(),
    visual_degrees=VISUAL_DEGREES, stratification=None,
    behaviours=(_behaviour(dataset, "error_consistency"), _behaviour(dataset, "accuracy_distance")),
    bibtex=BIBTEX, sources=SOURCES,
    notes=f"{IMAGES[dataset]} images, {SUBJECTS[dataset]} subjects"
          + (f"; scored where the model recognises the {base_condition(dataset)} image" if base_condition(dataset)
             else ""))
    for dataset in DATASETS]
