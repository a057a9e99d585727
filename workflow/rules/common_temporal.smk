# Functions and constants of the temporal rules (workflow/rules/temporal.smk), kept apart from the rules as
# Snakemake's linter asks; included by the Snakefile just before them.
import re

from brainpipe.models.model_sources import ModelSourceError
from brainpipe.benchmarks.ost_family import is_ost
from brainpipe.models.temporal import is_temporal, parse_time_mapping

TEMPORAL_MODELS = sorted(name for name, spec in config["model_zoo"].items() if is_temporal(spec))
OST_BENCHMARKS = sorted(f"{f.name}-ost" for f in REGISTRY.families.values() if is_ost(f))
OST_DATASETS = sorted({f.dataset for f in REGISTRY.families.values() if is_ost(f) and f.source == "brainio"})
DEMO_OST_DATASETS = sorted({f.dataset for f in REGISTRY.families.values() if is_ost(f) and f.source == "demo"})
NOTHING = "(?!)"  # a wildcard constraint no name matches (no temporal model / no OST benchmark in this config)


def _alternatives(names):
    return "|".join(map(re.escape, names)) or NOTHING


def time_mapping_of(model_name):
    try:
        return parse_time_mapping(get_model(model_name), model_name)
    except ModelSourceError as error:
        raise WorkflowError(str(error)) from None


for _name in TEMPORAL_MODELS:  # a malformed map, overlapping bins or an unmapped committed region stop the run now
    _mapping = time_mapping_of(_name)
    _unmapped = sorted(set(get_model(_name)["layers"]) - set(_mapping))
    if _unmapped:
        raise WorkflowError(f"config model_zoo.{_name}.time_mapping: no time bins for region(s) {_unmapped} that "
                            f"model_zoo.{_name}.layers commits; map each committed region's steps to time bins")


def is_temporal_model(model_name):
    return model_name in TEMPORAL_MODELS


def requested_bins(benchmark):
    """The (start, end) bins a benchmark records: the static window as one bin, else its temporal bins (Brain-Score:
    start_recording(region, time_bins))."""
    family = benchmark.family
    if benchmark.kind in ("temporal", "ost"):
        start, end = family.temporal_window
        return [(t, t + family.temporal_bin) for t in range(int(start), int(end), int(family.temporal_bin))]
    return [tuple(family.time_window)]


def window_key(benchmark):
    bins = requested_bins(benchmark)
    if len(bins) == 1:
        return f"{bins[0][0]}-{bins[0][1]}"
    return f"{bins[0][0]}-{bins[-1][1]}x{bins[0][1] - bins[0][0]}"


def timed_layer_file(model_name, benchmark, layer):
    """A temporal model's layer, its steps mapped onto the benchmark's bins for the benchmark's region."""
    return (f"results/activations/{model_name}/{stimuli_key(model_name, benchmark)}/timed/{benchmark.region}/"
            f"{window_key(benchmark)}/{layer}.nc")


def bins_of_key(key):
    if "x" in key:
        span, width = key.split("x")
        start, end = map(int, span.split("-"))
        return [(t, t + int(width)) for t in range(start, end, int(width))]
    start, end = map(int, key.split("-"))
    return [(start, end)]


def ost_source(wildcards):
    """What the OST job reads: a temporal model's layer on the 18 bins, a static model's single response."""
    b = get_benchmark(wildcards.benchmark)
    if is_temporal_model(wildcards.model):
        return timed_layer_file(wildcards.model, b, wildcards.layer)
    return layer_file(wildcards.model, stimuli_key(wildcards.model, b), wildcards.layer)
