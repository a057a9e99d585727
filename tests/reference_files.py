"""Reading the stored Brain-Score reference numbers (tests/data/*_reference.json): a missing, unreadable or empty
file is an error naming the file and the command that writes it, never a silently skipped comparison."""

import json
from pathlib import Path


def reference_numbers(path: Path) -> dict:
    """The reference JSON at ``path`` with at least one entry under ``benchmarks``."""
    path = Path(path)
    maker = f"tests/reference/make_{path.stem.removesuffix('_reference')}_reference.py"
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no reference numbers; write them with {maker} (the reference venv)")
    try:
        numbers = json.loads(path.read_text())
    except ValueError as error:
        raise ValueError(f"{path}: not JSON ({error}); rewrite it with {maker}") from None
    if not numbers.get("benchmarks"):
        raise ValueError(f"{path}: no benchmark under 'benchmarks'; rewrite it with {maker}")
    return numbers
