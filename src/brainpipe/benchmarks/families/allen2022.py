"""Allen2022 (Natural Scenes Dataset): human 7T fMRI responses to the NSD shared images in V1, V2, V4 and IT, in
volumetric voxels (``Allen2022_fmri``) and on the fsaverage surface (``Allen2022_fmri_surface``), each for all eight
subjects (515 images: 412 train + 103 test) and for the four subjects 1, 2, 5, 7 who saw all 1000 (800 + 200).

Constants: brain-score/vision brainscore_vision/benchmarks/allen2022_fmri/benchmark.py and
benchmarks/allen2022_fmri_surface/benchmark.py (VISUAL_DEGREES 8.4, one trial, version 1, parent the region;
voxels with ``nc_testset`` > 30 (NOISE_CEILING_THRESHOLD 0.3 × 100); the region's voxels; the one time bin).
Data: brain-score/vision brainscore_vision/data/allen2022_fmri/__init__.py and data/allen2022_fmri_surface/
__init__.py (object names, sha1s, S3 version ids; the surface assemblies reuse the volumetric stimulus sets), the
files lying under ``brainscore-vision/benchmarks/Allen2022/`` of Brain-Score's bucket, not in its brainio folder.
Formats: data/allen2022_fmri/data_packaging/package_allen2022fmri.py and notebooks/volumetric/
03a_nsd_packaging_prep.ipynb (train: one globally z-scored response per image; test: three repetitions per image
with a ``repetition`` coordinate; neuroid coordinates neuroid_id, subject, region, nc_testset, voxel_x/y/z).

Brain-Score keeps the data in two files per variant, a train and a test assembly (``TrainTestNeuralBenchmark``,
benchmark_helpers/neural_common.py). brainpipe joins them (``Family.train_test.files``) into one assembly with a ``split``
presentation coordinate and their stimuli into one set, so the model sees every image once:

* ``<variant>.<region>-ridge``: ``dual_ridge_split`` (ridge, alpha 1, in its dual form: the same predictions as
  scikit-learn's Ridge) fitted on the train images, Pearson r per voxel on the repetition-averaged test images,
  fitted and scored per subject (``alpha_coord='subject'``): per subject the median r over its voxels, squared,
  over the subject's own ceiling (the mean over the ten split halves of the median of its voxels' split-half
  consistencies), then averaged over subjects; the raw score is the subjects' mean median r and the reported
  ceiling the internal consistency over all voxels of the test repetitions.
* ``<variant>.<region>-rdm``: ``RSABenchmark`` on all images (train and repetition-averaged test together): one RDM
  per subject, Spearman with the model's RDM, averaged, over ``RSACeiling`` (each subject's RDM against the mean of
  all subjects' RDMs).

Brain-Score places these under the region and gives them no dataset-level node; brainpipe does the same. As for
any data set scored with several metrics, brainpipe's regional means count the first listed of them
(brainpipe.pipeline.report.repeated_recordings).
"""

from dataclasses import replace

from ..base import Family, TrainTest
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/allen2022_fmri/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/allen2022_fmri_surface/benchmark.py",
           "brain-score/vision brainscore_vision/data/allen2022_fmri/__init__.py",
           "brain-score/vision brainscore_vision/data/allen2022_fmri_surface/__init__.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py")

BIBTEX = """@article{allen_massive_2022,
    title = {A massive 7T fMRI dataset to bridge cognitive neuroscience and artificial intelligence},
    volume = {25},
    issn = {1097-6256},
    doi = {10.1038/s41593-021-00962-x},
    journal = {Nature Neuroscience},
    author = {Allen, Emily J. and St-Yves, Ghislain and Wu, Yihan and Breedlove, Jesse L.
              and Prince, Jacob S. and Dowdle, Logan T. and Nau, Matthias and Caron, Brad
              and Pestilli, Franco and Charest, Ian and Hutchinson, J. Benjamin
              and Naselaris, Thomas and Kay, Kendrick},
    year = {2022},
    pages = {116--126},
}"""

VISUAL_DEGREES = 8.4               # NSD: 8.4 × 8.4° square aperture
NOISE_CEILING_THRESHOLD = 0.3 * 100  # nc_testset is stored in percent; voxels at or below are dropped
REGIONS = ("V1", "V2", "V4", "IT")

