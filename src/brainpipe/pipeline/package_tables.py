"""What the packaging steps share (``brainpipe package``): the error type and checked reading of a user's CSV
tables, with messages naming the file, the line and the value."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

_ID_DTYPES = {"stimulus_id": str, "image_id": str, "filename": str, "neuroid_id": str, "region": str}


class PackagingError(ValueError):
    """Bad input to :func:`package`; the message names the file and the value, and says what to do."""


def _some(items, limit=5) -> str:
    items = [str(item) for item in items]
    more = f" … and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _read_csv(path: Path, what: str, raw=False) -> pd.DataFrame:
    """A CSV with id columns as text; ``raw``: every column as the text the file holds (for messages)."""
    try:
        if raw:
            return pd.read_csv(path, dtype=str, keep_default_na=False)
        return pd.read_csv(path, dtype=_ID_DTYPES)
    except FileNotFoundError:
        raise PackagingError(f"{path}: no such file (the {what})") from None
    except (OSError, ValueError, pd.errors.ParserError) as error:
        raise PackagingError(f"{path}: not a readable CSV ({error}) (the {what})") from None


def _require_columns(table: pd.DataFrame, path: Path, columns, hint: str = "") -> None:
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise PackagingError(f"{path}: missing column(s) {', '.join(missing)}; it has {list(table.columns)}{hint}")


def _no_blanks(table: pd.DataFrame, path: Path, columns) -> None:
    for column in columns:
        blank = table[column].isna() | (table[column].astype(str).str.strip() == "")
        if blank.any():
            lines = [index + 2 for index in np.flatnonzero(blank.to_numpy())]  # +2: header line, 1-based
            raise PackagingError(f"{path}: empty {column} on line(s) {_some(lines)}; every row needs one")


def renamed_columns(table: pd.DataFrame, path: Path, coords: dict | None, reads=None) -> pd.DataFrame:
    """A CSV's columns renamed to brainpipe's names (``coords``: brainpipe name -> your column name); mappings for
    columns this file does not have are for the other files. A column named by several brainpipe names (one column
    that is both the id and the image: ``stimulus_id=file,filename=file``) is copied to each of those names this
    file reads (``reads``; all of them when None)."""
    names_of = {}
    for ours, theirs in (coords or {}).items():
        names_of.setdefault(theirs, []).append(ours)
    for theirs, names in names_of.items():
        if theirs not in table.columns:
            continue
        if len(names) > 1 and reads is not None:
            names = [name for name in names if name in reads] or names[:1]
        for ours in names:
            if ours != theirs and ours in table.columns:
                raise PackagingError(f"{path}: has both {ours!r} and {theirs!r} (mapped to {ours!r} by --coords); "
                                     "drop one")
        position = list(table.columns).index(theirs)
        values = table[theirs]
        table = table.rename(columns={theirs: names[0]})
        for offset, ours in enumerate(names[1:]):  # (coords' keys: no name twice)
            table.insert(position + 1 + offset, ours, values)
    return table


def _line_numbers(mask) -> list:
    return [index + 2 for index in np.flatnonzero(np.asarray(mask))]


def _unknown_stimuli(stimulus_ids, path: Path, table: pd.DataFrame) -> None:
    known = set(table["stimulus_id"])
    unknown = sorted({str(sid) for sid in stimulus_ids} - known)
    if unknown:
        raise PackagingError(f"{path}: {len(unknown)} stimulus id(s) are not in the stimulus CSV: "
                             f"{_some(repr(u) for u in unknown)}. Add them to the CSV (with their images) or drop "
                             "their responses")
