"""Extract a temporal model's layer: one forward pass per batch records every time step (models/temporal.py)."""

from brainpipe.pipeline.fork_server import hand_over

# a local run computes this job in its warm process (pipeline/fork_server.py), once torch is imported there
hand_over(snakemake, warm=("torch", "torchvision"))

from pathlib import Path

import torch

from brainpipe.models.temporal import extract_temporal, parse_time_mapping, temporal_model
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "activations_temporal") as log:
    torch.set_num_threads(snakemake.threads)
    p, w = snakemake.params, snakemake.wildcards
    # the entry as the config writes it (its time_mapping checks the steps; the mapping itself is applied later,
    # by time_bins, so it is not a param of the extraction)
    spec = dict(snakemake.config["model_zoo"][w.model])
    mapping = parse_time_mapping(spec, w.model)
    # the steps the config maps for each region that commits this layer: one the model lacks stops before writing
    wanted = {w.layer: (sorted({step for region, layer in spec["layers"].items() if layer == w.layer
                                for step in mapping.get(region, {})}),
                        f"config model_zoo.{w.model}.time_mapping")}
    model = temporal_model(w.model, {**p.model, "time_mapping": spec["time_mapping"]}, p.device)
    workers = snakemake.config.get("decode_workers", "auto")
    workers = None if workers == "auto" else int(workers)
    print(f"{model.identifier} (temporal) on {model.device}: layer {w.layer}", file=log)
    extract_temporal(model, snakemake.input[0], {w.layer: snakemake.output[0]}, p.batch_size, workers, log, wanted)
