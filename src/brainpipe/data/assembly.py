"""Per-benchmark preparation of a recording assembly, as Brain-Score's benchmarks do it.

Source: brain-score/vision benchmarks/majajhong2015/benchmark.py::load_assembly and
benchmark_helpers/neural_common.py::average_repetition. Steps: select the region, reduce the time bins
(mean over the benchmark's window, then drop the dimension when a single bin remains), order
(presentation, neuroid); the *target* averages repetitions per stimulus (sorted by stimulus_id, the order
Brain-Score's groupby produces and its CV splits depend on), the *repetitions* copy keeps every trial for the
ceiling.
"""

import warnings

import numpy as np
import xarray as xr

PRESENTATION_REQUIRED = ("stimulus_id", "repetition")
NEUROID_REQUIRED = ("neuroid_id", "region")


def check_assembly(assembly: xr.DataArray, source="assembly"):
    """Raise one ValueError naming ``source`` and every missing dimension or coordinate."""
    missing = [f"dimension '{d}'" for d in ("presentation", "neuroid") if d not in assembly.dims]
    missing += [f"coordinate '{c}'" for c in PRESENTATION_REQUIRED + NEUROID_REQUIRED if c not in assembly.coords]
    if "time_bin" in assembly.dims:
        missing += [f"coordinate '{c}'" for c in ("time_bin_start", "time_bin_end") if c not in assembly.coords]
    if missing:
        raise ValueError(f"{source}: missing {', '.join(missing)}")
    check_time_bins(assembly, source)


def check_time_bins(assembly: xr.DataArray, source="assembly"):
    """Raise one ValueError naming ``source`` and the bins (index and span) where a ``time_bin`` is not a time
    window: a NaN start or end, a start after its end, or the same window twice. The window selection reads bins
    by their span; such bins would be averaged in, or matched, by what they happen to hold."""
    if "time_bin" not in assembly.dims or not {"time_bin_start", "time_bin_end"} <= set(assembly.coords):
        return
    try:
        starts = np.asarray(assembly["time_bin_start"].values, dtype=np.float64).reshape(-1)
        ends = np.asarray(assembly["time_bin_end"].values, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{source}: time_bin_start and time_bin_end must be numbers (ms), got "
                         f"{assembly['time_bin_start'].dtype} and {assembly['time_bin_end'].dtype}") from None

    def bins(indices):
        return ", ".join(f"time bin {i} ({starts[i]:g}–{ends[i]:g} ms)" for i in indices[:5]) + (
            f" and {len(indices) - 5} more" if len(indices) > 5 else "")

    undefined = np.flatnonzero(np.isnan(starts) | np.isnan(ends))
    if len(undefined):
        raise ValueError(f"{source}: {bins(undefined)} has a NaN time_bin_start or time_bin_end; give every bin "
                         f"its start and end in ms")
    reversed_ = np.flatnonzero(starts > ends)
    if len(reversed_):
        raise ValueError(f"{source}: {bins(reversed_)} starts after it ends (time_bin_start > time_bin_end); "
                         f"correct the bin's start and end in the file")
    duplicated = [i for i in range(len(starts)) if ((starts[:i] == starts[i]) & (ends[:i] == ends[i])).any()]  # few bins
    if duplicated:
        raise ValueError(f"{source}: {bins(duplicated)} repeats an earlier bin's window; each time bin must be "
                         f"a different window (merge or drop the repeated bins)")


