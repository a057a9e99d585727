"""BMD2024: human 10-way object naming of texturised silhouettes and dotted outlines (four experiments), scored by
the accuracy distance per subject.

Constants: brain-score/vision brainscore_vision/benchmarks/bmd2024/benchmark.py and __init__.py (identifiers
``BMD2024.<experiment>Behavioral-accuracy_distance``, kept verbatim: they do not read '<Family>-<metric>'; version 1,
parent 'BMD2024', visual degrees 8, 1 trial, label task over ``sorted(set(stimulus_set['truth']))``, metric
accuracy_distance on every human trial, ceiling = accuracy_distance's ceiling on the human data, ceiled = raw /
ceiling capped at 1 (never below 0: the distance is ≥ 0); no bibtex, "to appear in a future article") and
brainscore_vision/data/bmd2024/__init__.py (object names ``BMD_2024_<experiment>``, sha1s). The 10 categories are
those of the packaging script (data/bmd2024/data_packaging/BMD_2024_data_assembly.py). Metric:
brainpipe.behaviour.accuracy (metrics/accuracy_distance/metric.py).
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/bmd2024/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/bmd2024/__init__.py",
           "brain-score/vision brainscore_vision/data/bmd2024/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy_distance/metric.py")

LABELS = ("airplane", "bear", "bicycle", "bird", "bottle", "car", "cat", "chair", "elephant", "knife")

#: experiment -> (assembly sha1, stimulus csv sha1, zip sha1); data/bmd2024/__init__.py. The dotted_2 zip is
#: registered with S3 version id 'dzELAKHsBx1DKkrWAR9uteJ7K1.FtlAm' (the others 'null'): brainpipe fetches the
#: object by name and checks this sha1, so a newer upload under the same name would be refused, not used.
DATA = {
    "texture_1": ("050cef2bd38fe0e0c6d55c9a4ba0b1c57550a072", "395911b2933d675b98dda7bae422f11648d8e86d",
                  "cfde36c93dc9070ef5dfaa0a992c9d2420af3460"),
    "texture_2": ("1f9f4ee938df509c0cbeaec7fdfe0f40997da331", "98ff8e3a1ca6f632ebc2daa909804314bc1b7e31",
                  "31c9d8449b25da8ad3cb034eee04db9193027fcb"),
    "dotted_1": ("eb16feffe392087b4c40ef249850825f702e7911", "de4214666237a0be39810ec4fefd6ec8d2a2e881",
                 "b4ab1355665b5bf3bf81b7aa6eccfd396c96bda2"),
    "dotted_2": ("297833a094513b99ae434e581df09ac64cd6582f", "4555daa5257dee10c6c6a5625d3bb2d94452e294",
                 "20337c1fac66ed0eec16410c6801cca830e6c20c"),
}


def key(experiment: str) -> str:
    """The object identifier of an experiment's data and stimuli (the registry key is BMD2024.<experiment>)."""
    return f"BMD_2024_{experiment}"


ASSEMBLIES = {key(e): brainio_assembly(key(e), a, key(e)) for e, (a, _, _) in DATA.items()}
STIMULUS_SETS = {key(e): brainio_stimuli(key(e), c, z) for e, (_, c, z) in DATA.items()}
FAMILIES = [Family(
    name=f"BMD2024{experiment}", dataset=key(experiment), stimulus_set=key(experiment), regions=(), visual_degrees=8,
    stratification=None,
    behaviours=(Behaviour("accuracy_distance", task="label", metric="accuracy_distance",
                          normalisation="raw_over_ceiling", clip=True, visual_degrees=8, number_of_trials=1,
                          parent="BMD2024", version=1, choice_labels=LABELS,
                          identifier=f"BMD2024.{experiment}Behavioral-accuracy_distance"),),
    notes=f"experiment {experiment}: 10 categories × 10 images, ~50 subjects", bibtex="", sources=SOURCES)
    for experiment in DATA]
