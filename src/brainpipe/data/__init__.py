"""Data: what a benchmark is measured on, from the download to the files a stage reads.

* ``catalog.py``: where Brain-Score's data live (object names, sha1s, local files, mirrors);
* ``download.py``: HTTPS/file downloads into the cache with sha1 checks, and :class:`FetchError`;
* ``archives.py``: safe, bounded extraction of a stimulus zip;
* ``brainio.py``: Brain-Score's BrainIO files read: a stimulus set (CSV + zip) written as a stimulus-set folder, an
  assembly loaded with its stimulus metadata;
* ``stimuli.py``: the stimulus-set folder (``stimuli.csv`` + images) and image loading;
* ``screen.py``: placing stimuli on screen at a model's visual angle (the place_on_screen stage);
* ``assembly.py``: region selection, time windows and repetition averaging (the prepare_assembly stage);
* ``demo.py``: the simulated SyntheticShapes data set of the offline demo.

May import: :mod:`brainpipe.io`. Never benchmarks, models, neural, behaviour or pipeline.
"""
