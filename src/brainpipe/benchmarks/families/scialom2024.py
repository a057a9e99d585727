"""Scialom2024: human 12-way object naming of everyday objects shown as photographs (rgb), contours, and as
phosphene or segment renderings with 12 to 100 % of their elements (22 data sets), scored by the accuracy distance
per condition, the error consistency over the phosphene and segment composites, and an engineering accuracy.

Constants: brain-score/vision brainscore_vision/benchmarks/scialom2024/__init__.py and benchmark.py (registry keys
``Scialom2024_<dataset>BehavioralAccuracyDistance``, ``..._<composite>BehavioralErrorConsistency`` and
``..._<dataset>EngineeringAccuracy``, kept verbatim as brainpipe identifiers; upstream's Benchmark objects call
themselves ``Scialom2024_<dataset>-behavioral_accuracy`` / ``-error_consistency`` / ``-engineering_accuracy``, but
``load_benchmark`` and Brain-Score's identifier list use the registry keys; every benchmark version 1; no bibtex,
"to appear in a future article"):

* accuracy distance: label task over ``sorted(set(stimulus_set['truth']))``, 1 trial, the stimuli *not* placed on
  screen (the model's own degrees: brainpipe shows them at 8°, the model zoo default and the data's 8°); metric
  accuracy_distance on every trial, ceiling = its ceiling on the human data, ceiled raw / ceiling capped at 1 (the
  distance is ≥ 0); parent 'Scialom2024';
* error consistency (the composites ``phosphenes-all`` / ``segments-all`` only): label task over
  ``sorted(set(assembly['truth']))`` (the same 12 labels), stimuli placed at 8°, 1 trial, metric error_consistency,
  ceiling = its ceiling on the human data, ceiled raw / ceiling. Upstream does not bound this one to [0, 1] (no
  ``bound_score``, unlike Geirhos2021's): brainpipe does not either (clip=False); parent 'Scialom2024';
* engineering accuracy: label task, 10 trials, no placement, accuracy against the stimulus set's ``truth``, ceiling
  1, not capped, parent 'Scialom2024-top1' (an engineering child: left out of the behavioural mean).

Data: brainscore_vision/data/scialom2024/__init__.py (object names ``Scialom2024_<dataset>``, bucket
brainscore-storage/brainio-brainscore, version ids 'null', sha1s below; stimulus sets loaded with ``condition`` and
``percentage_elements`` cast to str). The 12 labels are those of the packaging scripts
(data/scialom2024/data_packaging/scialom_stimulus_set.py: the stimulus set's ``truth`` = the metadata's
``category``); each maps to ImageNet classes through LabelToImagenetIndices (model_helpers/brain_transformation/
behavior.py, lower-cased without spaces: 'Sewing machine' -> sewingmachine). Metrics: brainpipe.behaviour.accuracy,
brainpipe.behaviour.error_consistency.
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/scialom2024/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/scialom2024/__init__.py",
           "brain-score/vision brainscore_vision/data/scialom2024/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy_distance/metric.py",
           "brain-score/vision brainscore_vision/metrics/error_consistency/metric.py")

#: ``sorted(set(truth))`` of every data set (packaging scripts' 12 categories, capitalised as there)
LABELS = ("Banana", "Beanie", "Binoculars", "Boot", "Bowl", "Cup", "Glasses", "Lamp", "Pan", "Sewing machine",
          "Shovel", "Truck")

#: the benchmark's degrees (``self._visual_degrees = 8``); the benchmarks that do not place the stimuli on screen
#: show them at the model's own degrees, which is 8 in brainpipe's model zoo too
VISUAL_DEGREES = 8

PERCENTAGES = (12, 16, 21, 27, 35, 46, 59, 77, 100)
#: data sets with one accuracy distance and one engineering accuracy each (rgb, contours, then each percentage)
CONDITIONS = ("rgb", "contours", *(f"{kind}-{p}" for kind in ("phosphenes", "segments") for p in PERCENTAGES))
#: composites: every percentage of one rendering plus rgb and contours (11 × 48 images); accuracy distance and
#: error consistency, no engineering accuracy
COMPOSITES = ("phosphenes-all", "segments-all")

#: data set -> (assembly sha1, stimulus csv sha1, zip sha1)
DATA = {
    "rgb": ("b79217a6b700760b96ffe60a948d6c2af9e7a615", "c7e66eca214ffd9e38a5ebc1de159ef5f7755df9",
            "6dce0513eb20c6d501a4e2e574028d12f910a1da"),
    "contours": ("9487edf9f10d019968a77792908fb853fd73f818", "378ea511a906a1c440d556bd9b6232d433ba186e",
                 "70a2277a327b7aa150654f46f46ea4bd247c5273"),
    "phosphenes-12": ("1badbc7d08e2d135b2383a25e39ca7d22a3cd7ff", "762a114b716b8414322d0de620bd800f35beb02b",
                      "701ecb4e2c87fac322a9d06b238e361d4c45b5bd"),
    "phosphenes-16": ("1059a8126039ca01e8f293bfbe90539ea829b86f", "40979a641232dab1515b7061171921221d86a13a",
                      "26563eff7a42561204fb6c158ae00ef4acf62e4d"),
    "phosphenes-21": ("ac28102c6b165a759b102f670a99b33a67c7fc9a", "72cffd4c0c8d30b815825475d864a87b7eb6e386",
                      "22f9ecd333fcc177c16ed6c005989fe04f63700c"),
    "phosphenes-27": ("3bb9adfcdb294a9ecfec14af381f3dbdc7f6dfeb", "94e91373299e82bcaa413e626bcaab6c914a9649",
                      "69f17f8b1121a19738625da78b4b73de2b151926"),
    "phosphenes-35": ("fa27c3931f76a696b1f1dde4c67a6733d682bcb2", "dc5657b53cf5d77dc6b62db856d7c2fd6151284c",
                      "e26e6e5fabca6bd52d85b38416df92de0b16b81e"),
    "phosphenes-46": ("11f42e777a0938879473baa7a4efaefd27681c54", "5838fabb81840bba4fc667e48c1e82569fcbff29",
                      "6bb41a20bea70b3e521320258682dba1bef7a0e6"),
    "phosphenes-59": ("f9e6ecb9013871f357fa56a9bfaa43c80eb0d9f5", "126123ae0596ebe93bb8b0fb985b3fd6e2db1aea",
                      "3e7d106796050a0fd4868567c8ef2325f294a13c"),
    "phosphenes-77": ("f3e3c50983b859eff094b75ca53939bf156b0f3f", "04eccad03672f7122b2821c667e8ba352eca8262",
                      "5b5ae2437193d75d26f5ffa87245ee479ce2674a"),
    "phosphenes-100": ("b97bda0f9ea10a684b81cf2118578edb483d9e27", "f75998b7e2624edbdf511a4f88d4665a0258e377",
                       "b416d47663cd6e5d747f75f2f15eb52637313509"),
    "segments-12": ("fec2104fc53f04af727174ca54fec2c9ad3b553d", "c9de15f5aec2d2fbbd3669e8f3620ae4e884556b",
                    "0e04090ea7cc6cabc9efa7695dab5d217ebad70b"),
    "segments-16": ("4e30fc27bf98fa374af29a3bbb0de27c95ff845c", "dc66edcd3f6e051418878e07002c06d2a936d142",
                    "2aa3cb8c89bf5956ea5c7a6c0f86ce8759056b41"),
    "segments-21": ("280dde1bb8ad226307ce25505a54f852197d0686", "c461e47b42f17c05399387c16b3d76db6389d05f",
                    "e8116c9b1b2822bf2235b7ef91193baf2a7f47fb"),
    "segments-27": ("249148aaf4bed26ac2dcf07e4ab1d4dd19fc6531", "31e35368dbe090fe2748765b82bc0dd956818887",
                    "607d8589a270220046455e150d3589095d8270b1"),
    "segments-35": ("67b729721928c5f1e85fc5f48e0c574ecfa196e4", "3758af9739943817254ed79e12b441bb055858b9",
                    "1df725d457f8092b2cc75a7f1509359383ae5420"),
    "segments-46": ("2e8e7f937407eb74a77e006d09df4364945f24bf", "5c2982d3b079f5dd15dc18b5f127624256ca75b8",
                    "1f0bd6bcb476bff6937dc2bb0bf9222b381e41d5"),
    "segments-59": ("ba161343f424673e2dbc123bc058b49ffa16af07", "22df0dcfec63af39a3df97555c085ccd57a5ec09",
                    "63cd9ee774ed4aeca54b8aa54c037037a67537d6"),
    "segments-77": ("1f29d37fa6b84defd268cb35d8e26c6798c63714", "350f3c1ad3ae52150783e8be0135d79ef1f88c9f",
                    "be2c2039e5eea7c3dcd90b885243fb6a1ebd40b9"),
    "segments-100": ("298823d65ceacccd3247fe05e21b2df85c46343d", "d2d7e231c7420730d5b3118c82b859a684d89a5b",
                     "9d7ccb70f2231c8e62aecf18f1f48c160046c98b"),
    "phosphenes-all": ("ae0fd1095846f0c637e54ad8ff96e44bdac8117d", "16276359d917b16fc84c736881cf70b5de3d9c5c",
                       "c2c26b17a4b4d152d1f20e78fe085e321080bcf6"),
    "segments-all": ("0ecd8e45b4eb5a2afba91b5fe06cacc8696e5925", "4e66191b81517f3601e7bb27c9c3a84b9ee51a89",
                     "59b279b2c65be4cdab50bf17b7295da2426744ee"),
}


def key(dataset: str) -> str:
    """Object identifier of a data set's trials and stimuli (also the catalog key)."""
    return f"Scialom2024_{dataset}"


