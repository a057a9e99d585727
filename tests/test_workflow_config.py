"""brainpipe.workflow_config.check_config: unknown names fail with the config key named."""

import copy

import pytest

from brainpipe.workflow_config import ConfigError, architecture_layers, check_config, layers_for_sweep, leaf_layers

ALEXNET_LAYERS = {"V1": "features.2", "V2": "features.7", "V4": "features.7", "IT": "features.12"}
BASE = {
    "models": ["pixels", "alexnet"],
    "benchmarks": ["SyntheticShapes.V4-pls", "MajajHong2015.IT-pls"],
    "benchmark_settings": {"SyntheticShapes.IT-pls": {"splits": 3}},
    "model_zoo": {
        "pixels": {"architecture": "pixels", "visual_degrees": 8, "layers": {"IT": "pixels"}},
        "alexnet": {"architecture": "alexnet", "weights": None, "visual_degrees": 8, "layers": dict(ALEXNET_LAYERS),
                    "sweep": {"IT": ["features.9", "classifier.5"]}},
    },
}


def config(**changes):
    result = copy.deepcopy(BASE)
    result.update(changes)
    return result


def test_valid_config_passes():
    check_config(config())


def test_unknown_model():
    with pytest.raises(ConfigError, match=r"models\[1\].*'vgg99'"):
        check_config(config(models=["pixels", "vgg99"]))


@pytest.mark.parametrize("identifier, message", [
    ("Nope2020.IT-pls", "unknown family"),
    ("MajajHong2015.V1-pls", "no region 'V1'"),
    ("MajajHong2015.IT-svm", "unknown metric"),
])
def test_unknown_benchmark_parts(identifier, message):
    with pytest.raises(ConfigError, match=rf"benchmarks\[1\].*{message}"):
        check_config(config(benchmarks=["SyntheticShapes.V4-pls", identifier]))


def test_unknown_benchmark_settings_key():
    with pytest.raises(ConfigError, match=r"benchmark_settings\.Nope2020\.IT-pls"):
        check_config(config(benchmark_settings={"Nope2020.IT-pls": {}}))


def test_unknown_layer_named_by_key():
    bad = config()
    bad["model_zoo"]["alexnet"]["layers"]["IT"] = "features.99"
    with pytest.raises(ConfigError, match=r"model_zoo\.alexnet\.layers\.IT.*'features\.99'"):
        check_config(bad)


def test_unknown_sweep_layer_named_by_key():
    bad = config()
    bad["model_zoo"]["alexnet"]["sweep"] = {"V4": ["features.3", "nope"]}
    with pytest.raises(ConfigError, match=r"model_zoo\.alexnet\.sweep\.V4.*'nope'"):
        check_config(bad)


def test_unknown_architecture():
    bad = config()
    bad["model_zoo"]["alexnet"]["architecture"] = "alexnet9000"
    with pytest.raises(ConfigError, match="alexnet9000"):
        check_config(bad)


def test_config_error_is_value_error():
    assert issubclass(ConfigError, ValueError)


def test_layers():
    assert architecture_layers("pixels") == ("pixels",)
    layers = architecture_layers("alexnet")
    assert set(ALEXNET_LAYERS.values()) <= set(layers) and "classifier.5" in layers
    leaves = leaf_layers("alexnet")
    assert leaves[0] == "features.0" and "features.12" in leaves and "features" not in leaves
    assert not any(name in leaves for name in ("classifier.0", "classifier.3"))  # dropout excluded
    spec = BASE["model_zoo"]["alexnet"]
    assert layers_for_sweep(spec, "IT") == ["features.9", "classifier.5"]
    assert layers_for_sweep(spec, "V4") == []
    assert layers_for_sweep({"architecture": "alexnet", "sweep": {"IT": "all"}}, "IT") == list(leaves)


def test_library_code_fingerprint_follows_module_content():
    from brainpipe.workflow_config import library_code

    assert library_code("demo") == library_code("demo")
    assert library_code("demo") != library_code("screen")
    assert library_code("demo", "screen") != library_code("demo")
    with pytest.raises(FileNotFoundError):
        library_code("no_such_module")
