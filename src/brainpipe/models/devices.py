"""Where a job computes: ``device: auto | cpu | cuda[:N]`` (config) to a concrete device, importing torch only
when a GPU can exist (importing torch takes ~2 s; a fold or Gram job on a CPU-only machine never needs it)."""

import os
import sys


def cuda_possible() -> bool:
    """False only when this machine certainly has no CUDA device: Linux without the NVIDIA driver's device
    nodes (/dev/nvidiactl; /dev/dxg under WSL2). Elsewhere torch is asked."""
    if not sys.platform.startswith("linux"):
        return True
    return os.path.exists("/dev/nvidiactl") or os.path.exists("/dev/dxg")


def resolve_device(device: str) -> str:
    """Map ``"auto"`` to ``"cuda"`` when torch sees a GPU, else ``"cpu"``; ``"cpu"``/``"cuda[:N]"`` pass through."""
    if device == "auto":
        if not cuda_possible():
            return "cpu"
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cpu" or device == "cuda" or device.startswith("cuda:"):
        return device
    raise ValueError(f"unknown device {device!r}: device must be 'auto', 'cpu' or 'cuda[:N]'")
