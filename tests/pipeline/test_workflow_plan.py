"""WorkflowPlan's lookups (src/brainpipe/pipeline/plan/workflow_plan.py): a benchmark with its config settings, parsed
once per identifier; a model's entry; the family of a data set; a benchmark's definition fingerprint; and the errors,
each naming the config key, that stop a run."""

import pytest

from brainpipe.pipeline.plan import PlanError, WorkflowPlan
from brainpipe.pipeline.workflow_config import ConfigError
from plan_fixtures import TINY, config_with, plan_with, wildcards


def test_a_benchmark_is_parsed_once_with_its_config_settings():
    plan = plan_with(TINY)
    benchmark = plan.benchmark("SyntheticShapes.IT-pls")
    assert benchmark.n_folds == 3  # tiny.yaml: benchmark_settings.SyntheticShapes.IT-pls.splits
    assert plan.benchmark("SyntheticShapes.IT-pls") is benchmark  # asked for by every job's functions: cached
    assert plan_with().benchmark("SyntheticShapes.IT-pls").n_folds == 10


def test_each_plan_has_its_own_benchmarks():
    """The cache is the plan's: a plan of another config parses again (a test, or brainpipe.score, builds several)."""
    first, second = plan_with(TINY), plan_with()
    assert first.benchmark("SyntheticShapes.IT-pls") is not second.benchmark("SyntheticShapes.IT-pls")


def test_an_unknown_benchmark_stops_with_the_parsers_message():
    with pytest.raises(PlanError, match=r"^benchmark Nonexistent-pls: .*unknown family 'Nonexistent'"):
        plan_with().benchmark("Nonexistent-pls")


def test_settings_of_a_benchmark_averaging_sessions_name_its_sessions():
    plan = plan_with({"benchmark_settings": {"Cowley2026.V4-pls": {"splits": 3}}})
    with pytest.raises(PlanError) as raised:
        plan.benchmark("Cowley2026.V4-pls")
    assert str(raised.value) == (
        "config benchmark_settings.Cowley2026.V4-pls: Cowley2026.V4-pls averages its sessions' scores; give the "
        "settings to each session instead: Cowley2026.190923.V4-pls, Cowley2026.201025.V4-pls, "
        "Cowley2026.210225.V4-pls, Cowley2026.211022.V4-pls")


def test_plan_errors_are_config_errors():
    """The config checks' callers (score.smk's empty cells, brainpipe's command line) catch ConfigError."""
    assert issubclass(PlanError, ConfigError) and issubclass(PlanError, ValueError)


def test_a_model_is_its_model_zoo_entry():
    plan = plan_with()
    assert plan.model("pixels")["architecture"] == "pixels"
    with pytest.raises(PlanError, match=r"^model 'resnet' is not in config model_zoo; known: \['alexnet', "):
        plan.model("resnet")


def test_the_family_of_a_data_set():
    plan = plan_with()
    assert plan.dataset_family("MajajHong2015.public").name == "MajajHong2015"
    assert plan.dataset_family("Gifford2022_train").name == "Gifford2022"  # a train/test family's train data set
    # a train or test file joined into one data set (Family.train_test.files)
    joined = plan.recordings.joined_families[0]
    assert plan.dataset_family(joined.train_test.files[0][1]) is joined
    # a family averaging sessions borrows its first session's data set: the session's own family is the one found
    assert plan.benchmark("Cowley2026.V4-pls").family.dataset == "Cowley2026.190923"
    assert plan.dataset_family("Cowley2026.190923").name == "Cowley2026_190923"
    with pytest.raises(PlanError, match=r"^no benchmark family uses data set 'Nope'$"):
        plan.dataset_family("Nope")


def test_a_benchmarks_definition_param_changes_with_its_family_only():
    plan = plan_with()
    definition = plan.definition(wildcards(benchmark="SyntheticShapes.IT-pls"))
    assert set(definition) == {"family", "version", "ceiling"}
    assert definition == plan.definition(wildcards(benchmark="SyntheticShapes.V4-pls"))  # one family
    assert definition["family"] != plan.definition(wildcards(benchmark="MajajHong2015public.IT-pls"))["family"]


def test_the_sessions_a_combined_benchmark_averages():
    assert plan_with().sessions_of("Cowley2026.V4-pls") == [
        "Cowley2026.190923.V4-pls", "Cowley2026.201025.V4-pls", "Cowley2026.210225.V4-pls", "Cowley2026.211022.V4-pls"]


def test_the_plan_reads_the_config_it_was_given():
    """common.smk builds the plan once; the config dict is Snakemake's, which nothing changes after that point."""
    config = config_with(TINY)
    plan = WorkflowPlan(config, None)
    assert plan.config is config and plan.grid.models == ["pixels", "alexnet_untrained"]
