# Stage 4: one batched forward pass per (model, stimulus folder), capturing every layer any benchmark needs,
# written as one NetCDF per layer.


rule activations:
    input:
        stimuli_folder,
    output:
        directory("results/activations/{model}/{stimuli}"),
    params:
        code=library_code("models", "activations", "stimuli", "_torchvision"),
        architecture=lambda wildcards: get_model(wildcards.model)["architecture"],
        weights=lambda wildcards: get_model(wildcards.model).get("weights"),
        seed=lambda wildcards: get_model(wildcards.model).get("seed", 0),
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
        "results/benchmarks/activations/{model}/{stimuli}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/activations/{model}/{stimuli}.log",
    script:
        "../scripts/activations.py"
