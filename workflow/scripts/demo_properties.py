"""Simulate the SyntheticGratings V1 property table (known distributions; brainpipe's offline properties demo)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe.io import write_netcdf
from brainpipe.pipeline.logs import logged
from brainpipe.properties import demo

with logged(snakemake.log[0], "demo_properties"):
    data = demo.simulate_population(snakemake.params.n_neurons, snakemake.params.seed)
    write_netcdf(data, snakemake.output[0])
    print(f"simulated {data.sizes['neuroid']} V1 neurons: {data.attrs['simulated']}")
