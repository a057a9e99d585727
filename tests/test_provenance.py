"""brainpipe.pipeline.provenance.versions."""

import platform

import numpy as np

from brainpipe.pipeline import provenance


def test_versions():
    found = provenance.versions()
    assert found["python"] == platform.python_version()
    assert found["numpy"] == np.__version__
    assert set(provenance.PACKAGES) <= set(found)


def test_missing_package_is_none(monkeypatch):
    monkeypatch.setattr(provenance, "PACKAGES", ("numpy", "surely-not-installed-package-xyz"))
    found = provenance.versions()
    assert found["surely-not-installed-package-xyz"] is None and found["numpy"]
