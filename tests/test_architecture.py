"""The library's folders are its architecture: one package per concern, imports flowing one way, no cycles.

Every import counts, also those inside functions (the lazy imports that keep jobs light): a lazy import is still
a dependency, and a cycle through one breaks as soon as someone moves it to the top of the file.
"""

import ast
from pathlib import Path

import pytest

LIBRARY = Path(__file__).resolve().parents[1] / "src" / "brainpipe"

#: package -> the packages it may import (besides itself). The top-level modules api and cli may import anything;
#: nothing imports them, nor the workflow-facing ``pipeline`` (except api and cli).
ALLOWED = {
    "io": set(),
    "data": {"io"},
    "models": {"data", "io"},
    "neural": {"models", "io"},
    "behaviour": {"data", "neural", "io"},
    "properties": {"neural", "models", "data", "io"},
    "benchmarks": {"data", "neural", "behaviour", "properties", "models", "io"},
    "pipeline": {"benchmarks", "data", "neural", "behaviour", "properties", "models", "io"},
}
TOP_LEVEL = {"api", "cli", "_version", "__main__"}


def module_name(path: Path) -> str:
    parts = path.relative_to(LIBRARY.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_exists(dotted: str) -> bool:
    relative = Path(*dotted.split("."))
    return (LIBRARY.parent / relative).with_suffix(".py").exists() or (LIBRARY.parent / relative / "__init__.py").exists()


def imports(path: Path) -> set:
    """brainpipe modules imported by one file (at any depth), each resolved to the module it names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "brainpipe"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "brainpipe":
                continue
            for alias in node.names:  # `from brainpipe.data import brainio` imports the module brainpipe.data.brainio
                candidate = f"{target}.{alias.name}"
                found.add(candidate if module_exists(candidate) else target)
    return found - {name}


GRAPH = {module_name(path): imports(path) for path in sorted(LIBRARY.rglob("*.py"))}


def concern(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "brainpipe"


def find_cycle(graph):
    """One import cycle as a list of modules, or None (depth-first search, colouring nodes)."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_the_library_import_graph_has_no_cycle():
    assert find_cycle(GRAPH) is None, f"import cycle: {' -> '.join(find_cycle(GRAPH))}"


def test_the_cycle_finder_finds_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_imports_flow_one_way_between_packages():
    wrong = []
    for module, targets in GRAPH.items():
        source = concern(module)
        for target in targets:
            kind = concern(target)
            if kind == "_version":  # the release number, a leaf every package may read
                continue
            if kind == source or source in TOP_LEVEL or (source == "brainpipe" and kind in TOP_LEVEL | {"models"}):
                continue  # the package root's lazy brainpipe.score / import_torchvision
            if kind in TOP_LEVEL or kind == "brainpipe" or kind not in ALLOWED[source]:
                wrong.append(f"{module} imports {target}")
    assert not wrong, "imports against the architecture (see ALLOWED):\n" + "\n".join(sorted(wrong))


def test_every_module_sits_in_a_package_of_its_concern():
    top = sorted(p.stem for p in LIBRARY.glob("*.py") if p.stem != "__init__")
    assert set(top) <= TOP_LEVEL, f"flat modules at the top of src/brainpipe: {sorted(set(top) - TOP_LEVEL)}"
    packages = {p.parent.name for p in LIBRARY.glob("*/__init__.py")}
    assert packages == set(ALLOWED)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_says_what_it_holds_and_may_import(package):
    doc = ast.get_docstring(ast.parse((LIBRARY / package / "__init__.py").read_text()))
    assert doc, f"src/brainpipe/{package}/__init__.py has no docstring"
    assert "import" in doc, f"src/brainpipe/{package}/__init__.py does not say what it may import"


def test_the_readme_maps_every_rule_to_its_script_and_library_module():
    """Docs "Development" (docs/development.md): each rule in one hop. A new rule, a renamed script or a moved module
    fails here."""
    import re

    from docs_text import text

    repo = LIBRARY.parents[1]
    readme = text()
    rows = [line for line in readme.splitlines() if line.startswith("| `") and ".smk`" in line]
    listed = {}
    for row in rows:
        rules, rule_files, scripts, library = [cell.strip() for cell in row.strip("|").split("|")]
        assert module_exists(library.strip("`")), f"README names a library module that does not exist: {library}"
        for script in re.findall(r"`([\w.]+\.py)`", scripts):
            assert (repo / "workflow" / "scripts" / script).is_file(), script
        for rule in re.findall(r"`(\w+)`", rules):
            listed[rule] = set(re.findall(r"`([\w.]+\.smk)`", rule_files))
    declared = {}
    for path in (repo / "workflow" / "rules").glob("*.smk"):
        text = path.read_text()
        for rule in re.findall(r"^rule (\w+):", text, flags=re.M):
            if re.search(rf"^rule {rule}:(?:(?!^rule ).)*?^\s+script:", text, flags=re.M | re.S):
                declared[rule] = path.name
        for _, rule in re.findall(r"^use rule (\w+) as (\w+) with:", text, flags=re.M):  # runs its base's script
            declared[rule] = path.name
        if re.search(r"^\s+rule:\n\s+name:", text, flags=re.M):  # rules made in a loop: named after their stage
            declared[path.stem] = path.name
    assert set(declared) == set(listed), (f"rules with a script missing from the README table: "
                                          f"{set(declared) - set(listed)}; listed but gone: {set(listed) - set(declared)}")
    for rule, rule_file in declared.items():
        assert rule_file in listed[rule], f"README puts rule {rule} in {listed[rule]}, it is in {rule_file}"
