"""A fetch job's download: the data file of one data set of the config's catalog (built-in, declared or plugin
families), from the cache, a local file or the data URL, checked against its sha1 (``brainpipe.data.download``)."""

from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.data.download import fetch_file, timeout_s


def fetch_dataset_file(config, dataset, checksums, progress):
    """(catalog entry, local path) of ``dataset``'s file; ``checksums``: file name -> sha1 overrides (a rule's
    ``files`` param, empty values ignored)."""
    data = config.get("data") or {}
    known = catalog.load_catalog(registry=benchmarks.from_config(config))  # built-in + declared data
    entry = known.with_checksums({name: sha1 for name, sha1 in checksums.items() if sha1}).assembly(dataset)
    path = fetch_file(entry.file, data.get("cache_dir", "resources/cache"), catalog.base_url(data.get("base_url")),
                      local_overrides=data.get("local_files") or {}, progress=progress,
                      timeout=timeout_s(data.get("timeout_s")))
    return entry, path
