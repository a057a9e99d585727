"""The model's psychometric threshold on a test set's trials, read out by a probabilities readout fitted on a
fitting set's trials (brainpipe.behaviour.threshold_stages.model_threshold)."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

import pandas as pd

from brainpipe.behaviour.threshold_stages import model_threshold
from brainpipe.data.stimuli import CSV_NAME
from brainpipe.io import read_netcdf, write_json
from brainpipe.pipeline.logs import logged


def table(folder):
    frame = pd.read_csv(f"{folder}/{CSV_NAME}", dtype={"stimulus_id": str})
    frame.attrs["source"] = f"{folder}/{CSV_NAME}"
    return frame


with logged(snakemake.log[0], "threshold_readout"):
    i, w = snakemake.input, snakemake.wildcards
    result = model_threshold(read_netcdf(i.fitting, required_coords=("stimulus_id",)), table(i.fitting_stimuli),
                             read_netcdf(i.test, required_coords=("stimulus_id",)), table(i.test_stimuli),
                             snakemake.params.settings)
    result.update(model=w.model, layer=w.layer, fitting=w.fitting, stimuli=w.stimuli)
    write_json(result, snakemake.output[0])
    print(f"{w.model} {w.layer}: fitted on {w.fitting}, threshold on {w.stimuli}: {result['threshold']} "
          f"(accuracy {result['mean_accuracy']:.3f})")
