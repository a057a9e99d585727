"""MajajHong2015 temporal: ``MajajHong2015public.V4-temporal-pls`` and ``MajajHong2015public.IT-temporal-pls``, the
public HvM recordings in 10-ms bins predicted by one PLS regression shared across time.

As brain-score/vision brainscore_vision/benchmarks/majajhong2015/{__init__,benchmark}.py define them
(``MajajHong{V4,IT}TemporalPublicBenchmark(time_interval=10)``): data ``MajajHong2015.temporal.public``
(brainscore_vision/data/majajhong2015/__init__.py; 20-ms windows sliding by 10 ms) resampled by
``assembly_time_align`` (model_helpers/brain_transformation/temporal.py, ``mode="portion"``) onto the bins
``(t, t + 10)`` for t in ``range(0, max(time_bin_end) - 10, 10)`` (0–290 ms on the real file, whose last bin ends at
300 ms: brainpipe.data.time_align), the region selected, repetitions averaged; the metric ``spantime_pls``
(metrics/regression_correlation: ``CrossRegressedCorrelation(SpanTimeRegression(pls), PerTime(pearson))``, 10
splits stratified by ``object_name``, the (time bin × stimulus) samples stacked into one PLS fit, Pearson r per bin
and neuroid, median over neuroids, mean over splits per bin); the ceiling ``internal_consistency_temporal``
(``PerTime(InternalConsistency)``) on the unaveraged trials; the score ``raw² / ceiling`` per bin
(``explained_variance``); 8 visual degrees, 50 trials, version 4, parent the region.

Brain-Score's score keeps its ``time_bin`` dimension: one ceiled score per bin, and its ``raw`` and ``ceiling`` per
bin too; it has no single number (its leaderboard code, ``score.item()``, cannot record these two). brainpipe
reports every bin (``score_per_time_bin``, ``raw_per_time_bin``, ``ceiling_per_time_bin``) and, as for every
temporal benchmark, their means as the headline ``score``, ``raw`` and ``ceiling``. A static model (alexnet)
answers every bin with its one response, as Brain-Score's ``TemporalAligned`` copies it to every requested bin.
Brain-Score registers the benchmarks under MajajHong2015public's names, so brainpipe keeps those (``identifiers``)
for a family of its own: MajajHong2015public's other benchmarks are untouched.
"""

from ..base import Family, Temporal
from .majajhong2015 import BIBTEX
from brainpipe.data.catalog import brainio_assembly

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/majajhong2015/__init__.py",
           "brain-score/vision brainscore_vision/benchmarks/majajhong2015/benchmark.py",
           "brain-score/vision brainscore_vision/data/majajhong2015/__init__.py",
           "brain-score/vision brainscore_vision/model_helpers/brain_transformation/temporal.py",
           "brain-score/vision brainscore_vision/metric_helpers/temporal.py")

# Registry key as in brain-score/vision's data plugin (load_dataset('MajajHong2015.temporal.public')); the
# stimulus set hvm-public is majajhong2015.py's.
ASSEMBLIES = {
    "MajajHong2015.temporal.public": brainio_assembly(
        "dicarlo.MajajHong2015.temporal.public", "093ac35b3e8464c676d24cf38238415d4d6a9448", "hvm-public"),
}

FAMILIES = [
    Family(name="MajajHong2015temporal", dataset="MajajHong2015.temporal.public", stimulus_set="hvm-public",
           regions=("V4", "IT"), visual_degrees=8, stratification="object_name",
           temporal=Temporal((0, 290), bin=10, alignment="portion"), number_of_trials=50,
           allowed_metrics=("spantime_pls",),
           identifiers=tuple((f"MajajHong2015public.{region}-temporal-pls", region, "spantime_pls")
                             for region in ("V4", "IT")),
           notes="public HvM split in 10-ms bins (0-290 ms): one PLS across time, scored and ceiled per bin",
           version=4, bibtex=BIBTEX, sources=SOURCES),
]
