"""Fixtures shared by several test files: Brain-Score-format files served from a loopback HTTP server (the data-fetch
tests), tmpfs disks, a demo stimulus folder, and a working directory with the tiny grid (repo_config)."""

import contextlib
import subprocess
from pathlib import Path

import pytest

import brainio_fixtures as fixtures

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("store")
    sums = fixtures.write_fixture_store(root, datasets=("MajajHong2015.public", "FreemanZiemba2013.public"))
    return root, sums


@pytest.fixture
def server(store):
    with fixtures.local_http_server(store[0]) as running:
        yield running


@contextlib.contextmanager
def tmpfs(mount_point, size):
    """A real file system of ``size`` (tmpfs) at ``mount_point``; skips the test where mounting is not allowed."""
    mount_point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)


@pytest.fixture
def small_disk(tmp_path):
    """A real 256 kB file system (tmpfs); skipped where mounting is not allowed (needs root)."""
    with tmpfs(tmp_path / "small", "256k") as mount_point:
        yield mount_point


@pytest.fixture
def layer_disk(tmp_path):
    """A real 9 MB file system: room for a pixels layer's coordinates, not for its values as well."""
    with tmpfs(tmp_path / "nine_mb", "9m") as mount_point:
        yield mount_point


@pytest.fixture(scope="module")
def demo_stimuli(tmp_path_factory):
    """A small SyntheticShapes stimulus folder (2 categories × 2 objects × 3 images) in the workflow's layout."""
    from brainpipe.data import demo
    from brainpipe.data.stimuli import write_stimulus_table

    folder = tmp_path_factory.mktemp("demo_stimuli")
    (folder / "images").mkdir()
    table, images = demo.generate_stimuli(categories=2, objects_per_category=2, images_per_object=3)
    for filename, image in zip(table["filename"], images):
        image.save(folder / filename)
    write_stimulus_table(table, folder)
    return folder


@pytest.fixture
def repo_config(tmp_path, monkeypatch):
    """A working directory whose config/config.yaml is the repository's with the tiny grid merged in (the API tests,
    the null-score workflow test)."""
    import yaml

    config = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    config.update(yaml.safe_load((ROOT / "tests/configs/tiny.yaml").read_text()))
    (tmp_path / "config").mkdir()
    (tmp_path / "config/config.yaml").write_text(yaml.safe_dump(config))
    monkeypatch.chdir(tmp_path)
    return tmp_path
