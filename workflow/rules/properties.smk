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

PROPERTIES_CODE = ("properties/stages", "properties/neurons", "properties/stimulus_grid")


rule properties_receptive_fields:
    input:
        rf=lambda wildcards: neurons_inputs(wildcards, "receptive_field")["activations"],
        rf_stimuli=lambda wildcards: neurons_inputs(wildcards, "receptive_field")["stimuli"],
        blank=blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/receptive_fields.nc",
    params:
        code=library_code(*PROPERTIES_CODE),
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
        orientation=lambda wildcards: neurons_inputs(wildcards, "orientation")["activations"],
        orientation_stimuli=lambda wildcards: neurons_inputs(wildcards, "orientation")["stimuli"],
        blank=blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/firing_rate_map.json",
    params:
        code=library_code(*PROPERTIES_CODE),
        region=lambda wildcards: properties_family(wildcards.neurons).regions[0],
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
        unpack(property_set_inputs),
        positions="results/properties/{model}/{layer}/{neurons}/receptive_fields.nc",
        affine="results/properties/{model}/{layer}/{neurons}/firing_rate_map.json",
        blank=blank_file,
    output:
        "results/properties/{model}/{layer}/{neurons}/{property_set}.nc",
    params:
        code=library_code(*PROPERTIES_CODE, "properties/sets", "properties/table", "properties/orientation",
                          "properties/spatial_frequency", "properties/surround", "properties/texture"),
        property_set=lambda wildcards: properties_measure(wildcards.neurons, wildcards.property_set)[1].property_set,
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
        data=lambda wildcards: properties_data_file(get_benchmark(wildcards.benchmark).measure.dataset),
    output:
        "results/ceilings/{benchmark}.json",
    params:
        code=library_code("properties/stages", "properties/ceiling", "properties/ks_similarity"),
        definition=benchmark_definition,
        property=lambda wildcards: get_benchmark(wildcards.benchmark).measure.property,
        seed=PROPERTIES_SEED,
    wildcard_constraints:
        benchmark=PROPERTIES_BENCHMARK,
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
        model=lambda wildcards: (lambda b: "results/properties/{model}/{layer}/%s/%s.nc" % (
            b.family.neurons.name, property_set_key(b.measure)))(get_benchmark(wildcards.benchmark)),
        data=lambda wildcards: properties_data_file(get_benchmark(wildcards.benchmark).measure.dataset),
        ceiling="results/ceilings/{benchmark}.json",
    output:
        "results/{model}/{benchmark}/layers/{layer}.json",
    params:
        code=library_code("properties/stages", "properties/ks_similarity"),
        definition=benchmark_definition,
        property=lambda wildcards: get_benchmark(wildcards.benchmark).measure.property,
        seed=PROPERTIES_SEED,
    wildcard_constraints:
        benchmark=PROPERTIES_BENCHMARK,
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
        code=library_code("properties/demo", "data/stimuli"),
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
        code=library_code("properties/demo"),
        n_neurons=300,
        seed=0,
    conda:
        "../envs/brainpipe.yaml"
    log:
        "logs/demo_properties.log",
    script:
        "../scripts/demo_properties.py"


PROPERTY_DATASETS = sorted({m.dataset for f in REGISTRY.families.values() if f.source == "brainio"
                            for m in f.properties})


rule fetch_properties:
    input:
        local=lambda wildcards: sorted(on_disk([CATALOG.assembly(wildcards.dataset).file]).values()),
    output:
        "resources/properties/{dataset}.nc",
    params:
        code=library_code("data/fetch", "data/catalog", "properties/stages"),
        files=lambda wildcards: {CATALOG.assembly(wildcards.dataset).file.name:
                                 CATALOG.assembly(wildcards.dataset).file.sha1},
        on_disk=lambda wildcards: on_disk_sha1([CATALOG.assembly(wildcards.dataset).file]),
        # the properties its benchmarks read (each must be there with its bins)
        properties=lambda wildcards: sorted({m.property for f in REGISTRY.families.values() for m in f.properties
                                             if m.dataset == wildcards.dataset}),
    wildcard_constraints:
        dataset="|".join(map(re.escape, PROPERTY_DATASETS)) or "(?!)",
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
