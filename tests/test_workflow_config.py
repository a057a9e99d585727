"""brainpipe.pipeline.workflow_config.check_config: unknown names fail with the config key named."""

import copy

import pytest

from brainpipe.pipeline.model_layers import layers_for_sweep
from brainpipe.pipeline.plan.activations import layer_set_rule, load_layer_sets, missing_layer_sets, plan_layer_sets
from brainpipe.pipeline.workflow_config import ConfigError, architecture_layers, check_config, leaf_layers

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


def test_missing_layers_of_a_folder_are_extracted_together():
    """Only a folder missing more than one layer gets a job of its own for them (one forward pass); a single
    missing layer is the per-layer rule's."""
    folders = {("m", "S"): ["a/m/S/l1.nc", "a/m/S/l2.nc", "a/m/S/l3.nc"], ("p", "S"): ["a/p/S/pixels.nc"],
               ("m", "T"): ["a/m/T/l1.nc", "a/m/T/l2.nc"]}
    on_disk = {"a/m/S/l2.nc", "a/m/T/l2.nc"}
    assert missing_layer_sets(folders, on_disk.__contains__) == [["a/m/S/l1.nc", "a/m/S/l3.nc"]]
    assert layer_set_rule(["a/m/S/l3.nc", "a/m/S/l1.nc"]) == layer_set_rule(["a/m/S/l1.nc", "a/m/S/l3.nc"])
    assert layer_set_rule(["a/m/S/l1.nc"]) != layer_set_rule(["a/m/S/l1.nc", "a/m/S/l3.nc"])


def test_a_behavioural_papers_folders_are_extracted_together():
    """Folders that share a group key (a behavioural paper's stimulus sets) are one job per model, split into as
    many jobs as run at once; ungrouped folders keep their own; a single missing file stays the per-layer rule's."""
    folders = {("m", f"S{k}"): [f"a/m/S{k}/l1.nc"] for k in range(5)}
    folders[("m", "N")] = ["a/m/N/l1.nc"]  # a neural folder: no group
    folders[("p", "S0")] = ["a/p/S0/pixels.nc"]  # another model: its own job, even in the same group
    groups = {folder: ("paper" if folder[1].startswith("S") else None) for folder in folders}
    on_disk = {"a/m/S3/l1.nc"}
    assert missing_layer_sets(folders, on_disk.__contains__, groups) == [
        ["a/m/S0/l1.nc", "a/m/S1/l1.nc", "a/m/S2/l1.nc", "a/m/S4/l1.nc"]]
    assert missing_layer_sets(folders, on_disk.__contains__, groups, jobs_at_once=2) == [
        ["a/m/S0/l1.nc", "a/m/S2/l1.nc"], ["a/m/S1/l1.nc", "a/m/S4/l1.nc"]]
    # more jobs at once than folders: a folder each, and a folder's single missing layer is the per-layer rule's
    assert missing_layer_sets(folders, on_disk.__contains__, groups, jobs_at_once=8) == []
    assert missing_layer_sets(folders, on_disk.__contains__) == []  # no groups: per folder, as before


def test_extraction_groups_are_behavioural_papers_except_the_large_sets():
    from brainpipe import benchmarks
    from brainpipe.pipeline.plan.activations import extraction_group

    family = lambda identifier: benchmarks.load(identifier, {}).family
    assert extraction_group(family("Geirhos2021colour-top1")) == "built-in (brainpipe.benchmarks.families.geirhos2021)"
    assert extraction_group(family("Scialom2024_rgbBehavioralAccuracyDistance")) == \
        extraction_group(family("Scialom2024_segments-allBehavioralErrorConsistency"))
    assert extraction_group(family("MajajHong2015public.IT-pls")) is None  # neural
    assert extraction_group(family("ImageNet-C-noise-top1")) is None  # 750,000 images: a job per set
    assert extraction_group(family("ObjectNet-top1")) is None


