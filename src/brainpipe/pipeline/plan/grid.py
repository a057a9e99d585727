"""The grid (config ``models`` × ``benchmarks``): its score and ceiling files, the cells that stay empty
(pipeline/grid_cells.py), and the stimulus folders and activation layer files it needs (the partial targets of
workflow/rules/score.smk and the sets of layers activations.smk extracts together)."""

from __future__ import annotations

import functools

from brainpipe.pipeline import grid_cells
from .activations import extraction_group


class Grid:
    def __init__(self, plan):
        self.plan = plan

    @property
    def models(self) -> list[str]:
        return self.plan.config["models"]

    @property
    def benchmarks(self) -> list[str]:
        return self.plan.config["benchmarks"]

    @functools.cached_property
    def unavailable_benchmarks(self) -> dict[str, str]:
        """Benchmarks whose data need a file the user supplies and has not (identifier -> why): every model's cell
        is empty, and no ceiling job is planned for them."""
        sources = self.plan.sources
        return grid_cells.unavailable_benchmarks(self.benchmarks, self.plan.benchmark, sources.catalog,
                                                 sources.local_paths())

    @functools.cached_property
    def empty_cells(self) -> dict[str, str]:
        """Cells of the grid a model cannot do (a model without logits on a label task, a temporal model on a
        behavioural one) or that config skip_benchmarks leaves out, ``<model>/<benchmark>`` -> reason: decided at plan
        time (pipeline/grid_cells.py); the empty_cell rule is the only one for their files. ConfigError for a bad
        skip_benchmarks entry."""
        plan = self.plan
        return grid_cells.empty_cells(self.models, self.benchmarks, plan.model, plan.benchmark,
                                      plan.temporal.is_temporal_model,
                                      grid_cells.skipped_benchmarks(plan.config, plan.registry),
                                      self.unavailable_benchmarks)

    def scores(self) -> list[str]:
        """Every headline score file of the grid, model by model."""
        return [f"results/{model}/{benchmark}.json" for model in self.models for benchmark in self.benchmarks]

    def ceilings(self) -> list[str]:
        """The ceiling file of each benchmark of the grid whose data are there (:attr:`unavailable_benchmarks`, whose
        data need a file you supply and have not, have none)."""
        return [f"results/ceilings/{benchmark}.json" for benchmark in self.benchmarks
                if benchmark not in self.unavailable_benchmarks]

    def simulated_benchmarks(self) -> list[str]:
        """The grid's benchmarks whose family generates its data (source 'demo', e.g. SyntheticShapes)."""
        return [b for b in self.benchmarks if self.plan.benchmark(b).family.source == "demo"]

    def folders(self):
        """(model, stimulus folder, the benchmark that shows it) for every model of the grid and every stimulus
        folder it sees (fitting, train and session sets included)."""
        plan = self.plan
        stimuli_key, fitting_key = plan.activations.stimuli_key, plan.behaviour.fitting_key
        for m in self.models:
            for identifier in self.benchmarks:
                b = plan.benchmark(identifier)
                keys = [stimuli_key(m, b)]
                if b.kind == "behaviour" and fitting_key(m, b):
                    keys.append(fitting_key(m, b))
                if b.family.train_test and b.family.train_test.dataset:  # a train/test family's train stimuli
                    keys.append(stimuli_key(m, b, b.family.train_test.stimulus_set))
                keys += [stimuli_key(m, plan.benchmark(s)) for s in b.family.sessions]  # each session's (Cowley2026)
                yield from ((m, key, b) for key in keys)

    def layer_files(self) -> dict[tuple, list[str]]:
        """{(model, stimulus folder): its layer files} of the grid; the layers are model_layers', independent of the
        grid's benchmarks."""
        activations = self.plan.activations
        folders = {}
        for m, key, _ in self.folders():
            if (m, key) not in folders:
                folders[(m, key)] = [activations.layer_file(m, key, layer)
                                     for layer in activations.model_layers(m, key.split("--target")[0])]
        return folders

    def extraction_groups(self) -> dict[tuple, str | None]:
        """{(model, stimulus folder): the key of the folders extracted together with it, or None}: a behavioural
        paper's folders share one (activations.extraction_group)."""
        groups = {}
        for m, key, b in self.folders():
            groups[(m, key)] = groups.get((m, key)) or extraction_group(b.family)
        return groups

    def activations(self) -> list[str]:
        """Every activation layer file of the grid."""
        return sorted({file for files in self.layer_files().values() for file in files})
