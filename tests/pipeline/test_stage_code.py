"""The rules' code fingerprints (src/brainpipe/pipeline/stage_code.py): every stage's recorded digest is its code's,
the digest survives moves and docstring or comment edits but not a changed expression, the table and the rule files
name the same stages, and the documented commands do what the docs say."""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path

import pytest
import yaml

import docs_text
from brainpipe.pipeline import parse_cache, stage_code
from brainpipe.pipeline.stage_code import bump, changed, load_table, record, stage_digest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "workflow" / "rules"
#: the commit whose `library_code(...)` params the first versions are (issue 38 §5): a grid completed before the
#: switch to stage fingerprints has the same params after it
BEFORE_STAGES = "8567fba"


def test_every_stage_has_its_recorded_digest():
    differ = changed(load_table())
    assert not differ, (
        "the code of these stages differs from the digest recorded in src/brainpipe/pipeline/stage_code.json (their "
        "jobs would rerun):\n" + "\n".join(f"  {stage}: recorded {old}, now {new}" for stage, (old, new) in
                                           differ.items()) +
        f"\nCode moved or reworded, numbers unchanged: `{stage_code.COMMAND} record {' '.join(differ)}`; numbers "
        f"change: `{stage_code.COMMAND} bump {' '.join(differ)}`")


# ---- the digest: moves and rewordings keep it, computing edits change it ----------------------------------------