def test_layer_set_plans_outlive_the_files_appearing(tmp_path):
    """A cluster job re-reads the workflow when some layer files may exist: it defines its rule from the plan the
    main process saved; the main process's next start removes the plans of finished sets within one folder."""
    plans = tmp_path / "plans"
    folders = {("m", "S"): ["m/S/l1.nc", "m/S/l3.nc"], ("m", "T"): ["m/T/l1.nc", "m/T/l2.nc"]}
    sets = plan_layer_sets(plans, folders, lambda path: False)
    assert sorted(load_layer_sets(plans)) == sorted(sets) == [["m/S/l1.nc", "m/S/l3.nc"], ["m/T/l1.nc", "m/T/l2.nc"]]
    assert {p.stem for p in plans.iterdir()} == {layer_set_rule(files) for files in sets}
    on_disk = lambda path: path.startswith("m/S/")  # the first job has finished
    assert plan_layer_sets(plans, folders, on_disk) == [["m/T/l1.nc", "m/T/l2.nc"]] == load_layer_sets(plans)


def test_a_set_across_folders_keeps_its_files_after_they_are_written(tmp_path):
    """The job of a set across a paper's folders has all of them as input, and Snakemake records that list with each
    file: the plan stays while its files exist (the per-layer rule, one folder as input, would extract them again);
    new missing files are planned apart from it; once none of its files exists it goes."""
    plans = tmp_path / "plans"
    folders = {("m", "A"): ["m/A/l1.nc"], ("m", "B"): ["m/B/l1.nc"]}
    groups = {("m", "A"): "paper", ("m", "B"): "paper"}
    on_disk = set()
    first = plan_layer_sets(plans, folders, on_disk.__contains__, groups)
    assert first == [["m/A/l1.nc", "m/B/l1.nc"]]
    on_disk |= {"m/A/l1.nc", "m/B/l1.nc"}  # the job ran
    assert plan_layer_sets(plans, folders, on_disk.__contains__, groups) == first == load_layer_sets(plans)
    # the paper's third folder and a sweep layer added: a new set of its own; the written files keep theirs
    folders = {("m", "A"): ["m/A/l1.nc", "m/A/l2.nc"], ("m", "B"): ["m/B/l1.nc"], ("m", "C"): ["m/C/l1.nc"]}
    groups[("m", "C")] = "paper"
    assert plan_layer_sets(plans, folders, on_disk.__contains__, groups) == first + [["m/A/l2.nc", "m/C/l1.nc"]]
    on_disk.discard("m/B/l1.nc")  # one file deleted: its set's job writes both again
    assert first[0] in plan_layer_sets(plans, folders, on_disk.__contains__, groups)
    on_disk.clear()  # none left: planned afresh from what is missing
    assert plan_layer_sets(plans, folders, on_disk.__contains__, groups, jobs_at_once=1) == [
        ["m/A/l1.nc", "m/A/l2.nc", "m/B/l1.nc", "m/C/l1.nc"]] == load_layer_sets(plans)


# ---- Structure: unknown keys with the nearest valid one, empty grids, reserved model names, YAML syntax ----

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from brainpipe.pipeline.workflow_config import RESULT_FILES, RESULT_FOLDERS, check_config_structure, check_yaml_file

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"
DEFAULT_CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())


def structure_error(change):
    """The ConfigError message for the repository's default config after change(config)."""
    bad = copy.deepcopy(DEFAULT_CONFIG)
    change(bad)
    with pytest.raises(ConfigError) as raised:
        check_config_structure(bad, SCHEMA)
    return str(raised.value)


def test_default_and_test_configs_pass_the_structure_checks():
    check_config_structure(copy.deepcopy(DEFAULT_CONFIG), SCHEMA)
    for extra in ("tiny.yaml", "sweep.yaml"):
        merged = copy.deepcopy(DEFAULT_CONFIG)
        merged.update(yaml.safe_load((ROOT / "tests" / "configs" / extra).read_text()))
        check_config_structure(merged, SCHEMA)


