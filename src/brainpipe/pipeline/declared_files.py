"""The sha1s written in the config's ``benchmark_zoo`` entries, checked against the local files when the workflow
starts: a file edited after its entry was written stops the run before any job, naming the entry's own sha1 key
(not the advice for Brain-Score's published files), and nothing is fetched or deleted.

Reading every declared file at every start would cost seconds for large assemblies, so a file's sha1 is kept in a
small cache keyed by its path, size and modification time; a file that changed in any of them is read again.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from brainpipe.benchmarks.declared import local_files
from brainpipe.data.fetch import sha1_of


class StaleSha1(ValueError):
    """A declared file whose content no longer matches the sha1 in its benchmark_zoo entry."""


def _sha1(path: Path, cache: dict) -> str:
    stat = path.stat()
    stamp = [stat.st_size, stat.st_mtime_ns]
    key = str(path.resolve())
    if key in cache and cache[key][:2] == stamp:
        return cache[key][2]
    cache[key] = stamp + [sha1_of(path)]
    return cache[key][2]


def check_declared_sha1s(config: dict, cache_path: str | os.PathLike | None = None) -> None:
    """StaleSha1 for the first declared local file whose sha1 differs from its entry's; missing files are left to
    the fetch job, which names them."""
    cache_path = Path(cache_path) if cache_path else None
    try:
        cache = json.loads(cache_path.read_text()) if cache_path and cache_path.is_file() else {}
    except (OSError, ValueError):
        cache = {}  # a damaged cache is only a cache
    try:
        for name, entry in (config.get("benchmark_zoo") or {}).items():
            for location, declared, key in local_files(entry):
                path = Path(location)
                if not path.is_file():
                    continue
                actual = _sha1(path, cache)
                if actual != declared:
                    raise StaleSha1(
                        f"config benchmark_zoo.{name}.{key}: {location} has sha1 {actual}, but the entry says "
                        f"{declared}: the file changed after the entry was written. If you changed it on purpose, "
                        f"put the new sha1 there (`sha1sum {location}` prints it; running your `brainpipe package` "
                        "command again reprints the whole entry); otherwise restore the file you declared")
    finally:
        if cache_path and cache:
            cache_path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=cache_path.parent, delete=False, suffix=".tmp") as handle:
                json.dump(cache, handle)
            os.replace(handle.name, cache_path)
