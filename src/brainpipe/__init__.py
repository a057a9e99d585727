"""brainpipe: Brain-Score-style evaluation of vision models against brain data.

A plain library (no Snakemake imports). The Snakemake workflow in ``workflow/`` calls it stage by stage;
a Python user can call the same functions in-process.
"""

from ._version import __version__  # noqa: F401

__all__ = ["load_benchmark", "load_model", "score", "Score", "import_torchvision"]


def __getattr__(name):
    """``brainpipe.score`` / ``load_model`` / ``load_benchmark`` / ``Score`` (brainpipe.api), imported on first use
    so that ``import brainpipe`` stays light for workflow jobs."""
    if name == "import_torchvision":  # torchvision with the op-schema guard this project's pinned wheels need
        from .models._torchvision import import_torchvision

        return import_torchvision
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'brainpipe' has no attribute {name!r}")
