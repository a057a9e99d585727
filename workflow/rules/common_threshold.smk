# Threshold benchmarks (Malania2007; brainpipe.behaviour.threshold_stages): input functions of workflow/rules/
import re
# threshold.smk. A threshold benchmark reads the model's readout layer on microsaccade trials of several stimulus
# sets (results/trial_activations/...), one readout per fitting set (results/thresholds/...), and the human
# thresholds of several data sets (resources/thresholds/<data set>.nc); its ceiling and layer score come from these
# rules, so the generic ceiling and score_layer rules exclude its identifiers (NOT_PROPERTIES_BENCHMARK, common.smk).
from brainpipe.behaviour import threshold_stages


def threshold_of(wildcards):
    b = get_benchmark(wildcards.benchmark)
    if not threshold_stages.is_threshold(b):
        raise WorkflowError(f"{wildcards.benchmark} is not a threshold benchmark")
    return b


def threshold_datasets_of(b):
    s = threshold_stages.spec(b)
    return [s["baseline"][0]] + [c[0] for c in s["conditions"]]


def threshold_human_files(wildcards):
    return {d: f"resources/thresholds/{d}.nc" for d in threshold_datasets_of(threshold_of(wildcards))}


def trial_file(model_name, b, stimulus_set, trials):
    """A layer's features on a stimulus set's microsaccade trials, placed on the model's screen."""
    return (f"results/trial_activations/{model_name}/{stimuli_key(model_name, b, stimulus_set)}/trials{trials}/"
            f"{behaviour_layer_of(model_name, b)}.nc")


def threshold_readout_file(model_name, b, fitting, test):
    s = threshold_stages.spec(b)
    return (f"results/thresholds/{model_name}/{behaviour_layer_of(model_name, b)}/"
            f"{stimuli_key(model_name, b, fitting)}--trials{s['fitting_trials']}/"
            f"{stimuli_key(model_name, b, test)}--trials{s['test_trials']}.json")


def threshold_readout_files(wildcards):
    b = threshold_of(wildcards)
    return [threshold_readout_file(wildcards.model, b, fitting, test) for fitting, test in threshold_stages.readouts(b)]


def _threshold_stimulus_set(key):
    return key.split("--target")[0]


def threshold_readout_inputs(wildcards):
    fitting, test = _threshold_stimulus_set(wildcards.fitting), _threshold_stimulus_set(wildcards.stimuli)
    base = f"results/trial_activations/{wildcards.model}"
    return {"fitting": f"{base}/{wildcards.fitting}/trials{wildcards.fitting_trials}/{wildcards.layer}.nc",
            "test": f"{base}/{wildcards.stimuli}/trials{wildcards.test_trials}/{wildcards.layer}.nc",
            "fitting_stimuli": f"resources/stimuli/{fitting}", "test_stimuli": f"resources/stimuli/{test}"}


def threshold_settings_of_readout(wildcards):
    """The settings of the first threshold benchmark using this readout (they share the ones that matter)."""
    fitting, test = _threshold_stimulus_set(wildcards.fitting), _threshold_stimulus_set(wildcards.stimuli)
    for identifier in REGISTRY.identifiers():
        if identifier in THRESHOLD_BENCHMARKS:
            b = get_benchmark(identifier)
            if (fitting, test) in threshold_stages.readouts(b):
                s = threshold_stages.spec(b)
                return {"threshold_accuracy": s["threshold_accuracy"],
                        "independent_variable": s["independent_variable"]}
    raise WorkflowError(f"no threshold benchmark reads {test} out of a readout fitted on {fitting}")


THRESHOLD_BENCHMARKS = sorted(b.identifier for family in REGISTRY.families.values() for b in family.behaviours
                              if b.identifier and b.metric in threshold_stages.THRESHOLD_METRICS)
THRESHOLD_BENCHMARK = "|".join(map(re.escape, THRESHOLD_BENCHMARKS)) or "(?!)"
THRESHOLD_DATASETS = sorted({d for i in THRESHOLD_BENCHMARKS for d in threshold_datasets_of(get_benchmark(i))})
