"""Papale2025 (THINGS ventral stream spiking dataset, TVSD): normalised multi-unit activity of two macaques'
Utah-array electrodes in V1, V4 and IT to 22248 THINGS images (train, one presentation each) and 100 images
(test, thirty repetitions each): ``Papale2025.<region>-ridge`` and ``-ridgecv``.

As brain-score/vision brainscore_vision/benchmarks/papale2025/benchmark.py computes it (``_Papale2025``, a
``TrainTestNeuralBenchmark`` of benchmark_helpers/neural_common.py), the same design as Hebart2023_fmri
(:mod:`brainpipe.benchmarks.families.hebart2023_fmri`, brainpipe.neural.train_test):

* electrodes with ``reliability > 0.3`` (RELIABILITY_THRESHOLD, ``filter_reliable_neuroids``) of the region, the one
  70–170 ms bin; train recordings as they are, test recordings averaged over their repetitions, the unaveraged test
  trials for the internal-consistency ceiling;
* ``ridge_split`` (``Ridge(alpha=1)``) or ``ridgecv_split`` (``RidgeCV(ALPHA_LIST)``) fitted on the train images and
  scored on the test images separately for each ``subject`` (monkeyF, monkeyN), each ceiled by its own ceiling,
  averaged;
* VISUAL_DEGREES 18 (a compromise between the two monkeys' 17.3° and 18.6°), one trial, version 3, parent the
  region, the benchmark's BIBTEX.

Data: brain-score/vision brainscore_vision/data/papale2025/__init__.py (object names, sha1s, S3 versions); the files
lie under ``brainscore-vision/benchmarks/Papale2025/`` of Brain-Score's bucket. As for Hebart2023_fmri the THINGS
images are licensed (data/papale2025/data_packaging/get_local_stimuli.py builds the stimulus files locally): point
``data.local_files`` at them.
"""

from ..base import Family, TrainTest
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/papale2025/benchmark.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py",
           "brain-score/vision brainscore_vision/data/papale2025/__init__.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{papale_extensive_2025,
	title = {An extensive dataset of spiking activity to reveal the syntax of the ventral stream},
	volume = {113},
	issn = {08966273},
	url = {https://linkinghub.elsevier.com/retrieve/pii/S089662732400881X},
	doi = {10.1016/j.neuron.2024.12.003},
	journal = {Neuron},
	author = {Papale, Paolo and Wang, Feng and Self, Matthew W. and Roelfsema, Pieter R.},
	year = {2025},
}"""

#: Brain-Score's bucket folder for Papale2025 (data/papale2025/__init__.py ``bucket``), as an HTTPS URL.
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Papale2025/"

#: benchmark.py RELIABILITY_THRESHOLD: electrodes whose ``reliability`` exceeds it are scored.
RELIABILITY_THRESHOLD = 0.3


def _file(name, sha1, version_id):
    """An object of the folder at the S3 version Brain-Score pins (the sha1 is checked after download)."""
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version_id}")


ASSEMBLIES = {
    "Papale2025_train": AssemblyEntry(
        "THINGS_TVSD_train_Assembly",
        _file("assy_THINGS_TVSD_train_Assembly.nc", "97e3e9ed2280441a30fa5c33e8537db1b45a9da8",
              "q3sE0RZ5Fuq0C6vTVIiF48AsvG40.b7l"), "THINGS_TVSD_train_Stimuli"),
    "Papale2025_test": AssemblyEntry(
        "THINGS_TVSD_test_Assembly",
        _file("assy_THINGS_TVSD_test_Assembly.nc", "685025f67e90006e775ac153e8e0007e35b62bbc",
              "XK0CVCAzfHNOrKgmNrLqFfwvs_gSWKb."), "THINGS_TVSD_test_Stimuli"),
}
STIMULUS_SETS = {
    "THINGS_TVSD_train_Stimuli": StimulusSetEntry(
        "THINGS_TVSD_train_Stimuli",
        _file("stimulus_THINGS_TVSD_train_Stimuli.csv", "4a094a7e4c2408abc333ba610215a7c30277d904",
              "kCt7PZx9jxXDrRhyow9y8hDUUDFAAp._"),
        _file("stimulus_THINGS_TVSD_train_Stimuli.zip", "0a97a7952097800207a23fe73281c256dfc90902",
              "S.DCjiAaGQ6PjCUs4QugwsHaZa9YiEuV")),
    "THINGS_TVSD_test_Stimuli": StimulusSetEntry(
        "THINGS_TVSD_test_Stimuli",
        _file("stimulus_THINGS_TVSD_test_Stimuli.csv", "b08c1c560f008cf3fb2982c22c881ea8ffce0410",
              "gEGUgT7PJB8z3roRkTiJ6zriSuehd2DI"),
        _file("stimulus_THINGS_TVSD_test_Stimuli.zip", "dfd6e8769414505afbf51de3ab207cb7a3cf49d6",
              "AGNDfuS5nyIjTuXrM4hWFze.sWM9py2Z")),
}

FAMILIES = [
    Family(name="Papale2025", dataset="Papale2025_test", stimulus_set="THINGS_TVSD_test_Stimuli",
           train_test=TrainTest("Papale2025_train", "THINGS_TVSD_train_Stimuli"),
           regions=("V1", "V4", "IT"), visual_degrees=18, stratification=None, time_window=(70, 170),
           number_of_trials=1, neuroid_filter=(("reliability", RELIABILITY_THRESHOLD),), subject_coord="subject",
           allowed_metrics=("ridge", "ridgecv"),
           notes="THINGS TVSD multi-unit activity of 2 macaques: fitted on 22248 train images, scored on 100 test "
                 "images (30 repetitions); electrodes with reliability > 0.3; one mapping and ceiling per monkey; "
                 "the THINGS images are licensed: build the stimulus files locally (Brain-Score's "
                 "get_local_stimuli.py)",
           version=3, bibtex=BIBTEX, sources=SOURCES),
]
