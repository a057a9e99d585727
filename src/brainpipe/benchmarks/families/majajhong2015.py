"""MajajHong2015: multi-unit V4 and IT responses of two macaques to the HvM images (Majaj, Hong et al. 2015).

Constants: brain-score/vision brainscore_vision/benchmarks/majajhong2015/__init__.py and
benchmarks/majajhong2015/benchmark.py (VISUAL_DEGREES 8, NUMBER_OF_TRIALS 50, stratification object_name,
time bin 70–170 ms, internal-consistency ceiling). Data: brain-score/vision brainscore_vision/data/majajhong2015/
__init__.py (object names and sha1s, in Brain-Score's public bucket).

Brain-Score's ``MajajHong2015.*`` scores on the *private* split, which is not publicly downloadable; brainpipe uses
the public split unless ``data.access: {MajajHong2015: private}`` and the private files are configured.
"""

from dataclasses import replace

from ..base import Family, PrivateRecordings
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/majajhong2015/__init__.py",
           "brain-score/vision brainscore_vision/data/majajhong2015/__init__.py")

BIBTEX = """@article{majaj2015simple,
  title={Simple learned weighted sums of inferior temporal neuronal firing rates accurately predict human core object recognition performance},
  author={Majaj, Najib J and Hong, Ha and Solomon, Ethan A and DiCarlo, James J},
  journal={Journal of Neuroscience}, volume={35}, number={39}, pages={13402--13418}, year={2015}}"""

# Registry keys as in brain-score/vision's data plugins (load_dataset('MajajHong2015.public') etc.).
ASSEMBLIES = {
    "MajajHong2015.public": brainio_assembly(
        "dicarlo.MajajHong2015.public", "13d28ca0ce88ee550b54db3004374ae19096e9b9", "hvm-public"),
    "MajajHong2015.private": brainio_assembly(
        "dicarlo.MajajHong2015.private", "7a40d16148d6f82939155f0bd976d310857fb156", "hvm-private"),
    "MajajHong2015": brainio_assembly(
        "dicarlo.MajajHong2015", "bf8f8d01010d727e3db3f85a9bd5f95f9456b7ec", "hvm"),
}
STIMULUS_SETS = {
    "hvm-public": brainio_stimuli(
        "hvm-public", "5ca7a3da00d8e9c694a9cd725df5ba0ad6d735af", "8aa44e038d7b551efa8077467622f9d48d72e473"),
    "hvm-private": brainio_stimuli(
        "hvm-private", "6ff4981722fa05feb73a2bd26bbbba8b50dc29a6", "d7b1ca1876dad87e15b0242b4c82c0203ff3cbd3"),
    "hvm": brainio_stimuli(
        "hvm", "a56f55205904d5fb5ead4d0dc7bfad5cc4083b94", "6fd5080deccfb061699909ffcb86a26209516811"),
}

_FAMILY = Family(
    name="MajajHong2015", dataset="MajajHong2015.public", stimulus_set="hvm-public", regions=("V4", "IT"),
    visual_degrees=8, stratification="object_name", time_window=(70, 170), number_of_trials=50,
    notes="public HvM split (variations 0 and 3): 3200 images",
    private=PrivateRecordings("MajajHong2015.private", "hvm-private"),
    version=4, bibtex=BIBTEX, sources=SOURCES)  # 4: Brain-Score bumped 3 -> 4 for raw²/ceiling (Jan 2026)

FAMILIES = [
    _FAMILY,
    replace(_FAMILY, name="MajajHong2015public", private=None),
]
