"""Cowley2026: V4 multi-unit responses of macaques (Utah arrays) to natural images, in four sessions from three
monkeys (one recorded twice), each session with its own 1,200–1,600 images and its own neurons; scored with PLS
regression per session and averaged (``Cowley2026.V4-pls``).

As brain-score/vision brainscore_vision/benchmarks/cowley2026/benchmark.py computes it (``_CombinedNeuralBenchmark``
over ``SESSIONS`` 190923, 201025, 210225, 211022):

* per session an ordinary ``NeuralBenchmark`` (``Cowley2026.<session>.V4-pls``, version 1, parent V4): the
  session's V4 neurons, the one 50–150 ms bin (the data plugin packaged only 190923 with it; the benchmark adds it
  to the others: the same responses), repetitions averaged per image; the images at 11.2 degrees
  (VISUAL_DEGREES), 14 trials (NUMBER_OF_TRIALS); PLS (25 components) with 10 plain random cross-validation
  splits (``stratification_coord=None``: no object categories), Pearson r per neuron, median over neurons, mean
  over splits; the ceiling the internal consistency of the trials with the repetitions relabelled to even / odd
  halves (``alternate_repetition_halves``: ``repetition % 2``, so that each half of the split-half holds about
  half of every image's trials; brainpipe.data.reindex.alternate_repetition_halves, on load); score raw² /
  ceiling (``explained_variance``);
* ``Cowley2026.V4-pls``: the mean of the four sessions' ceiled scores; its raw score the mean of their raw scores
  and its ceiling the mean of their ceilings (no pooling of images or neurons across sessions).

brainpipe declares each session as a family of its own (``Cowley2026_<session>``, with Brain-Score's session
identifiers ``Cowley2026.<session>.V4-pls``, scored through the ordinary stages) and the combined benchmark as a
family whose ``sessions`` name them: its layer scores and ceiling are the sessions' means
(workflow/rules/sessions.smk, brainpipe.pipeline.sessions).

Data: brain-score/vision brainscore_vision/data/cowley2026/__init__.py (object names, sha1s, S3 version ids in
Brain-Score's bucket folder ``brainscore-vision/data/user_718/``) and data_packaging/data_packaging.py (stimulus
ids ``image0001`` …, ``object_name``, ``repetition`` 0..k-1 per image, neuroids ``neuron_<i>`` in region V4).
"""

from ..base import Family
from brainpipe.data.catalog import AssemblyEntry, RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/cowley2026/benchmark.py",
           "brain-score/vision brainscore_vision/data/cowley2026/__init__.py",
           "brain-score/vision brainscore_vision/data/cowley2026/data_packaging/data_packaging.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/neural_common.py")

# The benchmark's BIBTEX (benchmark.py), as written there.
BIBTEX = """@article{cowley2026compact,
  title={Compact deep neural network models of the visual cortex},
  author={Cowley, Benjamin R and Stan, Patricia L and Pillow, Jonathan W and Smith, Matthew A},
  journal={Nature},
  volume={652},
  number={8111},
  pages={947--954},
  year={2026},
  publisher={Nature Publishing Group},
  doi={10.1038/s41586-026-10150-1},
  url={https://doi.org/10.1038/s41586-026-10150-1}}"""

VISUAL_DEGREES = 11.2
NUMBER_OF_TRIALS = 14  # mode of the per-image repeat counts
TIME_WINDOW = (50, 150)  # ms: the one bin of every session
SESSIONS = ("190923", "201025", "210225", "211022")  # 4 sessions from 3 subjects (one recorded twice)

