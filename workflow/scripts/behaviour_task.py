"""The model's behavioural task on cached activations (no network run): label from the logits layer,
probabilities from a readout fitted on the fitting stimuli, or odd-one-out choices on the human triplets."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import warnings

import pandas as pd

from brainpipe.behaviour import stages
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.data.stimuli import CSV_NAME

with logged(snakemake.log[0], "behaviour_task") as log:
    inputs, p = snakemake.input, snakemake.params
    layer = p.spec["layer"]
    features = read_netcdf(inputs.features, required_coords=("stimulus_id",))  # the layer's file
    fitting = table = human = test_table = None
    if p.spec["task"] == "probabilities":
        fitting = read_netcdf(inputs.fitting, required_coords=("stimulus_id",))
        table = pd.read_csv(f"{inputs.fitting_stimuli}/{CSV_NAME}", dtype={"stimulus_id": str})
        table.attrs["source"] = f"{inputs.fitting_stimuli}/{CSV_NAME}"
    if "test_stimuli" in inputs.keys():  # value_delta: the test images' image_number and block
        test_table = pd.read_csv(f"{inputs.test_stimuli}/{CSV_NAME}", dtype={"stimulus_id": str})
        test_table.attrs["source"] = f"{inputs.test_stimuli}/{CSV_NAME}"
    base = base_table = None
    if p.spec.get("base_stimulus_set"):  # Kato2026: the base images' logits and truth, to mask the test choices
        base = read_netcdf(inputs.base, required_coords=("stimulus_id",))
        base_table = pd.read_csv(f"{inputs.base_stimuli}/{CSV_NAME}", dtype={"stimulus_id": str})
        base_table.attrs["source"] = f"{inputs.base_stimuli}/{CSV_NAME}"
    if p.spec["task"] == "odd_one_out" or p.spec.get("labels_from_truth"):
        human = read_netcdf(inputs.human, required_coords=("stimulus_id",))
        human.attrs["source"] = inputs.human
    with warnings.catch_warnings(record=True) as caught:  # e.g. fitting and test stimuli are the same set
        warnings.simplefilter("always")
        output = stages.run_task(p.spec, features, fitting, table, human, test_table, base, base_table)
    for warning in caught:
        print(f"warning: {warning.message}", file=log)
    write_netcdf(output, snakemake.output[0])
    print(f"{snakemake.wildcards.model} {p.spec['task']} on {snakemake.wildcards.stimuli} ({layer}): "
          f"{dict(output.sizes)}", file=log)
