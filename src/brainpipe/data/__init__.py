"""Data: what a benchmark is measured on, from the download to the files a stage reads.

* ``catalog.py``: where Brain-Score's data live (object names, sha1s, local files, mirrors);
* ``fetch.py``: HTTPS/file downloads with sha1 checks, bounded zip extraction, BrainIO assembly loading;
* ``stimuli.py``: the stimulus-set folder (``stimuli.csv`` + images) and image loading;
* ``screen.py``: placing stimuli on screen at a model's visual angle (the place_on_screen stage);
* ``assembly.py``: region selection, time windows and repetition averaging (the prepare_assembly stage);
* ``demo.py``: the simulated SyntheticShapes data set of the offline demo.

May import: :mod:`brainpipe.io`. Never benchmarks, models, neural, behaviour or pipeline.
"""
