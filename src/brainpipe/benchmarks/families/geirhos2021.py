"""Geirhos2021: human 16-class labelling of distorted ImageNet images (model-vs-human), 17 data sets, each scored
by error consistency (Cohen's kappa per subject and condition) and top-1 accuracy.

Constants: brain-score/vision brainscore_vision/benchmarks/geirhos2021/benchmark.py (error consistency at 3°, 1 trial,
ceiling = subject pairs, ceiled raw / ceiling bounded to [0, 1], parent 'Geirhos2021'; top1 with no placement on
screen (the model's own degrees: brainpipe shows the images at 8°, the model zoo default), 10 trials, ceiling 1,
parent 'Geirhos2021-top1'; EXCLUDE_CONDITIONS dropped from the human data, condition cast to str) and
brainscore_vision/data/geirhos2021/__init__.py (object names, sha1s). Label task: the 16 labels mapped through
ImageNet class indices (model_helpers/brain_transformation/behavior.py ``LabelToImagenetIndices``).
"""

from ..base import Behaviour, Family
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/geirhos2021/benchmark.py",
           "brain-score/vision brainscore_vision/data/geirhos2021/__init__.py",
           "brain-score/vision brainscore_vision/metrics/error_consistency/metric.py")

BIBTEX = """@article{geirhos2021partial,
  title={Partial success in closing the gap between human and machine vision},
  author={Geirhos, Robert and Narayanappa, Kantharaju and Mitzkus, Benjamin and Thieringer, Tizian and Bethge, Matthias and Wichmann, Felix A and Brendel, Wieland},
  journal={Advances in Neural Information Processing Systems}, volume={34}, year={2021}}"""

#: brainpipe shows top1 stimuli at the model's usual 8° (Brain-Score: no place_on_screen, i.e. the model's own)
TOP1_DEGREES = 8

#: the 16 classes (every data set's ``truth``; upstream's ``choice_labels = sorted(set(truth))``)
GEIRHOS2021_LABELS = ("airplane", "bear", "bicycle", "bird", "boat", "bottle", "car", "cat", "chair", "clock",
                      "dog", "elephant", "keyboard", "knife", "oven", "truck")

