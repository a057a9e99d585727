"""Extract the layers this job writes (its output files), streaming each batch into one NetCDF per layer.

One job per layer file, or one for several layers of a model that are all missing (activations.smk): either way
a single forward pass, which stops at the deepest layer asked for. Memory stays at the model plus one batch of
every layer, whatever the number of images or layers; each file appears only once all of them are complete.
"""

from pathlib import Path

import torch

from brainpipe.models.activations import extract_to_files
from brainpipe.pipeline.logs import logged
from brainpipe.models.brain_model import load_activations_model

with logged(snakemake.log[0], "activations") as log:
    torch.set_num_threads(snakemake.threads)
    p = snakemake.params
    # the layers are the output files' names (not a param: adding a layer to the config must not change the
    # params of the layers already extracted, or Snakemake would rerun them)
    destinations = {Path(path).name.removesuffix(".nc"): path for path in snakemake.output}
    # read from the config, not a rule param: a speed setting that changes no output must not rerun anything
    workers = snakemake.config.get("decode_workers", "auto")
    workers = None if workers == "auto" else int(workers)
    # results/activations/<model>/<stimuli>/<layer>.nc: a job for several layers has no wildcards to name them
    folders = {Path(path).parent for path in snakemake.output}
    if len(folders) != 1:
        raise ValueError(f"an activations job writes the layers of one model and stimulus set, got {sorted(folders)}")
    model = load_activations_model(folders.pop().parent.name, p.model, p.device)  # any source (model_sources)
    print(f"{model.identifier} on {model.device}: layers {list(destinations)}, "
          f"decode workers {'auto' if workers is None else workers}", file=log)
    extract_to_files(model, snakemake.input[0], destinations, p.batch_size, workers, progress=log)