def select_time_window(assembly: xr.DataArray, start, end, bin_size=None, exact=False):
    """Reduce ``time_bin`` to the window [start, end).

    With ``bin_size`` None: average every bin lying inside the window into one (1-ms bins over
    50–200 ms become one mean; a single 70–170 bin passes through). With ``bin_size``: keep
    several bins of that width (temporal benchmarks), each the mean of the source bins inside it.
    With ``exact``: take the one bin that *is* the window, ignoring others inside it: files with overlapping
    bins (Sanghavi2020's 70–170, 100–150, 70–270, ...) are read this way by Brain-Score
    (``assembly.sel(time_bin_id=0)``, brain-score/vision brainscore_vision/benchmarks/sanghavi2020/benchmarks/).
    """
    if "time_bin" not in assembly.dims:
        return assembly
    starts = assembly["time_bin_start"].values
    ends = assembly["time_bin_end"].values
    if exact:
        if bin_size is not None:
            raise ValueError("an exact time bin and temporal bins cannot be asked for together")
        match = np.flatnonzero((starts == start) & (ends == end))
        if len(match) != 1:
            bins = ", ".join(f"{s}–{e}" for s, e in zip(starts, ends))
            raise ValueError(f"expected exactly one time bin {start}–{end} ms, found {len(match)} (bins: {bins})")
        along_bins = [name for name, coord in assembly.coords.items() if "time_bin" in coord.dims]
        return assembly.drop_vars(along_bins).isel(time_bin=match[0]).assign_coords(
            time_bin_start=start, time_bin_end=end)
    windows = [(start, end)] if bin_size is None else [(t, t + bin_size) for t in range(start, end, bin_size)]
    pieces = []
    for window_start, window_end in windows:
        inside = (starts >= window_start) & (ends <= window_end)
        if not inside.any():
            raise ValueError(f"no time bin of the assembly lies within {window_start}–{window_end} ms "
                             f"(bins span {starts.min()}–{ends.max()} ms)")
        bins = np.flatnonzero(inside)
        if len(bins) == 1 and assembly.dtype.kind == "f":
            # the mean of one bin is that bin, bit for bit (NaN stays NaN): skip xarray's skipna mean, which
            # copies the whole assembly twice (1 s for 140800 trials × 256 sites); its time_bin coordinates
            # are dropped, as the mean drops them
            along_bins = [name for name, coord in assembly.coords.items() if "time_bin" in coord.dims]
            piece = assembly.drop_vars(along_bins).isel(time_bin=bins[0])
        else:
            piece = assembly.isel(time_bin=bins).mean("time_bin", keep_attrs=True)
        pieces.append(piece.assign_coords(time_bin_start=window_start, time_bin_end=window_end))
    if len(pieces) == 1:
        return pieces[0]  # squeezed: the window stays as scalar coordinates, as Brain-Score's squeeze does
    return xr.concat(pieces, dim="time_bin")


def average_repetitions(assembly: xr.DataArray) -> xr.DataArray:
    """Mean over repetitions of each stimulus, sorted by stimulus_id; per-stimulus coordinates are kept."""
    stimulus_ids = assembly["stimulus_id"].values.astype(str)
    unique, inverse = np.unique(stimulus_ids, return_inverse=True)
    values = assembly.transpose("presentation", ...).values
    # Group sums by sorting the presentations by stimulus (stable: each group keeps presentation order) and
    # adding each run of rows in float64: the same sums as np.add.at over the presentations, several times faster
    # at 140800 trials. The NaN bookkeeping runs only when there is a NaN.
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(unique)))
    sorted_values = values[order]
    missing = np.isnan(sorted_values)
    if missing.any():
        sums = np.add.reduceat(np.where(missing, 0, sorted_values), starts, axis=0, dtype=np.float64)
        counts = np.add.reduceat(~missing, starts, axis=0, dtype=np.float64)
    else:
        sums = np.add.reduceat(sorted_values, starts, axis=0, dtype=np.float64)
        sizes = np.diff(np.append(starts, len(order))).astype(np.float64)
        counts = np.broadcast_to(sizes.reshape((-1,) + (1,) * (values.ndim - 1)), sums.shape)
    with np.errstate(invalid="ignore"):
        means = (sums / counts).astype(np.float32)  # skipna mean, as Brain-Score's .mean(skipna=True)
    first = np.zeros(len(unique), dtype=int)
    first[inverse[::-1]] = np.arange(len(inverse))[::-1]  # first presentation of each stimulus
    coords = {}
    for name, coord in assembly.coords.items():
        if coord.dims == ("presentation",):
            if name != "repetition":
                coords[name] = ("presentation", coord.values[first])
        elif "presentation" not in coord.dims:
            coords[name] = coord
    dims = ("presentation",) + tuple(d for d in assembly.transpose("presentation", ...).dims if d != "presentation")
    return xr.DataArray(means, dims=dims, coords=coords, name=assembly.name, attrs=assembly.attrs)


