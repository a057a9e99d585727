"""Compute a layer's stimulus Gram matrix X Xᵀ (float64) for the fold fits."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import time

from threadpoolctl import threadpool_limits

from brainpipe.models.devices import resolve_device
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.neural.metrics import gram_matrix

# numpy's BLAS on the CPU (gram_fit.cpu_gram); torch only when the configured device resolves to a GPU
with logged(snakemake.log[0], "gram"), threadpool_limits(snakemake.threads):
    device = resolve_device(snakemake.params.device)
    if device != "cpu":
        import torch

        torch.set_num_threads(snakemake.threads)
    layer_file = snakemake.input[0]
    source = read_netcdf(layer_file, required_coords=("stimulus_id",))
    started = time.perf_counter()
    gram = gram_matrix(source, device=device)
    write_netcdf(gram, snakemake.output[0])
    print(f"{layer_file}: {source.sizes['presentation']} × {source.sizes['neuroid']} -> Gram "
          f"{gram.shape[0]} × {gram.shape[1]} in {time.perf_counter() - started:.1f} s")
