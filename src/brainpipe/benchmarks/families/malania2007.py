"""Malania2007: vernier thresholds of humans with and without flankers (Malania, Herzog & Westheimer 2007), compared
with the threshold of a linear readout of the model (a probabilities task) on the same vernier stimuli.

Constants: brain-score/vision brainscore_vision/benchmarks/malania2007/benchmark.py and __init__.py (identifiers
``Malania2007.<condition>-threshold_elevation`` for the 9 flanker conditions and
``Malania2007.vernieracuity-threshold``, kept verbatim: they read as '<Family>.<region>-<metric>' but name no region;
version 1, parent 'Malania2007'; stimuli at 2.986667° placed on the model's screen; probabilities task fitted on the
condition's ``_fit`` stimuli with 2 microsaccade trials (``require_variance=True``), test stimuli seen with 10;
independent variable and label ``image_label``; threshold at 75 % correct; baseline condition ``vernier_only``).

* ``<condition>-threshold_elevation``: the model's threshold on the condition's stimuli over its threshold on the
  vernier-only stimuli (one readout, fitted on the condition's fitting stimuli), against each human's elevation
  (the two human files paired by position after dropping the subjects without a condition threshold:
  ``filter_baseline_subjects``); ceiling: leave-one-out over the humans' elevations; score = raw / ceiling (not
  capped). A failed fit in either condition scores 0.
* ``vernieracuity-threshold``: for each of the 9 conditions, a readout fitted on that condition's fitting stimuli,
  then the model's threshold on the vernier-only stimuli; raw = the threshold's score against the humans'
  vernier-only thresholds (the subjects kept for that condition); ceiling = the mean over conditions of the
  leave-one-out ceiling of those thresholds; score = mean over conditions of min(raw / ceiling, 1).
  Upstream passes the metric the *dict* of the condition's two assemblies as the target, so as soon as one fit
  succeeds, scoring iterates the dict's keys and raises TypeError (tests/data/threshold_reference.json records
  it); its ceiling uses the vernier-only thresholds, and brainpipe scores against those, the evident intent.
  Where every fit fails both give 0.

Data: brainscore_vision/data/malania2007/__init__.py (object names ``Malania2007_<condition with '-'>``, bucket
brainscore-storage/brainio-brainscore, version ids 'null', sha1s below); assemblies are PropertyAssemblies of one
threshold (arcsec) per ``subject``, NaN where a subject did not run the condition. Metric:
brainpipe.behaviour.threshold (metrics/threshold/metric.py); microsaccades: brainpipe.models.microsaccades
(model_helpers/activations/core.py).
"""

from ..base import Behaviour, Family, Readout
from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

SOURCES = ("brain-score/vision brainscore_vision/benchmarks/malania2007/benchmark.py",
           "brain-score/vision brainscore_vision/benchmarks/malania2007/__init__.py",
           "brain-score/vision brainscore_vision/data/malania2007/__init__.py",
           "brain-score/vision brainscore_vision/metrics/threshold/metric.py",
           "brain-score/vision brainscore_vision/model_helpers/activations/core.py")

BIBTEX = """@article{malania2007,
  author = {Malania, Maka and Herzog, Michael H. and Westheimer, Gerald},
  title = {Grouping of contextual elements that affect vernier thresholds},
  journal = {Journal of Vision}, volume = {7}, number = {2}, pages = {1-1}, year = {2007}, issn = {1534-7362},
  doi = {10.1167/7.2.1}, url = {https://doi.org/10.1167/7.2.1}}"""

VISUAL_DEGREES = 2.986667
BASELINE = "vernier_only"
#: the 9 flanker conditions, in upstream's DATASETS order (the vernier-acuity mean runs over them in this order)
CONDITIONS = ("short2", "short4", "short6", "short8", "short16", "equal2", "long2", "equal16", "long16")
FITTING_TRIALS = 2   # start_task(..., number_of_trials=2, require_variance=True)
TEST_TRIALS = 10     # self._number_of_trials
THRESHOLD_ACCURACY = 0.75
INDEPENDENT_VARIABLE = "image_label"