@pytest.mark.parametrize("change, key, nearest", [
    (lambda c: c.update(modles=["pixels"]), "config modles", "models"),
    (lambda c: c["data"].update(local_fils={}), "config data.local_fils", "local_files"),
    (lambda c: c["data"]["local_files"].update({"assy_dicarlo_MajajHong2015_privat.nc": "/data/x.nc"}),
     "config data.local_files.assy_dicarlo_MajajHong2015_privat.nc", "assy_dicarlo_MajajHong2015_private.nc"),
    (lambda c: c["data"]["access"].update(MajajHong2105="private"), "config data.access.MajajHong2105",
     "MajajHong2015"),
    (lambda c: c["model_zoo"]["alexnet"].update(wieghts=None), "config model_zoo.alexnet.wieghts", "weights"),
    (lambda c: c["model_zoo"]["alexnet"]["layers"].update(IT1="features.12"), "config model_zoo.alexnet.layers.IT1",
     "IT"),
    (lambda c: c["model_zoo"]["alexnet"].update(sweep={"V44": "all"}), "config model_zoo.alexnet.sweep.V44", "V4"),
    (lambda c: c["benchmark_settings"].update({"SyntheticShapes.IT-pls": {"split": 3}}),
     "config benchmark_settings.SyntheticShapes.IT-pls.split", "splits"),
    (lambda c: c["synthetic_shapes"].update(image_sise=64), "config synthetic_shapes.image_sise", "image_size"),
    (lambda c: c["synthetic_shapes"]["noise"].update(IT2=1.0), "config synthetic_shapes.noise.IT2", "IT"),
], ids=["top-level", "data", "local_files-name", "access-family", "model_zoo-entry", "layers-region",
        "sweep-region", "benchmark_settings", "synthetic_shapes", "synthetic-region"])
def test_unknown_key_names_key_and_nearest_valid_one(change, key, nearest):
    message = structure_error(change)
    assert message.startswith(key + ":"), message
    assert f"did you mean {nearest!r}?" in message, message
    assert "$schema" not in message and "Failed validating" not in message and "\n" not in message


def test_type_errors_are_one_line_naming_the_key():
    message = structure_error(lambda c: c.update(batch_size="many"))
    assert message == "config batch_size: 'many' is not of type 'integer'"
    message = structure_error(lambda c: c["model_zoo"]["alexnet"].update(visual_degrees=-1))
    assert message.startswith("config model_zoo.alexnet.visual_degrees: -1 ") and "\n" not in message


def test_a_boolean_written_false_on_the_command_line_says_how_snakemake_reads_it():
    # `--config skip_finished_models=false` reaches the config as the string 'false' (Snakemake reads only True/False)
    message = structure_error(lambda c: c.update(skip_finished_models="false"))
    assert message == ("config skip_finished_models: 'false' is not of type 'boolean'. In a YAML file write false "
                       "without quotes; on the command line --config skip_finished_models=False: Snakemake's --config "
                       "reads only True and False (capitalised) as booleans")
    assert "True" in structure_error(lambda c: c.update(skip_finished_models="yes"))
    assert structure_error(lambda c: c.update(skip_finished_models="maybe")) == \
        "config skip_finished_models: 'maybe' is not of type 'boolean'"  # not a boolean word: no hint


def test_missing_model_zoo_says_which_config_file_is_read():
    message = structure_error(lambda c: c.pop("model_zoo"))
    assert message.startswith("config (top level): 'model_zoo' is a required property. The workflow reads "
                              "config/config.yaml of its working directory"), message


def test_private_access_of_a_family_without_private_recordings():
    message = structure_error(lambda c: c["data"]["access"].update(SyntheticShapes="private"))
    assert message.startswith("config data.access.SyntheticShapes: SyntheticShapes has no private recordings")


def test_the_old_name_data_splits_is_still_read_and_checked():
    """data.splits is data.access's name before brainpipe 0.3: a config that uses it reads the same."""
    from brainpipe.benchmarks import configured_access

    message = structure_error(lambda c: c["data"].update(splits={"SyntheticShapes": "private"}))
    assert message.startswith("config data.splits.SyntheticShapes: SyntheticShapes has no private recordings")
    assert configured_access({"data": {"splits": {"MajajHong2015": "private"}}}, "MajajHong2015") == "private"
    assert configured_access({"data": {"access": {"MajajHong2015": "private"}}}, "MajajHong2015") == "private"
    assert configured_access({"data": {}}, "MajajHong2015") is None
    message = structure_error(lambda c: c["data"].update(access={"MajajHong2015": "private"},
                                                         splits={"MajajHong2015": "public"}))
    assert "data.access.MajajHong2015 is 'private' but data.splits.MajajHong2015 (its old name) is 'public'" in message


@pytest.mark.parametrize("key", ["models", "benchmarks"])
def test_empty_grid_is_refused_with_what_to_do(key):
    message = structure_error(lambda c: c.update({key: []}))
    assert message.startswith(f"config {key} is empty: list at least one"), message
    assert ("pixels" in message) if key == "models" else ("brainpipe list" in message)


