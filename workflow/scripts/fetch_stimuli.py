"""Download (or reuse from the cache) a Brain-Score stimulus set and write it as a brainpipe stimulus folder."""

from brainpipe.pipeline.fork_server import hand_over

hand_over(snakemake)  # a local run computes this job in its warm process (pipeline/fork_server.py)

from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.data.archives import max_unpacked_bytes
from brainpipe.data.brainio import fetch_stimulus_set
from brainpipe.data.download import timeout_s
from brainpipe.pipeline.logs import logged

with logged(snakemake.log[0], "fetch_stimuli") as log:
    data = snakemake.config.get("data") or {}
    stimulus_set = snakemake.wildcards.stimulus_set
    known = catalog.load_catalog(registry=benchmarks.from_config(snakemake.config))  # built-in + declared data
    checked = known.with_checksums({name: sha1 for name, sha1 in snakemake.params.files.items() if sha1})
    base = catalog.base_url(data.get("base_url"))
    print(f"{stimulus_set}: from {base}, cache {data.get('cache_dir', 'resources/cache')}", file=log)
    fetch_stimulus_set(stimulus_set, data.get("cache_dir", "resources/cache"), base, snakemake.output[0],
                       catalog=checked, local_overrides=data.get("local_files") or {}, progress=log,
                       timeout=timeout_s(data.get("timeout_s")),
                       max_unpacked=max_unpacked_bytes(data.get("max_unpacked_gb")))
