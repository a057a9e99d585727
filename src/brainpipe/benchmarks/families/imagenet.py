"""ImageNet-top1: top-1 accuracy on the 50,000 ILSVRC2012 validation images (Deng et al. 2009), an engineering
benchmark (ground truth, no human data; shown on the leaderboard, outside the brain average).

Constants: brain-score/vision brainscore_vision/benchmarks/imagenet/benchmark.py (registry key ``ImageNet-top1``,
``Imagenet2012``: version 1, parent 'ImageNet', ceiling Score(1) never applied, NUMBER_OF_TRIALS 10, label task
'imagenet' (WordNet ids), accuracy of the predicted synset against the stimulus set's ``synset`` column, no
place_on_screen: the model's own degrees, 8° in brainpipe's zoo as for the other top-1 benchmarks).

Data: Brain-Score ships the stimulus table in its package (benchmarks/imagenet/imagenet2012.csv: 50,000 rows,
1000 synsets, 50 per class; columns ``filename``, ``filepath``, ``image_file_sha1``, ``image_id``, ``label``,
``synset``) and reads the images from a local folder of its own machines (``filepath`` =
``/mnt/brainscore-ami/imagenet2012-val.hdf5-files/ILSVRC2012_val_*.JPEG``): the images are not downloadable from
Brain-Score. brainpipe downloads the table from brain-score/vision's repository (sha1 checked) and reads the images
from a zip the user makes of their own ILSVRC2012 validation folder (the 50,000 ``ILSVRC2012_val_*.JPEG`` files,
flat or in one folder), put at ``resources/imagenet2012_val.zip`` or listed under ``data.local_files`` as
``imagenet2012_val.zip``.
"""

from ..base import Behaviour, Family
from .geirhos2021 import TOP1_DEGREES
from brainpipe.data.catalog import RemoteFile, StimulusSetEntry

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/imagenet/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/imagenet/imagenet2012.csv",
           "brain-score/vision brainscore_vision/metrics/accuracy/metric.py")

BIBTEX = """@INPROCEEDINGS{5206848,
  author={J. {Deng} and W. {Dong} and R. {Socher} and L. {Li} and {Kai Li} and {Li Fei-Fei}},
  booktitle={2009 IEEE Conference on Computer Vision and Pattern Recognition},
  title={ImageNet: A large-scale hierarchical image database},
  year={2009}, pages={248-255}, url={https://ieeexplore.ieee.org/document/5206848}}"""

STIMULUS_SET = "imagenet2012"
#: the table as brainscore-vision 2.4.2 ships it (sha1 of that file), from brain-score/vision's repository
CSV_URL = ("https://raw.githubusercontent.com/brain-score/vision/master/brainscore_vision/benchmarks/imagenet/"
           "imagenet2012.csv")
CSV_SHA1 = "716b66ff9b257c46e4bee60efa9f5ba0bc2211ff"
#: the user's zip of the ILSVRC2012 validation images: read in place from resources/ or where data.local_files
#: says (no sha1: every user's zip differs)
IMAGES_ZIP = "imagenet2012_val.zip"
STIMULUS_SETS = {STIMULUS_SET: StimulusSetEntry(STIMULUS_SET, RemoteFile("imagenet2012.csv", CSV_SHA1, url=CSV_URL),
                                                RemoteFile(IMAGES_ZIP, None, path=f"resources/{IMAGES_ZIP}"))}

FAMILIES = [Family(
    name="ImageNet", dataset="ImageNet", stimulus_set=STIMULUS_SET, regions=(), visual_degrees=TOP1_DEGREES,
    stratification=None,
    source="stimuli",  # the target is the stimulus set's synset column (rule stimulus_target)
    behaviours=(Behaviour("top1", task="label", metric="accuracy", normalisation="raw_over_ceiling", clip=False,
                          ceiling=1.0, visual_degrees=TOP1_DEGREES, number_of_trials=10, parent="ImageNet",
                          version=1, choice_labels="imagenet", options=(("truth_column", "synset"),)),),
    extract_per_stimulus_set=True,  # too many images to share one extraction job with other sets
    notes=f"50,000 ILSVRC2012 validation images, 1000 synsets; ground truth, no human data; the images are not "
          f"downloadable: zip your ILSVRC2012 validation folder to resources/{IMAGES_ZIP} or use data.local_files",
    bibtex=BIBTEX, sources=SOURCES)]
