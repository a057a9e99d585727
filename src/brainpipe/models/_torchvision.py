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


def cached_weights_file(weights):
    """Where torchvision keeps a weights enum's file: $TORCH_HOME/hub/checkpoints/<file name of its URL>
    (torch.hub.get_dir(), which honours TORCH_HOME, then load_state_dict_from_url's cache layout)."""
    import os
    from pathlib import Path

    import torch.hub

    return Path(torch.hub.get_dir()) / "checkpoints" / os.path.basename(weights.url)


def verify_cached_weights(weights):
    """Check a cached torchvision weights file against the sha256 prefix in its name (e.g. alexnet-owt-7be5be79.pth).

    torch.hub checks that prefix only while downloading (load_state_dict_from_url(check_hash=True) passes it to
    download_url_to_file); a file already in the cache is loaded unchecked, so a truncated, empty or substituted
    file under the right name would silently be recorded as the named weights. Returns the path if it exists and
    matches, None if it is not cached (torchvision will download and check it); raises ValueError otherwise."""
    import hashlib

    import torch.hub

    path = cached_weights_file(weights)
    if not path.exists():
        return None
    match = torch.hub.HASH_REGEX.search(path.name)
    if not match or not match.group(1):
        return path  # no hash in the name: nothing to check against
    prefix = match.group(1)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    if not digest.hexdigest().startswith(prefix):
        size = path.stat().st_size
        raise ValueError(
            f"cached weights file {path} is corrupt or not the named weights: its sha256 starts "
            f"{digest.hexdigest()[:len(prefix)]}, but its name says {prefix} ({size} bytes"
            f"{', empty' if size == 0 else ''}). Delete it (rm '{path}') and run again to re-download it from "
            f"{weights.url}, or place the correct file there on an offline machine.")
    return path
