"""One layer's features on every microsaccade trial of a stimulus set, rows labelled as Brain-Score labels them
(brainpipe.models.microsaccades.extract_trials, brainpipe.behaviour.threshold_stages.trial_features)."""

from brainpipe.pipeline.fork_server import hand_over

# a local run computes this job in its warm process (pipeline/fork_server.py), once torch is imported there
hand_over(snakemake, warm=("torch", "torchvision"))

import torch

from brainpipe.behaviour.threshold_stages import trial_features
from brainpipe.data.stimuli import read_stimulus_set
from brainpipe.io import write_netcdf
from brainpipe.models.brain_model import load_activations_model
from brainpipe.models.microsaccades import extract_trials
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "trial_activations") as log:
    torch.set_num_threads(snakemake.threads)
    w, p = snakemake.wildcards, snakemake.params
    model = load_activations_model(w.model, p.model, p.device)
    table = read_stimulus_set(snakemake.input[0])
    features, order = extract_trials(model, table["path"].tolist(), w.layer, int(w.trials), p.model_degrees,
                                     p.batch_size, p.order_batch_size, progress=log)
    write_netcdf(trial_features(features, order, table["stimulus_id"].to_numpy(), model.identifier, w.layer),
                 snakemake.output[0])
    print(f"{model.identifier} {w.layer}: {len(table)} images × {w.trials} trials -> {snakemake.output[0]}", file=log)
