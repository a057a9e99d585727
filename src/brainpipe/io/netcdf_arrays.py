"""Read a NetCDF DataArray with netCDF4 and numpy alone, for jobs that only need its arrays.

A fold job fitted from a Gram matrix needs the Gram's values and stimulus ids and the target's values and a few
coordinates. Importing xarray (and with it pandas) costs such a job about 0.4 s of its one second, so it reads
the files with this instead. ``read_arrays`` returns an ``Arrays`` with the part of ``xarray.DataArray``'s
interface those jobs use (``values``, ``dims``, ``shape``, ``sizes``, ``attrs``, ``encoding``, ``coords``,
``array[name].values``), holding the same numbers xarray would decode. A file using an encoding it does not
decode itself (scale factors, time units, integer or text fill values, char arrays) is read by
``brainpipe.io.read_netcdf`` (xarray) instead, so no decoding is ever guessed.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

#: variable attributes through which xarray decodes values in ways this reader does not reproduce
_DECODED_BY_XARRAY = {"scale_factor", "add_offset", "units", "calendar", "dtype", "missing_value", "_Unsigned",
                      "flag_values", "flag_meanings", "compress"}
#: attributes that describe the encoding, not the array: xarray moves them out of ``attrs``
_ENCODING_ATTRIBUTES = {"_FillValue", "coordinates"}
_XARRAY_UNNAMED = "__xarray_dataarray_variable__"


class _Variable:
    """One coordinate: ``values`` and ``dims`` as on an xarray coordinate."""

    def __init__(self, values: np.ndarray, dims: tuple):
        self.values, self.dims = values, dims


class Arrays:
    """A DataArray's values and coordinates as numpy arrays (see the module docstring)."""

    def __init__(self, name, values, dims, coords: dict, attrs: dict, source: str):
        self.name = None if name == _XARRAY_UNNAMED else name
        self.values, self.dims, self.coords, self.attrs = values, tuple(dims), coords, attrs
        self.encoding = {"source": source}

    @property
    def shape(self):
        return self.values.shape

    @property
    def sizes(self):
        return dict(zip(self.dims, self.values.shape))

    def __getitem__(self, name):
        return self.coords[name]


class _NeedsXarray(Exception):
    """The file uses an encoding this reader leaves to xarray."""


def read_arrays(path, required_coords=()):
    """Read the DataArray in ``path`` like ``brainpipe.io.read_netcdf`` (same checks, same errors), as ``Arrays``,
    or as an ``xarray.DataArray`` where the file needs xarray's decoding."""
    from .netcdf import read_netcdf

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: file not found")
    try:
        array = _read(path)
    except Exception:  # anything unusual (including a corrupt file): xarray's reader and its errors decide
        return read_netcdf(path, required_coords=required_coords)
    missing = [name for name in required_coords if name not in array.coords]
    if missing:  # read_netcdf words the error the same way for every reader
        return read_netcdf(path, required_coords=required_coords)
    return array


def _read(path: Path) -> Arrays:
    import netCDF4

    with netCDF4.Dataset(path) as dataset:
        dataset.set_auto_maskandscale(False)
        dataset.set_auto_chartostring(False)
        variables = dataset.variables
        listed = {name for variable in variables.values()
                  for name in str(getattr(variable, "coordinates", "")).split()}
        coordinate_names = [name for name in variables if name in listed or name in dataset.dimensions]
        data_names = [name for name in variables if name not in coordinate_names]
        if len(data_names) != 1:
            raise _NeedsXarray(f"{len(data_names)} data variables")
        name = data_names[0]
        data = variables[name]
        coords = {coordinate: _Variable(_values(variables[coordinate], coordinate=True),
                                        variables[coordinate].dimensions) for coordinate in coordinate_names}
        attrs = {key: data.getncattr(key) for key in data.ncattrs() if key not in _ENCODING_ATTRIBUTES}
        return Arrays(name, _values(data), data.dimensions, coords, attrs, str(path))


def _values(variable, coordinate=False) -> np.ndarray:
    """A variable's values as xarray decodes them, for the encodings this project's files use."""
    if _DECODED_BY_XARRAY & set(variable.ncattrs()):
        raise _NeedsXarray(variable.name)
    values = variable[...]
    if variable.dtype is str:
        if "_FillValue" in variable.ncattrs():  # a missing text, decoded to NaN by xarray
            raise _NeedsXarray(variable.name)
        # xarray gives text coordinates a fixed-width unicode dtype and keeps text data as objects
        return np.asarray(values, dtype=str if coordinate else object)
    values = np.asarray(values)
    if values.dtype.kind not in "fiub":
        raise _NeedsXarray(variable.name)  # char arrays, compound and other types
    if "_FillValue" in variable.ncattrs():
        fill = variable.getncattr("_FillValue")
        if values.dtype.kind != "f" or not (isinstance(fill, float | np.floating) and math.isnan(fill)):
            raise _NeedsXarray(variable.name)  # a number as the fill value: xarray masks (and may cast) it
    return values


def dimension_sizes(path) -> dict[str, int]:
    """The dimension sizes of a NetCDF file, from its header alone (the rules' memory estimates read them)."""
    import netCDF4

    with netCDF4.Dataset(path) as dataset:
        return {name: len(dimension) for name, dimension in dataset.dimensions.items()}
