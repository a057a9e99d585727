"""Join a data set's train and test files into one assembly with a 'split' presentation coordinate."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.data.train_test import join_assemblies
from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.io.netcdf_arrays import dimension_sizes
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "join_train_test_assembly"):
    parts = [(part, snakemake.input[part]) for part, _ in snakemake.params.parts]
    joined = join_assemblies(parts, read_netcdf, [dimension_sizes(path)["presentation"] for _, path in parts])
    write_netcdf(joined, snakemake.output[0])
    print(f"{snakemake.wildcards.dataset}: {dict(joined.sizes)} from {', '.join(p for _, p in parts)}")
