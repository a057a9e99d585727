"""Ferguson2024: human visual-search asymmetry (BRAVO oddball detection), 14 experiments, each scored by the value
delta of the area under the (second − first block) accuracy line over 1, 5 and 11 distractors.

Constants: brain-score/vision brainscore_vision/benchmarks/ferguson2024/benchmark.py (``Ferguson2024<exp>-value_delta``:
visual degrees 8, 3 trials, version 1, parent 'behavior'; probabilities readout fitted on
``Ferguson2024_<exp>_training_stimuli`` with ``image_label`` = 'oddball' for an even ``image_number``, else 'same';
value_delta with scale 0.75; PRECOMPUTED_CEILINGS (ceiling, error); ceiled = min(max(raw / ceiling, 0), 1)),
brainscore_vision/benchmarks/ferguson2024/helpers/helpers.py (LAPSE_RATES: the *human* lapse rate corrects model
and human accuracies alike), brainscore_vision/benchmarks/ferguson2024/test.py (alexnet raw and ceiled scores) and
brainscore_vision/data/ferguson2024/__init__.py, data/ferguson2024/test.py (object names, sha1s, sizes).
Metric: metrics/value_delta/metric.py; integral and model choices: brainpipe.behaviour.value_delta.
"""

from typing import NamedTuple

from ..base import Behaviour, Family, Readout
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/ferguson2024/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/ferguson2024/helpers/helpers.py",
           "brain-score/vision brainscore_vision/data/ferguson2024/__init__.py",
           "brain-score/vision brainscore_vision/metrics/value_delta/metric.py")

BIBTEX = """@misc{ferguson_ngo_lee_dicarlo_schrimpf_2024,
  title={How Well is Visual Search Asymmetry predicted by a Binary-Choice, Rapid, Accuracy-based Visual-search, Oddball-detection (BRAVO) task?},
  url={osf.io/5ba3n}, DOI={10.17605/OSF.IO/5BA3N}, publisher={OSF},
  author={Ferguson, Michael E, Jr and Ngo, Jerry and Lee, Michael and DiCarlo, James and Schrimpf, Martin},
  year={2024}, month={Jun}}"""

SCALE = 0.75  # value_delta scale ("chosen after calibrating with ceiling", benchmark.py)
TEST_IMAGES, TRAINING_IMAGES = 48, 1920  # 1920 = 320 × 3 distractor levels × 2 blocks
TEST_CSV_SHA1 = "bc351933e1f21eee9704985c1b8231be6955d816"  # every experiment but circle_line
TEST_CSV_SHA1_CIRCLE_LINE = "fc59d23ccfb41b4f98cf02865fc335439d2ad222"
TRAINING_CSV_SHA1 = "098eb5999e9c4b723abc35ade862d2dc45899230"  # every experiment



class Experiment(NamedTuple):
    assembly_sha1: str
    test_zip_sha1: str
    training_zip_sha1: str
    subjects: int
    trials: int
    ceiling: tuple       # PRECOMPUTED_CEILINGS: (ceiling, error)
    lapse_rate: float    # LAPSE_RATES (human)
    alexnet: tuple       # benchmarks/ferguson2024/test.py: alexnet (raw, ceiled), abs .001


