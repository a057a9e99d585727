"""Kar2019: object solution times (OST) in IT, Kubilius, Schrimpf et al. 2019's ``Kar2019-ost``.

Constants: brain-score/vision brainscore_vision/benchmarks/kar2019/benchmark.py (``DicarloKar2019OST``: identifier
``Kar2019-ost``, version 2, parent 'IT', ceiling ``Score(.79)`` "computed offline by Kohitij Kar", ceiled = raw /
.79 with no clipping (benchmarks/__init__.py ``ceil_score``), 8 visual degrees, 44 trials, recording from 'IT' in
the 18 bins ``[(t, t + 10) for t in range(70, 250, 10)]``; duplicate stimulus ids dropped, ``decoder='svm'``,
``truth = image_label``) and brainscore_vision/data/kar2019/__init__.py (object names and sha1s in bucket
brainscore-storage, folder brainio-brainscore/, version ids "null"). Metric: :mod:`brainpipe.neural.ost`.

A static model (no neuroid's response changes across the bins; Brain-Score checks one stimulus first) scores NaN,
with the reason in the score JSON. The 44 trials matter only to stochastic models: a deterministic network gives the
same response to every trial, so brainpipe, like Brain-Score for such models, records each image once.
"""

from ..base import Temporal
from ..ost_family import OSTFamily
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/kar2019/benchmark.py",
           "brain-score/vision brainscore_vision/data/kar2019/__init__.py",
           "brain-score/vision brainscore_vision/metrics/ost/metric.py")

BIBTEX = """@Article{Kar2019,
  author={Kar, Kohitij and Kubilius, Jonas and Schmidt, Kailyn and Issa, Elias B. and DiCarlo, James J.},
  title={Evidence that recurrent circuits are critical to the ventral stream's execution of core object recognition behavior},
  journal={Nature Neuroscience}, year={2019}, month={Jun}, volume={22}, number={6}, pages={974-983},
  doi={10.1038/s41593-019-0392-5}, url={https://doi.org/10.1038/s41593-019-0392-5}}"""

ASSEMBLY_SHA1 = "147717ce397e11d56164d472063a84a83bbcbb94"  # dicarlo.Kar2019 (DataAssembly, decoder × presentation)
STIMULI_CSV_SHA1 = "7f705bdea02c0a72a76d7f5e7b6963531df818a6"
STIMULI_ZIP_SHA1 = "75ab7b8b499fc8e86c813f717b79d268bcb986be"
CEILING = 0.79
VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 44
TIME_WINDOW, TIME_BIN = (70, 250), 10  # 18 bins of 10 ms
DECODER = "svm"
#: benchmarks/kar2019/test.py: CORnet-S's stored recordings (cornet_s-kar2019.nc) score raw .316 (abs .005)
REFERENCE = dict(cornet_s_raw=0.316, abs=0.005)

ASSEMBLIES = {"Kar2019": brainio_assembly("dicarlo.Kar2019", ASSEMBLY_SHA1, "Kar2019")}
STIMULUS_SETS = {"Kar2019": brainio_stimuli("Kar2019", STIMULI_CSV_SHA1, STIMULI_ZIP_SHA1)}

FAMILIES = [
    OSTFamily(name="Kar2019", dataset="Kar2019", stimulus_set="Kar2019", regions=("IT",), visual_degrees=VISUAL_DEGREES,
           stratification=None, temporal=Temporal(TIME_WINDOW, bin=TIME_BIN),
           number_of_trials=NUMBER_OF_TRIALS, ceiling=CEILING, version=2, parent="IT",
           notes="object solution times of 1318 images (1320 presentations, 2 duplicates); NaN for static models",
           bibtex=BIBTEX, sources=SOURCES),
]
