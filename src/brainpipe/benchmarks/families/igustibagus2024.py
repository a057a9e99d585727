"""Igustibagus2024 (domain transfer): macaque IT multi-unit responses (two monkeys, Oleo and Pico) to objects of ten
categories drawn in many styles — photographs on natural backgrounds (hvm-like "original"), cartoons, line drawings,
mosaics, paintings, sketches, silhouettes, outlines, convex hulls — scored with ridge regression; and, without
recordings, how well a category read-out of the model's IT layer transfers from photographs to those domains.

``Igustibagus2024-ridge`` as brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_neural.py
(``Igustibagus2024_ridge`` and ``load_domain_transfer``) computes it:

* the first time bin, 70–170 ms (``sel(time_bin_id=0)``: brainpipe's ``exact_time_bin``);
* the neuroids whose split-half internal consistency, measured on every trial of every stimulus (Brain-Score's
  ``internal_consistency`` ceiling's per-neuroid values, mean over its 10 splits), exceeds 0.7 (``filter_neuroids``),
  then the presentations without any response dropped; then the stimuli of the sources COCOColor, Art, COCOGray,
  TDW, Silhouette and the styles listed in ``INCLUDE_OBJECTS`` (brainpipe.data.selection);
* metric ``ridge`` (sklearn Ridge, alpha 1: Brain-Score's ``ridge`` is ``ridge_cv``, a CrossRegressedCorrelation of
  ``ridge_regression()``), 10 StratifiedShuffleSplits by ``object_label`` (train 0.9, random_state 1), whose train
  stimuli sharing a non-zero ``background_id`` with the test stimuli are dropped (``_preprocess_indices``);
* ceiling ``internal_consistency`` of the selected trials; score raw² / ceiling (NeuralBenchmark's
  ``explained_variance``); version 2, parent IT, 63 trials, 8°, and Brain-Score's (empty) BIBTEX.

Three positional quirks of Brain-Score's code are reproduced, so that the numbers agree (brainpipe.data.selection,
brainpipe.neural.metrics): its neuroid mask is computed in neuroid_id order (its correlation sorts the neuroids) but
applied by position to the file's neuroid order; its averaged stimuli are in its groupby's order (sorted by the
file's first presentation coordinate, not by stimulus_id), on which its splits are drawn; and ``_preprocess_indices`` reads each split position's ``background_id`` in the *model's* assembly
(stimulus-set order) while the positions index the recordings' stimuli (sorted by stimulus_id): the background ids
it compares are not those of the split's stimuli. brainpipe reads them as it does (brainpipe.neural.metrics
``fold_indices`` with the activations' order), so the numbers agree; a split whose train and test parts share no
non-zero background id fails in Brain-Score (it indexes with a tuple) and here.

``Igustibagus2024.IT_readout-accuracy`` as brain-score/vision brainscore_vision/benchmarks/igustibagus2024/
domain_transfer_analysis.py (``OOD_AnalysisBenchmark``) computes it: no recordings; the model's IT layer (70–170 ms)
on every image of the stimulus set at 8°, read out for object label by StandardScaler + RidgeClassifierCV trained on
photographs and tested, 2AFC, on 13 domains, 1000 splits (brainpipe.neural.category_transfer); score = the mean over
domains, unceiled (ceiling Score(1)), version 1, parent engineering. Brain-Score draws the splits without a seed
(numpy's global generator: its score changes from run to run); brainpipe draws them from
``RandomState(READOUT_SEED)`` (0), which gives Brain-Score's splits when numpy's global generator is seeded with 0
just before its first draw (tests/reference/make_igustibagus2024_reference.py does so).

Data: brain-score/vision brainscore_vision/data/igustibagus2024/__init__.py (assembly and stimulus set
``Igustibagus2024``, sha1s). Brain-Score marks the data as not publicly available (metadata.yaml): with access,
point ``data.local_files`` at the files.
"""

from ..base import Family, Selection
from ..custom import CustomBenchmark
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_neural.py",
           "brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_analysis.py",
           "brain-score/vision brainscore_vision/benchmarks/igustibagus2024/__init__.py",
           "brain-score/vision brainscore_vision/data/igustibagus2024/__init__.py")