#: Brain-Score's bucket folder of the data plugin (``BUCKET``), as an HTTPS URL (core s3.py).
FOLDER = "https://brainscore-storage.s3.amazonaws.com/brainscore-vision/data/user_718/"
#: session -> (csv sha1, zip sha1, csv version id, zip version id) of ``Cowley2026.<session>``'s stimulus set
STIMULI = {
    "190923": ("7752f43fc809c193334dd97171867e733291b8fd", "a14f9d4cfc98cb253f23d4eaa159c60666903668",
               "4ZuvTJxZptY8V04ayk2CRLb209BihWis", "tWyQAXN_fM4Y2fLnQtITbi0QMLawr4Nd"),
    "201025": ("9ed6f9711ed0966ab2461ce1fa72fe3d10077304", "a845c479d2c118ef0308394d52e12c4679691cee",
               "vWd2MMs8i_7WkA1BRnISdeT003..N533", "0svmbYxEvtL9iUhL8_cHcFXvehqQ1oVp"),
    "210225": ("9ed6f9711ed0966ab2461ce1fa72fe3d10077304", "75aa2ed9c77406b6bb74c432a6c86abb3d5faa2c",
               "gfZ7QtQQhthTjqiQAy9kGKPNroEoLSPN", "x6KRTVDpLrDHIgSEABSHCkNooJcJnkQI"),
    "211022": ("d9d9c00d600c008bf45512961bd86124ced39a3d", "32967e0cd1cac33c3ffa892b5f244617d2cbc3b9",
               "a5GHFYMYIJwpyph51sDxeL6xmDvk8uII", "cycg7NDoRSzDz_Y_qOPczLjgg13bNtUb"),
}
#: session -> (sha1, version id) of the assembly ``Cowley2026.<session>``
RECORDINGS = {
    "190923": ("2ac7f60f21ccc5137074633c0614f52566acff6a", "kpX10KvUti_Vg4WAMHsiayllYlStMcgI"),
    "201025": ("78c6bad4c761b6a0ed969c88946f9a4238b26341", "1eGVyGwBqxNN_zYjCNNk9Gl5ZZp0k8Du"),
    "210225": ("9923f48042e3609fa90aa53310f92dd06d77bf39", "uZY5jdVhXNbc8_Qq6iZMuifBt5RsSOTM"),
    "211022": ("64cbb1b23208d29d7e6908f931e4adea8550ef80", "We7wLKhFc2ssl9hBeSzEBEHTcWvpGHwr"),
}


def _file(name, sha1, version_id):
    return RemoteFile(name, sha1, url=f"{FOLDER}{name}?versionId={version_id}")


def _key(session):
    return f"Cowley2026.{session}"  # Brain-Score's data and stimulus set identifier


def session_identifier(session):
    """Brain-Score's identifier of one session's benchmark (benchmark.py ``_session_benchmark``)."""
    return f"Cowley2026.{session}.V4-pls"


STIMULUS_SETS = {
    _key(s): StimulusSetEntry(_key(s), _file(f"stimulus_Cowley2026_{s}.csv", csv, csv_version),
                              _file(f"stimulus_Cowley2026_{s}.zip", zip_, zip_version))
    for s, (csv, zip_, csv_version, zip_version) in STIMULI.items()
}
ASSEMBLIES = {
    _key(s): AssemblyEntry(_key(s), _file(f"assy_Cowley2026_{s}.nc", sha1, version), _key(s))
    for s, (sha1, version) in RECORDINGS.items()
}

_COMMON = dict(regions=("V4",), visual_degrees=VISUAL_DEGREES, stratification=None, time_window=TIME_WINDOW,
               exact_time_bin=True, number_of_trials=NUMBER_OF_TRIALS, allowed_metrics=("pls",), version=1,
               parent="V4", bibtex=BIBTEX, sources=SOURCES)

# The session families first: a data set's family (its reindex, time window) is looked up by data set, and the
# combined family names the first session's data set as its own.
FAMILIES = [
    Family(name=f"Cowley2026_{s}", dataset=_key(s), stimulus_set=_key(s), reindex="alternate_repetition_halves",
           identifiers=((session_identifier(s), "V4", "pls"),),
           notes=f"Cowley2026 session {s} alone (one of the four Cowley2026.V4-pls averages); its own images at "
                 f"11.2°, 50–150 ms, split-half ceiling over even / odd repetitions", **_COMMON)
    for s in SESSIONS
] + [
    Family(name="Cowley2026", dataset=_key(SESSIONS[0]), stimulus_set=_key(SESSIONS[0]),
           sessions=tuple(session_identifier(s) for s in SESSIONS),
           notes="V4, four sessions (1,200–1,600 images each, own neurons), each scored with PLS and ceiled on its "
                 "own, then averaged", **_COMMON),
]
