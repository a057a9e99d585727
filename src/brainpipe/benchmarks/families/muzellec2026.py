"""Muzellec2026 (reverse predictivity): ``MajajHong2015public.V4-reverse_pls`` and ``MajajHong2015public.IT-reverse_pls``,
the public MajajHong2015 recordings predicting the model's units.

As brain-score/vision brainscore_vision/benchmarks/muzellec2026/benchmark.py defines them: the data, time bin,
repetition averaging, visual degrees (8) and number of trials (50) of ``MajajHong2015public.<region>-pls``
(``load_assembly``: ``MajajHong2015.public``, region selected, repetitions averaged); the metric ``reverse_pls``
(metrics/regression_correlation/metric.py ``ReverseCrossRegressedCorrelation``: PLS with 25 components fitted from
the recordings to the model layer's units, 10 stratified splits over ``object_name`` drawn over the model's
presentations, the median over units of the test Pearson r, the mean over splits); the ceiling
``SplitHalfPredictorConsistency`` (metrics/predictor_consistency/ceiling.py: 10 random split halves of each image's
repetitions, ``numpy.random.default_rng(0)``, Spearman-Brown corrected r per neuroid, median over neuroids, mean
over splits); the score ``raw² / ceiling`` (NeuralBenchmark's ``explained_variance``); version 4, parent the region,
the benchmark's BIBTEX. Brain-Score registers them under MajajHong2015public's names, so brainpipe keeps those
(``identifiers``) for a family of its own: MajajHong2015public's other benchmarks are untouched.
"""

from ..base import Family

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/muzellec2026/benchmark.py",
           "brain-score/vision brainscore_vision/metrics/regression_correlation/metric.py",
           "brain-score/vision brainscore_vision/metrics/predictor_consistency/ceiling.py",
           "brain-score/vision brainscore_vision/data/majajhong2015/__init__.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{muzellec2025reverse,
  title={Reverse Predictivity: Going Beyond One-Way Mapping to Compare Artificial Neural Network Models and Brains},
  author={Muzellec, Sabine and Kar, Kohitij},
  journal={bioRxiv},
  pages={2025--08},
  year={2025},
  publisher={Cold Spring Harbor Laboratory}
}"""

# The data are MajajHong2015's public recordings, declared by majajhong2015.py (the same catalog entries).
FAMILIES = [
    Family(name="Muzellec2026", dataset="MajajHong2015.public", stimulus_set="hvm-public", regions=("V4", "IT"),
           visual_degrees=8, stratification="object_name", time_window=(70, 170), number_of_trials=50,
           allowed_metrics=("reverse_pls",), ceiling="predictor_consistency",
           identifiers=tuple((f"MajajHong2015public.{region}-reverse_pls", region, "reverse_pls")
                             for region in ("V4", "IT")),
           notes="reverse predictivity on the public HvM split: recordings predict the model's units; split-half "
                 "predictor-consistency ceiling",
           version=4, bibtex=BIBTEX, sources=SOURCES),
]
