"""Object-solution-time data (Kar2019): the primate's OST per image, and the I1 d′ it reached, as Brain-Score ships it.

File format (brain-score/vision brainscore_vision/data/kar2019/data_packaging.py): a brainio DataAssembly with dims
``(decoder, presentation)`` (decoders ``svm`` and ``logistic``), values = OST in ms (NaN where the decoder never
reached the threshold), presentation coordinates ``image_id`` (or ``stimulus_id``), ``image_label`` (the object)
and ``i1`` (the primate I1 d′ the model must reach per image). The benchmark's preparation (brain-score/vision
brainscore_vision/benchmarks/kar2019/benchmark.py, ``DicarloKar2019OST.__init__``), done here by
:func:`prepare_target`: drop duplicate stimulus ids keeping the first (``np.unique(..., return_index=True)``: the
presentations come out sorted by id), select one decoder (``svm``), ``truth = image_label``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

REQUIRED = ("image_label", "i1")


def load_ost_assembly(nc_path, stimuli_csv=None):
    """Read an OST assembly, add ``stimulus_id`` (from ``image_id``) and check the format; a ValueError names the
    file and the missing dimension or coordinate. With ``stimuli_csv``: every image must be in the stimulus set."""
    import pandas as pd
    import xarray as xr

    nc_path = Path(nc_path)
    with xr.open_dataarray(nc_path) as opened:
        assembly = opened.load()
    if set(assembly.dims) != {"decoder", "presentation"}:
        raise ValueError(f"{nc_path}: an OST assembly has dims (decoder, presentation), got {assembly.dims}")
    present = {name for name, coord in assembly.coords.items() if coord.dims == ("presentation",)}
    if "stimulus_id" not in present:
        if "image_id" not in present:
            raise ValueError(f"{nc_path}: missing coordinate 'stimulus_id' (or 'image_id') along presentation")
        assembly = assembly.assign_coords(stimulus_id=("presentation", assembly["image_id"].values.astype(str)))
    for name in REQUIRED:
        if name not in present:
            raise ValueError(f"{nc_path}: missing coordinate {name!r} along presentation (the OST target needs "
                             f"{list(REQUIRED)})")
    if "decoder" not in assembly.coords:
        raise ValueError(f"{nc_path}: the decoder dimension has no 'decoder' coordinate (e.g. ['svm', 'logistic'])")
    if stimuli_csv is not None:
        table = pd.read_csv(stimuli_csv, dtype={"stimulus_id": str, "image_id": str})
        column = "stimulus_id" if "stimulus_id" in table.columns else "image_id"  # brainio CSVs name it image_id
        if column not in table.columns:
            raise ValueError(f"{stimuli_csv}: no stimulus_id (or image_id) column")
        ids = set(table[column].astype(str))
        missing = sorted(set(assembly["stimulus_id"].values.astype(str)) - ids)
        if missing:
            raise ValueError(f"{nc_path}: {len(missing)} stimulus_id(s) of the OST target are not in the stimulus "
                             f"set {stimuli_csv}, e.g. {missing[:3]}")
    return assembly


def prepare_target(assembly, decoder="svm"):
    """Brain-Score's Kar2019 target: unique stimulus ids (sorted, the first of duplicates), one decoder,
    ``truth = image_label``. Returns a presentation-only DataArray of OSTs (ms)."""
    ids = assembly["stimulus_id"].values.astype(str)
    _, first = np.unique(ids, return_index=True)
    target = assembly.isel(presentation=first)
    decoders = target["decoder"].values.astype(str).tolist()
    if decoder not in decoders:
        raise ValueError(f"OST target: no decoder {decoder!r} (coordinate 'decoder' has {decoders})")
    target = target.isel(decoder=decoders.index(decoder)).drop_vars("decoder")
    target = target.assign_coords(truth=("presentation", target["image_label"].values.astype(str)))
    target.attrs["duplicates_dropped"] = int(len(ids) - len(first))
    return target
