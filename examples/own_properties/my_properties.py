"""A property function of your own (README, "Your own benchmark → properties"): named in a benchmark_zoo entry as
``property_set: examples/own_properties/my_properties.py``.

brainpipe calls ``properties(responses, baseline, stimuli)`` with
* responses: (units × stimuli) firing rates of the model's units in the receptive field (after Brain-Score's
  RF filter, affine map and rectification);
* baseline: (units × 1) their firing rate to the blank;
* stimuli: the stimulus table (a pandas DataFrame, one row per stimulus, the responses' column order).
It returns one value per unit for each property and, under ``responsive``, which units count (a response
threshold, like Brain-Score's > 5 spikes/s above the blank).
"""

import numpy as np


def properties(responses, baseline, stimuli):
    orientation = np.deg2rad(np.asarray(stimuli["orientation"], dtype=float))
    peak = responses.max(axis=1)
    # orientation selectivity from the mean response per orientation (phases and frequencies pooled)
    levels = np.unique(orientation)
    curve = np.stack([responses[:, orientation == o].mean(axis=1) for o in levels], axis=1)
    vector = np.abs((curve * np.exp(2j * levels)).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        circular_variance = 1 - vector / curve.sum(axis=1)
    return {"peak_rate": peak, "circular_variance": circular_variance,
            "responsive": peak > baseline[:, 0] + 5}
