"""ImageNet-C-{noise,blur,weather,digital}-top1: top-1 accuracy on the ImageNet validation images corrupted by
Hendrycks & Dietterich (2019), one benchmark per corruption category; engineering benchmarks (ground truth, no human
data; shown on the leaderboard, outside the brain average).

Constants: brain-score/vision brainscore_vision/benchmarks/imagenet_c/benchmark.py (registry keys
``ImageNet-C-<category>-top1``, ``Imagenet_C_Category``: version 2, parent 'Hendrycks2019-top1', ceiling Score(1)
never applied; per corruption type of the category and level 1-5 a label task ('imagenet', 10 trials, no
place_on_screen: the model's own degrees, 8° in brainpipe's zoo) and the per-image correctness of the predicted
synset against the ``synset`` column; score = the mean over all those images, error = their std (ddof 0)). The
category's stimulus set holds exactly its types × levels 1-5 × 50,000 images (data/hendrycks2019/test.py), so
that is the accuracy over the whole set, which brainpipe computes as ObjectNet-top1 does.

Which images: Brain-Score 2.4.2 first tries a folder on its own machines (``/mnt/brainscore-ami/
imagenet-c-brainscore-stimuli/``) and then keeps every 10th row (``sampling_factor=10``); anywhere else it loads the
registered stimulus set ``imagenet_c.<category>`` whole (``load_stimulus_set``, no sampling). brainpipe follows that
second path, the one any Brain-Score installation takes: all 750,000 (noise) or 1,000,000 images.

Data: brain-score/vision brainscore_vision/data/hendrycks2019/__init__.py (stimulus sets ``imagenet_c.<category>``,
csv/zip sha1s). Brain-Score marks them not public (metadata.yaml ``data_publicly_available: false``; its tests need
private access): with access, point ``data.local_files`` at ``stimulus_imagenet_c_<category>.csv`` / ``.zip``.
"""

from ..base import Behaviour, Family
from .geirhos2021 import TOP1_DEGREES
from brainpipe.data.catalog import brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/imagenet_c/benchmark.py",
           "brain-score/vision brainscore_vision/data/hendrycks2019/__init__.py",
           "brain-score/vision brainscore_vision/metrics/accuracy/metric.py")

BIBTEX = """@ARTICLE{Hendrycks2019-di,
   title         = "Benchmarking Neural Network Robustness to Common Corruptions and Perturbations",
   author        = "Hendrycks, Dan and Dietterich, Thomas",
   month         =  mar,
   year          =  2019,
   archivePrefix = "arXiv",
   primaryClass  = "cs.LG",
   eprint        = "1903.12261",
   url           = "https://arxiv.org/abs/1903.12261"
}"""

#: category -> (csv sha1, zip sha1, corruption types) (data/hendrycks2019/__init__.py; benchmark.py's map)
CATEGORIES = {
    "noise": ("56f445e058b4d825e7731711c824918812ed2d2d", "e3c46b81bfd8a522cadcd8a4bb0c67bb5ccb4c6a",
              ("gaussian_noise", "shot_noise", "impulse_noise")),
    "blur": ("e7a537bb2f3f94b9cd3819a529de9f4349e58bd2", "85bac6d7c9b9646b22480f65cf6f1486fcf4b488",
             ("glass_blur", "motion_blur", "zoom_blur", "defocus_blur")),
    "weather": ("02fa92430be754163ecd06ee9211c1edd8984207", "18ef85343b10a4a326b5fc0758b9ae1da58f7d90",
                ("snow", "frost", "fog", "brightness")),
    "digital": ("1e9611b560333989d4673bfd019160a27842f89b", "a10e8d7eabce191d1f8e92983c08b4f0fe0f435d",
                ("pixelate", "contrast", "elastic_transform", "jpeg_compression")),
}

STIMULUS_SETS = {f"imagenet_c.{category}": brainio_stimuli(f"imagenet_c.{category}", csv, zip_)
                 for category, (csv, zip_, _) in CATEGORIES.items()}

FAMILIES = [Family(
    name=f"ImageNet_C_{category}", dataset=f"ImageNet_C_{category}", stimulus_set=f"imagenet_c.{category}",
    regions=(), visual_degrees=TOP1_DEGREES, stratification=None,
    source="stimuli",  # the target is the stimulus set's synset column (rule stimulus_target)
    behaviours=(Behaviour("top1", task="label", metric="accuracy", normalisation="raw_over_ceiling", clip=False,
                          ceiling=1.0, visual_degrees=TOP1_DEGREES, number_of_trials=10,
                          parent="Hendrycks2019-top1", version=2, choice_labels="imagenet",
                          options=(("truth_column", "synset"),), identifier=f"ImageNet-C-{category}-top1"),),
    extract_per_stimulus_set=True,  # too many images to share one extraction job with other sets
    notes=f"{len(types) * 5 * 50000:,} ImageNet-C images ({', '.join(types)}; levels 1-5), 1000 synsets; ground "
          f"truth, no human data; not public (Brain-Score): use data.local_files",
    bibtex=BIBTEX, sources=SOURCES)
    for category, (_, _, types) in CATEGORIES.items()]
