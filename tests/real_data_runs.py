"""Running the workflow on Brain-Score-format files served over loopback: configs, checksum overrides, a torchvision weights stand-in."""

import json
import os
import subprocess
import sys
from pathlib import Path
import pytest
import torch
import yaml
from brainpipe.data import catalog


REPO = Path(__file__).resolve().parents[1]


SNAKEFILE = REPO / "Snakefile"


SNAKEMAKE = Path(sys.executable).parent / "snakemake"


PROXIES = ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch):
    """Loopback must never go through a proxy configured on the machine."""
    for name in PROXIES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    monkeypatch.delenv(catalog.BASE_URL_ENV, raising=False)


def weights_file_name():
    from brainpipe.models._torchvision import import_torchvision

    url = import_torchvision().models.AlexNet_Weights.IMAGENET1K_V1.url
    return url.rsplit("/", 1)[1]


@pytest.fixture(scope="module")
def torch_home(tmp_path_factory):
    """A TORCH_HOME holding seeded alexnet weights under torchvision's file name for IMAGENET1K_V1.

    torchvision's builder calls ``load_state_dict_from_url(url, check_hash=True)``; the hash prefix in the name
    is only checked when it downloads, so brainpipe checks a cached file itself and refuses this one.
    """
    from brainpipe.models._torchvision import import_torchvision

    home = tmp_path_factory.mktemp("torch_home")
    name = weights_file_name()
    assert name == "alexnet-owt-7be5be79.pth"
    torch.manual_seed(0)
    state = import_torchvision().models.alexnet(weights=None).state_dict()
    (home / "hub" / "checkpoints").mkdir(parents=True)
    torch.save(state, home / "hub" / "checkpoints" / name)
    return home, state


def write_config(folder: Path, benchmark_ids, data, splits=None, weights_file=None, batch_size=16) -> Path:
    """config/config.yaml with the grid, data settings and (to keep the test short) fewer CV splits replaced;
    ``batch_size`` lowered to keep the tests' memory small (None: the shipped value)."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    config.update(models=["alexnet"], benchmarks=list(benchmark_ids))
    if batch_size is not None:
        config["batch_size"] = batch_size
    if weights_file:
        config["model_zoo"]["alexnet"].update(weights=None, weights_file=str(weights_file))
    config["data"] = {"base_url": None, "cache_dir": str(folder / "cache"), "local_files": {}, **data}
    if splits:
        config["benchmark_settings"] = {identifier: {"splits": splits} for identifier in benchmark_ids}
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return path


def write_checksums(folder: Path, sums: dict) -> Path:
    path = folder / "checksums.json"
    path.write_text(json.dumps(sums, indent=1))
    return path


def snakemake(workdir: Path, configfile: Path, targets, torch_home=None, extra_env=None, args=()):
    env = {key: value for key, value in os.environ.items() if key not in PROXIES}
    env["no_proxy"] = "127.0.0.1,localhost"
    env.pop(catalog.BASE_URL_ENV, None)
    if torch_home is not None:
        env["TORCH_HOME"] = str(torch_home)
    env.update(extra_env or {})
    command = [str(SNAKEMAKE), *targets, "--cores", "2", "-s", str(SNAKEFILE), "--directory", str(workdir),
               *args, "--configfile", str(configfile)]
    return subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, timeout=600)


def files_under(folder: Path):
    if not folder.exists():
        return []
    return sorted(str(p.relative_to(folder)) + ("/" if p.is_dir() else "") for p in folder.rglob("*"))


def stand_in(torch_home):
    return torch_home[0] / "hub" / "checkpoints" / weights_file_name()
