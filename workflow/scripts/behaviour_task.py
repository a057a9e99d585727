"""The model's behavioural task on cached activations (no network run): label from the logits layer,
probabilities from a readout fitted on the fitting stimuli, or odd-one-out choices on the human triplets."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import warnings

from brainpipe.behaviour import stages
from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "behaviour_task") as log:
    p = snakemake.params
    inputs = stages.task_inputs(dict(snakemake.input.items()))  # the files this task reads, as the rule lists them
    with warnings.catch_warnings(record=True) as caught:  # e.g. fitting and test stimuli are the same set
        warnings.simplefilter("always")
        output = stages.run_task(p.spec, **inputs)
    for warning in caught:
        print(f"warning: {warning.message}", file=log)
    write_netcdf(output, snakemake.output[0])
    print(f"{snakemake.wildcards.model} {p.spec['task']} on {snakemake.wildcards.stimuli} ({p.spec['layer']}): "
          f"{dict(output.sizes)}", file=log)
