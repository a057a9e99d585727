"""The neural metrics brainpipe computes, by kind: the metric suffix of a benchmark identifier
(``<Family>.<region>-pls``). Benchmark definitions check identifiers against these; the fold runner dispatches on
them."""

REGRESSION_METRICS = ("pls", "ridge", "ridgecv", "linear", "neuron_to_neuron")
FIXED_TRAIN_TEST_METRICS = tuple(f"{m}_split" for m in REGRESSION_METRICS)  # fixed train/test split, no CV
REPRESENTATIONAL_METRICS = ("rdm", "rdm_cv", "cka", "cka_biased", "cka_cv")
TEMPORAL_METRICS = ("spantime_pls", "spantime_ridge")
# Reverse predictivity (brain-score/vision metrics/regression_correlation/metric.py ReverseCrossRegressedCorrelation):
# the recordings predict the model's units. Offered only by families that list it in allowed_metrics.
REVERSE_METRICS = ("reverse_pls",)
# Brain-Score's mask regression (metrics/mask_regression: a factorised spatial mask × feature readout fitted by
# Adam on a conv layer's (channel, x, y) grid; brainpipe.neural.mask_regression). Opt-in like reverse_pls.
MASK_METRICS = ("mask",)
