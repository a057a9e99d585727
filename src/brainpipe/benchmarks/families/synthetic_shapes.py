"""SyntheticShapes: brainpipe's own SIMULATED demo (src/brainpipe/data/demo.py), not a real recording.

Procedurally drawn shapes (8 categories × 4 objects × 10 images) with simulated V4 (retinotopic features) and IT
(invariant, category-structured features) responses, repetitions and 10-ms bins, generated on the spot by the
workflow's demo rules. Shown at 10 degrees so that models at 8 degrees exercise place_on_screen (a centre crop).
The data carries a fixed train/test ``split`` column, so the ``*_split`` metrics work, and time bins, so the
``spantime_*`` metrics do.

``SyntheticShapesBehaviour-i2n`` is the behavioural demo: SIMULATED human 2AFC match-to-sample trials on the same
images (src/brainpipe/behaviour/demo.py ``simulate_match_to_sample``: simulated observers whose errors follow
image difficulty and shape confusability), scored as Rajalingham2018public-i2n is: a probabilities readout fitted on
the test images themselves (labels = ``category_name``), I2n against the first half of the trials, ceiled per split
by the split-half human consistency (r_k / √c_k, no clipping).
"""

from ..base import Behaviour, Family, Readout, Temporal

FAMILIES = [
    Family(name="SyntheticShapes", dataset="SyntheticShapes", stimulus_set="SyntheticShapes", regions=("V4", "IT"),
           visual_degrees=10, stratification="object_name", time_window=(70, 170), temporal=Temporal((70, 250)),
           number_of_trials=1, source="demo", fixed_train_test=True,
           notes="SIMULATED responses to procedurally drawn shapes (offline demo)",
           bibtex="@misc{brainpipe_synthetic_shapes, title={SyntheticShapes: simulated demo data of brainpipe}}",
           sources=("src/brainpipe/data/demo.py (this repository)",)),
    Family(name="SyntheticShapesBehaviour", dataset="SyntheticShapesBehaviour", stimulus_set="SyntheticShapes",
           regions=(), visual_degrees=10, stratification=None, source="demo",
           readout=Readout("SyntheticShapes", label_column="category_name"),
           behaviours=(Behaviour("i2n", task="probabilities", metric="i2n",
                                 normalisation="raw_over_sqrt_ceiling_per_split", clip=False, parent="behavior",
                                 options=(("ceiling_skipna", True),)),),
           notes="SIMULATED human 2AFC behaviour on the SyntheticShapes images (offline demo)",
           bibtex="@misc{brainpipe_synthetic_shapes, title={SyntheticShapes: simulated demo data of brainpipe}}",
           sources=("src/brainpipe/behaviour/demo.py (this repository)",)),
]
