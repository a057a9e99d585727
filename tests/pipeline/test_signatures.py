"""The rules' functions are inspected once per parse (src/brainpipe/pipeline/plan/signatures.py): Snakemake then passes
them the same arguments as when it inspects each call."""

import functools
import inspect
import json
import subprocess
import sys
from pathlib import Path

from snakemake.common import get_function_params, get_input_function_aux_params

from brainpipe.pipeline.plan.signatures import (SNAKEMAKE_PARAMS_ATTRIBUTE, remember_signatures, rule_functions,
                                                unwrapped)

ROOT = Path(__file__).resolve().parents[2]
CANDIDATES = {"input": ["in.txt"], "output": ["out.txt"], "threads": 2, "attempt": 1, "rule": "r"}


class Plan:
    def inputs(self, wildcards):
        return [wildcards]

    def memory(self, wildcards, input, attempt):
        return attempt


def free(wildcards, threads, **rest):
    return threads


def test_snakemake_passes_the_same_arguments_after_the_signatures_are_remembered():
    plan = Plan()
    functions = [lambda wildcards: 1, lambda wildcards, input: 2, free, plan.inputs, plan.memory,
                 functools.partial(lambda wildcards, threads, factor: 3, factor=2)]
    before = [(dict(get_function_params(f)), get_input_function_aux_params(f, CANDIDATES)) for f in functions]
    assert remember_signatures(functions) == len(functions)
    after = [(dict(get_function_params(f)), get_input_function_aux_params(f, CANDIDATES)) for f in functions]
    assert after == before
    assert list(before[4][0]) == ["wildcards", "input", "attempt"]  # a bound method: without self
    assert before[2][1] == CANDIDATES  # **rest: every candidate, as Snakemake gives it
    # read from the stored mapping, not inspected again (the attribute Snakemake looks for first)
    assert all(SNAKEMAKE_PARAMS_ATTRIBUTE in vars(getattr(f, "__func__", f)) for f in functions)
    assert remember_signatures(functions) == 0  # once
    assert remember_signatures([len, print]) == 0  # builtins take no attribute: left to Snakemake's inspection


def test_unwrapped_finds_the_function_behind_snakemakes_wrappers_and_skips_values():
    function = lambda wildcards: 1  # noqa: E731

    class AnnotatedString(str):  # what Snakemake makes of an input function (snakemake.io)
        pass

    class Wrapper:
        pass

    annotated = AnnotatedString("x")
    annotated.callable = function
    file, resource = Wrapper(), Wrapper()
    file._file, resource._evaluator = annotated, function  # an _IOFile around it; a Resource evaluated by it

    assert [unwrapped(item) for item in (function, annotated, file, resource)] == [function] * 4
    assert [unwrapped(item) for item in ("results/x.json", 3, None, str)] == [None] * 4

    rule = Wrapper()
    rule.input, rule.params, rule.resources = [file, "plain.txt"], [3, function], {"mem_mb": resource, "runtime": 30}
    assert list(rule_functions([rule])) == [function] * 3


PARSE = """
import inspect, json, sys
from pathlib import Path
from snakemake.api import SnakemakeApi
from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings
from brainpipe.pipeline.plan.signatures import SNAKEMAKE_PARAMS_ATTRIBUTE, rule_functions

root = Path(sys.argv[1])
with SnakemakeApi(OutputSettings(quiet=None)) as api:
    workflow = api.workflow(resource_settings=ResourceSettings(cores=1),
                            config_settings=ConfigSettings(configfiles=[root / "config/config.yaml",
                                                                         root / "tests/configs/tiny.yaml"]),
                            snakefile=root / "Snakefile", workdir=Path.cwd())
    rules = workflow._workflow.rules
    functions = list(rule_functions(rules))
    missing = sorted({f.__qualname__ for f in functions
                      if SNAKEMAKE_PARAMS_ATTRIBUTE not in vars(getattr(f, "__func__", f))})
    differ = sorted({f.__qualname__ for f in functions
                     if list(getattr(f, SNAKEMAKE_PARAMS_ATTRIBUTE, {})) != list(inspect.signature(f).parameters)})
    print(json.dumps({"rules": len(list(rules)), "functions": len(functions), "missing": missing, "differ": differ}))
"""


def test_the_workflow_remembers_every_rule_functions_signature(tmp_path):
    """The Snakefile's parse, in its own process: every input, params and resources function of every rule."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text((ROOT / "config" / "config.yaml").read_text())
    run = subprocess.run([sys.executable, "-c", PARSE, str(ROOT)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-4000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["rules"] > 50 and found["functions"] > 200, found
    assert found["missing"] == [] and found["differ"] == [], found
