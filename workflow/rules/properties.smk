# Properties benchmarks (Brain-Score's PropertiesBenchmark, the Marques2020 V1 benchmarks): the distribution of one
# single-neuron property of the model's units against the recorded one. Every stage is a file:
#   activations of the region's committed layer (activations.smk, the shared cache) on the receptive-field, blank,
#   orientation and property stimuli
#   -> results/properties/<model>/<layer>/<neurons>/receptive_fields.nc     RF centre per unit (once per model)
#   -> results/properties/<model>/<layer>/<neurons>/firing_rate_map.json    in-RF units, affine map (once per model)
#   -> results/properties/<model>/<layer>/<neurons>/<property set>.nc        unit × property + responsive (once per
#                                                                             model × property set, shared by every
#                                                                             benchmark of the set)
#   -> results/ceilings/<benchmark>.json (once per benchmark) -> results/<model>/<benchmark>/layers/<layer>.json
#   -> results/<model>/<benchmark>.json (rule score, as every benchmark)


rule properties_receptive_fields:
    input:
        rf=lambda wildcards: PLAN.properties.neurons_inputs(wildcards, "receptive_field")["activations"],
        rf_stimuli=lambda wildcards: PLAN.properties.neurons_inputs(wildcards, "receptive_field")["stimuli"],
        blank=PLAN.properties.blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/receptive_fields.nc",
    params:
        code=stage_code("properties_receptive_fields"),
    wildcard_constraints:
        neurons="[^/]+",
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=3),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/properties/{model}/{layer}/{neurons}/receptive_fields.tsv"
    log:
        "logs/properties/{model}/{layer}/{neurons}/receptive_fields.log",
    script:
        "../scripts/properties_receptive_fields.py"


rule properties_firing_rates:
    input:
        positions="results/properties/{model}/{layer}/{neurons}/receptive_fields.nc",
        orientation=lambda wildcards: PLAN.properties.neurons_inputs(wildcards, "orientation")["activations"],
        orientation_stimuli=lambda wildcards: PLAN.properties.neurons_inputs(wildcards, "orientation")["stimuli"],
        blank=PLAN.properties.blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/firing_rate_map.json",
    params:
        code=stage_code("properties_firing_rates"),
        region=lambda wildcards: PLAN.properties.family(wildcards.neurons).regions[0],
    wildcard_constraints:
        neurons="[^/]+",
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=3),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/properties/{model}/{layer}/{neurons}/firing_rate_map.tsv"
    log:
        "logs/properties/{model}/{layer}/{neurons}/firing_rate_map.log",
    script:
        "../scripts/properties_firing_rates.py"


rule model_properties:
    input:
        unpack(PLAN.properties.property_set_inputs),
        positions="results/properties/{model}/{layer}/{neurons}/receptive_fields.nc",
        affine="results/properties/{model}/{layer}/{neurons}/firing_rate_map.json",
        blank=PLAN.properties.blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/{property_set}.nc",
    params:
        code=stage_code("model_properties"),
        property_set=PLAN.properties.property_set_of,
    wildcard_constraints:
        neurons="[^/]+",
        # not the RF stage's file (a lookahead on the name with its suffix: Snakemake embeds this pattern in the path's)
        property_set=r"(?!receptive_fields\.nc)[A-Za-z0-9_]+",
    resources:
        mem_mb=lambda wildcards, input: mb(input, factor=3),
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/properties/{model}/{layer}/{neurons}/{property_set}.tsv"
    log:
        "logs/properties/{model}/{layer}/{neurons}/{property_set}.log",
    script:
        "../scripts/model_properties.py"


rule properties_ceiling:
    input:
        data=PLAN.properties.benchmark_data_file,
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=stage_code("properties_ceiling"),
        definition=PLAN.definition,
        property=lambda wildcards: PLAN.benchmark(wildcards.benchmark).measure.property,
        seed=PROPERTIES_SEED,
    wildcard_constraints:
        benchmark=PLAN.patterns.properties_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/ceiling/{benchmark}.tsv"
    log:
        "logs/ceiling/{benchmark}.log",
    script:
        "../scripts/properties_ceiling.py"


rule properties_score_layer:
    input:
        model=PLAN.properties.model_file,
        data=PLAN.properties.benchmark_data_file,
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=stage_code("properties_score_layer"),
        definition=PLAN.definition,
        property=lambda wildcards: PLAN.benchmark(wildcards.benchmark).measure.property,
        seed=PROPERTIES_SEED,
    wildcard_constraints:
        benchmark=PLAN.patterns.properties_benchmark,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/score_layer/{model}/{benchmark}/{layer}.tsv"
    log:
        "logs/score_layer/{model}/{benchmark}/{layer}.log",
    script:
        "../scripts/properties_score_layer.py"


# The offline demo (SyntheticGratings, src/brainpipe/properties/demo.py): gratings drawn here and a simulated V1
# property table.
rule demo_gratings:
    output:
        directory("resources/stimuli/SyntheticGratings_{kind}"),
    params:
        code=stage_code("demo_gratings"),
        image_size=128,
    wildcard_constraints:
        kind="receptive_field|blank|orientation",
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/demo_gratings/{kind}.log",
    script:
        "../scripts/demo_gratings.py"


rule demo_properties:
    output:
        "resources/properties/SyntheticGratings_V1_properties.nc",
    params:
        code=stage_code("demo_properties"),
        n_neurons=300,
        seed=0,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/demo_properties.log",
    script:
        "../scripts/demo_properties.py"


rule fetch_properties:
    input:
        local=lambda wildcards: sorted(PLAN.sources.on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/properties/{dataset}.nc",
    params:
        code=stage_code("fetch_properties"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: PLAN.sources.on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
        # the properties its benchmarks read (each must be there with its bins)
        properties=lambda wildcards: PLAN.properties.measured(wildcards.dataset),
    wildcard_constraints:
        dataset=alternatives(PLAN.properties.datasets),
    resources:
        downloads=1,
        runtime=60,
    conda:
        "../envs/brainpipe.yaml"
    benchmark:
        "logs/timing/fetch_properties/{dataset}.tsv"
    log:
        "logs/fetch_properties/{dataset}.log",
    script:
        "../scripts/fetch_properties.py"
