# Stage 5b: the stimulus Gram matrix X Xᵀ of each scored layer, computed once and shared by every fold (and every
# regression benchmark on the same stimuli): fold jobs of pls / ridge / ridgecv / linear read this n × n matrix
# instead of the n × features activations, so they are fast and small whatever the layer's width.


rule gram:
    input:
        "results/activations/{model}/{stimuli}/{layer}.nc",
    output:
        "results/gram/{model}/{stimuli}/{layer}.nc",
    params:
        code=stage_code("gram"),
        device=config.get("device", "auto"),
    wildcard_constraints:
        stimuli="[^/]+",
    threads: 2
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=1.5),
        runtime=30,
    benchmark:
        "logs/timing/gram/{model}/{stimuli}/{layer}.tsv"
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/gram/{model}/{stimuli}/{layer}.log",
    script:
        "../scripts/gram.py"
