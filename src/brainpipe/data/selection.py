"""Recordings prepared with a selection of neuroids and of stimuli, as some Brain-Score benchmarks load them.

Source: brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_neural.py
(``load_domain_transfer``): the time bin, then the neuroids whose split-half consistency exceeds a threshold
(measured on every trial of every stimulus), then the presentations without any response dropped
(``dropna('presentation', how='all')``), the repetitions averaged, and only then the stimuli of the scored
conditions kept (``stimulus_source`` / ``object_style`` in lists). The per-neuroid consistency is computed by
the caller's ``neuroid_scores`` function (brainpipe.neural.neuroid_consistency: data does not import neural).
"""

import numpy as np

from .assembly import average_repetitions, check_assembly, check_finite_target, select_time_window


def select_presentations(assembly, include):
    """The presentations whose coordinate values all lie in ``include``: ((coordinate, (values, ...)), ...)."""
    keep = np.ones(assembly.sizes["presentation"], dtype=bool)
    for coordinate, values in include:
        if coordinate not in assembly.coords:
            raise ValueError(f"no presentation coordinate {coordinate!r} to select stimuli by")
        keep &= np.isin(assembly[coordinate].values.astype(str), [str(v) for v in values])
    return assembly.isel(presentation=np.flatnonzero(keep))


def prepare_selected(assembly, region, neuroid_scores, threshold, include=(), time_window=(70, 170),
                     exact_time_bin=True, source="assembly"):
    """(target, repetitions) of one region: the time bin, the neuroids with ``neuroid_scores(trials) > threshold``
    (a boolean mask function of the per-trial recordings), presentations without any response dropped, the
    target averaged over repetitions (sorted by stimulus_id), both restricted to ``include``."""
    check_assembly(assembly, source)
    regions = np.unique(assembly["region"].values.astype(str))
    if region not in regions:
        raise ValueError(f"{source}: no neuroids in region {region!r}; regions present: {list(regions)}")
    selected = assembly.isel(neuroid=np.flatnonzero(assembly["region"].values.astype(str) == region))
    selected = select_time_window(selected, *time_window, exact=exact_time_bin)
    trials = selected.transpose("presentation", "neuroid").astype(np.float32)
    keep = np.asarray(neuroid_scores(trials, threshold))
    if not keep.any():
        raise ValueError(f"{source}: no neuroid of region {region!r} has a split-half consistency above {threshold}")
    trials = trials.isel(neuroid=np.flatnonzero(keep))
    answered = ~np.isnan(trials.values).all(axis=1)  # dropna('presentation', how='all')
    trials = trials.isel(presentation=np.flatnonzero(answered))
    target = select_presentations(average_repetitions(trials), include)
    trials = select_presentations(trials, include)
    if trials.sizes["presentation"] == 0:
        raise ValueError(f"{source}: no presentation of region {region!r} is in {dict(include)}")
    check_finite_target(target, trials, region, source)
    return target, trials
