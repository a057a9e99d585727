# Stage 1: a stimulus set on disk (images + stimuli.csv). The demo set is drawn here; real sets are fetched
# (workflow/rules/fetch.smk).


rule demo_stimuli:
    output:
        directory("resources/stimuli/SyntheticShapes"),
    params:
        code=stage_code("demo_stimuli"),
        # in a fixed key order: Snakemake compares params as text, so reordering the config's keys would rerun
        shapes=lambda wildcards: {k: config["synthetic_shapes"][k]
                                  for k in ("categories", "objects_per_category", "images_per_object", "image_size",
                                            "seed")
                                  if k in config["synthetic_shapes"]},
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/demo_stimuli.log",
    script:
        "../scripts/demo_stimuli.py"