#: Brain-Score's ridge benchmark's BIBTEX: an empty string (three newlines) in domain_transfer_neural.py
BIBTEX = ""
#: The readout benchmark's BIBTEX (domain_transfer_analysis.py)
BIBTEX_READOUT = """@inproceedings{bagus2022primate,
  title={Primate inferotemporal cortex neurons generalize better to novel image distributions than analogous deep neural networks units},
  author={Bagus, Ayu Marliawaty I Gusti and Marques, Tiago and Sanghavi, Sachi and DiCarlo, James J and Schrimpf, Martin},
  booktitle={SVRHM 2022 Workshop@ NeurIPS},
  year={2022}
}"""
#: Brain-Score draws the readout's splits unseeded (numpy's global generator); brainpipe seeds them with this
READOUT_SEED = 0
READOUT_SPLITS = 1000

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 63
CONSISTENCY_THRESHOLD = 0.7
INCLUDE_SOURCES = ("COCOColor", "Art", "COCOGray", "TDW", "Silhouette")
INCLUDE_OBJECTS = ("silhouettes", "edges", "original", "sketch", "textures", "painting", "mosaic", "grayscale",
                   "convex_hull", "outline", "silhouette", "line_drawing", "cartoon")

ASSEMBLIES = {
    "Igustibagus2024": brainio_assembly("Igustibagus2024", "eb180ddd1ae0144b5927fab00fd62ecd1aa98003",
                                       "Igustibagus2024"),
}
STIMULUS_SETS = {
    "Igustibagus2024": brainio_stimuli("Igustibagus2024", "df68b579e564eadee486212a0528dce0957828d9",
                                       "9aa13d94da49fb7535ef14115633fc58a4810a61"),
}



class DomainTransferReadout(CustomBenchmark):
    """``Igustibagus2024.IT_readout-accuracy``: no recordings; the model's IT layer read out for object category,
    trained on photographs and tested on each other domain (brainpipe.neural.category_transfer). Score = the
    mean 2AFC accuracy over domains, unceiled (Brain-Score's ceiling is Score(1))."""

    family = "Igustibagus2024readout"
    data = "Igustibagus2024readout"
    regions = ("IT",)
    metric = "accuracy"
    version = 1
    parent = "engineering"
    bibtex = BIBTEX_READOUT
    normalisation = "none"

    def ceiling(self, trials):
        return {"ceiling": 1.0, "error": 0.0}

    def compare(self, activations, target):
        from brainpipe.neural.category_transfer import transfer_accuracy

        layer = activations.transpose("presentation", ...)
        features = layer.values.reshape(layer.sizes["presentation"], -1)
        domains, accuracies = transfer_accuracy(
            features, target["object_label"].values, target["stimulus_source"].values,
            target["object_style"].values, target["background_id"].values, n_splits=READOUT_SPLITS,
            random_state=READOUT_SEED)
        per_domain = accuracies.mean(axis=0)
        return {"raw": float(per_domain.mean()), "error": float(per_domain.std()),
                **{f"domain_{name}": float(value) for name, value in zip(domains, per_domain)}}


FAMILIES = [
    Family(name="Igustibagus2024", dataset="Igustibagus2024", stimulus_set="Igustibagus2024", regions=("IT",),
           visual_degrees=VISUAL_DEGREES, stratification="object_label", time_window=(70, 170), exact_time_bin=True,
           number_of_trials=NUMBER_OF_TRIALS, region_in_identifier=False, allowed_metrics=("ridge",),
           selection=Selection(CONSISTENCY_THRESHOLD, presentation_filter=(("stimulus_source", INCLUDE_SOURCES),
                                                                           ("object_style", INCLUDE_OBJECTS)),
                               train_exclusion="background_id"),
           coords=(("time_bin_end", "time_bin_stop"),), version=2, parent="IT",
           bibtex=BIBTEX, sources=SOURCES,
           notes="domain-transfer images (photographs, drawings, paintings, silhouettes, ...), time bin 70–170 ms; "
                 "neuroids with split-half consistency > 0.7; ridge, train stimuli sharing a background with the "
                 "test stimuli dropped; not public (Brain-Score): use data.local_files"),
    Family(name="Igustibagus2024readout", dataset="Igustibagus2024readout", stimulus_set="Igustibagus2024",
           regions=("IT",), visual_degrees=VISUAL_DEGREES, stratification=None, time_window=(70, 170),
           number_of_trials=1, source="stimuli", ceiling="custom", plugin=DomainTransferReadout(),
           identifiers=(("Igustibagus2024.IT_readout-accuracy", "IT", "accuracy"),), parent="engineering",
           version=1, bibtex=BIBTEX_READOUT, sources=SOURCES,
           notes="no recordings: the model's IT layer read out for object category, trained on photographs, 2AFC "
                 f"accuracy on other image domains; {READOUT_SPLITS} splits seeded with {READOUT_SEED} "
                 "(Brain-Score: unseeded); score = raw"),
]
