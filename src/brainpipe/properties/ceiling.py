"""The ceiling of a properties benchmark and the ceiled score.

Source: brain-score/vision brainscore_vision/metrics/distribution_similarity/metric.py (``NeuronalPropertyCeiling``):
the bootstrapped similarity of the data's distribution with itself, i.e. :func:`bootstrap_similarity` with the
recorded values as both the model and the data (1000 samples of n_neurons drawn from the neurons, NaN rows
included in the draws). Its ``error`` is that bootstrap's standard deviation.

Ceiled score: brain-score/vision brainscore_vision/benchmarks/__init__.py (``ceil_score``): raw / ceiling, no
clipping, the error is the raw score's.

Randomness: Brain-Score's benchmark scores the model first and then computes the ceiling, both from numpy's global
RNG; :func:`ceiled_property_score` does the same with one RandomState (see ks_similarity.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .ks_similarity import N_SAMPLES, Similarity, as_random_state, bootstrap_similarity


def neuronal_property_ceiling(data_values, bins, *, n_samples: int = N_SAMPLES, rng=None,
                              property_name: str = "property") -> Similarity:
    """The data's similarity with itself (score = ceiling, error = its bootstrap std)."""
    return bootstrap_similarity(data_values, data_values, bins, n_samples=n_samples, rng=rng,
                                property_name=property_name)


@dataclass(frozen=True, eq=False)
class CeiledScore:
    """``score`` = raw / ceiling; ``error`` = the raw score's error; ``raw`` and ``ceiling`` as computed."""

    score: float
    error: float
    raw: Similarity
    ceiling: Similarity


def ceil(raw: Similarity, ceiling: Similarity) -> CeiledScore:
    """Brain-Score's ``ceil_score`` for a properties benchmark: raw / ceiling, error of the raw score."""
    return CeiledScore(score=raw.score / ceiling.score, error=raw.error, raw=raw, ceiling=ceiling)


def ceiled_property_score(model_values, data_values, bins, *, n_samples: int = N_SAMPLES, rng=None,
                          property_name: str = "property") -> CeiledScore:
    """Raw similarity, then the ceiling, from one RandomState (the order of Brain-Score's PropertiesBenchmark)."""
    state = as_random_state(rng)
    raw = bootstrap_similarity(model_values, data_values, bins, n_samples=n_samples, rng=state,
                               property_name=property_name)
    ceiling = neuronal_property_ceiling(data_values, bins, n_samples=n_samples, rng=state,
                                        property_name=property_name)
    return ceil(raw, ceiling)
