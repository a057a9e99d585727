"""A temporal model's layer on a benchmark's time bins: each requested bin takes the step whose bin starts nearest."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import numpy as np

from brainpipe.io import read_netcdf, write_netcdf
from brainpipe.models.temporal import STEP_COORD, TIME_DIM, select_time_bins
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "time_bins"):
    p, w = snakemake.params, snakemake.wildcards
    layer = read_netcdf(snakemake.input[0], required_coords=("stimulus_id", STEP_COORD))
    layer = layer.transpose("presentation", "neuroid", TIME_DIM)
    region_bins = {int(step): tuple(window) for step, window in p.region_bins.items()}
    requested = [tuple(b) for b in p.requested]
    values = select_time_bins(layer.values, layer[STEP_COORD].values, region_bins, requested, model=w.model,
                              region=w.region, path=snakemake.input[0])
    coords = {name: coord for name, coord in layer.coords.items() if TIME_DIM not in coord.dims}
    out = layer.isel({TIME_DIM: 0}, drop=True).copy(data=values[:, :, 0])
    if len(requested) > 1:
        import xarray as xr

        out = xr.DataArray(values, dims=("presentation", "neuroid", TIME_DIM),
                           coords={**coords, "time_bin_start": (TIME_DIM, [b[0] for b in requested]),
                                   "time_bin_end": (TIME_DIM, [b[1] for b in requested])},
                           name=layer.name, attrs=layer.attrs)
    else:  # a static benchmark's one window: a (presentation, neuroid) layer, as a static model's
        out.attrs.update(time_bin_start=requested[0][0], time_bin_end=requested[0][1])
    write_netcdf(out, snakemake.output[0])
    print(f"{w.model} {w.layer} {w.region}: steps {layer[STEP_COORD].values.tolist()} -> {len(requested)} bin(s) "
          f"{np.asarray(requested).tolist()[:3]}...")