def digest_of(folder, files):
    """The digest of ``files`` ({name: text}) written under ``folder`` (a stage listing them all)."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.py"):
        old.unlink()
    for name, text in files.items():
        (folder / name).write_text(textwrap.dedent(text))
    return stage_digest(sorted(folder / name for name in files))


A = '''
    """Fits."""
    import numpy as np
    from .stats import sem

    SCALE = 2  # a constant


    def fit(x, rounds=3):
        """The fit of x."""
        return np.mean(x) * SCALE + spread(x) * rounds


    def spread(x):
        return sem(x) / 2
    '''
B = '''
    import math


    def root(x):
        from .a import fit

        return math.sqrt(fit(x))
    '''


def test_moving_a_function_between_listed_modules_keeps_the_digest(tmp_path):
    before = digest_of(tmp_path / "lib", {"a.py": A, "b.py": B})
    # spread moved to b.py (b now imports what it needs, a imports spread from b), fit's docstring reworded, comments
    # and blank lines changed, the definitions in another order
    moved = {"a.py": '''
        import numpy as np
        from brainpipe.neural.b import spread  # moved


        def fit(x, rounds=3):
            """Fit x: reworded."""
            # a comment
            return np.mean(x) * SCALE + spread(x) * rounds
        SCALE = 2
        ''', "b.py": '''
        """Roots and spreads."""
        import math
        from brainpipe.neural.stats import sem


        def spread(x):
            """Now documented."""
            return sem(x) / 2


        def root(x):
            return math.sqrt(fit(x))
        '''}
    assert digest_of(tmp_path / "lib", moved) == before
    # a.py split into a.py and c.py (all listed): the imports both need are written twice, counted once
    split = {"a.py": A.replace("    def spread(x):\n        return sem(x) / 2\n", ""),
             "c.py": "import numpy as np\nfrom .stats import sem\n\n\ndef spread(x):\n    return sem(x) / 2\n",
             "b.py": B}
    assert digest_of(tmp_path / "lib", split) == before


@pytest.mark.parametrize("old, new", [
    ("sem(x) / 2", "sem(x) / 3"),  # an expression
    ("SCALE = 2", "SCALE = 2.5"),  # a constant
    ("rounds=3", "rounds=4"),  # a default
    ("from .stats import sem", "from .stats import std as sem"),  # another function under the same name
    ("from .a import fit", "from .a import fit as fitted\n        fit = fitted"),  # code in a function's body
])
def test_a_computing_edit_changes_the_digest(tmp_path, old, new):
    before = digest_of(tmp_path / "lib", {"a.py": A, "b.py": B})
    edited = {"a.py": A.replace(old, new), "b.py": B.replace(old, new)}
    assert edited != {"a.py": A, "b.py": B}
    assert digest_of(tmp_path / "lib", edited) != before


def test_a_function_moved_to_an_unlisted_module_changes_the_digest(tmp_path):
    """The stage no longer sees the function's code: its module must join the stage's list (then `record`)."""
    before = digest_of(tmp_path / "lib", {"a.py": A, "b.py": B})
    assert digest_of(tmp_path / "lib", {"a.py": A.replace("def spread(x):\n        return sem(x) / 2", "")
                                        .replace("from .stats import sem", "from .other import spread"),
                                        "b.py": B}) != before


def test_moving_a_module_to_another_package_keeps_the_digest(tmp_path):
    """neural/stats.py moved to data/ (the imports of it rewritten, relative or absolute): a stage listing it at its new
    place has the same digest; importing another name from it changes the digest."""
    copy = tmp_path / "brainpipe"
    shutil.copytree(stage_code.LIBRARY_ROOT, copy, ignore=shutil.ignore_patterns("__pycache__"))
    files = lambda stats: [copy / "neural/ceiling.py", copy / "neural/metrics.py", copy / stats]  # noqa: E731
    before = stage_digest(files("neural/stats.py"))
    (copy / "neural/stats.py").rename(copy / "data/stats.py")
    ceiling, metrics = copy / "neural/ceiling.py", copy / "neural/metrics.py"
    assert "from .stats import" in ceiling.read_text() and "from .stats import" in metrics.read_text()
    ceiling.write_text(ceiling.read_text().replace("from .stats import", "from brainpipe.data.stats import"))
    metrics.write_text(metrics.read_text().replace("from .stats import", "from ..data.stats import"))
    assert stage_digest(files("data/stats.py")) == before
    metrics.write_text(metrics.read_text() + "\nSPLIT_COORD = 'other'\n")
    assert stage_digest(files("data/stats.py")) != before


# ---- the param, record and bump ------------------------------------------------------------------------------------

def test_the_param_is_the_version_until_the_code_changes_then_record_or_bump(tmp_path):
    library, workflow = tmp_path / "src", tmp_path / "repo"
    (library / "neural").mkdir(parents=True)
    (workflow / "workflow/scripts").mkdir(parents=True)
    module, script = library / "neural/fit.py", workflow / "workflow/scripts/fit.py"
    module.write_text("def fit(x):\n    return 2 * x\n")
    script.write_text("from brainpipe.neural.fit import fit\n\nprint(fit(snakemake.params.x))\n")
    table = {"fit": {"modules": ["neural/fit"], "script": "workflow/scripts/fit.py", "version": "0a1b2c3d4e5f",
                     "digest": ""}}
    table = record(table, library=library, workflow=workflow)
    param = lambda: stage_code.stage_code("fit", table, library, workflow)  # noqa: E731
    assert param() == "0a1b2c3d4e5f"
    module.write_text('def fit(x):\n    """Doubles."""\n    return 2 * x  # as before\n')
    script.write_text("# the fit job\nfrom brainpipe.neural.fit import fit\n\nprint(fit(snakemake.params.x))\n")
    assert param() == "0a1b2c3d4e5f" and not changed(table, library, workflow)
    script.write_text("from brainpipe.neural.fit import fit\n\nprint(fit(snakemake.params.x) + 1)\n")  # the script
    edited = param()
    assert edited.startswith("0a1b2c3d4e5f+") and list(changed(table, library, workflow)) == ["fit"]
    recorded = record(table, ["fit"], library=library, workflow=workflow)  # "the numbers are the same"
    assert stage_code.stage_code("fit", recorded, library, workflow) == "0a1b2c3d4e5f"
    bumped = bump(table, ["fit"], library=library, workflow=workflow)  # "the numbers change"
    assert stage_code.stage_code("fit", bumped, library, workflow) == edited != "0a1b2c3d4e5f"
    assert bump(bumped, ["fit"], library=library, workflow=workflow)["fit"]["version"] != edited  # always a new one
    with pytest.raises(stage_code.StageCodeError, match="no stage nope"):
        bump(table, ["nope"], library=library, workflow=workflow)
    module.unlink()
    with pytest.raises(FileNotFoundError, match="stage fit lists .*fit.py, which does not exist"):
        param()


CACHED_DIGESTS = """
import sys
from brainpipe.pipeline import parse_cache, stage_code
parse_cache.use(sys.argv[1])
print(stage_code.stage_code("fit_fold"), stage_code.stage_code("score"))
print(stage_code._module.cache_info().misses)
"""


def test_digests_come_from_the_parse_cache_and_follow_each_edit(tmp_path):
    """A second start takes the digests from the per-user parse cache without parsing a file (as the fingerprints
    before stages did: `snakemake -n` is no slower); an edited file gets a new digest, its old text the old one."""
    cache = tmp_path / "parse_cache.json"
    run = lambda: subprocess.run([sys.executable, "-c", CACHED_DIGESTS, str(cache)], capture_output=True,  # noqa: E731
                                 text=True, cwd=ROOT, check=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT / "src")}).stdout.split()
    *values, parsed = run()
    assert int(parsed) > 2 and json.loads(cache.read_text())["entries"]  # written when the process exited
    assert run() == [*values, "0"]  # from the cache: no file parsed
    assert [stage_code.stage_code("fit_fold"), stage_code.stage_code("score")] == values  # what they stand for

    module = tmp_path / "fit.py"
    module.write_text("SCALE = 1\n")
    parse_cache.use(cache)
    try:
        first = stage_digest([module])
        module.write_text("SCALE = 2\n")
        second = stage_digest([module])
        module.write_text("SCALE = 1\n")
        assert first != second and stage_digest([module]) == first
        stage_code._DIGESTS.clear()
        assert stage_digest([module]) == first  # from the parse cache
        parse_cache.use(None)
        stage_code._DIGESTS.clear()
        assert stage_digest([module]) == first  # the same value uncached
    finally:
        parse_cache.use(None)


# ---- the table and the rules ---------------------------------------------------------------------------------------

STAGE_PARAM = re.compile(r"stage_code\(\"([\w.]+)\"\)")


def rule_blocks():
    """(rule name or None, text) of every rule of the workflow and of the text between them; the rule made in a loop
    (activations.smk) is named after its file, as its stage is."""
    for path in sorted(RULES.glob("*.smk")):
        text = path.read_text()
        starts = [(m.start(), m.group(1) or path.stem) for m in
                  re.finditer(r"^(?:rule (\w+):|[ \t]+rule:\n\s+name:)", text, flags=re.M)]
        yield None, text[:starts[0][0] if starts else len(text)]
        for (start, name), (end, _) in zip(starts, starts[1:] + [(len(text), None)]):
            block = text[start:end]
            # what follows the rule's own lines (a helper function, a constant) is no part of it
            body = re.match(r"(?:.*?\n)(?:(?:[ \t]+.*|)\n)*", block).group(0)
            yield name, body
            yield None, block[len(body):]


def rule_stages():
    """rule -> (its script or None, the stages of its stage_code params). A stage_code param set outside a rule (the
    activations' code, shared by every rule that runs a network) belongs to the rule its stage is named after."""
    found, shared = {}, set()
    for name, block in rule_blocks():
        if name is None:
            shared |= set(STAGE_PARAM.findall(block))
            continue
        script = re.search(r"^\s+script:\s*\n\s+\"\.\./scripts/([\w.]+)\"", block, flags=re.M)
        found[name] = (f"workflow/scripts/{script.group(1)}" if script else None, set(STAGE_PARAM.findall(block)))
    for stage in shared:
        found[stage.split(".")[0]][1].add(stage)
    return found


def test_the_table_has_the_stages_the_rules_name_and_no_other():
    table = {stage: entry for stage, entry in load_table().items() if not stage.startswith("family:")}
    rules = rule_stages()
    named = {stage for _, stages in rules.values() for stage in stages}
    assert named == set(table), (f"stages in the rules, not in stage_code.json: {sorted(named - set(table))}; in "
                                 f"stage_code.json, not in the rules: {sorted(set(table) - named)}")
    for stage, entry in table.items():  # a stage is named after its rule (rule.param for a rule's second one)
        rule = stage.split(".")[0]
        assert stage in rules[rule][1], f"stage {stage} is not a param of rule {rule}"
        assert entry["script"] == rules[rule][0], f"{stage}: the table says {entry['script']}, the rule runs " \
                                                  f"{rules[rule][0]}"
        assert all((stage_code.LIBRARY_ROOT / f"{module}.py").is_file() for module in entry["modules"]), stage


def test_each_built_in_family_module_has_its_definition_stage():
    """A built-in family's definition param is the stage code of its module (``family:<module>``, script none):
    every module that declares families has one, and none is left for a module that is gone."""
    from brainpipe import benchmarks
    from brainpipe.pipeline.plan.workflow_plan import definition_code

    modules = {f.origin[len("built-in ("):-1].rsplit(".", 1)[-1] for f in benchmarks.builtin().families.values()}
    families = {stage.split(":", 1)[1]: entry for stage, entry in load_table().items() if stage.startswith("family:")}
    assert set(families) == modules
    for module, entry in families.items():
        assert entry["script"] is None and [m.rsplit("/", 1)[-1] for m in entry["modules"]] == [module]
    family = benchmarks.builtin().families["MajajHong2015"]
    assert definition_code(family) == families["majajhong2015"]["version"]


def test_every_script_is_covered_by_a_param_so_the_code_trigger_can_be_left_out():
    """profiles/default (and local, slurm) leave Snakemake's `code` trigger out: sound only while every rule with a
    script has a stage param covering that script, and no rule has a shell: or run: block (whose text that trigger
    compares)."""
    table = load_table()
    rules = rule_stages()
    assert len(rules) > 50
    for rule, (script, stages) in rules.items():
        if script:
            assert script in {table[stage]["script"] for stage in stages}, \
                f"rule {rule}: no stage_code param covers its script {script}"
    for path in RULES.glob("*.smk"):
        assert not re.search(r"^\s+(shell|run):", path.read_text(), flags=re.M), path.name
    assert not re.search(r"^\s+(shell|run):", (ROOT / "Snakefile").read_text(), flags=re.M)


def test_the_profiles_agree_on_the_rerun_triggers():
    triggers = {name: yaml.safe_load((ROOT / "profiles" / name / "config.yaml").read_text())["rerun-triggers"]
                for name in ("default", "local", "slurm")}
    assert all(value == ["mtime", "params", "input", "software-env"] for value in triggers.values()), triggers


def base_fingerprints(base):
    """stage -> the `library_code(...)` value its param had in the checkout ``base`` (the fingerprints before stages,
    computed by that checkout's own library_code)."""
    uses = {}
    for path in sorted((base / "workflow/rules").glob("*.smk")):
        text = path.read_text()
        constants = {m.group(1): m.group(2) for m in re.finditer(r"^([A-Z_]+) = (\(.*?\))$", text, flags=re.M)}
        for m in re.finditer(r"(\w+)=library_code\(", text):
            end = m.end()
            depth = 1
            while depth:
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            call = text[m.end() - 1:end]
            for name, value in constants.items():
                call = call.replace(f"*{name}", f"*{value}")
            rules = re.findall(r"^rule (\w+):", text[:m.start()], flags=re.M)
            rule = "activations" if path.name == "common.smk" else rules[-1]
            uses[rule if m.group(1) == "code" else f"{rule}.{m.group(1)}"] = call
    program = "import json\nfrom brainpipe.pipeline.workflow_config import library_code\nprint(json.dumps({" + \
        ", ".join(f"{stage!r}: library_code{call}" for stage, call in uses.items()) + "}))\n"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=base, check=True,
                          env={**os.environ, "PYTHONPATH": str(base / "src")})
    return json.loads(done.stdout)


