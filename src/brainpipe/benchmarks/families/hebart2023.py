"""Hebart2023: human odd-one-out choices on THINGS triplets (453,642 validation triplets over 1854 concept images),
scored by the share of triplets where the model picks the human odd one out.

Constants: brain-score/vision brainscore_vision/benchmarks/hebart2023/benchmark.py (``Hebart2023-match``: visual
degrees 8, 1 trial, version 1, parent 'behavior_vision'; ``start_task(odd_one_out)`` with the default dot
similarity; raw = mean(choice == image_3); ceiling fixed at 0.6767 (the paper's mean share of participants
agreeing per triplet), no error; ceiled = (raw − 1/3) / (0.6767 − 1/3) bounded to [0, 1]),
brainscore_vision/benchmarks/hebart2023/test.py (reference: alexnet on the first 1000 triplets, ceiled .38 ± .02)
and brainscore_vision/data/hebart2023/__init__.py (object names, sha1s). Task: model_helpers/brain_transformation/
behavior.py ``OddOneOut``.

Upstream indexes the stimulus set by position (``stimulus_set.loc[triplets]``, assuming the row index equals the
image number); brainpipe looks the triplet ids up by ``stimulus_id`` (= ``image_no``), the same where that holds,
and the task refuses a stimulus set where it does not (option ``triplet_images`` 'by_row').
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/hebart2023/benchmark.py",
           "brain-score/vision brainscore_vision/data/hebart2023/__init__.py",
           "brain-score/vision brainscore_vision/model_helpers/brain_transformation/behavior.py")

BIBTEX = """@article{hebart2023things,
  title={THINGS-data, a multimodal collection of large-scale datasets for investigating object representations in human brain and behavior},
  author={Hebart, Martin N and Contier, Oliver and Teichmann, Lina and Rockter, Adam H and Zheng, Charles Y and Kidder, Alexis and Corriveau, Anna and Vaziri-Pashkam, Maryam and Baker, Chris I},
  journal={eLife}, volume={12}, pages={e82580}, year={2023}}"""

#: assembly and stimulus set ``Hebart2023`` (data/hebart2023/__init__.py), version ids "null"
ASSEMBLY_SHA1 = "90f66d37c202dcd1c74d82854efd4a1e8c5fe82e"
STIMULI_CSV_SHA1, STIMULI_ZIP_SHA1 = "8fd5a8d4d68cc206000878dd835829fd14a426e8", "f244ebfe07c98470885026188c801857ba2ec0ea"
CEILING = 0.6767   # fixed (benchmark.py)
CHANCE = 1 / 3     # three images per triplet
TRIPLETS, STIMULI = 453642, 1854
#: benchmarks/hebart2023/test.py: alexnet on the first 1000 triplets, ceiled score .38 (abs .02)
REFERENCE = dict(alexnet_first_1000_triplets=0.38, abs=0.02)

ASSEMBLIES = {"Hebart2023": brainio_assembly("Hebart2023", ASSEMBLY_SHA1, "Hebart2023")}
STIMULUS_SETS = {"Hebart2023": brainio_stimuli("Hebart2023", STIMULI_CSV_SHA1, STIMULI_ZIP_SHA1)}

FAMILIES = [
    Family(name="Hebart2023", dataset="Hebart2023", stimulus_set="Hebart2023", regions=(), visual_degrees=8,
           stratification=None,
           behaviours=(Behaviour("match", task="odd_one_out", metric="odd_one_out_match",
                                 normalisation="chance_corrected", clip=True, ceiling=CEILING, number_of_trials=1,
                                 parent="behavior_vision", version=1,
                                 # upstream picks the triplet images by row position: checked against the ids
                                 # (brainpipe.behaviour.odd_one_out.check_row_positions)
                                 options=(("similarity", "dot"), ("chance", CHANCE), ("triplet_images", "by_row"))),),
           notes=f"{TRIPLETS} THINGS validation triplets (human odd one out) over {STIMULI} images", bibtex=BIBTEX, sources=SOURCES),
]
