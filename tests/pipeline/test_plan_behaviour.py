"""Behavioural benchmarks (src/brainpipe/pipeline/plan/behaviour.py): the task output a benchmark compares (a stage of
its own, shared by every benchmark that needs it), the benchmark a task output's file stands for and the inputs of
its task, and what a behavioural headline reads."""

import pytest

from brainpipe.pipeline import report as reporting
from brainpipe.pipeline.plan import PlanError
from plan_fixtures import plan_with, wildcards

SHAPES = "SyntheticShapes--target8.00--source10.00"


def task_output_wildcards(path):
    """The wildcards of rule behaviour_task's output results/behaviour/{model}/{task}/{stimuli}.nc."""
    _, _, model, task, stimuli = path.split("/")
    return wildcards(model=model, task=task, stimuli=stimuli.removesuffix(".nc"))


def test_a_probabilities_task_reads_its_readout_layer_on_the_test_and_fitting_stimuli():
    plan = plan_with()
    benchmark = plan.benchmark("SyntheticShapesBehaviour-i2n")
    assert plan.behaviour.layer_of("alexnet_untrained", benchmark) == "classifier.5"
    assert plan.behaviour.fitting_key("alexnet_untrained", benchmark) == SHAPES
    output = plan.behaviour.output("alexnet_untrained", benchmark)
    assert output == f"results/behaviour/alexnet_untrained/probabilities-fit-{SHAPES}/{SHAPES}.nc"
    job = task_output_wildcards(output)
    assert plan.behaviour.benchmark_of_output(job) is benchmark
    assert plan.behaviour.task_inputs(job) == {
        "features": f"results/activations/alexnet_untrained/{SHAPES}/classifier.5.nc",
        "fitting": f"results/activations/alexnet_untrained/{SHAPES}/classifier.5.nc",
        "fitting_stimuli": "resources/stimuli/SyntheticShapes"}


def test_an_odd_one_out_task_reads_the_human_triplets_and_its_images_by_row():
    plan = plan_with()
    job = task_output_wildcards(plan.behaviour.output("alexnet_untrained", plan.benchmark("Hebart2023-match")))
    assert plan.behaviour.task_inputs(job) == {
        "features": "results/activations/alexnet_untrained/Hebart2023/classifier.5.nc",
        "human": "results/assemblies/Hebart2023/behaviour.nc", "test_stimuli": "resources/stimuli/Hebart2023"}
    # what the output depends on besides its inputs: editing it reruns the task
    assert plan.behaviour.task_spec(job) == {"task": "odd_one_out", "similarity": "dot", "triplet_images": "by_row",
                                             "layer": "classifier.5"}


def test_the_benchmark_of_a_task_output_is_the_first_candidate_producing_it_for_every_output():
    """benchmark_of_output indexes the candidates' outputs per model as far as a lookup needs; it must answer what a
    scan of the candidates in order (the grid's, then every other known benchmark) answers, for every behavioural
    benchmark's output, whichever output is asked for first."""
    overlay = {"benchmarks": ["suite:brainscore", "!ImageNet-top1"]}
    plan = plan_with(overlay)
    grid = plan.config["benchmarks"]
    candidates = [i for i in grid + [i for i in plan.registry.identifiers() if i not in grid]
                  if plan.benchmark(i).kind == "behaviour"]
    assert len(candidates) > 100  # every behavioural benchmark of the registry, the grid's first
    for model in plan.config["models"]:
        scanned = [(plan.behaviour.output(model, plan.benchmark(i)), i) for i in candidates]
        expected = {output: next(i for o, i in scanned if o == output) for output, _ in scanned}
        assert len(expected) < len(scanned)  # outputs shared by several benchmarks: the first must win
        for order in (list(expected), list(reversed(expected))):  # from the first candidate, and from the last
            fresh = plan_with(overlay).behaviour
            found = {output: fresh.benchmark_of_output(task_output_wildcards(output)).identifier for output in order}
            assert found == expected


def test_a_task_output_no_benchmark_produces_is_refused():
    with pytest.raises(PlanError, match=r"^no behavioural benchmark produces results/behaviour/pixels/x/y\.nc$"):
        plan_with().behaviour.task_inputs(wildcards(model="pixels", task="x", stimuli="y"))


def test_a_model_without_logits_cannot_do_a_label_task():
    plan = plan_with()
    with pytest.raises(PlanError, match=r"^Geirhos2021colour-top1: config model_zoo\.pixels: pixels has no ImageNet "
                                        r"logits"):
        plan.behaviour.layer_of("pixels", plan.benchmark("Geirhos2021colour-top1"))


def test_what_a_behavioural_headline_compares_with():
    behaviour = plan_with().behaviour
    human, columns = wildcards(benchmark="SyntheticShapesBehaviour-i2n"), wildcards(
        benchmark="Hermann2020cueconflict-shape_bias")
    assert behaviour.target(human) == "results/assemblies/SyntheticShapesBehaviour/behaviour.nc"
    assert behaviour.truth_column(human) is None
    # no human data: the stimulus set's table, and its ground-truth column
    assert behaviour.target(columns) == "resources/stimuli/Geirhos2021_cue-conflict"
    assert behaviour.truth_column(columns) == "truth"


def test_a_declared_ceiling_needs_no_ceiling_job():
    behaviour = plan_with().behaviour
    assert behaviour.computed_ceiling(wildcards(benchmark="Geirhos2021colour-top1")) == []  # accuracy: 1.0
    assert behaviour.computed_ceiling(wildcards(benchmark="Geirhos2021colour-error_consistency")) == [
        "results/ceilings/Geirhos2021colour-error_consistency.json"]


def test_a_per_condition_figure_reads_the_task_outputs_and_human_data_its_folds_compared():
    plan = plan_with({"models": ["alexnet_untrained", "pixels"], "benchmarks": ["Baker2022frankenstein-accuracy_delta"]})
    loaded = [plan.benchmark(b) for b in plan.config["benchmarks"]]
    datasets, tables = reporting.condition_datasets(loaded), reporting.condition_tables_of(loaded)
    benchmark = loaded[0]
    # pixels' cell is empty (no logits): it has no task output
    assert plan.behaviour.condition_table_files(datasets, tables, "Baker2022", "task") == [
        plan.behaviour.output("alexnet_untrained", benchmark)]
    assert plan.behaviour.condition_table_files(datasets, tables, "Baker2022", "human") == [
        "results/assemblies/Baker2022_normal_distortion/behaviour.nc"]