#: brain-score/vision brainscore_vision/data/geirhos2021/__init__.py: dataset → (assembly sha1 of
#: brendel.Geirhos2021_<dataset>, stimulus csv sha1, zip sha1, subjects, images); bucket brainscore-storage, folder
#: brainio-brainscore/, version id "null"
_SHA1S = {
    "colour": ("258862d82467614e45cc1e488a5ac909eb6e122d", "9c97c155fd6039a95978be89eb604c6894c5fa16",
             "d166f1d3dc3d00c4f51a489e6fcf96dbbe778d2c", 4, 1280),
    "contrast": ("1e114c987dc035ccca43781ff8cee9689acd3c3f", "f6ef69a2e8937e1d0d83c8a21b325b4273494cb5",
               "ebeeef2f9c6a7282e20ef2026dc77eefa026957b", 4, 1280),
    "cue-conflict": ("cc214e3595d34565b13963c5f56049769a39a5c9", "8d3ae89d8870fb7d7c5d5ff387085b1f0116e2b7",
                   "7e601186b181102939cd0b43a4e8a3ca95c18259", 10, 1280),
    "edge": ("ab1dc9e188e248da07215b375eb3dbcc58fde7fb", "fb57005ecb80e4e37b01e084f1f176fe7f59ff7f",
           "6c1199d90836a26be454aa799864a63c5efacaa1", 10, 160),
    "eidolonI": ("0f01f351ae19eafc2cb5e504d98e5cd01b4c07b4", "049adbed36fed52c609d38d5230e6084336df6b9",
               "abaa45a225628dd66e424ec7d8e2b10a0c88bc0d", 4, 1280),
    "eidolonII": ("499eea0f0c0817d02b5b97d2ebab89bc4c40a153", "1806ada128c260ab54db570d2e73aea71d679754",
                "2654ba55291f8ab972f18b36565f9ead80a45339", 4, 1280),
    "eidolonIII": ("e7c9a49e729f8666f8aedc6e47c746fbbe2ebe36", "ba0173b315f02df16d418dc3ff1df7dc498b4893",
                 "d0304c0c0024d0f493ea9c0c47ae0221da391016", 4, 1280),
    "false-colour": ("4dc072264651c81575564ba4818a12b8e8039c65", "8a09a7af8ec44339bcae5500ae5900d9c4309042",
                   "ec0ba347fc14d0c0587d38bfa96e4ab5d2f7979a", 4, 1120),
    "high-pass": ("5df45c69127758f1ba3391671c521711050e3b4d", "ddf523dcf43398cc15894c7b51c436d526e6c992",
                "12322bb17270a5dde206314fcdc125c4bb235e3b", 4, 1280),
    "low-pass": ("75ab628d9e6d0d634290567b1cb261d7f8dc61e2", "1264f9be407c7d428cf3d62a7bb1b1bb45a821bc",
               "ad087676e04e51adadea7c7c5c1fa28e4dd6360c", 4, 1280),
    "phase-scrambling": ("4124f9f5b86fb6ed82c98197d292eef50b608aba", "0cc87f7ac42c2266f98d3a08783f7173499ec2fc",
                       "462e77ab9533072b7036118f1f697e8c9bf30ae4", 4, 1120),
    "power-equalisation": ("0aba1b50a7e0802d76c41d332a121a3f96ef4f7d", "743935476b1fe4b7bd4d01a4eed24cd9ed5b3a22",
                         "a0d5307525bccf8da8f3d293e7e324b9b20248c6", 4, 1120),
    "rotation": ("e51a5c3bc95ade159e71aa602232063730bcd57b", "2577831e9ead905669613fa17cb2651d0c48a455",
               "8f5d9cb217807e96ace61337144e429d0d4ba04c", 4, 1280),
    "silhouette": ("7dc94991465fe8009244e0d6fb8283419a1f9885", "fb57005ecb80e4e37b01e084f1f176fe7f59ff7f",
                 "36c8a481f7876a2af2ad4fe80890b302fe3ae91e", 10, 160),
    "sketch": ("6709850864cea16d99a29fb31ae3c4a489983562", "a5741b2f7bd08541a0dbefd7fb2d6a3845ca800b",
             "8e8712f08a5ad3655ea2bd8cd675db8cdf65129a", 7, 800),
    "stylized": ("dcf15f292e787a88e1e0f271e6b2838d6bdadfd3", "2265a540dee6915150bf7c61143eaf788f603866",
               "75d273e8de643b0d814fbe60cd237c31ebe19c44", 5, 800),
    "uniform-noise": ("f5e8b2636738f978c71591b8df6f8a21a66b72d1", "89b62a6af878974d388278ed0e23e8ed1c2fd855",
                    "ff4566542d65056028660293e2409b532e887714", 4, 1280),
}
GEIRHOS2021 = {dataset: dict(assembly_sha1=a, csv_sha1=c, zip_sha1=z, subjects=s, images=i)
               for dataset, (a, c, z, s, i) in _SHA1S.items()}

#: benchmarks/geirhos2021/benchmark.py EXCLUDE_CONDITIONS: dropped before scoring (not OOD, or mean human accuracy
#: < .2); ``condition`` is then cast to str
GEIRHOS2021_EXCLUDE_CONDITIONS = {
    "colour": ["cr"], "contrast": ["c100", "c03", "c01"], "high-pass": [float("inf"), 0.55, 0.45, 0.4],
    "low-pass": [0, 15, 40], "phase-scrambling": [0, 150, 180], "power-equalisation": ["0"],
    "false-colour": ["False-Colour"], "rotation": [0], "eidolonI": ["1-10-10", "64-10-10", "128-10-10"],
    "eidolonII": ["1-3-10", "32-3-10", "64-3-10", "128-3-10"],
    "eidolonIII": ["1-0-10", "16-0-10", "32-0-10", "64-0-10", "128-0-10"], "uniform-noise": [0.0, 0.6, 0.9],
}

