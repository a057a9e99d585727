# The README's two commands:  make demo  (set up + run the offline default grid)  and  make test.
# Setup is a venv in .venv with the exact pins of requirements.txt (CPU torch), plus brainpipe itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 2

.PHONY: setup demo test test-slow test-slurm bench lint clean

setup: $(VENV)/.installed

$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("brainpipe needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

demo: setup
	$(BIN)/snakemake --cores $(CORES)
	@echo "\nScores (results/summary.tsv; leaderboard: results/leaderboard.html, plots: results/plots/):"
	@$(BIN)/python -c "import pandas as p; print(p.read_csv('results/summary.tsv', sep='\t').to_string(index=False))"

test: setup
	$(BIN)/python -m pytest

# The slow-marked tests (real workflow runs of several minutes each; CI runs them after `make test`).
test-slow: setup
	$(BIN)/python -m pytest -m 'slow and not network and not slurm' -rs

# Starts a real single-node SLURM on 127.0.0.1 (root + Debian's packages); skipped with the reason otherwise.
test-slurm: setup
	$(BIN)/python -m pytest -m slurm -rs -s tests/test_slurm.py

bench: setup
	$(BIN)/python perf/bench_regression.py --quick

lint: setup
	$(BIN)/snakemake --lint

clean:
	rm -rf results logs .snakemake
