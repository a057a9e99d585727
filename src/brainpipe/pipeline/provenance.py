"""Versions of the libraries that computed a result, written into every score JSON."""

import importlib.metadata
import platform

PACKAGES = ("brainpipe", "numpy", "scipy", "scikit-learn", "xarray", "torch", "torchvision", "pillow", "snakemake")


def versions():
    found = {"python": platform.python_version()}
    for package in PACKAGES:
        try:
            found[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            found[package] = None
    return found
