"""Extract activations of every requested layer, streaming each batch into one NetCDF per layer.

Memory stays at the model plus one batch of every layer, whatever the number of images or layers; the output
folder appears only once every file is complete.
"""

import torch

from brainpipe.models.activations import extract_to_folder
from brainpipe.pipeline.logs import logged
from brainpipe.models.brain_model import load_activations_model

with logged(snakemake.log[0], "activations") as log:
    torch.set_num_threads(snakemake.threads)
    p = snakemake.params
    # read from the config, not a rule param: a speed setting that changes no output must not rerun anything
    workers = snakemake.config.get("decode_workers", "auto")
    workers = None if workers == "auto" else int(workers)
    model = load_activations_model(snakemake.wildcards.model, p.model, p.device)  # any source (model_sources)
    print(f"{model.identifier} on {model.device}: layers {p.layers}, "
          f"decode workers {'auto' if workers is None else workers}", file=log)
    extract_to_folder(model, snakemake.input[0], p.layers, snakemake.output[0], p.batch_size, workers,
                      progress=log)
