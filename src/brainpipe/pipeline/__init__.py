"""The workflow-facing parts: what the Snakefile, the command line and ``brainpipe.score`` call around the stages.

* ``workflow_config.py``: config checks (model and layer names, weights, sweeps); ``stage_code.py``: the rules' code
  fingerprints; ``model_layers.py``: the layers of a model a grid reads (a region's sweep, a behavioural task's layer);
* ``parse_cache.py``: the cache of architectures' layer names that keeps a no-op ``snakemake -n`` fast;
* ``scoring.py``: a layer's score from its folds (ceil, aggregate); ``headline.py``: a sweep's best layer;
* ``report.py``: leaderboard, summary and sweep tables; ``figures.py``: the report's plots;
* ``layer_commitment.py``: committing the best sweep layer; ``packaging.py``: ``brainpipe package``;
* ``provenance.py``: versions recorded in score JSONs; ``logs.py``: per-job logs; ``fetching.py``: a fetch job's download;
* ``fork_server.py``: the warm process that computes a local run's jobs (each job script hands itself over to it);
* ``workflow_files.py``: where the workflow is (a checkout, or the copy an installed wheel ships);
* ``benchmark_selectors.py``: config ``benchmarks`` selectors (suite:, family:, parent:, globs, !exclusions);
* ``grid_cells.py``: the grid's empty cells (what a model cannot do, config skip_benchmarks), decided at plan time;
* ``name_case.py``: names that differ only in letter case (one file on a case-insensitive file system).

May import every other package. No other package imports this one (only ``api.py`` and ``cli.py`` do).
"""
