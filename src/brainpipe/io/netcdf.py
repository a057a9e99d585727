"""NetCDF outputs: a DataArray written atomically (text that may be missing kept missing), read back fully (or
opened, to read a part) with a check of the coordinates and dimensions a caller needs, and written a block of rows
at a time when it does not fit in memory (:class:`NetcdfRowWriter`). xarray and netCDF4 are imported where arrays
are read or written."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .atomic import atomic_path, check_free_space, redo_advice

if TYPE_CHECKING:
    import xarray as xr


def write_netcdf(array: xr.DataArray, destination):
    """Write a DataArray to NetCDF atomically; MultiIndex coordinates are reset first (NetCDF cannot store them)."""
    indexes = [name for name, index in array.indexes.items() if getattr(index, "nlevels", 1) > 1]
    if indexes:
        array = array.reset_index(indexes)
    # An array read from a file keeps that file's encoding (a BrainIO assembly: zlib, chunked), which to_netcdf
    # would reuse: compressing 150 MB of recordings again took 2.6 of the 3.5 s of each intermediate write.
    # Intermediate files are written plain (contiguous, uncompressed); the values are the same.
    array = array.copy(deep=False)
    array.encoding = {}
    for name in array.coords:
        array[name].encoding = {}
    with atomic_path(destination) as temporary:
        array.to_netcdf(temporary, encoding=_text_fill_values(array))


def _text_fill_values(array: xr.DataArray) -> dict:
    """A ``_FillValue`` for each text variable holding missing values: NetCDF strings have no NaN, and without
    one xarray writes NaN/None as '' (a missing human choice would turn into an answer ''). The fill value is a
    text the variable does not hold, so nothing else changes; reading decodes it back to NaN."""
    import numpy as np
    import pandas as pd

    encoding = {}
    variables = {array.name if array.name is not None else "__xarray_dataarray_variable__": array.variable,
                 **{name: array[name].variable for name in array.coords}}
    for name, variable in variables.items():
        if variable.dtype != object:
            continue
        missing = pd.isna(np.asarray(variable.values, dtype=object).ravel())
        if missing.any():
            present = {str(v) for v in np.asarray(variable.values, dtype=object).ravel()[~missing]}
            candidates = (f"<missing{k or ''}>" for k in range(len(present) + 1))
            encoding[name] = {"_FillValue": next(c for c in candidates if c not in present)}
    return encoding


def read_netcdf(path, required_coords=(), required_dims=()):
    """Open a NetCDF DataArray fully into memory and check that it has what the caller needs.

    Raises one ValueError naming the file and every missing coordinate or dimension.
    """
    with open_netcdf(path, required_coords, required_dims) as array:
        return _loaded(array, path)


def open_netcdf(path, required_coords=(), required_dims=()):
    """The NetCDF DataArray at ``path``, open but not read, checked as :func:`read_netcdf` checks it (the same
    errors): a selection reads only its own values from the file (``.isel(presentation=rows).values``), and reading
    the whole array reads it once (xarray keeps what it read). For a job that needs a part of a large file at a
    time: ImageNet-C's logits a block of rows at a time (the label task), a per-subject pool's layer one subject's
    rows at a time (a plugin's fold). The file stays open until the array is closed: ``with open_netcdf(path) as
    array:`` closes it at the block's end."""
    import xarray as xr

    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: file not found")
    try:
        array = xr.open_dataarray(path)
    except Exception as error:  # netCDF4/h5 errors come in many types; all mean the same to the user
        raise _unreadable(path, error) from None
    missing = [f"coordinate '{name}'" for name in required_coords if name not in array.coords]
    missing += [f"dimension '{name}'" for name in required_dims if name not in array.dims]
    if missing:
        array.close()
        raise ValueError(f"{path}: missing {', '.join(missing)} (has dims {list(array.dims)}, coords "
                         f"{sorted(array.coords)})")
    return array


def _loaded(array, path):
    try:
        return array.load()
    except Exception as error:
        raise _unreadable(path, error) from None


def _unreadable(path, error) -> ValueError:
    return ValueError(f"{path}: cannot read as a NetCDF DataArray ({error}); the file is corrupt or incomplete. "
                      f"{redo_advice(path)}")


def _coordinate_bytes(dataset) -> int:
    """An upper estimate of the bytes a Dataset's coordinates take in a NetCDF4 file: numbers as stored, text as
    HDF5 variable-length strings (the text plus 64 bytes of heap and reference per string; measured 52-57 for a
    layer's neuroid_id and layer coordinates), plus 64 KiB of headers."""
    import numpy as np

    total = 1 << 16
    for variable in dataset.variables.values():
        values = np.asarray(variable.values)
        if values.dtype.kind in "OUS":
            total += sum(len(str(value).encode()) for value in values.ravel()) + 64 * values.size
        else:
            total += values.nbytes
    return total


class NetcdfRowWriter:
    """Write one 2-D DataArray to NetCDF a block of rows at a time, so it never has to be in memory whole.

    The file is the one ``write_netcdf`` would write for the finished DataArray (same variable name, dims,
    coordinates, attributes, float32 contiguous storage with xarray's NaN ``_FillValue``), so ``read_netcdf`` and
    ``xr.open_dataarray`` read it exactly as before. Every row must be written (storage is not pre-filled; see
    ``rows_written``). Not atomic by itself: write into an ``atomic_directory`` (or an ``atomic_path``) and close
    before the block ends.

    >>> with NetcdfRowWriter(path, "m.layer", ("presentation", "neuroid"), (n, units), coords, attrs) as out:
    ...     out.write(0, first_rows); out.write(len(first_rows), next_rows)
    """

    def __init__(self, path, name, dims, shape, coords, attrs, dtype="float32", reserved=0):
        """``reserved``: bytes that other files on the same disk still need (writers opened before this one,
        whose rows are not written yet); the free space must hold them and this file's values."""
        import netCDF4  # imported here: only extraction streams, and netCDF4 is a heavy import
        import numpy as np
        import xarray as xr

        if name in coords or name in dims:
            raise ValueError(f"{path}: variable name {name!r} collides with a coordinate or dimension")
        self.path, self.name, self.shape, self.dtype = Path(path), name, tuple(shape), np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape)) * self.dtype.itemsize  # the values, written later row by row
        # xarray writes the coordinates (string encoding, dimension order) exactly as DataArray.to_netcdf does.
        skeleton = xr.Dataset(coords=coords)
        if tuple(skeleton.sizes[dim] for dim in dims) != self.shape:
            raise ValueError(f"{path}: coordinates give shape {dict(skeleton.sizes)}, expected {dims}={self.shape}")
        # the coordinates are written now, the values later: the disk must hold both (and what is reserved)
        check_free_space(self.path, _coordinate_bytes(skeleton) + self.nbytes + reserved)
        skeleton.to_netcdf(self.path, engine="netcdf4")
        check_free_space(self.path, self.nbytes + reserved)  # what the coordinates really took: room left for rows?
        non_dimension = sorted(name for name in skeleton.coords if name not in skeleton.dims)
        self._file = netCDF4.Dataset(self.path, "a")
        try:
            # With no data variable, xarray lists the coordinates globally; DataArray.to_netcdf puts them on the
            # variable instead (xarray conventions._encode_coordinates), and so do we.
            if "coordinates" in self._file.ncattrs():
                self._file.delncattr("coordinates")
            fill = np.array(np.nan, self.dtype) if self.dtype.kind == "f" else None  # xarray's default for floats
            # The file keeps its _FillValue attribute, but HDF5 is told never to pre-fill the storage: by default
            # the first write fills the whole variable with NaN before writing its rows (1.5 s for a 830 MB layer,
            # all of it overwritten). Every row is written by the caller (extract_to_folder checks rows_written),
            # so the values are the same; a row never written would read as zeros, not NaN.
            self._file.set_fill_off()
            self._variable = self._file.createVariable(name, self.dtype, dims, fill_value=fill, contiguous=True)
            self._variable.setncatts({**attrs, "coordinates": " ".join(non_dimension)})
        except BaseException:
            self._file.close()
            raise
        self.rows_written = 0

    def write(self, start, rows):
        """Write ``rows`` (shape (k, columns)) at rows start … start + k."""
        import numpy as np

        rows = np.ascontiguousarray(rows, dtype=self.dtype)
        if rows.ndim != 2 or rows.shape[1] != self.shape[1] or not 0 <= start <= self.shape[0] - len(rows):
            raise ValueError(f"{self.path}: cannot write rows of shape {rows.shape} at row {start} of {self.shape}")
        self._variable[start: start + len(rows), :] = rows
        self.rows_written += len(rows)

    def close(self):
        if self._file.isopen():
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
