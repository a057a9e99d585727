"""The behavioural metrics and their ceilings in one place (one module per metric behind it).

| metric              | module               | ceiling                                   | upstream (brain-score/vision)              |
|---------------------|----------------------|-------------------------------------------|--------------------------------------------|
| accuracy            | accuracy.py          | 1 (fixed)                                 | metrics/accuracy/metric.py                 |
| accuracy_distance   | accuracy.py          | subject pairs                             | metrics/accuracy_distance/metric.py        |
| error_consistency   | error_consistency.py | subject pairs × condition                 | metrics/error_consistency/metric.py        |
| i1, i2n             | i1i2.py              | split-half, per split, no Spearman–Brown  | metrics/i1i2/metric.py                     |
| value_delta         | value_delta.py       | split-half (or the benchmark's number)    | metrics/value_delta/metric.py              |
| odd_one_out_match   | odd_one_out.py       | none: the benchmark declares a number     | benchmarks/hebart2023/benchmark.py         |
| shape_match, shape_bias | shape_bias.py    | 1 (fixed, never applied upstream)         | benchmarks/hermann2020/benchmark.py        |
| accuracy_delta      | accuracy_delta.py    | subject halves, Spearman–Brown, median    | metrics/baker_accuracy_delta/metric.py     |
| confusion_similarity, tasks_consistency | confusion.py | none: the benchmark declares a number | metrics/maniquet2024_metrics/metric.py |
"""

from ._common import Result
from .accuracy import accuracy, accuracy_distance, accuracy_distance_ceiling
from .error_consistency import cohens_kappa, error_consistency, error_consistency_ceiling
from .i1i2 import i1, i1_ceiling, i2n, i2n_ceiling
from .normalise import KINDS, normalise
from .odd_one_out import CHANCE, odd_one_out_ceiling, odd_one_out_match
from .shape_bias import shape_bias, shape_match, texture_match
from .accuracy_delta import accuracy_delta, accuracy_delta_ceiling
from .confusion import confusion_similarity, tasks_consistency
from .value_delta import integral, model_choices, value_delta, value_delta_ceiling

CEILINGS = {
    "accuracy": lambda *_, **__: Result(1.0),
    "accuracy_distance": accuracy_distance_ceiling,
    "error_consistency": error_consistency_ceiling,
    "i1": i1_ceiling,
    "i2n": i2n_ceiling,
    "value_delta": value_delta_ceiling,
    "odd_one_out_match": odd_one_out_ceiling,
    "shape_match": lambda *_, **__: Result(1.0),
    "shape_bias": lambda *_, **__: Result(1.0),
    "accuracy_delta": accuracy_delta_ceiling,
}


def ceiling(metric: str, *args, **kwargs) -> Result:
    """The ceiling of ``metric`` computed from the human data (``ceiling('i2n', assembly, skipna=True)``)."""
    if metric not in CEILINGS:
        raise ValueError(f"no ceiling for metric {metric!r}; known: {', '.join(sorted(CEILINGS))}")
    return CEILINGS[metric](*args, **kwargs)


__all__ = ["Result", "accuracy", "accuracy_distance", "accuracy_distance_ceiling", "cohens_kappa",
           "error_consistency", "error_consistency_ceiling", "i1", "i1_ceiling", "i2n", "i2n_ceiling",
           "normalise", "KINDS", "odd_one_out_match", "odd_one_out_ceiling", "CHANCE", "value_delta",
           "value_delta_ceiling", "integral", "model_choices", "ceiling", "CEILINGS", "shape_bias", "shape_match",
           "texture_match", "accuracy_delta", "accuracy_delta_ceiling", "confusion_similarity", "tasks_consistency"]
