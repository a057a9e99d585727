"""Gifford2022 (THINGS EEG2): ten human subjects' 17 occipital and parietal EEG electrodes, 16540 THINGS images
(train, four repetitions each) and 200 images (test, eighty repetitions each): ``Gifford2022.IT-ridge`` and
``-ridgecv``.

As brain-score/vision brainscore_vision/benchmarks/gifford2022/benchmark.py computes it (``_Gifford2022``, a
``TrainTestNeuralBenchmark`` of benchmark_helpers/neural_common.py), the design of Hebart2023_fmri
(:mod:`brainpipe.benchmarks.families.hebart2023_fmri`, brainpipe.neural.train_test) on time points instead of voxels:

* the time points starting 0–0.59 s after onset (``sel(time_bin=slice(0, 0.59))``, 60 of them), each electrode ×
  time point a neuroid of its own (``flatten_timebins_into_neuroids``; brainpipe.data.time_points), all of them
  ``IT`` (Brain-Score: "EEG data is mapped to IT for now"); every electrode scored (no reliability selection);
* train and test recordings both averaged over their repetitions; the unaveraged test trials for the
  internal-consistency ceiling;
* ``ridge_split`` (``Ridge(alpha=1)``) or ``ridgecv_split`` with the benchmark's REDUCED_ALPHA_LIST (23 alphas, for
  speed: 1020 neuroids per subject), fitted on the train images and scored on the test images for each
  ``subject`` separately, each ceiled by its own ceiling, averaged;
* VISUAL_DEGREES 7, one trial, version 3, parent the region, the benchmark's BIBTEX.

Data: brain-score/vision brainscore_vision/data/gifford2022/__init__.py (object names, sha1s, S3 versions) and
data_packaging/package_gifford2022.py (the file: presentation × neuroid × time_bin, 100 time points from -0.2 s,
``time_bin_start``/``time_bin_end`` in seconds, per-neuroid ``subject``, ``neuroid_id``, ``channel``, no ``region``:
added on load as Brain-Score's benchmark does). The THINGS images are licensed (data_packaging/
get_local_stimuli.py builds the stimulus files locally): point ``data.local_files`` at them.
"""

import numpy as np

from ..base import Family, TrainTest
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/gifford2022/benchmark.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py",
           "brain-score/vision brainscore_vision/data/gifford2022/__init__.py",
           "brain-score/vision brainscore_vision/data/gifford2022/data_packaging/package_gifford2022.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{gifford_large_2022,
	title = {A large and rich {EEG} dataset for modeling human visual object recognition},
	volume = {264},
	issn = {10538119},
	url = {https://linkinghub.elsevier.com/retrieve/pii/S1053811922008758},
	doi = {10.1016/j.neuroimage.2022.119754},
	journal = {NeuroImage},
	author = {Gifford, Alessandro T. and Dwivedi, Kshitij and Roig, Gemma and Cichy, Radoslaw M.},
	year = {2022},
}"""

#: benchmark.py REDUCED_ALPHA_LIST: the ridgecv alphas of this benchmark.
REDUCED_ALPHA_LIST = tuple(float(a) for a in [
    *[0.01, 0.1, 0.5, 1.0, 10, 50, 100, 500, 1000, 5000],
    *np.linspace(1e4, 1e5, 4, endpoint=False),
    *np.linspace(1e5, 1e6, 4, endpoint=False),
    *np.linspace(1e6, 1e7, 5)])

#: Brain-Score's bucket folder for Gifford2022 (data/gifford2022/__init__.py ``bucket``), as an HTTPS URL.
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Gifford2022/"


def _file(name, sha1, version_id):
    """An object of the folder at the S3 version Brain-Score pins (the sha1 is checked after download)."""
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version_id}")


ASSEMBLIES = {
    "Gifford2022_train": AssemblyEntry(
        "THINGS_EEG2_train_Assembly",
        _file("assy_THINGS_EEG2_train_Assembly.nc", "412002748b9fd4e61a279b4eb481964e9b309b5e",
              ".hWjA5kCrxTbX.0b4s56ABGtk5aVbBm."), "THINGS_EEG2_train_Stimuli"),
    "Gifford2022_test": AssemblyEntry(
        "THINGS_EEG2_test_Assembly",
        _file("assy_THINGS_EEG2_test_Assembly.nc", "8103ade9df6161566d885e9265ee62e0130b588b",
              "2kux2JDyRBvJD4Y3mjBW4hqytl8FX5SJ"), "THINGS_EEG2_test_Stimuli"),
}
STIMULUS_SETS = {
    "THINGS_EEG2_train_Stimuli": StimulusSetEntry(
        "THINGS_EEG2_train_Stimuli",
        _file("stimulus_THINGS_EEG2_train_Stimuli.csv", "a406afab99abca28b141bd4457daea8f3b001f75",
              "erlnWZh_o9Mk17tTx3id0Kq_G.2k4CRY"),
        _file("stimulus_THINGS_EEG2_train_Stimuli.zip", "a46d5476b3caef89b481bdf50c70ecd9cac28fa4",
              "T70I8pGBqcxt4bpdYfm0KU_iD67_3ryu")),
    "THINGS_EEG2_test_Stimuli": StimulusSetEntry(
        "THINGS_EEG2_test_Stimuli",
        _file("stimulus_THINGS_EEG2_test_Stimuli.csv", "f79dd731e36a9e5c1b62fc6518ff30c8d71df182",
              "QCHnkzt7S.8ik.kuMORgxTT24Y4QA3zs"),
        _file("stimulus_THINGS_EEG2_test_Stimuli.zip", "a1cdd468f02309dd805466219c019f1a7a2ffb44",
              "4rTsFRxCmXcq7hAo.CCQgGoFXMWOQoVB")),
}

FAMILIES = [
    Family(name="Gifford2022", dataset="Gifford2022_test", stimulus_set="THINGS_EEG2_test_Stimuli",
           train_test=TrainTest("Gifford2022_train", "THINGS_EEG2_train_Stimuli", alphas=REDUCED_ALPHA_LIST),
           regions=("IT",), visual_degrees=7, stratification=None, time_window=(0, 600),
           time_points=(0.0, 0.59, 60), coords=(("region", "=IT"),), number_of_trials=1, subject_coord="subject",
           allowed_metrics=("ridge", "ridgecv"),
           notes="THINGS EEG2 of 10 subjects, 17 electrodes × 60 time points (0–0.59 s) scored as IT neuroids: "
                 "fitted on 16540 train images (4 repetitions), scored on 200 test images (80 repetitions); one "
                 "mapping and ceiling per subject; the THINGS images are licensed: build the stimulus files "
                 "locally (Brain-Score's get_local_stimuli.py)",
           version=3, bibtex=BIBTEX, sources=SOURCES),
]
