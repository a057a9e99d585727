# Stage 4: activations, one NetCDF per layer (results/activations/<model>/<stimuli>/<layer>.nc), each an output of
# its own: adding a layer to a sweep extracts that layer only, and leaves the other layers' files, Gram matrices and
# folds alone. One rule writes any single layer file; where several layers of a model × stimulus folder are missing
# at once (a fresh grid, a sweep added), a rule per such set writes them together in one forward pass that stops at
# the deepest of them (common.smk's layer_sets). Both kinds are the same rule text below, with the same params and
# no list of layers among them, so Snakemake's params and code triggers see no difference between a file written
# alone and one written with others, and a file stays up to date whatever layers are added or removed around it.
from collections import namedtuple

from brainpipe.model_sources import model_definition, source_sha1, weights_sha256
from brainpipe.workflow_config import layer_set_rule

ActivationsRule = namedtuple("ActivationsRule", "name input output folder log benchmark")


def activations_rules():
    """The per-layer rule, then one rule (without wildcards, so Snakemake prefers it) per set of layer files to
    extract together."""
    rules_ = [ActivationsRule("activations", stimuli_folder, "results/activations/{model}/{stimuli}/{layer}.nc",
                              lambda wildcards: (wildcards.model, wildcards.stimuli),
                              "logs/activations/{model}/{stimuli}/{layer}.log",
                              "results/benchmarks/activations/{model}/{stimuli}/{layer}.tsv")]
    for outputs in layer_sets():
        model_name, stimuli = Path(outputs[0]).parts[2:4]  # results/activations/<model>/<stimuli>/<layer>.nc
        rules_.append(ActivationsRule(layer_set_rule(outputs), stimuli_path(stimuli), outputs,
                                      lambda wildcards, folder=(model_name, stimuli): folder,
                                      f"logs/activations/{model_name}/{stimuli}.log",
                                      f"results/benchmarks/activations/{model_name}/{stimuli}.tsv"))
    return rules_


def activations_params(folder):
    """The params of the activations in ``folder(wildcards)`` = (model, stimulus folder): what the values depend
    on (the model's whole resolved definition, its code and weights files, the library), never which layers."""
    name = lambda wildcards: folder(wildcards)[0]
    spec = lambda wildcards: get_model(name(wildcards))
    return dict(
        code=library_code("models", "model_sources", "preprocessing", "activations", "stimuli", "_torchvision"),
        architecture=lambda wildcards: spec(wildcards)["architecture"],
        weights=lambda wildcards: spec(wildcards).get("weights"),
        seed=lambda wildcards: spec(wildcards).get("seed", 0),
        # the whole resolved definition (source, weights, weights_file, preprocessing with defaults filled in)
        model=lambda wildcards: model_definition(spec(wildcards)),
        # editing your own model's .py file, or replacing its weights_file, reruns its activations and what follows
        source_sha1=lambda wildcards: source_sha1(spec(wildcards), ".", name(wildcards)),
        weights_sha256=lambda wildcards: weights_sha256(spec(wildcards), ".", name(wildcards)),
        device=config.get("device", "auto"),
        batch_size=config.get("batch_size", 64),
    )


def same_resources_as_per_layer_rule(name):
    """--set-resources / --set-threads (e.g. the slurm profile's `activations: gpu: 0`) name the per-layer rule:
    a job that extracts several layers asks for the same."""
    if name != "activations":
        workflow.get_rule(name).resources = workflow.get_rule("activations").resources.copy()


for job in activations_rules():

    rule:
        name:
            job.name
        input:
            job.input,
        output:
            job.output,
        params:
            **activations_params(job.folder),
        wildcard_constraints:
            stimuli="[^/]+",
        threads: 2
        resources:
            mem_mb=8000,
            runtime=60,
            gpu=lambda wildcards: 1 if config.get("device", "auto") in ("auto", "cuda") else 0,
        benchmark:
            job.benchmark
        conda:
            "../envs/brainpipe.yaml"
        log:
            job.log,
        script:
            "../scripts/activations.py"

    same_resources_as_per_layer_rule(job.name)
