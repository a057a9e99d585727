"""Bracci2019_RSA: the V1 and posterior VTC ROIs of Bracci2019 (``Bracci2019_RSA-V1``, ``Bracci2019_RSA-posteriorVTC``),
scored as ``Bracci2019.anteriorVTC-rdm`` is (:mod:`brainpipe.benchmarks.families.bracci2019`).

Brain-Score 2.4.2 names these two in brain-score/vision brainscore_vision/benchmarks/bracci2019/__init__.py but
leaves their registry lines commented out (``# benchmark_registry['Bracci2019_RSA-V1'] = lambda:
_Bracci2019RSA("V1")``); the benchmark class itself (benchmarks/bracci2019/benchmark.py ``_Bracci2019RSA``) takes
each of the three ROIs (``_roi_map``: V1 -> roi 0 and the model's V1, posteriorVTC -> roi 1 and the model's IT). So
brainpipe serves them under those names with that class's logic and constants (8°, one trial, version 1, parent
``Bracci2019``), and the fidelity reference runs ``_Bracci2019RSA("V1")`` / ``("posteriorVTC")`` directly.
"""

from dataclasses import replace

from .bracci2019 import FAMILIES as _BRACCI, Bracci2019RSA

REGIONS = ("V1", "posteriorVTC")


class Bracci2019RSAEarly(Bracci2019RSA):
    """RSA of Bracci2019's V1 or posterior VTC ROI (as the anterior VTC one)."""

    family = "Bracci2019_RSA"
    regions = REGIONS


FAMILIES = [
    replace(_BRACCI[0], name="Bracci2019_RSA", regions=REGIONS, plugin=Bracci2019RSAEarly(),
            identifiers=tuple((f"Bracci2019_RSA-{region}", region, "rdm") for region in REGIONS),
            notes="27 images, fMRI of 12 subjects, V1 and posterior VTC ROIs (Brain-Score names but does not register "
                  "them); subject-centred voxels averaged over subjects, leave-one-subject-out RDM ceiling; not "
                  "public (Brain-Score): use data.local_files"),
]
