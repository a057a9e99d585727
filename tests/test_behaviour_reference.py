"""Brain-Score's published ceilings of Rajalingham2018 and Geirhos2021, recomputed from the real files.

Needs internet access to Brain-Score's store (``https://brainscore-storage.s3.amazonaws.com/brainio-brainscore/``):
the downloading tests are marked ``network``, so deselected by default (pyproject addopts); run with ``pytest -m network
tests/test_behaviour_reference.py``. Files come through the real fetch code (``brainpipe.data.download.fetch_file``) under
the catalog's object names and sha1s (declared in brainpipe.benchmarks.families.rajalingham2018 / geirhos2021), and are
scored by the same stages the workflow runs (``prepare_behaviour``, ``stages.ceiling``). Only human data are needed:
no model weights. Downloads go to ``$BRAINPIPE_TEST_CACHE`` when set (kept between runs), else a temporary folder.

Reference numbers (copied from upstream, not imported, so the test checks the declarations too):

* brain-score/vision brainscore_vision/benchmarks/rajalingham2018/test.py: ``Rajalingham2018-i2n`` ceiling .479
  (abs .0064), on the private assembly (``private_access`` upstream: skipped here when the store refuses it);
  metrics/i1i2/test.py: ceiling error .00537 (abs .0015).
* brain-score/vision brainscore_vision/benchmarks/geirhos2021/test.py: the 17 error-consistency ceilings (abs .001),
  on the assemblies with EXCLUDE_CONDITIONS dropped.
* brain-score/vision brainscore_vision/data/rajalingham2018/rajalingham2018objectome.py and
  data/geirhos2021/__init__.py: sizes (public objectome 2160 images, 585,511 trials; Geirhos subjects × images).
"""

import os

import numpy as np
import pandas as pd
import pytest

from brainpipe.benchmarks import default_catalog
from brainpipe import benchmarks
from brainpipe.data import catalog
from brainpipe.behaviour import stages
from brainpipe.behaviour.data import load_behaviour, prepare_behaviour
from brainpipe.data.download import FetchError, fetch_file

GEIRHOS_CEILINGS = {
    "colour": .41543, "contrast": .43703, "cue-conflict": .33105, "edge": .31844, "eidolonI": .38634,
    "eidolonII": .45402, "eidolonIII": .45953, "false-colour": .44405, "high-pass": .44014, "low-pass": .46888,
    "phase-scrambling": .44667, "power-equalisation": .51063, "rotation": .43851, "silhouette": .47571,
    "sketch": .36962, "stylized": .50058, "uniform-noise": .43406,
}
#: subjects × images = trials (brain-score/vision data/geirhos2021)
GEIRHOS_TRIALS = {
    "colour": 4 * 1280, "contrast": 4 * 1280, "cue-conflict": 10 * 1280, "edge": 10 * 160, "eidolonI": 4 * 1280,
    "eidolonII": 4 * 1280, "eidolonIII": 4 * 1280, "false-colour": 4 * 1120, "high-pass": 4 * 1280,
    "low-pass": 4 * 1280, "phase-scrambling": 4 * 1120, "power-equalisation": 4 * 1120, "rotation": 4 * 1280,
    "silhouette": 10 * 160, "sketch": 7 * 800, "stylized": 5 * 800, "uniform-noise": 4 * 1280,
}


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    configured = os.environ.get("BRAINPIPE_TEST_CACHE")
    return configured or tmp_path_factory.mktemp("brainscore-cache")


def download(remote, cache):
    """The real file from the real store (``BRAINPIPE_DATA_URL`` may name a mirror), sha1 checked."""
    return fetch_file(remote, cache, catalog.base_url(), progress=None)


def human(key: str, cache, benchmark):
    """A behavioural assembly fetched and prepared exactly as the workflow's prepare_behaviour rule does."""
    nc = download(default_catalog().assembly(key).file, cache)
    raw = load_behaviour(nc)
    return raw, prepare_behaviour(raw, benchmark.family.exclude_conditions, name=str(nc))


