"""Names that become file and folder names must differ in more than letter case.

A model's name is its results folder (``results/<model>/``), a benchmark's identifier its score file
(``results/<model>/<benchmark>.json``) and a family's name its data files (``assy_<family>.nc``). On a
case-insensitive file system, the default of macOS (APFS) and Windows (NTFS), ``results/Pixels/`` and
``results/pixels/`` are one folder: two models or benchmarks whose names differ only in case would silently share
and overwrite each other's files. APFS also treats the composed and decomposed spellings of an accented letter as
one name, hence the Unicode normalization.
"""

from __future__ import annotations

import unicodedata


def folded(name) -> str:
    """The form under which a case-insensitive file system compares ``name``."""
    return unicodedata.normalize("NFC", str(name)).casefold()


def case_twin(names):
    """The first pair ``(earlier, later)`` of ``names`` that differ as text but name the same file on a
    case-insensitive file system (``("MyExp2024", "myexp2024")``), or None."""
    seen = {}
    for name in names:
        earlier = seen.setdefault(folded(name), name)
        if str(earlier) != str(name):
            return earlier, name
    return None
