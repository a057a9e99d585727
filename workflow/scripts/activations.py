"""Extract the layers this job writes (its output files), streaming each batch into one NetCDF per layer.

One job per layer file, or one for several layers of a model that are all missing (activations.smk), which may
span a behavioural paper's stimulus folders: the model is loaded once, then each folder takes a single forward
pass, which stops at the deepest layer asked for. Memory stays at the model plus one batch of every layer, whatever
the number of images or layers; each file appears only once all of its folder's layers are complete.
"""

from brainpipe.pipeline.fork_server import hand_over

# a local run computes this job in its warm process (pipeline/fork_server.py), once torch is imported there
hand_over(snakemake, warm=("torch", "torchvision"))

from pathlib import Path

import torch

from brainpipe.models.activations import extract_to_files
from brainpipe.pipeline.logs import logged
from brainpipe.models.brain_model import load_activations_model

with logged(snakemake.log[0], "activations") as log:
    torch.set_num_threads(snakemake.threads)
    p = snakemake.params
    # results/activations/<model>/<stimuli>/<layer>.nc: the layers are the output files' names (not a param: adding
    # a layer to the config must not change the params of the layers already extracted, or Snakemake would rerun
    # them), the stimulus folders their parents, each an input of the same name
    by_folder = {}
    for path in snakemake.output:
        by_folder.setdefault(Path(path).parent, {})[Path(path).name.removesuffix(".nc")] = path
    models = {folder.parent for folder in by_folder}
    if len(models) != 1:
        raise ValueError(f"an activations job writes the layers of one model, got {sorted(map(str, models))}")
    stimuli = {Path(path).name: path for path in snakemake.input}
    # read from the config, not a rule param: a speed setting that changes no output must not rerun anything
    workers = snakemake.config.get("decode_workers", "auto")
    workers = None if workers == "auto" else int(workers)
    model = load_activations_model(models.pop().name, p.model, p.device)  # any source (model_sources)
    for folder, destinations in sorted(by_folder.items()):
        print(f"{model.identifier} on {model.device}: {folder.name}: layers {list(destinations)}, "
              f"decode workers {'auto' if workers is None else workers}", file=log)
        extract_to_files(model, stimuli[folder.name], destinations, p.batch_size, workers, progress=log)
