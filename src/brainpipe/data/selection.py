"""Recordings prepared with a selection of neuroids and of stimuli, as some Brain-Score benchmarks load them.

Source: brain-score/vision brainscore_vision/benchmarks/igustibagus2024/domain_transfer_neural.py
(``load_domain_transfer``): the time bin, then the neuroids whose split-half consistency exceeds a threshold
(measured on every trial of every stimulus), then the presentations without any response dropped
(``dropna('presentation', how='all')``), the repetitions averaged, and only then the stimuli of the scored
conditions kept (``stimulus_source`` / ``object_style`` in lists). The per-neuroid consistency is computed by
the caller's ``neuroid_scores`` function (brainpipe.neural.neuroid_consistency: data does not import neural).
Brain-Score applies its neuroid mask by position in another order than the one it was computed in; this does the
same (see :func:`prepare_selected`).
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


def in_groupby_order(averaged):
    """The repetition-averaged stimuli in the order Brain-Score's ``average_repetition`` leaves them: its
    ``multi_groupby`` over every presentation coordinate but ``repetition`` (brain-score/vision
    benchmark_helpers/neural_common.py; brainscore_core brainio/assemblies.py ``_join_group_coords``) sorts the
    groups by the tuple of their coordinate values, in the assembly's coordinate order: by the file's first
    presentation coordinate, ties broken by the next. brainpipe's average sorts by stimulus_id, which is that order
    only where stimulus_id comes first (or sorts alike). Brain-Score draws its cross-validation splits on this
    order, so the selected target keeps it."""
    names = [name for name, coord in averaged.coords.items() if coord.dims == ("presentation",)]
    keys = list(zip(*(averaged[name].values.tolist() for name in names)))
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return averaged.isel(presentation=np.array(order, dtype=int))


def prepare_selected(assembly, region, neuroid_scores, threshold, include=(), time_window=(70, 170),
                     exact_time_bin=True, source="assembly"):
    """(target, repetitions) of one region: the time bin, the neuroids with ``neuroid_scores(trials) > threshold``
    (a boolean mask function of the per-trial recordings), presentations without any response dropped, the
    target averaged over repetitions (in Brain-Score's groupby order, :func:`in_groupby_order`), both restricted
    to ``include``."""
    check_assembly(assembly, source)
    regions = np.unique(assembly["region"].values.astype(str))
    if region not in regions:
        raise ValueError(f"{source}: no neuroids in region {region!r}; regions present: {list(regions)}")
    selected = assembly.isel(neuroid=np.flatnonzero(assembly["region"].values.astype(str) == region))
    selected = select_time_window(selected, *time_window, exact=exact_time_bin)
    trials = selected.transpose("presentation", "neuroid").astype(np.float32)
    passes = np.asarray(neuroid_scores(trials, threshold))
    # Brain-Score's mask comes from its ceiling's per-neuroid values, which its correlation sorts by neuroid_id
    # (metric_helpers/xarray_utils.py XarrayCorrelation ``sortby``), and it indexes the assembly, in the file's
    # neuroid order, with that mask by position (``assembly[{'neuroid': mask}]``): the neuroids kept are the file's
    # positions at which the neuroid_id-sorted neuroids pass, not the passing neuroids (the same only when the file
    # is sorted by neuroid_id). Done here as there, so that the numbers agree.
    keep = passes[np.argsort(trials["neuroid_id"].values.astype(str), kind="stable")]
    if not keep.any():
        raise ValueError(f"{source}: no neuroid of region {region!r} has a split-half consistency above {threshold}")
    trials = trials.isel(neuroid=np.flatnonzero(keep))
    answered = ~np.isnan(trials.values).all(axis=1)  # dropna('presentation', how='all')
    trials = trials.isel(presentation=np.flatnonzero(answered))
    target = select_presentations(in_groupby_order(average_repetitions(trials)), include)
    trials = select_presentations(trials, include)
    if trials.sizes["presentation"] == 0:
        raise ValueError(f"{source}: no presentation of region {region!r} is in {dict(include)}")
    check_finite_target(target, trials, region, source)
    return target, trials
