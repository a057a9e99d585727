"""SyntheticShapesOST: the offline OST demo, SIMULATED object solution times on the SyntheticShapes images
(src/brainpipe/data/demo_ost.py), scored as Kar2019-ost is (``SyntheticShapesOST-ost``): IT recorded in 18 bins of
10 ms from 70 ms, NaN for static models. Simulated data have no measured ceiling: the score is the raw value."""

from ..base import Temporal
from ..ost_family import OSTFamily

FAMILIES = [
    OSTFamily(name="SyntheticShapesOST", dataset="SyntheticShapesOST", stimulus_set="SyntheticShapes", regions=("IT",),
           visual_degrees=10, stratification=None, temporal=Temporal((70, 250), bin=10), source="demo",
           ceiling="none", parent="IT",
           notes="SIMULATED object solution times of the SyntheticShapes images (offline OST demo)",
           bibtex="@misc{brainpipe_synthetic_shapes, title={SyntheticShapes: simulated demo data of brainpipe}}",
           sources=("src/brainpipe/data/demo_ost.py (this repository)",)),
]
