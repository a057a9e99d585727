"""The one place that imports torchvision.

Why: on CPU-only machines the pinned torchvision 0.28.0 wheel is a CUDA build whose C++ extension
does not load beside CPU torch 2.13.0; ``import torchvision`` then dies with
``operator torchvision::nms does not exist`` because its Python side registers fake kernels for ops
whose schemas the missing extension should have defined. Defining the two schemas (``nms``, ``qnms``)
ourselves first makes the import work; we only do it when the extension really failed to load, so a
working install (e.g. a CUDA machine with a matching build) is left untouched.
"""

import importlib.util

import torch

_schemas_defined = False


def _extension_loads() -> bool:
    spec = importlib.util.find_spec("torchvision")
    if spec is None or not spec.submodule_search_locations:
        return True  # not installed: let the real import raise its own clear error
    from pathlib import Path

    for location in spec.submodule_search_locations:
        for candidate in Path(location).glob("_C*.so"):
            try:
                torch.ops.load_library(str(candidate))
                return True
            except (OSError, RuntimeError):
                return False
    return False


def _define_missing_schemas() -> None:
    global _schemas_defined
    if _schemas_defined:
        return
    library = torch.library.Library("torchvision", "FRAGMENT")  # kept alive by the module global below
    library.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    library.define("qnms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
    globals()["_library"] = library
    _schemas_defined = True


def import_torchvision():
    """Import and return torchvision, working around a CPU/CUDA build mismatch of its C++ ops."""
    try:
        import torchvision  # noqa: F401  (fast path: already imported or a matching build)

        return torchvision
    except RuntimeError as error:
        if "torchvision::nms" not in str(error):
            raise
    if not _extension_loads():
        _define_missing_schemas()
    import sys

    for name in [n for n in sys.modules if n == "torchvision" or n.startswith("torchvision.")]:
        del sys.modules[name]  # drop the half-initialised package before importing again
    import torchvision

    return torchvision
