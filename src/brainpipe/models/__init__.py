"""Models: from a model_zoo entry (or a network or BrainModel of the session) to activations on disk.

* ``model_sources.py``: where a network comes from (torchvision, ``timm/<name>``, your own code, a BrainModel
  class, ``pixels``), its weights (URL + hash, local files) and its definition's fingerprint;
* ``preprocessing.py``: the image transform (Brain-Score's by default);
* ``brain_model.py``: the activations model every source is run through, and the BrainModel adapter;
* ``activations.py``: the activations stage (decode workers, one forward pass, one NetCDF per layer);
* ``devices.py``: which torch device a job uses; ``_torchvision.py``: the op-schema guard the pinned wheels need.

May import: :mod:`brainpipe.data`, :mod:`brainpipe.io`. Never benchmarks, neural, behaviour or pipeline.
"""
