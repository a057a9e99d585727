"""The property sets a properties benchmark can name: key → the function computing one PropertyTable per model.

Each built-in set is one experiment's property function of Brain-Score's Marques2020 benchmarks
(brain-score/vision brainscore_vision/benchmarks/marques2020/benchmarks/*.py), computed by this package's modules.
A user's own set is a Python file with a function ``properties(responses, baseline, stimuli)`` returning a mapping
property name → one value per unit and, under the key ``responsive``, which units pass the response threshold
(see :func:`plugin_property_set`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from brainpipe.io.user_files import import_user_file

from .orientation import devalois1982a_properties, ringach2002_properties
from .spatial_frequency import devalois1982b_properties, schiller1976_properties
from .surround import cavanaugh2002_properties
from .table import PropertyTable, table
from .texture import freemanziemba2013_properties

PROPERTY_SETS = {
    "ringach2002": ringach2002_properties,
    "devalois1982a": devalois1982a_properties,
    "devalois1982b": devalois1982b_properties,
    "schiller1976": schiller1976_properties,
    "cavanaugh2002": cavanaugh2002_properties,
    "freemanziemba2013": freemanziemba2013_properties,
}
#: which stimuli each set reads: gratings (the seven grating columns) or textures (type, family, sample)
TEXTURE_SETS = ("freemanziemba2013",)
PLUGIN_PREFIX = "plugin:"


class PropertyFunctionError(ValueError):
    """A user's property function failed or returned something unusable; the message names the file."""


def _load(path: Path):
    return import_user_file(path, "brainpipe_property_plugin_", PropertyFunctionError, f"property function {path}")


def plugin_property_set(path, base_dir=".", function: str = "properties"):
    """A user's property function from ``path`` (relative to ``base_dir``) as a property-set function."""
    path = Path(path)
    if not path.is_absolute():
        path = Path(base_dir) / path
    if not path.is_file():
        raise PropertyFunctionError(f"property function file {path} not found")
    user_function = getattr(_load(path), function, None)
    if not callable(user_function):
        raise PropertyFunctionError(f"property function {path}: defines no function {function!r}")

    def compute(responses, baseline, stimuli) -> PropertyTable:
        where = f"{path}:{function}"
        try:
            result = user_function(responses, baseline, stimuli)
        except Exception as error:
            raise PropertyFunctionError(f"property function {where} raised {type(error).__name__}: {error}") from None
        if not isinstance(result, dict) or "responsive" not in result:
            raise PropertyFunctionError(f"property function {where} must return a dict of property name -> one value "
                                        f"per unit, with the key 'responsive' (bool per unit); got "
                                        f"{type(result).__name__}{' without responsive' if isinstance(result, dict) else ''}")
        n_units = np.asarray(responses).shape[0]
        columns = {k: v for k, v in result.items() if k != "responsive"}
        for key, values in list(columns.items()) + [("responsive", result["responsive"])]:
            if np.shape(values) != (n_units,):
                raise PropertyFunctionError(f"property function {where}: {key!r} has shape {np.shape(values)}, "
                                            f"expected ({n_units},): one value per unit")
        if not columns:
            raise PropertyFunctionError(f"property function {where} returned no property")
        return table(columns, result["responsive"], f"responsive as returned by {where}")

    return compute


def property_function(property_set: str, base_dir="."):
    """The function of a property set key: a built-in name or ``plugin:<file.py>``."""
    if property_set.startswith(PLUGIN_PREFIX):
        return plugin_property_set(property_set[len(PLUGIN_PREFIX):], base_dir)
    if property_set not in PROPERTY_SETS:
        raise ValueError(f"unknown property set {property_set!r}; known: {', '.join(PROPERTY_SETS)} or "
                         f"'{PLUGIN_PREFIX}path/to/file.py'")
    return PROPERTY_SETS[property_set]