@pytest.mark.parametrize("name", RESULT_FOLDERS + RESULT_FILES)
def test_model_named_like_a_results_folder_is_refused(name):
    def rename(config):
        config["model_zoo"][name] = config["model_zoo"].pop("pixels")
        config["models"] = [name]

    message = structure_error(rename)
    assert message.startswith(f"config model_zoo.{name}: a model cannot be called {name!r}"), message


def test_reserved_names_match_the_model_wildcard_constraint():
    """The config check's reserved model names are the folders the model wildcard (plan/patterns.py MODEL, which
    common.smk's wildcard_constraints use) refuses to read as a model."""
    from brainpipe.pipeline.plan import patterns

    assert "model=PLAN.patterns.model," in (ROOT / "workflow" / "rules" / "common.smk").read_text()
    assert set(patterns.RESULT_FOLDERS) == set(RESULT_FOLDERS)
    for folder in RESULT_FOLDERS:
        assert not re.fullmatch(patterns.MODEL + "/x", f"{folder}/x") and re.fullmatch(patterns.MODEL, folder)


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    path = tmp_path / "config.yaml"
    path.write_text("models:\n  - pixels\nbenchmarks: [SyntheticShapes.IT-pls\ndevice: cpu\n")
    with pytest.raises(ConfigError, match=rf"^{re.escape(str(path))}, line 4, column \d+: YAML syntax error"):
        check_yaml_file(path)
    path.write_text("models:\n\t- pixels\n")
    with pytest.raises(ConfigError, match=r", line 2, column 1: YAML syntax error"):
        check_yaml_file(path)
    path.write_text("models: [pixels]\n")
    assert check_yaml_file(path) == {"models": ["pixels"]}


@pytest.mark.parametrize("config_text, override, expected", [
    (None, "modles: [pixels]\n", "config modles: unknown key 'modles'; did you mean 'models'?"),
    ("models: [pixels\nbenchmarks: []\n", None, "config/config.yaml, line 2, column 11: YAML syntax error"),
    # an overlay is read by Snakemake's command line before the Snakefile: the venv's startup hook names it
    (None, "models:\n  - pixels\n\tdevice: cpu\n", "override.yaml, line 3, column 1: YAML syntax error"),
], ids=["unknown-top-level-key", "yaml-syntax", "yaml-syntax-in-overlay"])
def test_snakemake_stops_at_parse_time_with_the_message(tmp_path, config_text, override, expected):
    (tmp_path / "config").mkdir()
    config = (ROOT / "config" / "config.yaml").read_text() if config_text is None else config_text
    (tmp_path / "config" / "config.yaml").write_text(config)
    args = []
    if override:
        (tmp_path / "override.yaml").write_text(override)
        args = ["--configfile", str(tmp_path / "config" / "config.yaml"), str(tmp_path / "override.yaml")]
    result = subprocess.run([str(Path(sys.executable).parent / "snakemake"), "-s", str(ROOT / "Snakefile"), "-n",
                             "--directory", str(tmp_path), *args], cwd=tmp_path, capture_output=True, text=True,
                            env={k: v for k, v in os.environ.items() if k != "SNAKEMAKE_PROFILE"})
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert expected in output, output[-3000:]
    assert "Failed validating" not in output and "$schema" not in output, output[-3000:]
    assert not (tmp_path / "results").exists() and not (tmp_path / "resources").exists()


def test_startup_hook_is_installed_and_imports_no_brainpipe():
    """make setup's .pth registers src/brainpipe_startup.py's hook; it must not import brainpipe at interpreter start
    (which copy of the library a process uses is the Snakefile's choice: workflow_config.use_library_in_jobs)."""
    import sysconfig

    pth = Path(sysconfig.get_paths()["purelib"]) / "brainpipe-startup.pth"
    assert pth.is_file(), f"{pth} is missing: run `make setup` (it installs the overlay YAML-error hook)"
    probe = ("import sys, brainpipe_startup; "
             "print(any(isinstance(f, brainpipe_startup._ConfigLoaderHook) for f in sys.meta_path), "
             "any(m == 'brainpipe' or m.startswith('brainpipe.') for m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["True", "False"], result.stdout + result.stderr
    # nor in a process of a local run that is not a Snakemake script job (a shell job's Python, Snakemake itself)
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                            env={**os.environ, "BRAINPIPE_FORK_SERVER": "/nonexistent/socket"})
    assert result.stdout.split() == ["True", "False"], result.stdout + result.stderr