#: How to use a corrected copy of the recordings, in the messages about missing responses (the workflow names
#: the exact config key of the data set: :func:`brainpipe.data.catalog.cleaned_copy_advice`).
CLEANED_COPY = "point data.local_files at the cleaned copy"


def prepare(assembly: xr.DataArray, region, time_window=(70, 170), bin_size=None, source="assembly",
            cleaned_copy=CLEANED_COPY, exact_time_bin=False, neuroid_filter=(), single_response=False,
            drop_nan_presentations=False):
    """Return (target, repetitions) for one region, both (presentation, neuroid[, time_bin]) float32.

    ``exact_time_bin``: the time bin equal to ``time_window`` (see :func:`select_time_window`).
    ``neuroid_filter``: ((coordinate, threshold), ...): keep the region's neuroids whose coordinate exceeds each
    threshold (Brain-Score's Li2026 keeps ``reliability_window > 0.4``).
    ``single_response``: the file holds one response per stimulus and no ``repetition`` coordinate; the target is
    the presentations in file order (Brain-Score scores such an assembly without ``average_repetition``, so its CV
    splits are drawn on that order), and the "repetitions" copy is the same data with ``repetition`` 0.
    ``drop_nan_presentations``: recordings where many stimuli were shown to only some neuroids (Cadena2017): the
    target keeps the stimuli whose repetition mean is finite for every neuroid, the trials copy the trials that
    are finite for every neuroid (brain-score/vision brainscore_vision/benchmarks/cadena2017/benchmark.py
    ``AssemblyLoader.dropna`` on the averaged assembly, and on the unaveraged one in its ceiling); ``"target"``:
    from the target only, the trials keep every presentation (its mask benchmark's ceiling reads them all).
    """
    if single_response and "repetition" not in assembly.coords:
        assembly = assembly.assign_coords(repetition=("presentation", np.zeros(assembly.sizes["presentation"], int)))
    check_assembly(assembly, source)
    regions = np.unique(assembly["region"].values.astype(str))
    if region not in regions:
        raise ValueError(f"{source}: no neuroids in region {region!r}; regions present: {list(regions)}")
    keep = assembly["region"].values.astype(str) == region
    for coordinate, threshold in neuroid_filter:
        if coordinate not in assembly.coords or assembly[coordinate].dims != ("neuroid",):
            raise ValueError(f"{source}: no neuroid coordinate {coordinate!r} to select neuroids by "
                             f"({coordinate} > {threshold})")
        keep &= assembly[coordinate].values > threshold  # NaN is not above: dropped, as in Brain-Score's mask
    if not keep.any():
        raise ValueError(f"{source}: no neuroid of region {region!r} passes "
                         + " and ".join(f"{c} > {t}" for c, t in neuroid_filter))
    selected = assembly.isel(neuroid=np.flatnonzero(keep))
    selected = select_time_window(selected, *time_window, bin_size=bin_size, exact=exact_time_bin)
    order = ("presentation", "neuroid") + (("time_bin",) if "time_bin" in selected.dims else ())
    repetitions = selected.transpose(*order).astype(np.float32)
    values = repetitions.values
    if np.isinf(values).any():
        raise ValueError(f"{source}: {int(np.isinf(values).sum())} infinite values in region {region}")
    if single_response:
        stimuli = repetitions["stimulus_id"].values.astype(str)
        if len(np.unique(stimuli)) != len(stimuli):
            raise ValueError(f"{source}: declared as one response per stimulus, but "
                             f"{len(stimuli) - len(np.unique(stimuli))} stimulus ids repeat")
        target = repetitions.drop_vars("repetition")
    else:
        target = average_repetitions(repetitions)
    if drop_nan_presentations:
        target = _finite_presentations(target, source, region)
        if drop_nan_presentations != "target":  # 'target': the trials keep them (Cadena2017-mask's ceiling)
            repetitions = _finite_presentations(repetitions, source, region)
    check_finite_target(target, repetitions, region, source, cleaned_copy)
    return target, repetitions


