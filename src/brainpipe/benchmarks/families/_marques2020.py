"""What the 22 Marques2020 V1 properties benchmarks share: the stimulus sets, how units become neurons, the data
files' catalog entries. Each source experiment has its module (marques2020_<experiment>.py).

Sources: brain-score/vision brainscore_vision/data/marques2020/__init__.py (identifiers, sha1s of the property
assemblies and stimulus sets; each assembly's stimulus set), benchmark_helpers/properties_common.py (the
receptive-field, blank and orientation sets every benchmark maps its units on),
data/marques2020/data_packaging/marques_gen_stim.py (the grating sets span 12°, the texture set 8°; time bin
70–170 ms, which a static model ignores).
"""

from brainpipe.data.catalog import brainio_assembly, brainio_stimuli

from ..base import Family, Neurons, PropertyMeasure

SOURCES = ("brain-score/vision brainscore_vision/data/marques2020/__init__.py",
           "brain-score/vision brainscore_vision/benchmark_helpers/properties_common.py")
#: the grating sets' ``degrees`` (data_packaging/marques_gen_stim.py DEGREES; TEXTURE_DEGREES for the textures)
GRATING_DEGREES = 12
TEXTURE_DEGREES = 8

STIMULUS_SETS = {
    "Marques2020_blank": brainio_stimuli("Marques2020_blank", "c02d44b0d3e157b29c6b96c5c5a478a8b37dc70b",
                                         "5c4eef94691d6d63f8b1610918728b8531fc861e"),
    "Marques2020_receptive_field": brainio_stimuli("Marques2020_receptive_field",
                                                   "e3681c69122b20ff3dd22486f546a26b3a97e057",
                                                   "fc21a9302bb0fca85350049ab740af80f2307ece"),
    "Marques2020_orientation": brainio_stimuli("Marques2020_orientation", "b316c6d9c6ddb58f8f21e79ae2b59b03933c0068",
                                               "6a02466e221ac314da2db2969c89688dff64ab1b"),
    "Marques2020_spatial_frequency": brainio_stimuli("Marques2020_spatial_frequency",
                                                     "31d0293c8aa1590f4680bb8a9446f56135b8d646",
                                                     "6fdeee4366514b9a0ff9c52e52c13762a62ceaab"),
    "Marques2020_size": brainio_stimuli("Marques2020_size", "0fd0aeea8fa6ff2b30ee9a6a684d4600590d631f",
                                        "11122de2784218b7dd4cd0b557e62583ca7ee283"),
    "FreemanZiemba2013_properties": brainio_stimuli("FreemanZiemba2013_properties",
                                                    "6f7bcb5d0c01e81c9fbdcec9bf586cbb579a9b02",
                                                    "c64a0d6b447676a6d5cff3d3625a5f294e62ff97"),
}

#: registry key -> (Brain-Score identifier, sha1, stimulus set)
PROPERTY_DATA = {
    "Ringach2002": ("shapley.Ringach2002", "0f3e19140bd9f930109879a38e574471d9576cf5", "Marques2020_orientation"),
    "DeValois1982a": ("devalois.DeValois1982a", "8f4fd70e987c3c566b5b6c6bf15ef27637618b2c",
                      "Marques2020_orientation"),
    "DeValois1982b": ("devalois.DeValois1982b", "611176eefdac09feaa4c07f081784c24067629e1",
                      "Marques2020_spatial_frequency"),
    "Schiller1976c": ("schiller.Schiller1976c", "58daa02ba2680e75dcb11b37eb6085c4afb6576e",
                      "Marques2020_spatial_frequency"),
    "Cavanaugh2002a": ("movshon.Cavanaugh2002a", "d4b24f4bbf8a14138a8e98391ab03796c2c05e7d", "Marques2020_size"),
    "FreemanZiemba2013_V1_properties": ("movshon.FreemanZiemba2013_V1_properties",
                                        "e665522d9a32e6cd6c3ebc61ff65fd3899c8d3e6", "FreemanZiemba2013_properties"),
}

NEURONS = Neurons("Marques2020", receptive_field_stimulus_set="Marques2020_receptive_field",
                  blank_stimulus_set="Marques2020_blank", orientation_stimulus_set="Marques2020_orientation",
                  visual_degrees=GRATING_DEGREES)


def assemblies(*keys):
    """The catalog entries of some property data sets (what the fetch rule downloads and checks)."""
    return {key: brainio_assembly(*PROPERTY_DATA[key]) for key in keys}


def stimulus_sets(*keys):
    return {key: STIMULUS_SETS[key] for key in keys + NEURONS.stimulus_sets}


def family(name, measures, property_set, dataset, *, bibtex, sources, degrees=GRATING_DEGREES):
    """A Marques2020 family: measures = ((identifier suffix, property, parent), ...) of one property set."""
    stimulus_set = PROPERTY_DATA[dataset][2]
    return Family(name=name, dataset=dataset, stimulus_set=stimulus_set, regions=("V1",), visual_degrees=degrees,
                  stratification=None, time_window=(70, 170), number_of_trials=20, ceiling="computed",
                  properties=tuple(PropertyMeasure(suffix, prop, property_set, stimulus_set, dataset, parent)
                                   for suffix, prop, parent in measures),
                  neurons=NEURONS, bibtex=bibtex, sources=SOURCES + tuple(sources),
                  notes=f"V1 single-neuron property distributions ({dataset}), Marques et al. 2021")
