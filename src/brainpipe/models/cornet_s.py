"""CORnet-S (Kubilius, Schrimpf et al. 2019), written here: four areas, V2/V4/IT recurrent over 2/4/2 time steps.

Architecture as published in dicarlolab/CORnet ``cornet/cornet_s.py`` (module names kept, so the published state
dict loads as is once its DataParallel ``module.`` prefix is dropped): V1 (7×7/2 conv, BN, ReLU, 3×3/2 max-pool,
3×3 conv, BN, ReLU), then three ``CORblock_S`` areas (1×1 input conv; per step t a 1×1 → 3×3 → 1×1 bottleneck with
4× channels, BatchNorm per step, the 3×3 conv strided by 2 at t = 0 only, the skip being a strided 1×1 conv + BN
at t = 0 and the state itself later), and a decoder (global average pool, 1000-way linear). Each area's ``output``
module (an identity) is called once per time step, where Brain-Score's ``TemporalPytorchWrapper`` hooks it
(``IT.output-t0``, ``IT.output-t1``).

Brain-Score's commitment (brain-score/vision brainscore_vision/models/cornet_s/model.py, ``TIME_MAPPINGS``, and
helpers/helpers.py ``_build_time_mappings``): V1 (50, 100, 1), V2 (70, 100, 2), V4 (90, 50, 4), IT (100, 100, 2) as
[start ms, ms per step, steps]: :data:`TIME_MAPPING`, :data:`LAYERS`. A model_zoo entry::

    cornet_s:
      architecture: brainpipe.models.cornet_s:pretrained     # or :build for an untrained, seeded network
      layers: {V1: V1.output, V2: V2.output, V4: V4.output, IT: IT.output}
      time_mapping: {V1: [50, 100, 1], V2: [70, 100, 2], V4: [90, 50, 4], IT: [100, 100, 2]}

Weights: the published ImageNet checkpoint, :data:`WEIGHTS_URL` (dicarlolab/CORnet ``cornet/__init__.py``'s
``cornet_s-1d3f7974.pth``: torch.hub names a file by the first 8 hex digits of its sha256, checked here as torch.hub
checks it), the same file Brain-Score loads from its own store with sha1 :data:`WEIGHTS_SHA1` (brain-score/vision
brainscore_vision/models/cornet_s/model.py; the file is a dict whose ``state_dict`` holds DataParallel keys).
Only the 8-digit sha256 prefix is published, so the download is checked against the full sha1 and that prefix.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import OrderedDict
from pathlib import Path

WEIGHTS_URL = "https://s3.amazonaws.com/cornet-models/cornet_s-1d3f7974.pth"
WEIGHTS_SHA256_PREFIX = "1d3f7974"
WEIGHTS_SHA1 = "a4bfd8eda33b45fd945da1b972ab0b7cad38d60f"
#: Brain-Score's store of the same file (brainscore_core s3 ``load_weight_file``: bucket brainscore-storage)
BRAINSCORE_WEIGHTS_URL = ("https://brainscore-storage.s3.amazonaws.com/brainscore-vision/models/cornet_s/"
                          "cornet_s_epoch43.pth.tar")
TIME_MAPPING = {"V1": [50, 100, 1], "V2": [70, 100, 2], "V4": [90, 50, 4], "IT": [100, 100, 2]}
LAYERS = {"V1": "V1.output", "V2": "V2.output", "V4": "V4.output", "IT": "IT.output"}
TIMES = {"V2": 2, "V4": 4, "IT": 2}
#: where pretrained() keeps the file ($BRAINPIPE_CORNET_CACHE, else torch.hub's checkpoints folder)
CACHE_ENV = "BRAINPIPE_CORNET_CACHE"


def _modules():
    import torch
    import torch.nn.functional as F
    from torch import nn

    class CORblockS(nn.Module):
        scale = 4  # bottleneck width: 4× the area's channels

        def __init__(self, in_channels, out_channels, times):
            super().__init__()
            self.times = times
            wide = out_channels * self.scale
            self.conv_input = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)
            self.skip = nn.Conv2d(out_channels, out_channels, kernel_size=1, stride=2, bias=False)
            self.norm_skip = nn.BatchNorm2d(out_channels)
            self.conv1 = nn.Conv2d(out_channels, wide, kernel_size=1, bias=False)
            self.nonlin1 = nn.ReLU(inplace=True)
            self.conv2 = nn.Conv2d(wide, wide, kernel_size=3, stride=2, padding=1, bias=False)
            self.nonlin2 = nn.ReLU(inplace=True)
            self.conv3 = nn.Conv2d(wide, out_channels, kernel_size=1, bias=False)
            self.nonlin3 = nn.ReLU(inplace=True)
            self.output = nn.Identity()  # one call per time step
            for t in range(times):  # BatchNorm statistics of their own at every step (the published names)
                setattr(self, f"norm1_{t}", nn.BatchNorm2d(wide))
                setattr(self, f"norm2_{t}", nn.BatchNorm2d(wide))
                setattr(self, f"norm3_{t}", nn.BatchNorm2d(out_channels))

        def forward(self, inputs):
            x = self.conv_input(inputs)
            for t in range(self.times):
                # step 0 halves the resolution (strided 3×3 conv, strided skip); later steps keep it. Upstream sets
                # conv2.stride before each call; the functional call with the same weights computes the same.
                stride = 2 if t == 0 else 1
                skip = self.norm_skip(self.skip(x)) if t == 0 else x
                x = self.nonlin1(getattr(self, f"norm1_{t}")(self.conv1(x)))
                x = F.conv2d(x, self.conv2.weight, None, stride=stride, padding=1)
                x = self.nonlin2(getattr(self, f"norm2_{t}")(x))
                x = getattr(self, f"norm3_{t}")(self.conv3(x))
                x = self.nonlin3(x + skip)
                x = self.output(x)
            return x

    return torch, nn, CORblockS


def build(times: dict | None = None):
    """An untrained CORnet-S (upstream's initialisation: conv weights N(0, √(2 / (k·k·out))), BN weight 1 and bias 0;
    the caller seeds torch). ``times``: steps per area, default V2 2, V4 4, IT 2."""
    torch, nn, CORblockS = _modules()
    steps = {**TIMES, **(times or {})}
    model = nn.Sequential(OrderedDict([
        ("V1", nn.Sequential(OrderedDict([
            ("conv1", nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)),
            ("norm1", nn.BatchNorm2d(64)),
            ("nonlin1", nn.ReLU(inplace=True)),
            ("pool", nn.MaxPool2d(kernel_size=3, stride=2, padding=1)),
            ("conv2", nn.Conv2d(64, 64, kernel_size=3, stride=1, padding=1, bias=False)),
            ("norm2", nn.BatchNorm2d(64)),
            ("nonlin2", nn.ReLU(inplace=True)),
            ("output", nn.Identity()),
        ]))),
        ("V2", CORblockS(64, 128, steps["V2"])),
        ("V4", CORblockS(128, 256, steps["V4"])),
        ("IT", CORblockS(256, 512, steps["IT"])),
        ("decoder", nn.Sequential(OrderedDict([
            ("avgpool", nn.AdaptiveAvgPool2d(1)),
            ("flatten", nn.Flatten()),
            ("linear", nn.Linear(512, 1000)),
            ("output", nn.Identity()),
        ]))),
    ]))
    for module in model.modules():
        if isinstance(module, nn.Conv2d):
            fan = module.kernel_size[0] * module.kernel_size[1] * module.out_channels
            module.weight.data.normal_(0, math.sqrt(2.0 / fan))
        elif isinstance(module, nn.BatchNorm2d):
            module.weight.data.fill_(1)
            module.bias.data.zero_()
    return model


def checkpoint_state_dict(path):
    """The network's state dict from a published checkpoint: ``state_dict`` (or the file itself), its
    DataParallel ``module.`` prefix dropped."""
    import torch

    checkpoint = torch.load(path, map_location="cpu", weights_only=False)  # upstream's file holds optimizer state too
    state = checkpoint.get("state_dict", checkpoint) if isinstance(checkpoint, dict) else checkpoint
    return {key.removeprefix("module."): value for key, value in state.items()}


def _sha256_prefix(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()[:len(WEIGHTS_SHA256_PREFIX)]


def weights_path(cache_dir=None, url=WEIGHTS_URL, sha1=WEIGHTS_SHA1, sha256_prefix=WEIGHTS_SHA256_PREFIX,
                 progress=None) -> Path:
    """The checkpoint on disk: downloaded once (HTTPS, sha1 checked while it lands, brainpipe.data.download) into
    ``cache_dir``, then its sha256 prefix checked as torch.hub checks a file named ``<name>-<prefix>.pth``. A
    cached file that fails either check stops with its path."""
    from brainpipe.data.download import download, sha1_of

    folder = Path(cache_dir or os.environ.get(CACHE_ENV) or Path(_torch_home()) / "hub" / "checkpoints")
    path = folder / url.rsplit("/", 1)[1]
    if not path.is_file():
        download(url, path, sha1, progress=progress)
    elif sha1_of(path) != sha1:
        raise ValueError(f"{path}: sha1 {sha1_of(path)} is not CORnet-S's {sha1}; delete the file to download it "
                         f"again from {url}")
    if sha256_prefix and _sha256_prefix(path) != sha256_prefix:
        raise ValueError(f"{path}: its sha256 does not start with {sha256_prefix} (the hash in the published file "
                         f"name {url.rsplit('/', 1)[1]}); delete it to download it again")
    return path


def _torch_home():
    import torch.hub

    return torch.hub.get_dir().rsplit("/hub", 1)[0]


def pretrained(cache_dir=None, **source):
    """CORnet-S with its published ImageNet weights (downloaded once, checked), loaded strictly."""
    model = build()
    model.load_state_dict(checkpoint_state_dict(weights_path(cache_dir, **source)), strict=True)
    return model


# The same modules without the download: config checks and dry runs read the layer names from it
# (pipeline/workflow_config.py NETWORK_WITHOUT_WEIGHTS), so `snakemake -n` never fetches the checkpoint.
pretrained.network_without_weights = build
