"""Cadena2017: V1 single units of two awake macaques (166 neurons) to 7250 grey-scale natural and
texture-synthesised images, 40–100 ms, scored with PLS regression (``Cadena2017-pls``).

Constants: brain-score/vision brainscore_vision/benchmarks/cadena2017/benchmark.py (VISUAL_DEGREES 2,
NUMBER_OF_TRIALS 2, version 1, parent V1, PLS with unstratified cross-validation, internal-consistency ceiling
split over ``repetition_id``; its BIBTEX). Data: brain-score/vision brainscore_vision/data/cadena2017/__init__.py
(object names, sha1s) and data_packaging/2018-08-07_tolias_v1.ipynb (dims, the one 40–100 ms bin, the
``repetition_id`` coordinate).

What is special, as Brain-Score does it: the file has no ``region`` (the data plugin's ``reindex`` makes every
neuroid V1: ``=V1`` below); many stimuli were shown to only some of the neurons, so the target averages the
repetitions (skipna) and then drops every stimulus with a NaN left, and the ceiling reads only the trials
without a NaN (``drop_nan_presentations``). Brain-Score names the benchmark without a region (``Cadena2017-pls``).

``Cadena2017-mask`` (``ToliasCadena2017Mask`` there: version 2, parent V1) scores the same target with Brain-Score's
mask regression (metrics/mask_regression/metric.py, brainpipe.neural.mask_regression: a spatial mask × feature
weights per neuron fitted by Adam on the layer's (channel, x, y) grid) in 4 unstratified splits (train 0.9), and is
ceiled on *every* trial: its ceiling is ``internal_consistency`` of the unaveraged assembly without the ``dropna``
the PLS benchmark's ceiling applies. Wherever every neuron misses some stimulus (both sessions of the real data,
and the fixture) each neuron's split-half r is NaN, so Brain-Score's ceiling, and with it the ceiled score, is NaN;
brainpipe returns the same (the raw score is the comparable number). It is a family of its own
(``Cadena2017mask``, Brain-Score's identifier kept verbatim) only because its ceiling reads other trials: its
data set key ``Cadena2017trials`` is the same file as ``Cadena2017``. Brain-Score's mask fit draws from numpy's
unseeded global generator, so its raw score varies from run to run; brainpipe seeds fold k's fit with k.
"""

from ..base import Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/cadena2017/benchmark.py",
           "brain-score/vision brainscore_vision/data/cadena2017/__init__.py")
MASK_SOURCES = SOURCES + ("brain-score/vision brainscore_vision/metrics/mask_regression/metric.py",
                          "brain-score/vision brainscore_vision/metrics/mask_regression/__init__.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{cadena2019deep,
  title={Deep convolutional models improve predictions of macaque V1 responses to natural images},
  author={Cadena, Santiago A and Denfield, George H and Walker, Edgar Y and Gatys, Leon A and Tolias, Andreas S and Bethge, Matthias and Ecker, Alexander S},
  journal={PLoS computational biology},
  volume={15},
  number={4},
  pages={e1006897},
  year={2019},
  url={https://journals.plos.org/ploscompbiol/article?id=10.1371/journal.pcbi.1006897},
  publisher={Public Library of Science San Francisco, CA USA}
}"""

ASSEMBLIES = {
    "Cadena2017": brainio_assembly("tolias.Cadena2017", "69bcaaa9370dceb0027beaa06235ef418c3d7063", "Cadena2017"),
    # the same file, prepared with every trial kept for the mask benchmark's ceiling
    "Cadena2017trials": brainio_assembly("tolias.Cadena2017", "69bcaaa9370dceb0027beaa06235ef418c3d7063",
                                         "Cadena2017"),
}
STIMULUS_SETS = {
    "Cadena2017": brainio_stimuli(
        "Cadena2017", "f55b174cc4540e5612cfba5e695324328064b051", "88cc2ce3ef5e197ffd1477144a2e6a68d424ef6c"),
}

FAMILIES = [
    Family(name="Cadena2017", dataset="Cadena2017", stimulus_set="Cadena2017", regions=("V1",), visual_degrees=2,
           stratification=None, time_window=(40, 100), number_of_trials=2, allowed_metrics=("pls",),
           drop_nan_presentations=True, region_in_identifier=False,
           coords=(("repetition", "repetition_id"), ("region", "=V1")),
           notes="7250 grey-scale images at 2°, 40–100 ms, 166 V1 neurons; stimuli not shown to every neuron are "
                 "dropped (as Brain-Score)",
           version=1, bibtex=BIBTEX, sources=SOURCES),
    Family(name="Cadena2017mask", dataset="Cadena2017trials", stimulus_set="Cadena2017", regions=("V1",),
           visual_degrees=2, stratification=None, time_window=(40, 100), number_of_trials=2,
           allowed_metrics=("mask",), metric_settings=(("mask", (("splits", 4),)),),
           drop_nan_presentations="target", region_in_identifier=False,
           identifiers=(("Cadena2017-mask", "V1", "mask"),),
           coords=(("repetition", "repetition_id"), ("region", "=V1")),
           notes="Cadena2017's V1 data scored with Brain-Score's mask regression (4 splits) and ceiled on every "
                 "trial, as Brain-Score does: NaN wherever every neuron misses some stimulus (the real data)",
           version=2, parent="V1", bibtex=BIBTEX, sources=MASK_SOURCES),
]
