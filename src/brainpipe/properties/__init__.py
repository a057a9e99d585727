"""Single-neuron properties: what a unit's responses to gratings or textures say about it, and how similar a model's
distribution of one property is to a recorded one (Brain-Score's PropertiesBenchmark pattern, the Marques2020 V1
benchmarks).

* ``ks_similarity.py``: 1 − KS/KS_max between two binned distributions and its bootstrap over model units
  (the metric), with the documented seed;
* ``ceiling.py``: the neuronal property ceiling (the metric of the data with itself) and the ceiled score;
* ``table.py``: :class:`PropertyTable`, one row per unit, one column per property, with the response-threshold
  filter applied on request;
* ``stimulus_grid.py``: stimulus metadata → the nested grid of grating (or texture) parameters, checked, and the
  responses reshaped onto it;
* ``neurons.py``: model units → "neurons": receptive-field mapping, the in-RF filter, the affine map to firing
  rates and rectification;
* property computations, one module per concern, each with the tuning-curve measures and the property sets of
  the experiments that use them: ``orientation.py`` (Ringach2002, DeValois1982a), ``spatial_frequency.py``
  (DeValois1982b, Schiller1976), ``surround.py`` (Cavanaugh2002), ``texture.py`` (FreemanZiemba2013).

Everything is a function of numpy arrays (units × stimuli responses, one value per unit of the blank response, the
stimuli's parameters as columns), so stages and tests call it without a model.

May import: :mod:`brainpipe.neural`, :mod:`brainpipe.models`, :mod:`brainpipe.data`, :mod:`brainpipe.io` (it needs
none of them today). Never benchmarks or pipeline: those import this package.
"""
