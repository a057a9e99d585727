# Stage 4: activations, one NetCDF per layer (results/activations/<model>/<stimuli>/<layer>.nc), each an output of
# its own: adding a layer to a sweep extracts that layer only, and leaves the other layers' files, Gram matrices and
# folds alone. One rule writes any single layer file; where several layers of a model × stimulus folder are missing
# at once (a fresh grid, a sweep added), a rule per such set writes them together in one forward pass that stops at
# the deepest of them (PLAN.activations.layer_sets). Both kinds are the same rule text below, with the same params and
# no list of layers among them, so Snakemake's params and code triggers see no difference between a file written
# alone and one written with others, and a file stays up to date whatever layers are added or removed around it.
for job in PLAN.activations.rules(workflow.is_main_process, workflow._cores):

    rule:
        name:
            job.name
        input:
            job.input,
        output:
            job.output,
        params:
            **PLAN.activations.params(ACTIVATIONS_CODE, job.folder),
        wildcard_constraints:
            model=PLAN.patterns.static_model,  # temporal models' layer files: activations_temporal (temporal.smk)
            stimuli="[^/]+",
        # the job group a profile gives `activations` (profiles/slurm: `features`), for the activations_layers_<hash>
        # rules too, whose names follow the config, so that a profile's `groups:` cannot list them. For a rule that
        # `groups:` names, `groups:` wins over the rule's own `group:` (snakemake 9.27's Rule.group), so `activations`
        # keeps the profile's group and this reads it when a job is planned. Without a profile's group (a local run
        # or dry run) none: a plain "features" would print each extraction of a local dry run as a group job.
        group:
            lambda wildcards: workflow.group_settings.overwrite_groups.get("activations")
        threads: 2
        # the longest job of a small benchmark, which every later stage waits for: start it as soon as its images are
        # ready, before the ceilings and human-data jobs that can run beside or after it (Snakemake's scheduler
        # otherwise took those first, and the extraction began only when they were done)
        priority: 10
        resources:
            mem_mb=8000,
            runtime=EXTRACTION_RUNTIME,  # minutes, from the job's images (common.smk)
            gpu=lambda wildcards: 1 if config.get("device", "auto") in ("auto", "cuda") else 0,
        benchmark:
            job.benchmark
        conda:
            "../envs/brainpipe.yaml"
        log:
            job.log,
        script:
            "../scripts/activations.py"

    # --set-resources / --set-threads (e.g. the slurm profile's `activations: gpu: 0`) name the per-layer rule: a job
    # that extracts several layers asks for the same
    if job.name != "activations":
        workflow.get_rule(job.name).resources = workflow.get_rule("activations").resources.copy()