def identifier(dataset: str, kind: str) -> str:
    """Brain-Score's registry key: kind is BehavioralAccuracyDistance, BehavioralErrorConsistency or
    EngineeringAccuracy."""
    return f"Scialom2024_{dataset}{kind}"


def _name(dataset: str) -> str:
    return "Scialom2024" + dataset.replace("-", "")


ASSEMBLIES = {key(d): brainio_assembly(key(d), a, key(d)) for d, (a, _, _) in DATA.items()}
STIMULUS_SETS = {key(d): brainio_stimuli(key(d), c, z) for d, (_, c, z) in DATA.items()}


def _accuracy_distance(dataset):
    return Behaviour("accuracy_distance", task="label", metric="accuracy_distance", normalisation="raw_over_ceiling",
                     clip=True, visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Scialom2024", version=1,
                     choice_labels=LABELS, identifier=identifier(dataset, "BehavioralAccuracyDistance"))


def _error_consistency(dataset):
    return Behaviour("error_consistency", task="label", metric="error_consistency", normalisation="raw_over_ceiling",
                     clip=False, visual_degrees=VISUAL_DEGREES, number_of_trials=1, parent="Scialom2024", version=1,
                     choice_labels=LABELS, identifier=identifier(dataset, "BehavioralErrorConsistency"))


