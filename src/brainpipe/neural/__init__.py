"""Neural metrics: comparing model activations with recordings, one cross-validation fold at a time.

* ``metric_names.py``: the metric suffixes of identifiers, by kind (regression, split, representational, temporal);
* ``metrics.py``: one fold of a metric (the fit_fold stage) and the layer's Gram matrix (the gram stage);
* ``regression.py``, ``gram_fit.py``: PLS, ridge, ridgecv, linear, neuron-to-neuron fits (from the Gram matrix
  where they can be);
* ``representational.py``: RDM and CKA similarities and their ceilings;
* ``ceiling.py``: split-half internal consistency (the ceiling stage); ``splits.py``: the CV splits;
  ``stats.py``: Pearson, Spearman-Brown, SEM;
* ``ost.py``: object solution times (Kar2019-ost's metric) on time-resolved features, with its softmax read-out
  (Brain-Score's TensorFlow classifier, in numpy) in ``ost_classifier.py``.

May import: :mod:`brainpipe.models` (devices), :mod:`brainpipe.io`. Never benchmarks, behaviour or pipeline:
a fold reads what it needs of a benchmark through :class:`brainpipe.neural.metrics.FoldBenchmark`.
"""