#: benchmarks/geirhos2021/test.py (abs .001): the ceilings, and the raw error consistency of the precomputed
#: resnet-50 labels (resnet-50-pytorch-3deg-Geirhos2021_<dataset>.nc, bucket brain-score-tests)
GEIRHOS2021_REFERENCE_CEILING = {
    "colour": 0.41543, "contrast": 0.43703, "cue-conflict": 0.33105, "edge": 0.31844, "eidolonI": 0.38634,
    "eidolonII": 0.45402, "eidolonIII": 0.45953, "false-colour": 0.44405, "high-pass": 0.44014, "low-pass": 0.46888,
    "phase-scrambling": 0.44667, "power-equalisation": 0.51063, "rotation": 0.43851, "silhouette": 0.47571,
    "sketch": 0.36962, "stylized": 0.50058, "uniform-noise": 0.43406,
}
GEIRHOS2021_REFERENCE_RESNET50_RAW = {
    "colour": 0.21135, "contrast": 0.22546, "cue-conflict": 0.06800, "edge": 0.03626, "eidolonI": 0.21029,
    "eidolonII": 0.25090, "eidolonIII": 0.15806, "false-colour": 0.29431, "high-pass": 0.20300, "low-pass": 0.16741,
    "phase-scrambling": 0.26879, "power-equalisation": 0.29293, "rotation": 0.16892, "silhouette": 0.42805,
    "sketch": 0.10537, "stylized": 0.25430, "uniform-noise": 0.19839,
}


def geirhos2021_identifiers(dataset: str) -> dict:
    """Assembly / stimulus identifiers and benchmark identifiers of one Geirhos2021 dataset."""
    nodash = dataset.replace("-", "")
    return dict(assembly=f"brendel.Geirhos2021_{dataset}", stimulus_set=f"Geirhos2021_{dataset}",
                error_consistency=f"Geirhos2021{nodash}-error_consistency", top1=f"Geirhos2021{nodash}-top1")

ASSEMBLIES, STIMULUS_SETS, FAMILIES = {}, {}, []
for _dataset, _data in GEIRHOS2021.items():
    _ids = geirhos2021_identifiers(_dataset)
    _key = _ids["stimulus_set"]  # registry key Geirhos2021_<dataset> for both the data and the stimuli
    ASSEMBLIES[_key] = brainio_assembly(_ids["assembly"], _data["assembly_sha1"], _key)
    STIMULUS_SETS[_key] = brainio_stimuli(_key, _data["csv_sha1"], _data["zip_sha1"])
    FAMILIES.append(Family(
        name=_ids["error_consistency"].split("-")[0], dataset=_key, stimulus_set=_key, regions=(), visual_degrees=3,
        stratification=None,
        exclude_conditions=tuple(GEIRHOS2021_EXCLUDE_CONDITIONS.get(_dataset, ())),
        behaviours=(
            Behaviour("error_consistency", task="label", metric="error_consistency", normalisation="raw_over_ceiling",
                      clip=True, visual_degrees=3, number_of_trials=1, parent="Geirhos2021",
                      choice_labels=GEIRHOS2021_LABELS),
            Behaviour("top1", task="label", metric="accuracy", normalisation="raw_over_ceiling", clip=False,
                      ceiling=1.0, visual_degrees=TOP1_DEGREES, number_of_trials=10, parent="Geirhos2021-top1",
                      choice_labels=GEIRHOS2021_LABELS),
        ),
        notes=f"{_data['subjects']} subjects × {_data['images']} images", bibtex=BIBTEX, sources=SOURCES))