def test_catalog_points_at_the_real_store():
    assert catalog.DEFAULT_BASE_URL == "https://brainscore-storage.s3.amazonaws.com/brainio-brainscore/"
    entry = default_catalog().assembly("Rajalingham2018.private")
    assert (entry.file.name, entry.file.sha1) == ("assy_dicarlo_Rajalingham2018_private.nc",
                                                  "516f13793d1c5b72bb445bb4008448ce97a02d23")
    entry = default_catalog().assembly("Geirhos2021_colour")
    assert (entry.file.name, entry.file.sha1) == ("assy_brendel_Geirhos2021_colour.nc",
                                                  "258862d82467614e45cc1e488a5ac909eb6e122d")


@pytest.mark.network
def test_rajalingham2018_private_ceiling(cache):
    benchmark = benchmarks.parse("Rajalingham2018-i2n")
    try:
        _, prepared = human("Rajalingham2018.private", cache, benchmark)
    except FetchError as error:
        if "HTTP 403" in str(error) or "HTTP 401" in str(error):
            pytest.skip(f"the private Rajalingham2018 assembly is not publicly downloadable: {error}")
        raise
    ceiling = stages.ceiling(benchmark, prepared)
    assert ceiling.score == pytest.approx(.479, abs=.0064)
    assert ceiling.error == pytest.approx(.00537, abs=.0015)
    assert len(set(prepared["stimulus_id"].values)) == 240


@pytest.mark.network
def test_rajalingham2018_public_layout_and_ceiling(cache):
    """No published ceiling for the public split: the layout brainpipe relies on, and a sane ceiling."""
    benchmark = benchmarks.parse("Rajalingham2018public-i2n")
    raw, prepared = human("Rajalingham2018.public", cache, benchmark)
    assert {"stimulus_id", "truth", "sample_obj", "dist_obj"} <= set(raw.coords)
    assert raw.sizes["presentation"] == 585_511 and len(set(prepared["stimulus_id"].values)) == 2160
    stages.check_human_choices(benchmark, prepared)  # every choice is one of the two offered objects
    fitting = default_catalog().stimulus_set(benchmark.family.readout.stimulus_set)
    table = pd.read_csv(download(fitting.csv, cache))
    assert benchmark.family.readout.label_column in table.columns and len(table) == 2160
    ceiling = stages.ceiling(benchmark, prepared)
    assert 0 < ceiling.score < 1 and np.isfinite(ceiling.error)


@pytest.mark.network
@pytest.mark.parametrize("dataset", sorted(GEIRHOS_CEILINGS))
def test_geirhos2021_ceiling(dataset, cache):
    benchmark = benchmarks.parse(f"Geirhos2021{dataset.replace('-', '')}-error_consistency")
    raw, prepared = human(f"Geirhos2021_{dataset}", cache, benchmark)
    assert raw.sizes["presentation"] == GEIRHOS_TRIALS[dataset]
    assert {"stimulus_id", "truth", "choice", "subject", "condition"} <= set(raw.coords)
    stages.check_human_choices(benchmark, prepared)  # choices and truths among the 16 labels
    ceiling = stages.ceiling(benchmark, prepared)
    assert ceiling.score == pytest.approx(GEIRHOS_CEILINGS[dataset], abs=.001)


def test_reference_numbers_match_the_family_module():
    """The declared reference numbers (used in docs and reports) are upstream's."""
    from brainpipe.benchmarks.families import geirhos2021, rajalingham2018

    assert geirhos2021.GEIRHOS2021_REFERENCE_CEILING == GEIRHOS_CEILINGS
    assert np.mean(list(GEIRHOS_CEILINGS.values())) == pytest.approx(.43122, abs=1e-5)  # upstream's mean
    assert rajalingham2018.RAJALINGHAM2018["reference"]["ceiling"] == .479