def test_versions_are_the_fingerprints_of_the_params_before_stages(tmp_path):
    """Each stage's first version is what its param read at the switch's base commit, so a grid completed before the
    switch has the same params after it: nothing reruns. A bumped version (<version>+<digest>) starts with it."""
    found = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{BEFORE_STAGES}^{{commit}}"],
                           capture_output=True)
    if found.returncode != 0:
        pytest.skip(f"this clone lacks commit {BEFORE_STAGES}; a shallow clone? `git fetch --unshallow`")
    archive = tmp_path / "base.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), BEFORE_STAGES, "src", "workflow/rules"],
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tmp_path / "base", filter="data")
    before = base_fingerprints(tmp_path / "base")
    table = load_table()
    derived = {"score_ost": "score"}  # `use rule score as score_ost`: score's stage, the same version before
    assert len(before) == 49 and set(before) - set(derived) <= set(table)
    assert {stage: table[derived.get(stage, stage)]["version"].split("+")[0] for stage in before} == before


# ---- the documented commands ---------------------------------------------------------------------------------------

def documented_commands():
    return [command for command, _ in docs_text.commands() if "brainpipe.pipeline.stage_code" in command]


def test_the_documented_commands_do_what_the_docs_say(tmp_path):
    """docs/operations/reruns.md's check, record and bump, run as shown in a copy of the library and scripts."""
    commands = documented_commands()
    assert [command.split()[3] for command in commands] == ["check", "record", "bump"], commands
    check, record_one, bump_one = commands
    repo = tmp_path / "repo"
    shutil.copytree(ROOT / "src", repo / "src", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "workflow" / "scripts", repo / "workflow" / "scripts")
    shutil.copy(ROOT / "Snakefile", repo / "Snakefile")
    table_path = repo / "src/brainpipe/pipeline/stage_code.json"

    def run(command, code=0):
        done = subprocess.run(command.replace(".venv/bin/python", sys.executable).split(), cwd=repo,
                              capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(repo / "src")})
        assert done.returncode == code, f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        return done.stdout

    run(check.replace(" check", " record"))  # the copy's table as of the copy's code (others may be mid-edit)
    assert "stages have their recorded digests" in run(check)
    stage = record_one.split()[-1]
    assert stage == bump_one.split()[-1] == "fit_fold"
    version = json.loads(table_path.read_text())[stage]["version"]
    masks = repo / "src/brainpipe/neural/mask_regression.py"  # a module only fit_fold lists
    masks.write_text(masks.read_text() + "\nSCALE = 2\n")
    said = run(check, code=1)
    assert said.startswith(f"{stage}: recorded digest") and said.count("recorded digest") == 1, said
    assert "record STAGE" in said and "bump STAGE" in said
    run(record_one)
    assert json.loads(table_path.read_text())[stage]["version"] == version
    run(check)
    masks.write_text(masks.read_text().replace("SCALE = 2", "SCALE = 3"))
    run(bump_one)
    bumped = json.loads(table_path.read_text())[stage]
    assert bumped["version"] == f"{version}+{bumped['digest']}"
    run(check)