def _engineering(dataset):
    return Behaviour("engineering_accuracy", task="label", metric="accuracy", normalisation="raw_over_ceiling",
                     clip=False, ceiling=1.0, visual_degrees=VISUAL_DEGREES, number_of_trials=10,
                     parent="Scialom2024-top1", version=1, choice_labels=LABELS,
                     identifier=identifier(dataset, "EngineeringAccuracy"))


def _family(dataset, behaviours, engineering=False):
    subjects = 50 if dataset in ("rgb", "contours") else 25
    images = 528 if dataset in COMPOSITES else 48
    return Family(
        name=_name(dataset) + ("Engineering" if engineering else ""),
        dataset=key(dataset) + ("-engineering" if engineering else ""), stimulus_set=key(dataset), regions=(),
        visual_degrees=VISUAL_DEGREES, stratification=None,
        source="stimuli" if engineering else "brainio",  # engineering: the stimulus set's truth, no human data
        behaviours=behaviours, bibtex="", sources=SOURCES,
        notes=f"{dataset}: {images} images" + ("" if engineering else f", {subjects} subjects"))


FAMILIES = ([_family(d, (_accuracy_distance(d),)) for d in CONDITIONS]
            + [_family(d, (_accuracy_distance(d), _error_consistency(d))) for d in COMPOSITES]
            + [_family(d, (_engineering(d),), engineering=True) for d in CONDITIONS])
