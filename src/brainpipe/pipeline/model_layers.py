"""The layers of a model that a grid reads, from its config entry: the layers a region's sweep tries, and the layer a
behavioural task reads. Both raise ConfigError naming the config key; the layer names themselves come from the
source, as config checks read them (:func:`brainpipe.pipeline.workflow_config.source_layers`)."""

from brainpipe import benchmarks as bench
from brainpipe.models.model_sources import PIXELS
from .workflow_config import ConfigError, leaf_layers, source_layers


def layers_for_sweep(spec, region, base_dir="."):
    """The layers config ``model_zoo.<name>.sweep.<region>`` lists (``all``: every leaf layer,
    :func:`brainpipe.pipeline.workflow_config.leaf_layers`), [] where it lists none."""
    sweep = (spec.get("sweep") or {}).get(region, [])
    if sweep == "all":
        return list(leaf_layers(spec["architecture"], base_dir))
    return list(sweep)


def behaviour_layer(spec, task, base_dir=".", name=None):
    """The layer a behavioural task reads: the logits for ``label`` (config ``logits_layer``, default the last
    layer), else the behavioural readout (config ``behavioral_readout_layer``, default the last layer before the
    logits: brain-score/vision model_helpers/brain_transformation/__init__.py uses ``layers[-1]`` of the commitment,
    alexnet classifier.5). pixels has no logits; its readout is its pixels. ConfigError naming the key otherwise."""
    where = f"config model_zoo.{name}" if name else "model"
    architecture = spec["architecture"]
    key = "logits_layer" if task == "label" else "behavioral_readout_layer"
    if spec.get(key):
        return spec[key]
    if architecture == PIXELS:
        if task == "label":
            raise ConfigError(f"{where}: pixels has no ImageNet logits, so it cannot do the label task (the "
                              f"benchmarks ending {_label_suffixes()}); leave it out of those benchmarks")
        return PIXELS
    _, leaves, brain_model = source_layers(architecture, base_dir, name)
    if brain_model:
        raise ConfigError(f"{where}: a BrainModel records regions only; behavioural benchmarks need {key}")
    if len(leaves) < 2:
        raise ConfigError(f"{where}.{key}: cannot tell which layer it is ({architecture} has layers {list(leaves)}); "
                          f"set {key}")
    return leaves[-1] if task == "label" else leaves[-2]


def _label_suffixes() -> str:
    """The identifier suffixes of the label task's benchmarks (built-in and declared), for messages."""
    from brainpipe.benchmarks.declared_behaviour import METRIC_DEFAULTS

    names = {metric for metric, (task, *_) in METRIC_DEFAULTS.items() if task == "label"}
    names |= {b.name for family in bench.builtin().families.values() for b in family.behaviours or ()
              if b.task == "label" and not b.identifier}
    return ", ".join(f"-{name}" for name in sorted(names))
