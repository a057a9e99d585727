"""Li2026 (Triple-N): macaque Neuropixels responses in V1, V2, V4 and IT to the 1000 NSD shared images, one mean
response per image in a fixed 70–170 ms window.

Constants: brain-score/vision brainscore_vision/benchmarks/li2026/benchmark.py (VISUAL_DEGREES 11,
NUMBER_OF_TRIALS 1, version 1, unstratified cross-validation, neuroids of the region with
``reliability_window > 0.4`` (RELIABILITY_THRESHOLD), no repetition averaging, and the ceiling
``_reliability_ceiling``: the median of the kept neuroids' ``reliability_window`` with a bootstrap error).
Data: brain-score/vision brainscore_vision/data/li2026/__init__.py (object names, sha1s, S3 versions, bibtex);
the files lie under ``brainscore-vision/benchmarks/Li2026/`` of Brain-Score's bucket, not in its brainio folder.
Brain-Score says the Li2026 prefix is not public: with access, point ``data.local_files`` at the files.

``Li2026.<region>-ridgecv``: Brain-Score fits it in the dual form (``dual_ridge_cv_regression``), which selects
the same alpha as sklearn's RidgeCV on the centred gram matrix and predicts the same values: brainpipe's
``ridgecv``. ``Li2026.<region>-rdm``: Brain-Score's RSABenchmark (benchmark_helpers/neural_common.py): one RDM per
animal (``subject_coord``), Spearman with the model's RDM, averaged; ceiled by raw / RSACeiling
(metrics/rsa_ceiling/ceiling.py: each animal's RDM against the mean of all animals' RDMs), not by the reliability
median. Not modelled yet: the leaderboard nesting Brain-Score gives these (ridgecv and rdm averaged into
``Li2026.<region>``, itself a child of the region; pls outside the scored tree). brainpipe's leaderboard puts them
under the region and, as for any data set scored with several metrics, counts only the first of them in the
grid's order in the region's mean (brainpipe.pipeline.report.repeated_recordings): list ``Li2026.<region>-ridgecv``
first for the closest aggregate.
"""

from ..base import Family
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/li2026/benchmark.py",
           "brain-score/vision brainscore_vision/data/li2026/__init__.py")

BIBTEX = """@article{li2026triplen,
    title = {Triple-N dataset: large-scale fMRI-guided dense recordings of nonhuman
             primate neural responses to natural scenes},
    author = {Li, Yipeng and Liu, Xieyi and Li, Wanru and Yang, Jia and Gong, Baoqi
              and Jin, Wei and Gong, Zhengxin and Wang, Kesheng and Luo, Jingqiu
              and Zhao, Zishuo and Bao, Pinglei},
    journal = {Nature Neuroscience},
    year = {2026},
    doi = {10.1038/s41593-026-02322-z},
    url = {https://doi.org/10.1038/s41593-026-02322-z},
}"""

#: Brain-Score's bucket folder for Li2026 (data/li2026/__init__.py ``_BUCKET``), as an HTTPS URL (core s3.py).
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/benchmarks/Li2026/"


def _file(name, sha1, version_id):
    """An object of the Li2026 folder at the S3 version Brain-Score pins (the sha1 is checked after download)."""
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version_id}")


ASSEMBLIES = {
    "Li2026": AssemblyEntry(
        "Li2026_Assembly",
        _file("assy_Li2026_Assembly.nc", "bb59217628132183a57ef10bb9017d857816ed53",
              "jJWOONfWTN3pbp6clmE3Ea8eQ9ZZb_D6"), "Li2026_Stimuli"),
}
STIMULUS_SETS = {
    "Li2026_Stimuli": StimulusSetEntry(
        "Li2026_Stimuli",
        _file("stimulus_Li2026_Stimuli.csv", "3e3603f9080dcc1c5519a3ac66895d55a3c486a1",
              "gRAM7LbVvIAgPeDCgvzX8sPuLsbsBbTN"),
        _file("stimulus_Li2026_Stimuli.zip", "76cef574cbb09e53cc18573690558a85f9470231",
              "jIe9AbMniKL7UXUJShW8ypdXwucfBg5N")),
}

FAMILIES = [
    Family(name="Li2026", dataset="Li2026", stimulus_set="Li2026_Stimuli", regions=("V1", "V2", "V4", "IT"),
           visual_degrees=11, stratification=None, time_window=(70, 170), number_of_trials=1,
           neuroid_filter=(("reliability_window", 0.4),), single_response=True,
           ceiling="median_of:reliability_window", allowed_metrics=("pls", "ridgecv", "rdm"), subject_coord="animal",
           notes="1000 NSD shared images, one 70–170 ms response per image; neuroids with reliability_window > 0.4; "
                 "ceiling the median reliability_window; not public (Brain-Score): use data.local_files",
           version=1, bibtex=BIBTEX, sources=SOURCES),
]