#: condition -> assembly sha1 (data/malania2007/__init__.py)
ASSEMBLY_SHA1 = {
    "equal2": "277b2fbffed00e16b6a69b488f73eeda5abaaf10", "equal16": "ef49506238e8d2554918b113fbc60c133077186e",
    "long2": "9076a5b693948c4992b6c8e753f04a7acd2014a1", "long16": "3106cf1f2fa9e66617ebf231df05d29077fc478f",
    "short2": "85fb65ad76de48033c704b9c5689771e1ea0457d", "short4": "75506be9a26ec38a223e41510f1a8cb32d5b0bc9",
    "short6": "2901be6b352e67550da040d79d744819365b8626", "short8": "6daf47b086cb969d75222e320f49453ed8437885",
    "short16": "8ae0898caad718b747f85fce5888416affc3a569", "vernier_only": "1cf83e8b6141f8b0d67ea46994f342325f62001f",
}
#: stimulus set (condition, or condition + '_fit') -> (csv sha1, zip sha1)
STIMULI_SHA1 = {
    "equal2": ("36f3c92a1335895b10c4150f5c25a68ab4576d4a", "80be52e8701ecb8e7fbb81c0bff9c148ddc2b401"),
    "equal2_fit": ("b7105f44d5d781f5e06159008a3f63c9f774c2d1", "ba5c1bacbb4afe40c5a19eddb07fc9f98312ec69"),
    "equal16": ("14f9f7098831691811abf9953766951edc952203", "5127e88eaed1ef64247c7cb4262868533fb4ebae"),
    "equal16_fit": ("2ff7f2f97250b9bcce3d2753be6e5b98e083892b", "db07ef4862fd9cb65c1e726cacc5914821296a5b"),
    "long2": ("153b987c4c6b8a22efb88be26aaa46bd36912c9b", "07bb413d56ac77fc71823559780cdb16e4df563d"),
    "long2_fit": ("8b6d1557879e6271554c0fcb67bf6b2941dad2c8", "66205529af748ffd88579caef86b107838c0b0da"),
    "long16": ("6c5d45b489bc290e41013d211d18570368012c9b", "10944e5b65e8da9e52087d3cbbdc6575538c2847"),
    "long16_fit": ("603dc8edb169f39e322f8980972eda1930c300ed", "a67330e18f1e5d9ad3829d8d8c000487fe3e4d48"),
    "short2": ("c8bb84c5468a43348149afe24d5c0ebda233d54e", "1739226e7e32f60a7bb060fecc14c4a6353ca2ad"),
    "short2_fit": ("600c754811aa27d80a155c8ac643a81f2347ce3a", "a1a121dbbbf761caea0a086c2a74ab511f296ed5"),
    "short4": ("181c912c03fdb3e4f89a737584a3a0816859f816", "820019a7f68db60fac11a5c5f3e42037cf205248"),
    "short4_fit": ("65af7b5d3845a7ea284aefba21734e1d298742c8", "5234b449c05a43e726543029137fe26930157b09"),
    "short6": ("57813230e337a09c4c423da927c1f33e62054547", "dab58e8e996f91af643a0b61247e7ef87f35338d"),
    "short6_fit": ("ea7eb26b42fe9e4fc1ac2ed6e9bad439e8077ce1", "895e69c835b22b07ee66a0f5f53e7a108ac8287c"),
    "short8": ("3df9a38605a4590eac8a1151779ba68c3cd54dc1", "7626364e0776b2809ae36d9cb713c6ff9a0d0c05"),
    "short8_fit": ("2782c818056b374e86195cbdb0ab1a52ef0d01da", "ec2fa2a261d965455ffa81acdb0fddef447ad4ff"),
    "short16": ("9f5f4e3597006c50530017ce769c8689d43b06f5", "b67b1e70e8ba698907c95614bcb16eea6ff2f090"),
    "short16_fit": ("5bc0314a6c16095a70049fa5e8df5e9b94345f30", "0ca3930831ca926ea8b8c3600695b639ff05ddb5"),
    "vernier_only": ("c71f654fccf1265a95dd0585c186232a2519e944", "eadff359975c3ba250224ce1942544b091415095"),
}


def key(name: str) -> str:
    """Object identifier of a condition's thresholds or stimuli: 'short2' -> 'Malania2007_short-2',
    'short2_fit' -> 'Malania2007_short-2_fit', 'vernier_only' -> 'Malania2007_vernier-only'."""
    if name.startswith(BASELINE):
        return "Malania2007_vernier-only"
    condition, _, fit = name.partition("_")
    letters = condition.rstrip("0123456789")
    return f"Malania2007_{letters}-{condition[len(letters):]}" + (f"_{fit}" if fit else "")


def identifier(condition: str) -> str:
    return "Malania2007.vernieracuity-threshold" if condition == "vernieracuity" else \
        f"Malania2007.{condition}-threshold_elevation"


ASSEMBLIES = {key(c): brainio_assembly(key(c), sha1, key(c)) for c, sha1 in ASSEMBLY_SHA1.items()}
STIMULUS_SETS = {key(s): brainio_stimuli(key(s), csv, zip_) for s, (csv, zip_) in STIMULI_SHA1.items()}


def _options(conditions):
    """The threshold readout's settings (Behaviour.options): each (condition assembly, test stimuli, fitting
    stimuli) the model is scored on, and the baseline's assembly and test stimuli."""
    return (("conditions", tuple((key(c), key(c), key(f"{c}_fit")) for c in conditions)),
            ("baseline", (key(BASELINE), key(BASELINE))),
            ("fitting_trials", FITTING_TRIALS), ("test_trials", TEST_TRIALS),
            ("threshold_accuracy", THRESHOLD_ACCURACY), ("independent_variable", INDEPENDENT_VARIABLE))


def _family(condition):
    elevation = condition != "vernieracuity"
    conditions = (condition,) if elevation else CONDITIONS
    behaviour = Behaviour("threshold_elevation" if elevation else "threshold", task="probabilities",
                          metric="threshold_elevation" if elevation else "threshold",
                          normalisation="raw_over_ceiling", clip=not elevation, visual_degrees=VISUAL_DEGREES,
                          number_of_trials=TEST_TRIALS, parent="Malania2007", version=1,
                          options=_options(conditions), identifier=identifier(condition))
    first = conditions[0]
    return Family(
        name=f"Malania2007{condition}", dataset=key(first if elevation else BASELINE),
        stimulus_set=key(first if elevation else BASELINE), readout=Readout(key(f"{first}_fit")),
        regions=(), visual_degrees=VISUAL_DEGREES, stratification=None, behaviours=(behaviour,),
        bibtex=BIBTEX, sources=SOURCES,
        notes=(f"{condition} flankers vs vernier only: 50 test and 500 fitting images, 5-6 subjects" if elevation
               else "vernier only, readouts fitted on each of the 9 flanker conditions' fitting images"))


FAMILIES = [_family(c) for c in CONDITIONS + ("vernieracuity",)]
