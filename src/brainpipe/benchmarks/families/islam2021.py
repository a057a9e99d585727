"""Islam2021: how many of a layer's dimensions encode shape, and how many texture (Islam et al., ICLR 2021), on
stylized PASCAL VOC 2012 images (20 shapes × 5 textures); 8 benchmarks ``Islam2021-{shape,texture}_{v1,v2,v4,it}
_dimensionality``. No recordings: the model's committed layer of the region is compared with its own stimuli's
labels (brainpipe's custom pattern, :mod:`brainpipe.benchmarks.custom`, with the stimulus set's columns as target).

As brain-score/vision brainscore_vision/benchmarks/islam2021/benchmark.py (``_Islam2021Dimensionality``) and
brainscore_vision/metrics/dimensionality/metric.py (``factor_dimensionality``) compute it
(:mod:`brainpipe.neural.dimensionality`): the seeded pairs (``SEED = 1751``), the factor-dimensionality estimate,
the factor's share of the dimensions. Score = raw: Brain-Score's ceiling is ``Score(1)`` and its ``__call__``
returns the metric's value unceiled. Brain-Score 2.4.2 pairs the layer's **units** (it indexes the presentation ×
neuroid assembly on its second axis with stimulus positions); brainpipe does the same, so a layer with fewer units
than stimuli (21,845 in the real set) fails in both.

Constants: the 70-170 ms window (``start_recording(region, [(70, 170)])``), one trial, version 1, parent
``Islam2021``, the benchmark's BIBTEX. No place_on_screen: the model sees the images at its own degrees, i.e. 8°
in brainpipe's zoo (as for the top-1 benchmarks). Data: brain-score/vision brainscore_vision/data/islam2021/
__init__.py (stimulus set ``Islam2021``, csv/zip sha1s; 21,845 images, public).
"""

from ..base import Family
from ..custom import CustomBenchmark
from brainpipe.data.catalog import brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/islam2021/benchmark.py",
           "brain-score/vision brainscore_vision/metrics/dimensionality/metric.py",
           "brain-score/vision brainscore_vision/data/islam2021/__init__.py")

# The benchmark's BIBTEX (benchmark.py; its '{\{}CNN{\}}s' escaping made plain).
BIBTEX = """@inproceedings{islam2021shape,
  title={Shape or Texture: Understanding Discriminative Features in {CNN}s},
  author={Md Amirul Islam and Matthew Kowal and Patrick Esser and Sen Jia and Bj{\\"o}rn Ommer and Konstantinos G. Derpanis and Neil Bruce},
  booktitle={International Conference on Learning Representations},
  year={2021},
  url={https://openreview.net/forum?id=NcFEZOi-rLa}
}"""

STIMULUS_SET = "Islam2021"
STIMULUS_SETS = {STIMULUS_SET: brainio_stimuli(STIMULUS_SET, "93ab0f6386d8d5fb56640da45980a819c7dd6efc",
                                               "e55b673117a472f463e0705ac3e330ef8dfd938b")}

REGIONS = ("V1", "V2", "V4", "IT")
FACTORS = ("shape", "texture")
#: identifier suffix -> region, in Brain-Score's registry order (benchmarks/islam2021/__init__.py)
METRIC_REGIONS = tuple((f"{factor}_{region.lower()}_dimensionality", region)
                       for region in REGIONS for factor in FACTORS)


class Islam2021Dimensionality(CustomBenchmark):
    """The share of a layer's dimensions that encodes one factor (shape or texture) of the Islam2021 images."""

    family = "Islam2021"
    data = "Islam2021"
    regions = REGIONS
    metric = METRIC_REGIONS[0][0]
    version = 1
    parent = "Islam2021"
    bibtex = BIBTEX
    normalisation = "none"  # Brain-Score returns the metric's value; its ceiling Score(1) is never applied

    def __init__(self, factor: str = "shape"):
        if factor not in FACTORS:
            raise ValueError(f"factor must be one of {FACTORS}, got {factor!r}")
        self.factor = factor

    def for_metric(self, metric):
        return Islam2021Dimensionality(metric.split("_", 1)[0])

    def ceiling(self, trials):
        return {"ceiling": 1.0, "error": 0.0}

    def compare(self, activations, target):
        from brainpipe.neural.dimensionality import factor_pairs, layer_dimensionality, too_few_units

        factors, first, second = factor_pairs(target["texture"].values, target["shape"].values,
                                              target["original_image_id"].values)
        layer = activations.transpose("presentation", ...)
        values = layer.values.reshape(layer.sizes["presentation"], -1)
        reason = too_few_units(values.shape[1], first, second)
        if reason:  # Brain-Score raises; a grid gets a null score saying why (a narrow layer, e.g. a small model's)
            return {"raw": float("nan"), "reason": reason}
        return {"raw": float(layer_dimensionality(values, first, second, factors)[self.factor])}


FAMILIES = [
    Family(name="Islam2021", dataset="Islam2021", stimulus_set=STIMULUS_SET, regions=REGIONS, visual_degrees=8,
           stratification=None, time_window=(70, 170), number_of_trials=1, source="stimuli",
           region_in_identifier=False, metric_regions=METRIC_REGIONS, ceiling="custom",
           plugin=Islam2021Dimensionality(), parent="Islam2021", version=1,
           notes="21,845 stylized VOC images (20 shapes × 5 textures); no recordings: the share of a layer's "
                 "dimensions encoding shape or texture (score = raw)",
           bibtex=BIBTEX, sources=SOURCES),
]
