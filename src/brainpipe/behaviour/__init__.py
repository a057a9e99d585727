"""Behaviour: BrainModel tasks (label, probabilities, odd_one_out), behavioural metrics with their ceilings,
ceiling normalisation, the behavioural data catalog, and simulated behaviour for the offline demo.

Pure library code (numpy, scipy, scikit-learn, xarray); the workflow rules and benchmark registry build on it.
Definitions follow brain-score/vision (metrics/i1i2, error_consistency, accuracy, accuracy_distance,
value_delta; model_helpers/brain_transformation/behavior.py; benchmarks/rajalingham2018, geirhos2021,
hebart2023, ferguson2024).

May import: :mod:`brainpipe.data` (fetch), :mod:`brainpipe.neural`, :mod:`brainpipe.io`. Never benchmarks, models
or pipeline.
"""