#: Brain-Score's bucket folders (data plugins' ``_BUCKET``), as HTTPS URLs (core s3.py).
VOLUME = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Allen2022/Allen2022_fmri/"
SURFACE = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Allen2022/Allen2022_fmri_surface/"


def _file(folder, name, sha1, version_id):
    """An object of an Allen2022 folder at the S3 version Brain-Score pins (the sha1 is checked after download)."""
    return RemoteFile(name, sha1, url=f"{folder}{name}?versionId={version_id}")


def _stimuli(identifier, csv_sha1, zip_sha1, csv_version, zip_version):
    return StimulusSetEntry(identifier, _file(VOLUME, f"stimulus_{identifier}.csv", csv_sha1, csv_version),
                            _file(VOLUME, f"stimulus_{identifier}.zip", zip_sha1, zip_version))


def _assembly(folder, identifier, sha1, version, stimulus_set):
    return AssemblyEntry(identifier, _file(folder, f"assy_{identifier}.nc", sha1, version), stimulus_set)


STIMULUS_SETS = {
    "Allen2022_fMRI_train_Stimuli": _stimuli("Allen2022_fMRI_train_Stimuli", "b9119b9c430877ad2e0786888e0bb66fa50529c7",
                                             "158c4813355b10fa05130b070b7c45056d7cd5d6",
                                             "EoSt2r7Gzpj_K84RT8hVCbl0zoP3I3FK", "sasKQwanv3iv8GgoM10JkwqbD1UKMFpj"),
    "Allen2022_fMRI_test_Stimuli": _stimuli("Allen2022_fMRI_test_Stimuli", "cfb0ae15fd841f660d4f9d77f2a13213a01f2078",
                                            "980f66d404f0bfbc898ffd8b299e9f9dd7211a9e",
                                            "FW75Q.eWtrETXk8B006W85G653J52F1K", "km7bSBf3iKc2F2p4BD4OB4z9UORIGQRf"),
    "Allen2022_fMRI_4subj_train_Stimuli": _stimuli("Allen2022_fMRI_4subj_train_Stimuli",
                                                   "c4037d0c6ba9bf69ecfb2571bee8d3b494b12d14",
                                                   "c1547e3747c4963a77db23184a70a195d2ccb92d",
                                                   "WoseNY.dEQJ4u7GEWPQGgCsqyCDOLJqg",
                                                   "cWHAMDTXkmhGH0NdaVldk437p16fbrTg"),
    "Allen2022_fMRI_4subj_test_Stimuli": _stimuli("Allen2022_fMRI_4subj_test_Stimuli",
                                                  "4259c8ddffed135dc73d0968aaeff66046355250",
                                                  "c489db0d7f0ec823ca28ecc53a7c25123fe851dd",
                                                  "ElpofOBBOnY_RAD6yIxwmbOMQiQTgcV_",
                                                  "W00CwAFvSofEdQSAkGtTZcCMQt8oLo7G"),
}

_TRAIN, _TEST = "Allen2022_fMRI_train_Stimuli", "Allen2022_fMRI_test_Stimuli"
_TRAIN4, _TEST4 = "Allen2022_fMRI_4subj_train_Stimuli", "Allen2022_fMRI_4subj_test_Stimuli"