EXPERIMENTS = {
    "circle_line": Experiment("586da7b1c7cb5a60fe72bc148513e3159a27b134", "1f0065910b01a1a0e12611fe61252eafb9c534c3",
                    "ba9088601d8c79ea5ff3d513e1a76b1232491918", 30, 4292, (.883, .078), .0335, (.143, .162)),
    "color": Experiment("5b5d67fa3189db9984006910d1954586e6a5a9f3", "6ad04c58de8cc8c28b309572cc41c86470f0c322",
              "dcd5044c73e7523afc94f91543adb444a437f911", 29, 4132, (.897, .072), .0578, (.645, .719)),
    "convergence": Experiment("5165c4b0da30826b89c2c242826bb79a4417b9a5", "d65bdf6654e08c9107a20028281ab5e38a0be981",
                    "00eb401ddfc075a4bb448ec36b8a1c8f3ec1d6e4", 27, 3874, (.862, .098), .0372, (.024, .028)),
    "eighth": Experiment("984f9498c42b14cfae6c7272a8707df96fea7ee2", "6ee1931b316fd4ccf6eeb16788aa42bb7a36aa41",
               "26edaec1d0dd14343a117340283e091a2245f3aa", 30, 4302, (.852, .107), .05556, (.093, .109)),
    "gray_easy": Experiment("7b09c2f1e8199e680167cfeb124c28dc68c804ab", "da76bdebf46fe0eb853ea1b877274b1f26f56dfc",
                  "18211af83c680d5c916ec15b57b5b871494d6b28", 28, 4047, (.907, .064), .0414, (.799, .882)),
    "gray_hard": Experiment("2fa35d41e73053ece6d1f0120ca4dc9bc4a9d4ae", "93f02c051f4d89fe059345c0af7ba6fc83b65b35",
                  "a54d84dbb548706bbfeb239113a1d92205dc3f67", 29, 4143, (.863, .099), .02305, (.609, .706)),
    "half": Experiment("b65e14c5d62fee715438a613e55fffa5e6f76c40", "6461a1d19e031943d42e97e8b557a97d14b18c55",
             "0db665619307d5c532a3ccd4311611e5a3830a10", 29, 4162, (.898, .077), .0637, (.379, .423)),
    "juncture": Experiment("b18148383ef2158aa795b3cff8a8e237e08b5070", "832102f1eaa713fdfd03c512df2b8feea422c61d",
                 "eb99fd862bec5e61900d037b6b38abf2a278c9f0", 27, 3876, (.767, .141), .3715, (.191, .248)),
    "lle": Experiment("08e98305657cd374d9ea103df0fe06783a70344a", "27817e955da9e4747d2aeb8757b7f6492bc7767e",
            "a1d19d0b77f0eb17ae886a1b7ccc649c5e51d84e", 29, 4167, (.831, .116), .0573, (.208, .250)),
    "llh": Experiment("864d49c00e777f3d464c6c0c59fee087c1de9037", "56cdf86ecd0b52349b29b2ab0be89daeed9b0eb6",
            "1550f9f71e6930caa15b96aaf811aa97d48d7267", 28, 4166, (.812, .123), .0402, (.654, .805)),
    "quarter": Experiment("921b3b51208cdd5f163eca288ea83be47a2b482f", "c16c5ecf1f38af0d02255a78a6c438074ec8d446",
                "22669e4a94718b3cbde3f5b2a493044bc091257e", 28, 4050, (.876, .087), .0534, (.223, .255)),
    "round_f": Experiment("acb19ac865b45199a58609db31d3e885ff272fd4", "7f456e390cb93805187266d05756beb9cf225e1d",
                "e33855c899f78a115cf377a228e07d87baa554b7", 30, 4380, (.874, .088), .08196, (.455, .520)),
    "round_v": Experiment("ce0361c4386dc7b8866d78023044b3009c84aa4b", "cebb84d2363c1539368e3e1b1bfd83305ad9ae13",
                "b1555f8a140a12e01a87a2f4e452d5863be43a5b", 29, 4257, (.853, .101), .0561, (.212, .249)),
    "tilted_line": Experiment("1806034da0c25e8625255eb94dc0a05c7e9cda1f", "bb3d7bcb60ba586c8552266839187a59c2b3138f",
                    "e92533d8aded07ed90ef25650d0cf07c3a458be7", 30, 4314, (.912, .064), .04986, (.445, .489)),
}


def identifiers(experiment: str) -> dict:
    """Data, stimulus sets and benchmark identifier of one experiment (upstream's names)."""
    return dict(assembly=f"Ferguson2024_{experiment}", stimulus_set=f"Ferguson2024_{experiment}",
                fitting_stimuli=f"Ferguson2024_{experiment}_training_stimuli",
                family=f"Ferguson2024{experiment}", benchmark=f"Ferguson2024{experiment}-value_delta")


def _family(experiment: str, data: Experiment) -> Family:
    ids = identifiers(experiment)
    value, error = data.ceiling
    return Family(
        name=ids["family"], dataset=ids["assembly"], stimulus_set=ids["stimulus_set"], regions=(), visual_degrees=8,
        stratification=None,
        # upstream derives image_label from this column's parity (brainpipe.behaviour.value_delta.oddball_labels)
        readout=Readout(ids["fitting_stimuli"], label_column="image_number"),
        behaviours=(Behaviour("value_delta", task="probabilities", metric="value_delta",
                              normalisation="raw_over_ceiling", clip=True, ceiling=value, number_of_trials=3,
                              parent="behavior", version=1,
                              options=(("scale", SCALE), ("lapse_rate", data.lapse_rate), ("ceiling_error", error))),),
        notes=f"{data.subjects} subjects × {data.trials} trials on {TEST_IMAGES} images; readout fitted on "
              f"{TRAINING_IMAGES} training images", bibtex=BIBTEX, sources=SOURCES)


ASSEMBLIES, STIMULUS_SETS, FAMILIES = {}, {}, []
for _experiment, _data in EXPERIMENTS.items():
    _ids = identifiers(_experiment)
    ASSEMBLIES[_ids["assembly"]] = brainio_assembly(_ids["assembly"], _data.assembly_sha1, _ids["stimulus_set"])
    _test_csv = TEST_CSV_SHA1_CIRCLE_LINE if _experiment == "circle_line" else TEST_CSV_SHA1
    STIMULUS_SETS[_ids["stimulus_set"]] = brainio_stimuli(_ids["stimulus_set"], _test_csv, _data.test_zip_sha1)
    STIMULUS_SETS[_ids["fitting_stimuli"]] = brainio_stimuli(_ids["fitting_stimuli"], TRAINING_CSV_SHA1,
                                                             _data.training_zip_sha1)
    FAMILIES.append(_family(_experiment, _data))
