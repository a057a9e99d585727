"""Hebart2023_fmri (THINGS-data fMRI): three human subjects' single-trial voxel responses in V1, V2, V4 and IT to
8640 THINGS images (train, one presentation each) and 100 images (test, twelve repetitions each):
``Hebart2023_fmri.<region>-ridge`` and ``-ridgecv``.

As brain-score/vision brainscore_vision/benchmarks/hebart2023_fmri/benchmark.py computes it (``_Hebart2023fmri``,
a ``TrainTestNeuralBenchmark`` of benchmark_helpers/neural_common.py):

* voxels with ``nc_testset > 30`` (NOISE_CEILING_THRESHOLD 0.3 × 100, ``filter_reliable_neuroids``) of the region,
  the one 70–170 ms time bin; the train recordings as they are (one presentation per image), the test recordings
  averaged over their repetitions, and the unaveraged test trials for the ceiling (internal consistency);
* the metric ``ridge_split`` (``Ridge(alpha=1)``) or ``ridgecv_split`` (``RidgeCV(ALPHA_LIST)``), fitted on the
  train images and scored (Pearson r per voxel) on the test images, separately for each ``subject``
  (``alpha_coord='subject'``): the subject's raw is its voxels' median r, ceiled by raw² over the subject's own
  ceiling; the score is the mean over subjects (brainpipe.neural.train_test);
* VISUAL_DEGREES 10, one trial, version 3, parent the region, the benchmark's BIBTEX.

Data: brain-score/vision brainscore_vision/data/hebart2023_fmri/__init__.py (object names, sha1s, S3 versions);
the files lie under ``brainscore-vision/benchmarks/Hebart2023_fmri/`` of Brain-Score's bucket. Brain-Score
publishes the recordings; the THINGS images are licensed and its stimulus archives are not downloadable
(data/hebart2023_fmri/data_packaging/get_local_stimuli.py packages them from the THINGS database): point
``data.local_files`` at the stimulus files you build that way.
"""

from ..base import Family, TrainTest
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/hebart2023_fmri/benchmark.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py",
           "brain-score/vision brainscore_vision/data/hebart2023_fmri/__init__.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{hebart_things-data_2023,
	title = {{THINGS}-data, a multimodal collection of large-scale datasets for investigating object representations in human brain and behavior},
	volume = {12},
	issn = {2050084X},
	doi = {10.7554/eLife.82580},
	journal = {eLife},
	author = {Hebart, M. N. and Contier, O. and Teichmann, L. and Rockter, A. H. and Zheng, C. Y. and Kidder, A. and Corriveau, A. and Vaziri-Pashkam, M. and Baker, C. I.},
	year = {2023},
	pmid = {36847339},
}"""

#: Brain-Score's bucket folder for Hebart2023_fmri (data/hebart2023_fmri/__init__.py ``bucket``), as an HTTPS URL.
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Hebart2023_fmri/"

#: benchmark.py NOISE_CEILING_THRESHOLD: voxels whose ``nc_testset`` (percent) exceeds it are scored.
NOISE_CEILING_THRESHOLD = 0.3 * 100


def _file(name, sha1, version_id):
    """An object of the folder at the S3 version Brain-Score pins (the sha1 is checked after download)."""
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version_id}")


ASSEMBLIES = {
    "Hebart2023_fmri_train": AssemblyEntry(
        "THINGS_fMRI_train_Assembly",
        _file("assy_THINGS_fMRI_train_Assembly.nc", "6d249e7cf4804ff78e9a38e482148cad74f90d19",
              "U.I.Wsn52bZKdNQ9Y_OdisvCfkgMG7Ab"), "THINGS_fMRI_train_Stimuli"),
    "Hebart2023_fmri_test": AssemblyEntry(
        "THINGS_fMRI_test_Assembly",
        _file("assy_THINGS_fMRI_test_Assembly.nc", "948bd3104fc8f0f0a15180f030666c74d69de2b3",
              "LksBmANKvDyfqkl0U5Dy33Q4VAHOO5g3"), "THINGS_fMRI_test_Stimuli"),
}
STIMULUS_SETS = {
    "THINGS_fMRI_train_Stimuli": StimulusSetEntry(
        "THINGS_fMRI_train_Stimuli",
        _file("stimulus_THINGS_fMRI_train_Stimuli.csv", "b424b1a55595a4666fbc140a5a801fcd184d1a44",
              "gioa1wYVzJVhnAOPJbj4q9ZdoCeWnUYX"),
        _file("stimulus_THINGS_fMRI_train_Stimuli.zip", "1c65c28c104e100e6e3fe2128656abe647e41bd9",
              "nRsfLuqfOMAoQ5qGWbKxKKW_WGtgGJGS")),
    "THINGS_fMRI_test_Stimuli": StimulusSetEntry(
        "THINGS_fMRI_test_Stimuli",
        _file("stimulus_THINGS_fMRI_test_Stimuli.csv", "0ef71c62210d0a0bf91cb2cd8f0e1404477e0e3a",
              "U6krcZSjVvO8sjPsTsGAaiOxw4Ozai1d"),
        _file("stimulus_THINGS_fMRI_test_Stimuli.zip", "41cd5a05fe9d5118b05fc6b35654e36ff021570d",
              "11dAYDGOdwzma61sIZ.u3weJ.x7qcwaN")),
}

FAMILIES = [
    Family(name="Hebart2023_fmri", dataset="Hebart2023_fmri_test", stimulus_set="THINGS_fMRI_test_Stimuli",
           train_test=TrainTest("Hebart2023_fmri_train", "THINGS_fMRI_train_Stimuli"),
           regions=("V1", "V2", "V4", "IT"), visual_degrees=10, stratification=None, time_window=(70, 170),
           number_of_trials=1, neuroid_filter=(("nc_testset", NOISE_CEILING_THRESHOLD),), subject_coord="subject",
           allowed_metrics=("ridge", "ridgecv"),
           notes="THINGS fMRI of 3 subjects: fitted on 8640 train images, scored on 100 test images (12 "
                 "repetitions); voxels with nc_testset > 30; one mapping and ceiling per subject; the THINGS images "
                 "are licensed: build the stimulus files locally (Brain-Score's get_local_stimuli.py)",
           version=3, bibtex=BIBTEX, sources=SOURCES),
]
