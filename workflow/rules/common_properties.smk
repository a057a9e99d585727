# Functions of the properties rules (workflow/rules/properties.smk), kept apart from the rules as Snakemake's
# linter asks; included by the Snakefile just before them.
from brainpipe.properties.ks_similarity import DEFAULT_SEED as PROPERTIES_SEED


def properties_family(neurons):
    """The first family whose units -> neurons definition is ``neurons`` (they agree on its stimulus sets)."""
    for family in REGISTRY.families.values():
        if family.neurons is not None and family.neurons.name == neurons:
            return family
    raise WorkflowError(f"no properties benchmark family defines neurons {neurons!r}")


def property_set_key(measure):
    """A property set's file name: the built-in set's name, or plugin_<file stem> for a user's function."""
    if measure.property_set.startswith("plugin:"):
        return "plugin_" + Path(measure.property_set.split(":", 1)[1]).stem
    return measure.property_set


def properties_measure(neurons, key):
    """A measure (any) of the property set ``key`` computed on top of ``neurons``: its set and stimuli."""
    for family in REGISTRY.families.values():
        if family.neurons is not None and family.neurons.name == neurons:
            for measure in family.properties:
                if property_set_key(measure) == key:
                    return family, measure
    raise WorkflowError(f"no properties benchmark computes property set {key!r} on neurons {neurons!r}")


def properties_stimuli_key(model_name, family, stimulus_set):
    """The stimulus folder a model sees for one of a properties family's sets (placed when degrees differ): the
    neurons' sets at their degrees, the property stimuli at the family's (Brain-Score places each set by its own
    ``degrees``)."""
    target = float(get_model(model_name).get("visual_degrees", 8))
    source = float(family.visual_degrees)
    if stimulus_set in family.neurons.stimulus_sets and family.neurons.visual_degrees is not None:
        source = float(family.neurons.visual_degrees)
    return stimulus_set if target == source else screen.placed_identifier(stimulus_set, target, source)


def properties_layer_file(wildcards, family, stimulus_set):
    return layer_file(wildcards.model, properties_stimuli_key(wildcards.model, family, stimulus_set),
                      wildcards.layer)


def properties_stimuli(wildcards, family, stimulus_set):
    return stimuli_path(properties_stimuli_key(wildcards.model, family, stimulus_set))


def neurons_inputs(wildcards, which):
    family = properties_family(wildcards.neurons)
    stimulus_set = getattr(family.neurons, f"{which}_stimulus_set")
    return {"activations": properties_layer_file(wildcards, family, stimulus_set),
            "stimuli": properties_stimuli(wildcards, family, stimulus_set)}


def blank_file(wildcards):
    family = properties_family(wildcards.neurons)
    return properties_layer_file(wildcards, family, family.neurons.blank_stimulus_set)


def properties_data_file(dataset):
    return f"resources/properties/{dataset}.nc"


def property_set_inputs(wildcards):
    """The property set's stimuli and their activations, and a user's property function file."""
    family, measure = properties_measure(wildcards.neurons, wildcards.property_set)
    inputs = {"activations": properties_layer_file(wildcards, family, measure.stimulus_set),
              "stimuli": properties_stimuli(wildcards, family, measure.stimulus_set)}
    if measure.property_set.startswith("plugin:"):  # editing the user's file reruns the set
        inputs["plugin"] = measure.property_set.split(":", 1)[1]
    return inputs