def _finite_presentations(assembly: xr.DataArray, source, region) -> xr.DataArray:
    """The presentations without a NaN in any neuroid (or time bin), in their order (xarray's
    ``dropna('presentation', how='any')``); one error when none is left."""
    values = assembly.transpose("presentation", ...).values
    finite = ~np.isnan(values.reshape(len(values), -1)).any(axis=1)
    if not finite.any():
        raise ValueError(f"{source}: every presentation of region {region} has a NaN response; nothing to score")
    return assembly.isel(presentation=np.flatnonzero(finite))


def _some(names, limit=10):
    names = [str(name) for name in names]
    return ", ".join(names[:limit]) + (f" ... (+{len(names) - limit} more)" if len(names) > limit else "")


def check_finite_target(target: xr.DataArray, repetitions: xr.DataArray, region, source="assembly",
                        cleaned_copy=CLEANED_COPY):
    """Raise one ValueError if the repetition-averaged target has a NaN anywhere; warn about NaN trials.

    The target averages the finite trials of each stimulus (Brain-Score's skipna mean), so it is NaN exactly
    where a (stimulus, neuroid[, bin]) has no finite trial. The regressions cannot fit such a neuroid (they
    reject non-finite targets) while the split-half ceiling would quietly leave its NaN r out of the median,
    so the two would describe different neuroids. Both read the files written from here: refusing here,
    naming the stimuli or neuroids and the file, keeps them on the same data.

    NaN *trials* with a finite mean per stimulus are Brain-Score's own case (skipna) and pass, with a
    warning: a split half without a finite trial of some stimulus makes that neuroid's r NaN in that split
    of the ceiling, which (as in Brain-Score's median with skipna) then leaves it out of that split.
    """
    missing = np.isnan(target.transpose("presentation", "neuroid", ...).values)
    if missing.ndim == 3:
        missing = missing.any(axis=2)  # a neuroid missing in any time bin
    stimuli = target["stimulus_id"].values.astype(str)
    neuroids = target["neuroid_id"].values.astype(str)
    dead_stimuli = missing.all(axis=1)
    if dead_stimuli.any():
        raise ValueError(
            f"{source}: {int(dead_stimuli.sum())} of {len(stimuli)} stimuli have no finite response (every trial "
            f"of every neuroid is NaN) in region {region}: {_some(stimuli[dead_stimuli])}. Remove these "
            f"presentations from the recordings (or check how the file was made) and {cleaned_copy}")
    bad = missing.any(axis=0)
    if bad.any():
        examples = []
        for index in np.flatnonzero(bad)[:3]:
            examples.append(f"{neuroids[index]}: {int(missing[:, index].sum())} stimuli, e.g. "
                            f"{_some(stimuli[missing[:, index]], 3)}")
        raise ValueError(
            f"{source}: {int(bad.sum())} of {len(neuroids)} neuroids in region {region} have no finite response "
            f"(every trial NaN) to some stimuli: {_some(neuroids[bad])} ({'; '.join(examples)}). A regression "
            f"cannot fit a missing response and the ceiling would skip these neuroids, so nothing is scored. "
            f"Remove these neuroids from the recordings, e.g. "
            f"a = a.isel(neuroid=~a['neuroid_id'].isin(ids)) with xarray, and {cleaned_copy}")
    nan_trials = np.isnan(repetitions.transpose("presentation", "neuroid", ...).values)
    if nan_trials.ndim == 3:
        nan_trials = nan_trials.any(axis=2)
    partial = nan_trials.any(axis=0)
    if partial.any():
        warnings.warn(
            f"{source}: {int(partial.sum())} of {len(neuroids)} neuroids in region {region} have NaN in "
            f"{int(nan_trials.sum())} trial(s): {_some(neuroids[partial])}. The target averages each stimulus's "
            f"finite trials (Brain-Score's skipna mean); a ceiling split whose half lacks a finite trial of some "
            f"stimulus leaves that neuroid out of the split's median", stacklevel=3)
