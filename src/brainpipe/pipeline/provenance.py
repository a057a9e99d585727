"""Versions of the libraries that computed a result, written into every score JSON."""

import functools
import importlib.metadata
import platform

PACKAGES = ("brainpipe", "numpy", "scipy", "scikit-learn", "xarray", "torch", "torchvision", "pillow", "snakemake")


def versions():
    """{package: version} of Python and PACKAGES (None where one is not installed): a fresh dict each call."""
    return dict(_versions(PACKAGES))


@functools.lru_cache(maxsize=4)  # installed packages do not change under a running process; each look-up reads files
def _versions(packages):
    found = {"python": platform.python_version()}
    for package in packages:
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = None
    return found
