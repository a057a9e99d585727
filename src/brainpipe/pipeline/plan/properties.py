"""Properties benchmarks (Brain-Score's PropertiesBenchmark, the Marques2020 V1 benchmarks; workflow/rules/
properties.smk): the units -> neurons definition and property set a job computes, and the activations and stimulus
folders it reads, each stimulus set placed on the model's screen at its own degrees."""

from __future__ import annotations

import functools
from pathlib import Path

from brainpipe.data import screen
from .errors import PlanError


class Properties:
    def __init__(self, plan):
        self.plan = plan

    @functools.cached_property
    def datasets(self) -> list[str]:
        """The property tables fetched from Brain-Score (fetch_properties)."""
        return sorted({m.dataset for f in self.plan.families if f.source == "brainio" for m in f.properties})

    def measured(self, dataset: str) -> list[str]:
        """The properties the benchmarks of a property table read (each must be there with its bins)."""
        return sorted({m.property for f in self.plan.families for m in f.properties if m.dataset == dataset})

    def family(self, neurons: str):
        """The first family whose units -> neurons definition is ``neurons`` (they agree on its stimulus sets)."""
        for family in self.plan.families:
            if family.neurons is not None and family.neurons.name == neurons:
                return family
        raise PlanError(f"no properties benchmark family defines neurons {neurons!r}")

    @staticmethod
    def property_set_key(measure) -> str:
        """A property set's file name: the built-in set's name, or plugin_<file stem> for a user's function."""
        if measure.property_set.startswith("plugin:"):
            return "plugin_" + Path(measure.property_set.split(":", 1)[1]).stem
        return measure.property_set

    def measure(self, neurons: str, key: str) -> tuple:
        """(family, measure): a measure (any) of the property set ``key`` computed on top of ``neurons``."""
        for family in self.plan.families:
            if family.neurons is not None and family.neurons.name == neurons:
                for measure in family.properties:
                    if self.property_set_key(measure) == key:
                        return family, measure
        raise PlanError(f"no properties benchmark computes property set {key!r} on neurons {neurons!r}")

    def property_set_of(self, wildcards) -> str:
        """The property set (a built-in set's name, or plugin:<file>) ``wildcards.property_set`` names."""
        return self.measure(wildcards.neurons, wildcards.property_set)[1].property_set

    def stimuli_key(self, model_name: str, family, stimulus_set: str) -> str:
        """The stimulus folder a model sees for one of a properties family's sets (placed when degrees differ): the
        neurons' sets at their degrees, the property stimuli at the family's (Brain-Score places each set by its own
        ``degrees``)."""
        target = float(self.plan.model(model_name).get("visual_degrees", 8))
        source = float(family.visual_degrees)
        if stimulus_set in family.neurons.stimulus_sets and family.neurons.visual_degrees is not None:
            source = float(family.neurons.visual_degrees)
        return stimulus_set if target == source else screen.placed_identifier(stimulus_set, target, source)

    def layer_file(self, wildcards, family, stimulus_set: str) -> str:
        stimuli = self.stimuli_key(wildcards.model, family, stimulus_set)
        return self.plan.activations.layer_file(wildcards.model, stimuli, wildcards.layer)

    def stimuli(self, wildcards, family, stimulus_set: str) -> str:
        return self.plan.activations.stimuli_path(self.stimuli_key(wildcards.model, family, stimulus_set))

    def neurons_inputs(self, wildcards, which: str) -> dict:
        """The activations and stimulus folder of the neurons' ``which`` stimulus set ('receptive_field',
        'orientation')."""
        family = self.family(wildcards.neurons)
        stimulus_set = getattr(family.neurons, f"{which}_stimulus_set")
        return {"activations": self.layer_file(wildcards, family, stimulus_set),
                "stimuli": self.stimuli(wildcards, family, stimulus_set)}

    def blank_file(self, wildcards) -> str:
        """The activations of the neurons' blank stimuli."""
        family = self.family(wildcards.neurons)
        return self.layer_file(wildcards, family, family.neurons.blank_stimulus_set)

    @staticmethod
    def data_file(dataset: str) -> str:
        return f"resources/properties/{dataset}.nc"

    def benchmark_data_file(self, wildcards) -> str:
        """The recorded property table of the benchmark ``wildcards.benchmark``."""
        return self.data_file(self.plan.benchmark(wildcards.benchmark).measure.dataset)

    def model_file(self, wildcards) -> str:
        """The model's property table a properties benchmark's layer score reads."""
        b = self.plan.benchmark(wildcards.benchmark)
        return (f"results/properties/{wildcards.model}/{wildcards.layer}/{b.family.neurons.name}/"
                f"{self.property_set_key(b.measure)}.nc")

    def property_set_inputs(self, wildcards) -> dict:
        """The property set's stimuli and their activations, and a user's property function file."""
        family, measure = self.measure(wildcards.neurons, wildcards.property_set)
        inputs = {"activations": self.layer_file(wildcards, family, measure.stimulus_set),
                  "stimuli": self.stimuli(wildcards, family, measure.stimulus_set)}
        if measure.property_set.startswith("plugin:"):  # editing the user's file reruns the set
            inputs["plugin"] = measure.property_set.split(":", 1)[1]
        return inputs
