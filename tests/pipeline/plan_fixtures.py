"""Plans (src/brainpipe/pipeline/plan) built as common.smk builds its PLAN: from the repository's config/config.yaml
with overlays merged in as Snakemake merges --configfile files (a nested mapping key by key), the benchmark selectors
expanded, and the registry of every benchmark family. Used by tests/pipeline/test_*plan*.py."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import yaml

from brainpipe.pipeline.benchmark_selectors import config_benchmarks
from brainpipe.pipeline.plan import WorkflowPlan
from brainpipe.pipeline.workflow_config import load_registry

ROOT = Path(__file__).resolve().parents[2]
#: the tiny grid of the workflow tests (pixels and alexnet_untrained × the SyntheticShapes benchmarks)
TINY = ROOT / "tests" / "configs" / "tiny.yaml"
#: alexnet_untrained's per-layer sweep over V4 and IT
SWEEP = ROOT / "tests" / "configs" / "sweep.yaml"


def merged(base: dict, overlay: dict) -> dict:
    """``base`` with ``overlay`` merged in, nested mappings key by key (Snakemake's update_config)."""
    result = dict(base)
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = merged(result[key], value)
        else:
            result[key] = value
    return result


def config_with(*overlays) -> dict:
    """The repository's config with ``overlays`` (mappings, or YAML files) merged in, its selectors expanded."""
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    for overlay in overlays:
        if isinstance(overlay, Path):
            overlay = yaml.safe_load(overlay.read_text())
        config = merged(config, overlay)
    config["benchmarks"] = config_benchmarks(config)
    return config


def plan_with(*overlays) -> WorkflowPlan:
    config = config_with(*overlays)
    return WorkflowPlan(config, load_registry(config))


def wildcards(**values) -> SimpleNamespace:
    """A job's wildcards, as Snakemake passes them to an input or params function (attributes)."""
    return SimpleNamespace(**values)
