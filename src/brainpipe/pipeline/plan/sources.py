"""Where a grid's data come from: the catalog (with config data.checksums_override and the sha1s of
data.local_files), the files read in place, what the partial target ``fetch`` downloads, and the files a score JSON
records (workflow/rules/fetch.smk)."""

from __future__ import annotations

import functools

from brainpipe.data import catalog as brainio_catalog
from .errors import PlanError

#: digests of the files read in place, kept while a file's size and times are unchanged
LOCAL_SHA1_CACHE = ".snakemake/brainpipe/local_sha1.json"


class DataSources:
    def __init__(self, plan):
        self.plan = plan

    @property
    def local_files(self) -> dict:
        """config data.local_files: object name -> a path on this machine."""
        return (self.plan.config.get("data") or {}).get("local_files") or {}

    @functools.cached_property
    def catalog(self):
        """The catalog, with the test-only checksum overrides (data.checksums_override) and local files' own sha1s."""
        data = self.plan.config.get("data") or {}
        try:
            catalog = brainio_catalog.load_catalog(data.get("checksums_override"), registry=self.plan.registry)
        except ValueError as error:
            raise PlanError(f"config data.checksums_override: {error}") from None
        try:
            return catalog.with_checksums(brainio_catalog.local_checksums(self.local_files))
        except ValueError as error:
            raise PlanError(f"config data.local_files: {error}") from None

    def local_paths(self) -> dict:
        """Object name -> path of config data.local_files."""
        return brainio_catalog.local_paths(self.local_files)

    def grid_data(self) -> set:
        """Stimulus folders and raw assemblies of every downloaded data set the config grid's benchmarks use (the
        input of the partial target ``fetch``). The benchmark families name their data by catalog key; a family whose
        data set or stimulus set the catalog does not know stops the workflow, before any download."""
        plan, catalog = self.plan, self.catalog
        grid_data = set()
        families = {plan.benchmark(identifier).family for identifier in plan.config["benchmarks"]}
        # a benchmark averaged over sessions (Family.sessions) reads its sessions' data
        families |= {plan.benchmark(s).family for family in list(families) for s in family.sessions}
        for family in families:
            if family.source == "stimuli":  # a target built from the stimulus set (Hermann2020): no recordings
                grid_data |= {f"resources/stimuli/{s}" for s in family.stimulus_sets}
                continue
            if family.source != "brainio":
                continue
            joined = family.train_test.files if family.train_test else ()
            if joined:  # train and test files joined into one data set (train_test.smk): the parts are fetched
                grid_data |= {f"resources/assemblies/{d}.nc" for _, d in joined}
                grid_data |= {f"resources/stimuli/{catalog.assembly(d).stimulus_set}" for _, d in joined}
                continue
            if family.properties:  # a property table (properties.smk) and every stimulus set it is mapped on
                grid_data |= {f"resources/properties/{m.dataset}" + ".nc" for m in family.properties}
                grid_data |= {f"resources/stimuli/{s}" for s in family.stimulus_sets}
                continue
            try:
                entry = catalog.assembly(family.dataset)
            except ValueError as error:
                raise PlanError(f"benchmark family data set: {error}") from None
            if entry.stimulus_set != family.stimulus_set:
                raise PlanError(f"data set {family.dataset!r}: benchmark family shows stimulus set "
                                f"{family.stimulus_set!r}, the catalog's recordings refer to {entry.stimulus_set!r}")
            grid_data |= {f"resources/stimuli/{family.stimulus_set}", f"resources/assemblies/{family.dataset}.nc"}
            if family.readout:  # a behavioural readout's fitting images
                grid_data.add(f"resources/stimuli/{family.readout.stimulus_set}")
            if family.train_test and family.train_test.dataset:  # a train/test family's train recordings and stimuli
                grid_data |= {f"resources/stimuli/{family.train_test.stimulus_set}",
                              f"resources/assemblies/{family.train_test.dataset}.nc"}
        return grid_data

    def stimulus_files(self, wildcards) -> tuple:
        """The catalog's files (CSV, zip) of the stimulus set ``wildcards.stimulus_set``."""
        entry = self.catalog.stimulus_set(wildcards.stimulus_set)
        return (entry.csv, entry.zip)

    def on_disk(self, remotes) -> dict:
        """Object name -> path of the files read in place (data.local_files first, as the fetch does; declared
        paths)."""
        paths = self.local_paths()
        found = {remote.name: paths.get(remote.name, remote.path) for remote in remotes}
        return {name: path for name, path in found.items() if path is not None}

    def on_disk_sha1(self, remotes) -> dict:
        """Object name -> sha1 of each file read in place, as it is on disk now (None: no file; the fetch says so).
        Digests are kept while a file's size and times are unchanged (LOCAL_SHA1_CACHE)."""
        return {name: brainio_catalog.file_sha1(path, LOCAL_SHA1_CACHE) for name, path in self.on_disk(remotes).items()}

    def data_files(self, benchmark) -> dict:
        """Object name -> sha1 of every file a benchmark's data comes from (recorded in its score JSON);
        None for a declared local file without a declared sha1, and {} for generated (demo) data."""
        family, catalog = benchmark.family, self.catalog
        if family.source == "stimuli":  # the target is the stimulus set itself
            remotes = [f for s in sorted(family.stimulus_sets) for f in (catalog.stimulus_set(s).csv,
                                                                         catalog.stimulus_set(s).zip)]
            return {remote.name: remote.sha1 for remote in remotes}
        if family.source != "brainio":
            return {}
        if family.sessions:  # averaged over sessions (Family.sessions): every session's files
            return {name: sha1 for s in family.sessions
                    for name, sha1 in self.data_files(self.plan.benchmark(s)).items()}
        if family.train_test and family.train_test.files:  # joined train/test files: each part's recordings and stimuli
            remotes = []
            for _, dataset in family.train_test.files:
                entry = catalog.assembly(dataset)
                remotes += [entry.file, catalog.stimulus_set(entry.stimulus_set).csv,
                            catalog.stimulus_set(entry.stimulus_set).zip]
            return {remote.name: remote.sha1 for remote in remotes}
        assembly = catalog.assembly(family.dataset)
        remotes = list(assembly.all_files)  # a data set read from several files lists them all (Zerbe2026)
        if family.train_test and family.train_test.dataset:  # a train/test family's train recordings
            remotes += list(catalog.assembly(family.train_test.dataset).all_files)
        private = {family.private.stimulus_set} if family.private else {None}
        for stimulus_set in sorted(family.stimulus_sets - private | {family.stimulus_set}):
            if family.properties and stimulus_set not in catalog.stimulus_sets:
                continue  # a declared properties family mapping units on the demo's generated gratings
            stimuli = catalog.stimulus_set(stimulus_set)
            remotes += [stimuli.csv, stimuli.zip]
        return {remote.name: remote.sha1 for remote in remotes}
