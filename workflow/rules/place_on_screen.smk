# Stage 3: show the stimuli at the model's visual angle (Brain-Score's place_on_screen). Only needed when the
# model's degrees differ from the benchmark's; otherwise the activations rule reads the original set.


rule place_on_screen:
    input:
        "resources/stimuli/{stimulus_set}",
    output:
        directory("results/stimuli_on_screen/{stimulus_set}--target{target}--source{source}"),
    params:
        code=stage_code("place_on_screen"),
        # the exact degrees: the folder name writes them with every digit they need (data/screen.py
        # placed_identifier: 2.986667, not 2.99), and placement_degrees refuses a name it would not write
        target=lambda wildcards: screen.placement_degrees(wildcards.target),
        source=lambda wildcards: screen.placement_degrees(wildcards.source),
    wildcard_constraints:
        stimulus_set="[^/]+?",
        target="[0-9]+\.[0-9]{2}[0-9]*",
        source="[0-9]+\.[0-9]{2}[0-9]*",
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/place_on_screen/{stimulus_set}--target{target}--source{source}.tsv"
    log:
        "logs/place_on_screen/{stimulus_set}--target{target}--source{source}.log",
    script:
        "../scripts/place_on_screen.py"
