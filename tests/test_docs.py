"""The documentation: the MkDocs site builds offline with warnings as errors (broken internal links and anchors
included), its benchmark catalogue is generated from the family modules, config/README.md documents every key of the
config schema, and the README stays short and points at pages that exist. (Commands shown in README.md and docs/
are exercised by tests/test_readme_commands.py.)"""

import importlib.util
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SCHEMA = ROOT / "workflow" / "schemas" / "config.schema.yaml"


def catalogue():
    spec = importlib.util.spec_from_file_location("docs_catalogue", ROOT / "docs" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `make docs` builds it (mkdocs build --strict), into a temporary folder; with its wall time."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start = time.monotonic()
    done = subprocess.run([str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    seconds = time.monotonic() - start
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    return out, seconds, done.stderr


def test_the_site_builds_strictly_and_fast(site):
    out, seconds, log = site
    assert "WARNING" not in log, log[-3000:]
    assert (out / "index.html").is_file() and (out / "reference" / "api.html").is_file()
    assert seconds < 120, f"mkdocs build took {seconds:.0f} s"


def test_the_site_requests_nothing_from_the_network(site):
    """Offline: no Google Fonts, no analytics, no script or stylesheet from another host (links are fine)."""
    out, _, _ = site
    pages = list(out.rglob("*.html"))
    assert len(pages) > 40
    for page in pages:
        text = page.read_text()
        assert "fonts.googleapis" not in text and "fonts.gstatic" not in text and "googletagmanager" not in text, page
        external = re.findall(r"<(?:script|link)[^>]+(?:src|href)=\"(https?://[^\"]+)\"", text)
        assert not external, f"{page.relative_to(out)} loads {external}"


def test_the_catalogue_has_a_page_per_family_module_with_its_identifiers(site):
    from brainpipe.benchmarks.registry import builtin, family_identifiers

    out, _, _ = site
    registry = builtin()
    modules = {family.origin.split("brainpipe.benchmarks.families.", 1)[1].rstrip(")") for family in registry.families.values()}
    built = {path.stem for path in (out / "catalogue").glob("*.html")} - {"index"}
    assert built == modules
    for family in registry.families.values():
        module = family.origin.split("brainpipe.benchmarks.families.", 1)[1].rstrip(")")
        text = (out / "catalogue" / f"{module}.html").read_text()
        for identifier in family_identifiers(family):
            assert f"<code>{identifier}</code>" in text, (module, identifier)
        if family.bibtex:
            assert family.bibtex_key in text, (module, family.name)
    index = (out / "catalogue" / "index.html").read_text()
    assert f"{len(registry.identifiers())} benchmark identifiers" in index
    majaj = (out / "catalogue" / "majajhong2015.html").read_text()
    assert "assy_dicarlo_MajajHong2015_public.nc" in majaj and "raw² / ceiling" in majaj


def test_the_catalogue_is_never_a_file_on_disk():
    """Generated at build time only: a hand-edited copy in docs/catalogue/ would shadow the generated pages."""
    assert not (ROOT / "docs" / "catalogue").exists()


def test_validation_yaml_names_real_modules_tests_and_reference_files(site):
    module = catalogue()
    known = set(module.modules())
    for name, entry in module.validation().items():
        assert name in known, f"docs/_data/validation.yaml: no benchmark module {name!r}"
        for key in ("test", "reference"):
            for path in filter(None, (p.strip() for p in str(entry.get(key, "")).split(","))):
                assert (ROOT / path).exists(), f"docs/_data/validation.yaml {name}.{key}: {path} does not exist"
    out, _, _ = site
    page = (out / "validation.html").read_text()
    assert "validation-table" not in page and "validation-benchmarks" not in page
    assert "tests/data/cowley2026_reference.json" in page
    numbers = module.reference_numbers()
    assert len(numbers) > 150
    for identifier in ("Allen2022_fmri.IT-ridge", "Cowley2026.V4-pls", "Kato2026Dense-accuracy_distance"):
        values, path = numbers[identifier]
        assert f"<code>{identifier}</code>" in page and f"{float(values['score']):.6g}" in page


def _schema_keys():
    """Every documented key of the config schema: top level, and the nested keys of each object (``<name>`` for a
    map of user names)."""
    schema = yaml.safe_load(SCHEMA.read_text())
    keys = set()

    def walk(node, prefix):
        for key, value in (node.get("properties") or {}).items():
            keys.add(prefix + key)
            if not isinstance(value, dict):
                continue
            if value.get("properties"):
                walk(value, f"{prefix}{key}.")
            entry = value.get("additionalProperties")
            if isinstance(entry, dict) and entry.get("properties"):
                walk(entry, f"{prefix}{key}.<name>.")

    walk(schema, "")
    return keys


def _documented_keys():
    """The keys config/README.md lists: each table's first column, prefixed by its section's `key` heading."""
    keys, prefix = set(), ""
    for line in (ROOT / "config" / "README.md").read_text().splitlines():
        heading = re.match(r"## `([^`]+)`", line)
        if heading:
            prefix = heading.group(1) + "."
        elif line.startswith("## "):
            prefix = ""
        row = re.match(r"\| `([^`]+)` \|", line)
        if row:
            keys.add(prefix + row.group(1))
    return keys


def test_config_readme_documents_every_schema_key():
    schema, documented = _schema_keys(), _documented_keys()
    assert len(schema) > 40
    assert not schema - documented, f"config/README.md lacks {sorted(schema - documented)}"
    assert not documented - schema, f"config/README.md documents keys the schema lacks: {sorted(documented - schema)}"
    for link in re.findall(r"\]\(([^)#]+\.md)(?:#[^)]*)?\)", (ROOT / "config" / "README.md").read_text()):
        assert (ROOT / "config" / link).resolve().is_file(), f"config/README.md links to {link}, which does not exist"


def test_readme_is_short_and_links_to_pages_that_exist():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.encode()) <= 20_000
    links = re.findall(r"\]\(([^)#]+\.(?:md|cff))(?:#[^)]*)?\)", readme)
    assert len(links) > 15
    for link in links:
        if not link.startswith("http"):
            assert (ROOT / link).is_file(), f"README links to {link}, which does not exist"


def test_readme_python_is_the_docs_tested_example():
    """The README's Python lines are lines of the docs' "In Python" example, which tests/test_api.py runs."""
    from docs_text import section

    readme = (ROOT / "README.md").read_text()
    docs = "".join(re.findall(r"```python\n(.*?)```", section("In Python"), flags=re.S))
    for block in re.findall(r"```python\n(.*?)```", readme, flags=re.S):
        for line in block.splitlines():
            if line.strip() and not line.startswith("#"):
                assert line in docs.splitlines(), f"README python line not in the docs' tested example: {line}"
