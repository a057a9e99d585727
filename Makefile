# The README's two commands:  make demo  (set up + run the offline default grid)  and  make test.
# Setup is a venv in .venv with the exact pins of requirements.txt, plus brainpipe itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= 2
# pytest worker processes for make test / test-slow (pytest-xdist; each takes whole test files, whose module fixtures
# it builds once). Most tests wait on a Snakemake start or a single-threaded step: on 2 cores, 2 workers ran the quick
# suite in 5 min 41 s against 8-9 min in one process (docs/development.md). TEST_JOBS=0: one process, as plain pytest.
TEST_JOBS ?= 2
PYTEST_JOBS = -n $(TEST_JOBS) --dist loadfile
# Which build of the pinned torch==2.13.0 / torchvision==0.28.0 the venv gets (README "Two commands"):
#   TORCH=default  whatever your pip's index serves: from the public PyPI on Linux x86-64 the CUDA build (runs on
#                  an NVIDIA GPU and on the CPU; pulls several GB of CUDA libraries), on macOS and Windows the CPU one
#   TORCH=cpu      the CPU-only build of the same versions from PyTorch's CPU index (TORCH_CPU_INDEX), installed
#                  before requirements.txt: a few hundred MB, for laptops and CPU-only machines
TORCH ?= default
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
TORCH_PINS = $(shell grep -E '^(torch|torchvision)==' requirements.txt)
ifeq ($(filter default cpu,$(TORCH)),)
$(error TORCH must be 'default' or 'cpu', got '$(TORCH)')
endif

.PHONY: setup demo test test-slow test-slurm bench lint docs clean reference-venv

setup: $(VENV)/.installed $(VENV)/.startup-hook

$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("brainpipe needs Python >= 3.11, found " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
ifeq ($(TORCH),cpu)
	$(BIN)/pip install --quiet --disable-pip-version-check --index-url $(TORCH_CPU_INDEX) $(TORCH_PINS)
endif
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

# Snakemake reads --configfile overlays before the Snakefile and says only "not valid JSON or YAML" for a syntax
# error; this .pth makes it name the file, line and column (src/brainpipe_startup.py says how).
$(VENV)/.startup-hook: $(VENV)/.installed
	$(BIN)/python -c 'import sysconfig, pathlib; pathlib.Path(sysconfig.get_paths()["purelib"], "brainpipe-startup.pth").write_text("import brainpipe_startup; brainpipe_startup.install()\n")'
	touch $@

demo: setup
	$(BIN)/snakemake --cores $(CORES)
	@echo "\nScores (results/summary.tsv; leaderboard: results/leaderboard.html, plots: results/plots/):"
	@$(BIN)/python -c "import pandas as p; print(p.read_csv('results/summary.tsv', sep='\t').to_string(index=False))"
	@# the temporal demo: a recurrent network on simulated object solution times and the IT time course
	$(BIN)/snakemake --cores $(CORES) results/plots/time_bins_demo.png
	@$(BIN)/python -c "import json; [print(f, json.load(open(f))['score'], json.load(open(f)).get('reason', '')) for f in ('results/recurrent_demo/SyntheticShapesOST-ost.json', 'results/recurrent_demo/SyntheticShapes.IT-spantime_pls.json', 'results/alexnet_untrained/SyntheticShapesOST-ost.json')]"

test: setup
	$(BIN)/python -m pytest $(PYTEST_JOBS)

# The slow-marked tests (real workflow runs of several minutes each; CI runs them after `make test`). The 30 slowest
# are listed at the end: CI's time budget is watched with them.
test-slow: setup
	$(BIN)/python -m pytest $(PYTEST_JOBS) -m 'slow and not network and not slurm' -rs --durations=30

# Starts a real single-node SLURM on 127.0.0.1 (root + Debian's packages); skipped with the reason otherwise.
test-slurm: setup
	$(BIN)/python -m pytest -m slurm -rs -s tests/test_slurm.py

bench: setup
	$(BIN)/python perf/bench_regression.py --quick

lint: setup
	$(BIN)/snakemake --lint

# The reference venv (docs/validation.md "The suite table"): Brain-Score 2.4.2 itself, to regenerate the fidelity
# numbers (tests/reference/). Never .venv: brainscore-vision needs numpy < 2, xarray 2022.3, scikit-learn 1.5. The CPU
# torch first, pinned with its +cpu label (a plain or unpinned torch from the public PyPI is the multi-GB CUDA build);
# then tests/reference/requirements-reference.txt with BS_INSTALL_DEPENDENCIES=no (else brainscore's plugin loader
# pip-installs each plugin's requirements into whatever Python imports it).
REFERENCE_VENV ?= .venv-reference
REFERENCE_PYTHON ?= python3.11

reference-venv: $(REFERENCE_VENV)/.installed

$(REFERENCE_VENV)/.installed: tests/reference/requirements-reference.txt
	$(REFERENCE_PYTHON) -m venv $(REFERENCE_VENV)
	$(REFERENCE_VENV)/bin/pip install --quiet --disable-pip-version-check --extra-index-url $(TORCH_CPU_INDEX) torch==2.13.0+cpu torchvision==0.28.0
	BS_INSTALL_DEPENDENCIES=no $(REFERENCE_VENV)/bin/pip install --quiet --disable-pip-version-check -r tests/reference/requirements-reference.txt
	touch $@

# The documentation site (mkdocs.yml; docs/): built offline into site/, warnings as errors (tests/test_docs.py runs
# the same build inside `make test`). Open site/index.html.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

clean:
	rm -rf results logs .snakemake site
