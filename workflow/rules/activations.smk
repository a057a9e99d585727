# Stage 4: one batched forward pass per (model, stimulus folder), capturing every layer any benchmark needs,
# written as one NetCDF per layer.
from brainpipe.models.model_sources import model_definition, source_sha1, weights_sha256


rule activations:
    input:
        stimuli_folder,
    output:
        directory("results/activations/{model}/{stimuli}"),
    params:
        code=library_code("models/brain_model", "models/model_sources", "models/preprocessing", "models/activations", "data/stimuli", "models/_torchvision"),
        architecture=lambda wildcards: get_model(wildcards.model)["architecture"],
        weights=lambda wildcards: get_model(wildcards.model).get("weights"),
        seed=lambda wildcards: get_model(wildcards.model).get("seed", 0),
        # the whole resolved definition (source, weights, weights_file, preprocessing with defaults filled in)
        model=lambda wildcards: model_definition(get_model(wildcards.model)),
        # editing your own model's .py file, or replacing its weights_file, reruns its activations and what follows
        source_sha1=lambda wildcards: source_sha1(get_model(wildcards.model), ".", wildcards.model),
        weights_sha256=lambda wildcards: weights_sha256(get_model(wildcards.model), ".", wildcards.model),
        layers=lambda wildcards: model_layers(wildcards.model, wildcards.stimuli.split("--target")[0]),
        device=config.get("device", "auto"),
        batch_size=config.get("batch_size", 64),
    wildcard_constraints:
        stimuli="[^/]+",
    threads: 2
    resources:
        mem_mb=8000,
        runtime=60,
        gpu=lambda wildcards: 1 if config.get("device", "auto") in ("auto", "cuda") else 0,
    benchmark:
        "logs/timing/activations/{model}/{stimuli}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/activations/{model}/{stimuli}.log",
    script:
        "../scripts/activations.py"
