"""Shared pieces of the behavioural metrics: the result type and input checks with clear messages.

Behavioural assemblies here are plain xarray DataArrays as read from NetCDF (no MultiIndex): a ``presentation``
dimension (one trial or one stimulus per entry) whose coordinates (``stimulus_id``, ``truth``, ``subject``,
``condition``, …) carry the metadata, as in Brain-Score's BrainIO ``BehavioralAssembly``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from .result import Result  # noqa: F401  (where the metrics import it from)


def where(name: str | None) -> str:
    """Prefix for error messages: the file or assembly the data came from, when known."""
    return f"{name}: " if name else ""


def source_name(array) -> str | None:
    """A name to put in error messages: the DataArray's ``source`` attr (set by readers), else its name."""
    if isinstance(array, xr.DataArray):
        return array.attrs.get("source") or (str(array.name) if array.name is not None else None)
    return None


def require_coords(array: xr.DataArray, coords, what: str = "assembly", name: str | None = None):
    """Raise one ValueError naming every missing coordinate of ``array``."""
    missing = [c for c in coords if c not in array.coords]
    if missing:
        name = name or source_name(array)
        raise ValueError(f"{where(name)}{what} lacks coordinate(s) {', '.join(repr(m) for m in missing)} "
                         f"(has {sorted(array.coords)})")


def coord(array: xr.DataArray, name: str, dim: str = "presentation") -> np.ndarray:
    """Values of coordinate ``name`` along ``dim``, as a numpy array."""
    values = array[name]
    if values.dims != (dim,):
        raise ValueError(f"{where(source_name(array))}coordinate {name!r} must lie along {dim!r}, "
                         f"has dims {values.dims}")
    return np.asarray(values.values)


def isnull(values) -> np.ndarray:
    """Missing values of any dtype (NaN floats, None or NaN in object arrays)."""
    return np.asarray(pd.isna(np.asarray(values, dtype=object)), dtype=bool)


def check_no_missing(array: xr.DataArray, coords=(), what: str = "human data", name: str | None = None):
    """Raise a ValueError naming the coordinate (or the values) that hold NaN/None."""
    name = name or source_name(array)
    bad = isnull(array.values.ravel())
    if bad.any():
        raise ValueError(f"{where(name)}{what} has {int(bad.sum())} missing (NaN) value(s) among its "
                         f"{bad.size} choices; drop those trials first")
    for c in coords:
        if c in array.coords:
            bad = isnull(array[c].values.ravel())
            if bad.any():
                raise ValueError(f"{where(name)}{what} has {int(bad.sum())} missing (NaN) value(s) in "
                                 f"coordinate {c!r}; drop those trials first")


def responses(array: xr.DataArray, name: str | None = None) -> np.ndarray:
    """The choices of a behavioural assembly as a 1-D array along ``presentation``.

    Accepts Brain-Score's model output shape ``('choice', 'presentation')`` with one choice row as well as 1-D
    human data (``('presentation',)``).
    """
    if array.dims == ("presentation",):
        return np.asarray(array.values)
    if set(array.dims) == {"choice", "presentation"} and array.sizes["choice"] == 1:
        return np.asarray(array.transpose("choice", "presentation").values[0])
    raise ValueError(f"{where(name or source_name(array))}expected choices along 'presentation' "
                     f"(optionally with one 'choice' row), got dims {array.dims} and shape {array.shape}")


def levels(values) -> list:
    """Sorted distinct values as plain Python scalars (readable in messages: 'B', not np.str_('B'))."""
    return [v.item() if isinstance(v, np.generic) else v for v in sorted(set(np.asarray(values).tolist()))]


def as_text(values) -> np.ndarray:
    """Values as an object array of str (ids read from CSV may be ints on one side and str on the other)."""
    return np.array([str(v) for v in np.asarray(values).ravel()], dtype=object)
