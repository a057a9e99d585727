"""Rajalingham2018: human 2AFC object-recognition behaviour on the objectome images, scored by I2n.

Constants: brain-score/vision brainscore_vision/benchmarks/rajalingham2018/benchmarks/benchmark.py (visual degrees 8,
2 trials, version 2, parent 'behavior', fitting stimuli objectome.public with ``image_label``, ceiling = split-half
I2n without Spearman-Brown, ceiled per split r_k / sqrt(c_k), no clipping; the public benchmark's ceiling skips NaN)
and brainscore_vision/data/rajalingham2018/__init__.py (object names, sha1s). Metric: metrics/i1i2/metric.py.

``Rajalingham2018-i2n`` scores the private 240 images, which are not publicly downloadable (configure
``data.local_files``); ``Rajalingham2018public-i2n`` scores the public 2160 and fits the readout on the very images it
tests (as Brain-Score does; the task warns).
"""

from ..base import Behaviour, Family, Readout
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/rajalingham2018/benchmarks/benchmark.py",
           "brain-score/vision brainscore_vision/data/rajalingham2018/__init__.py",
           "brain-score/vision brainscore_vision/metrics/i1i2/metric.py")

BIBTEX = """@article{rajalingham2018large,
  title={Large-scale, high-resolution comparison of the core visual object recognition behavior of humans, monkeys, and state-of-the-art deep artificial neural networks},
  author={Rajalingham, Rishi and Issa, Elias B and Bashivan, Pouya and Kar, Kohitij and Schmidt, Kailyn and DiCarlo, James J},
  journal={Journal of Neuroscience}, volume={38}, number={33}, pages={7255--7269}, year={2018}}"""

#: brain-score/vision brainscore_vision/data/rajalingham2018/__init__.py (bucket brainscore-storage, folder
#: brainio-brainscore/, version id "null"); reference numbers: metrics/i1i2/test.py (ceiling .4786 ± .0064, error
#: .00537; raw i2n of the shipped test_resources/<model>-probabilities.nc, abs .005) and
#: benchmarks/rajalingham2018/test.py (CORnetZ on the public set)
RAJALINGHAM2018 = {
    "assemblies": {  # registry key: (identifier, sha1, stimulus set)
        "Rajalingham2018.public": ("dicarlo.Rajalingham2018.public", "34c6a8b6f7c523589c1861e4123232e5f7c7df4c",
                                   "objectome.public"),
        "Rajalingham2018.private": ("dicarlo.Rajalingham2018.private", "516f13793d1c5b72bb445bb4008448ce97a02d23",
                                    "objectome.private"),
    },
    "stimulus_sets": {  # identifier: (csv sha1, zip sha1)
        "objectome.public": ("47884e17106a3be471d6481279cab33889b80850", "064f2955f98e63867755fee2e3ead8cddf6bfab8"),
        "objectome.private": ("ac38e8f7c08fa8294ed25a3bf84a6adb108bf3fc", "ccd39f7f9b8b4a92da06e3960d06225e46208593"),
    },
    "reference": dict(ceiling=0.479, ceiling_abs=0.0064, ceiling_error=0.00537,
                      raw={"alexnet": 0.253, "resnet18": 0.3638, "resnet34": 0.37787}, raw_abs=0.005,
                      public_raw={"CORnetZ": 0.136923}),
}

ASSEMBLIES = {key: brainio_assembly(*entry) for key, entry in RAJALINGHAM2018["assemblies"].items()}
STIMULUS_SETS = {key: brainio_stimuli(key, *sha1s) for key, sha1s in RAJALINGHAM2018["stimulus_sets"].items()}


def _i2n(skipna):
    return Behaviour("i2n", task="probabilities", metric="i2n", normalisation="raw_over_sqrt_ceiling_per_split",
                     clip=False, number_of_trials=2, parent="behavior", version=2,
                     options=(("ceiling_skipna", skipna),))


FAMILIES = [
    Family(name="Rajalingham2018", dataset="Rajalingham2018.private", stimulus_set="objectome.private", regions=(),
           visual_degrees=8, stratification=None, readout=Readout("objectome.public"),
           behaviours=(_i2n(False),), notes="private split: 240 images (not publicly downloadable)",
           bibtex=BIBTEX, sources=SOURCES),
    Family(name="Rajalingham2018public", dataset="Rajalingham2018.public", stimulus_set="objectome.public", regions=(),
           visual_degrees=8, stratification=None, readout=Readout("objectome.public"),
           behaviours=(_i2n(True),), notes="public split: 2160 images; the readout is fitted on the test images",
           bibtex=BIBTEX, sources=SOURCES),
]
