"""Fixtures shared by the data-fetch tests: Brain-Score-format files served from a loopback HTTP server."""

import pytest

import brainio_fixtures as fixtures


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("store")
    sums = fixtures.write_fixture_store(root, datasets=("MajajHong2015.public", "FreemanZiemba2013.public"))
    return root, sums


@pytest.fixture
def server(store):
    with fixtures.local_http_server(store[0]) as running:
        yield running
