"""File I/O shared by every stage. The base layer: imports no other brainpipe package.

* ``atomic.py``: outputs written whole (a temporary name renamed into place), the staging that killed writers left
  behind removed, a full disk reported as :class:`DiskFullError`, and how to have a corrupt output written again;
* ``json_files.py``: JSON written atomically (NaN as null) and read with a message naming a corrupt file;
* ``netcdf.py``: NetCDF DataArrays written atomically and read (or opened, to read a part) with checks, or written a
  block of rows at a time;
* ``netcdf_arrays.py``: the fast reader of the arrays a fold job needs (netCDF4 and numpy, without xarray);
* ``user_files.py``: importing a user's Python file (a benchmark plugin, a property function).

The first three are the public face, re-exported here (``from brainpipe.io import read_netcdf, write_json``).
numpy, pandas and xarray are imported where arrays are read or written: a job that only reads and writes JSON
(score, score_layer, leaderboard) then starts without them (~0.4 s per job).
"""

from .atomic import (STALE_AFTER_S, DiskFullError, atomic_directory, atomic_path, check_free_space, redo_advice,
                     remove_stale_staging, staging_prefix)
from .json_files import as_json, read_json, write_json
from .netcdf import NetcdfRowWriter, open_netcdf, read_netcdf, write_netcdf

__all__ = ["STALE_AFTER_S", "DiskFullError", "NetcdfRowWriter", "as_json", "atomic_directory", "atomic_path",
           "check_free_space", "open_netcdf", "read_json", "read_netcdf", "redo_advice", "remove_stale_staging",
           "staging_prefix", "write_json", "write_netcdf"]