#: registry key (Brain-Score's data_registry key) -> the file and the stimulus set it refers to
ASSEMBLIES = {
    "Allen2022_fmri_train": _assembly(VOLUME, "Allen2022_fMRI_train_Assembly", "5919ec2838f69bfb5d87e16f197868550713cde0",
                                      "ZAHUcNkJV4zvRCJfrXbjqmVM9OgyQVE2", _TRAIN),
    "Allen2022_fmri_test": _assembly(VOLUME, "Allen2022_fMRI_test_Assembly", "3203ab79d48fab9b6e31f9d2a6301a11c512a0e9",
                                     "27mm9BVBp_nyq6zlrywUtcR_TxePQCid", _TEST),
    "Allen2022_fmri_4subj_train": _assembly(VOLUME, "Allen2022_fMRI_4subj_train_Assembly",
                                            "db4493972a0fcc36757b9decda1173e9b9ab7a09",
                                            "Dn4FwRGPUCmRmvt6ybn501DkLU.PmT42", _TRAIN4),
    "Allen2022_fmri_4subj_test": _assembly(VOLUME, "Allen2022_fMRI_4subj_test_Assembly",
                                           "8b1a5e6378eff6a7499f6cb1ab0e3806d567bb4e",
                                           "opZA1Oyvx9sQWTCfQdC9djv7Be0p8WzJ", _TEST4),
    "Allen2022_fmri_surface_train": _assembly(SURFACE, "Allen2022_fMRI_surface_train_Assembly",
                                              "67241ed5a84d8e7ae77f8c8d72e7219508fb9d7e",
                                              "Ug1qir_TigXWwBuoamnDHj1r1Ca5FlEM", _TRAIN),
    "Allen2022_fmri_surface_test": _assembly(SURFACE, "Allen2022_fMRI_surface_test_Assembly",
                                             "8b4fcc132b5c1e81bb61e38ca51875a98619066b",
                                             "XwzoT6lBFvUnn9l6WnD9GPPw_PafqAQ9", _TEST),
    "Allen2022_fmri_surface_4subj_train": _assembly(SURFACE, "Allen2022_fMRI_surface_4subj_train_Assembly",
                                                    "5c1e7ab2d1444c140028599f8a30aeae34297c87",
                                                    "SiHRp_P1RPH6BB4XJbRz4GPiYD4jxIJJ", _TRAIN4),
    "Allen2022_fmri_surface_4subj_test": _assembly(SURFACE, "Allen2022_fMRI_surface_4subj_test_Assembly",
                                                   "1f8524de28ad6cd3a89feddcfb82d9ab67dd9656",
                                                   "kzuIe9w5y7AfuajgzUD1SYosbBs0tC69", _TEST4),
}

#: The joined stimulus sets (train then test images, one folder): what the model sees.
JOINED_STIMULI = {"8subj": "Allen2022_fMRI_Stimuli", "4subj": "Allen2022_fMRI_4subj_Stimuli"}

_FAMILY = Family(
    name="Allen2022_fmri", dataset="Allen2022_fmri", stimulus_set=JOINED_STIMULI["8subj"], regions=REGIONS,
    visual_degrees=VISUAL_DEGREES, stratification=None, number_of_trials=1,
    neuroid_filter=(("nc_testset", NOISE_CEILING_THRESHOLD),), subject_coord="subject",
    train_test=TrainTest(files=(("train", "Allen2022_fmri_train"), ("test", "Allen2022_fmri_test")),
                         score_per="subject"),
    allowed_metrics=("ridge", "rdm"),
    notes="NSD shared images, 8 subjects: 412 train + 103 test (3 repetitions); voxels with nc_testset > 30; "
          "ridge fitted and ceiled per subject",
    version=1, bibtex=BIBTEX, sources=SOURCES)


def _variant(name, subjects, surface):
    prefix = "Allen2022_fmri_surface" if surface else "Allen2022_fmri"
    key = prefix + ("_4subj" if subjects == 4 else "")
    images = "800 train + 200 test" if subjects == 4 else "412 train + 103 test"
    return replace(_FAMILY, name=name, dataset=key,
                   stimulus_set=JOINED_STIMULI["4subj" if subjects == 4 else "8subj"],
                   train_test=replace(_FAMILY.train_test, files=(("train", f"{key}_train"), ("test", f"{key}_test"))),
                   notes=f"NSD shared images, {'subjects 1, 2, 5, 7' if subjects == 4 else '8 subjects'}"
                         f"{', fsaverage surface vertices' if surface else ', volumetric voxels'}: {images} "
                         f"(3 repetitions); nc_testset > 30; ridge fitted and ceiled per subject")


FAMILIES = [
    _variant("Allen2022_fmri", 8, surface=False),
    _variant("Allen2022_fmri_4subj", 4, surface=False),
    _variant("Allen2022_fmri_surface", 8, surface=True),
    _variant("Allen2022_fmri_surface_4subj", 4, surface=True),
]
