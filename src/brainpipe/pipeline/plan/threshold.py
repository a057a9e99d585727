"""Threshold benchmarks (Malania2007; brainpipe.behaviour.threshold_stages; workflow/rules/threshold.smk). A
threshold benchmark reads the model's readout layer on microsaccade trials of several stimulus sets
(results/trial_activations/...), one readout per fitting set (results/thresholds/...), and the human thresholds of
several data sets (resources/thresholds/<data set>.nc); its ceiling and layer score come from these rules, so the
generic ceiling and score_layer rules exclude its identifiers (patterns.generic_benchmark)."""

from __future__ import annotations

import functools

from brainpipe.behaviour import threshold_stages
from .errors import PlanError


def _stimulus_set(key: str) -> str:
    """The stimulus set of a stimulus folder (the original, or a copy placed on a model's screen)."""
    return key.split("--target")[0]


class Thresholds:
    def __init__(self, plan):
        self.plan = plan

    @functools.cached_property
    def identifiers(self) -> list[str]:
        """The registry's threshold benchmarks, in its order."""
        return [b.identifier for family in self.plan.families for b in family.behaviours
                if b.identifier and b.metric in threshold_stages.THRESHOLD_METRICS]

    @functools.cached_property
    def benchmarks(self) -> list[str]:
        """The registry's threshold benchmarks, sorted."""
        return sorted(self.identifiers)

    @functools.cached_property
    def datasets(self) -> list[str]:
        """Every data set of human thresholds a threshold benchmark reads (fetch_thresholds)."""
        return sorted({d for i in self.benchmarks for d in self.datasets_of(self.plan.benchmark(i))})

    def benchmark(self, wildcards):
        """The threshold benchmark ``wildcards.benchmark``."""
        b = self.plan.benchmark(wildcards.benchmark)
        if not threshold_stages.is_threshold(b):
            raise PlanError(f"{wildcards.benchmark} is not a threshold benchmark")
        return b

    def metric(self, wildcards) -> str:
        return self.benchmark(wildcards).behaviour.metric

    def settings(self, wildcards) -> dict:
        """The threshold benchmark's resolved settings (threshold_stages.spec)."""
        return threshold_stages.spec(self.benchmark(wildcards))

    def readouts(self, wildcards) -> list[list[str]]:
        """The (fitting, test) stimulus sets of each readout the benchmark reads, as lists (a param)."""
        return [list(pair) for pair in threshold_stages.readouts(self.benchmark(wildcards))]

    def benchmark_datasets(self, wildcards) -> list[str]:
        return self.datasets_of(self.benchmark(wildcards))

    @staticmethod
    def datasets_of(b) -> list[str]:
        """The human data sets a threshold benchmark reads: its baseline's, then each condition's."""
        s = threshold_stages.spec(b)
        return [s["baseline"][0]] + [c[0] for c in s["conditions"]]

    def human_files(self, wildcards) -> dict:
        return {d: f"resources/thresholds/{d}.nc" for d in self.datasets_of(self.benchmark(wildcards))}

    def readout_file(self, model_name: str, b, fitting: str, test: str) -> str:
        """The readout fitted on ``fitting``'s trials and read out on ``test``'s, with the model's threshold."""
        s = threshold_stages.spec(b)
        stimuli_key = self.plan.activations.stimuli_key
        return (f"results/thresholds/{model_name}/{self.plan.behaviour.layer_of(model_name, b)}/"
                f"{stimuli_key(model_name, b, fitting)}--trials{s['fitting_trials']}/"
                f"{stimuli_key(model_name, b, test)}--trials{s['test_trials']}.json")

    def readout_files(self, wildcards) -> list[str]:
        b = self.benchmark(wildcards)
        return [self.readout_file(wildcards.model, b, fitting, test) for fitting, test in threshold_stages.readouts(b)]

    @staticmethod
    def readout_inputs(wildcards) -> dict:
        """A readout's fitting and test trials' features and their stimulus folders."""
        fitting, test = _stimulus_set(wildcards.fitting), _stimulus_set(wildcards.stimuli)
        base = f"results/trial_activations/{wildcards.model}"
        return {"fitting": f"{base}/{wildcards.fitting}/trials{wildcards.fitting_trials}/{wildcards.layer}.nc",
                "test": f"{base}/{wildcards.stimuli}/trials{wildcards.test_trials}/{wildcards.layer}.nc",
                "fitting_stimuli": f"resources/stimuli/{fitting}", "test_stimuli": f"resources/stimuli/{test}"}

    def readout_settings(self, wildcards) -> dict:
        """The settings of the first threshold benchmark using this readout (they share the ones that matter)."""
        fitting, test = _stimulus_set(wildcards.fitting), _stimulus_set(wildcards.stimuli)
        for identifier in self.plan.registry.identifiers():
            if identifier in self.benchmarks:
                b = self.plan.benchmark(identifier)
                if (fitting, test) in threshold_stages.readouts(b):
                    s = threshold_stages.spec(b)
                    return {"threshold_accuracy": s["threshold_accuracy"],
                            "independent_variable": s["independent_variable"]}
        raise PlanError(f"no threshold benchmark reads {test} out of a readout fitted on {fitting}")
